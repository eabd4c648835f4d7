//go:build !js

package hosting_test

import (
	"os/exec"
	"strings"
	"testing"
)

// workerMay are the import paths (a path, or a prefix ending in "/") of
// everything outside the standard library that the edge worker may be
// built from: its own package, the handlers of this package with the
// display-name policy they apply and the ids they mint, the room and
// Freeport machines with the games they host and the card data those
// embed, and the Workers runtime.
var workerMay = []string{
	"github.com/storyloom/storyloom/wasm/worker",
	"github.com/storyloom/storyloom/bundle/hosting",
	"github.com/storyloom/storyloom/bundle/displayname",
	"github.com/storyloom/storyloom/bundle/randomid",
	"github.com/storyloom/storyloom/engine/",
	"github.com/storyloom/storyloom/static/cardgame",
	"github.com/syumai/workers",
	"golang.org/x/text/", // displayname's PRECIS profile
}

// workerMayNot are parts of the engine that play campaigns, which a room
// and Freeport host never does.
var workerMayNot = []string{
	"github.com/storyloom/storyloom/engine/core",
	"github.com/storyloom/storyloom/engine/session",
	"github.com/storyloom/storyloom/engine/content",
	"github.com/storyloom/storyloom/engine/kinds/",
	"github.com/storyloom/storyloom/engine/validate",
	"github.com/storyloom/storyloom/engine/pipeline",
}

func matches(path string, list []string) bool {
	for _, p := range list {
		if path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// TestWorkerImportsOnlyWhatAWorkerNeeds lists what wasm/worker is built
// from (`GOOS=js GOARCH=wasm go list -deps ./wasm/worker`) and refuses
// anything a worker does not need: the native host's stores, transports
// and tools, the site, and the engine's campaign side.
func TestWorkerImportsOnlyWhatAWorkerNeeds(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", "github.com/storyloom/storyloom/wasm/worker")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		if std == "true" {
			continue
		}
		seen++
		if !matches(path, workerMay) || matches(path, workerMayNot) {
			t.Errorf("the edge worker is built with %s, which a worker does not need", path)
		}
	}
	if seen == 0 {
		t.Fatalf("go list named nothing outside the standard library:\n%s", out)
	}
}
