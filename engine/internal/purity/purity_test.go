//go:build !js

package purity

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are standard packages that do I/O, read the clock or draw
// unseeded randomness; engine code must reach none of them.
var forbidden = map[string]string{
	"os":           "file and process I/O",
	"os/exec":      "processes",
	"net":          "the network",
	"net/http":     "the network",
	"time":         "the clock",
	"syscall":      "the operating system",
	"syscall/js":   "the JavaScript bridge",
	"math/rand":    "unseeded randomness",
	"math/rand/v2": "unseeded randomness",
	"crypto/rand":  "the operating system's randomness",
	"io/ioutil":    "file I/O",
	"log":          "a global logger writing to stderr",
}

// testHelpers are packages that only tests import; they may read files.
var testHelpers = map[string]bool{
	"github.com/storyloom/storyloom/engine/internal/golden": true,
	"github.com/storyloom/storyloom/engine/internal/purity": true,
}

// TestEngineIsPure refuses, in every non-test package under engine/, a
// direct import of a forbidden standard package (the standard library's own
// internals, such as fmt's use of os, are not the engine's), and any
// dependency, direct or not, outside the standard library and engine/.
func TestEngineIsPure(t *testing.T) {
	const engine = "github.com/storyloom/storyloom/engine/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", engine+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imports) {
			if testHelpers[imp] && !testHelpers[pkg] {
				t.Errorf("%s imports the test helper %s", pkg, imp)
			}
			if why, bad := forbidden[imp]; bad && !testHelpers[pkg] {
				t.Errorf("%s imports %s (%s); the engine does no I/O and reads no clock", pkg, imp, why)
			}
		}
	}
	out, err = exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", engine+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		if std != "true" && !strings.HasPrefix(path, engine) {
			t.Errorf("engine depends on %s, which is not the standard library", path)
		}
	}
	// Also check that the engine builds as WebAssembly.
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = "../.."
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build ./engine/...: %v\n%s", err, out)
	}
}
