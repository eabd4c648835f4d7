package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/static/cardgame"
)

// TestProtocolNode runs the client's suites (web/test, `node --test`)
// against the card game's recorded frames: the protocol's, and the
// table's French words, with the shipped catalog's French phrasebook
// (static/cardgame Phrasebooks, as the site build publishes it) in a
// file STORYLOOM_CARDTEXT names. Without node the test skips, unless
// STORYLOOM_REQUIRE_BROWSER says the tools were installed (as `make
// test` does).
func TestProtocolNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	books, err := cardgame.Phrasebooks()
	if err != nil {
		t.Fatal(err)
	}
	cardText := filepath.Join(t.TempDir(), "cardtext.fr.json")
	if err := os.WriteFile(cardText, books["fr"], 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--test", filepath.Join("test", "protocol.test.mjs"), filepath.Join("test", "cardwords.test.mjs"))
	cmd.Env = append(os.Environ(), "STORYLOOM_CARDTEXT="+cardText)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, out)
	}
}
