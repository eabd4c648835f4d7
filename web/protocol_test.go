package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestProtocolNode runs the client's protocol suite (web/test, `node
// --test`) against the card game's recorded frames. Without node the test
// skips, unless STORYLOOM_REQUIRE_BROWSER says the tools were installed
// (as `make test` does).
func TestProtocolNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	cmd := exec.Command(node, "--test", filepath.Join("test", "protocol.test.mjs"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, out)
	}
}
