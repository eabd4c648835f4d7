//go:build !js

package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/storyloom/storyloom/"

// ladder lists the layers from the bottom up, each with the packages it holds
// by their path in the module; "dir/..." is the folder and all below it. A
// package is placed by its most specific pattern, so "bundle/e2e/..." in a
// higher layer takes bundle/e2e from "bundle/..." in a lower one.
var ladder = []struct {
	name     string
	packages []string
}{
	{"foundations", []string{"engine/canon", "engine/rng", "engine/strictjson", "engine/display", "engine/pipeline"}},
	{"engine seams", []string{"engine/core", "engine/condition", "engine/authoring", "engine/content",
		"engine/validate", "engine/harness", "engine/session", "engine/rooms", "engine/freeport"}},
	{"kinds and games", []string{"engine/kinds/...", "engine/rooms/cheat", "engine/cards/..."}},
	{"engine test support", []string{"engine/internal/...", "engine/canon/canontest", "engine/rooms/cheat/cheattest",
		"engine/freeport/freeporttest", "engine/session/conformance"}},
	{"shipped files", []string{"static/...", "web"}},
	{"host libraries", []string{"bundle/..."}},
	{"programs", []string{"bundle", "wasm/..."}},
	{"test and benchmark tooling", []string{"bundle/browsertest/...", "bundle/e2e/...", "bundle/edge",
		"bundle/bench/..."}},
}

// rung returns the index in ladder of the layer that holds pkg (a path
// under the module), or -1 if no pattern matches it.
func rung(pkg string) int {
	best, bestLen := -1, -1
	for i, l := range ladder {
		for _, pattern := range l.packages {
			dir, tree := strings.CutSuffix(pattern, "/...")
			matches := pkg == dir || tree && strings.HasPrefix(pkg, dir+"/")
			// An exact name is more specific than a tree of the same folder.
			if weight := len(dir)*2 + boolInt(!tree); matches && weight > bestLen {
				best, bestLen = i, weight
			}
		}
	}
	return best
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// imports lists the packages that pattern matches with the module's packages
// each imports (test files left out: a test may reach up), for one GOOS and
// GOARCH.
func imports(t *testing.T, pattern string, env ...string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+pattern)
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", env, err, out)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, module)
		for _, dep := range strings.Fields(deps) {
			if dep, ours := strings.CutPrefix(dep, module); ours {
				graph[pkg] = append(graph[pkg], dep)
			}
		}
		if _, seen := graph[pkg]; !seen {
			graph[pkg] = nil
		}
	}
	return graph
}

// TestNoPackageImportsOneAboveIt places every package of the module (wasm/
// as built for GOOS=js, the rest natively) in the ladder and refuses an
// import of a package in a higher layer.
func TestNoPackageImportsOneAboveIt(t *testing.T) {
	for _, graph := range []map[string][]string{imports(t, "..."), imports(t, "wasm/...", "GOOS=js", "GOARCH=wasm")} {
		for pkg, deps := range graph {
			at := rung(pkg)
			if at < 0 {
				t.Errorf("%s has no layer: place it in the ladder of %s", pkg, "bundle/internal/layers")
				continue
			}
			for _, dep := range deps {
				if above := rung(dep); above > at {
					t.Errorf("%s (%s) imports %s, a layer above it (%s)", pkg, ladder[at].name, dep, ladder[above].name)
				}
			}
		}
	}
}

// TestTheLadderPlacesAsDocumented pins the placement rule itself: a narrower
// pattern wins over a wider one, and an unplaced path has no layer.
func TestTheLadderPlacesAsDocumented(t *testing.T) {
	for pkg, want := range map[string]string{
		"engine/rng":               "foundations",
		"engine/cards/rules":       "kinds and games",
		"engine/rooms":             "engine seams",
		"engine/rooms/cheat":       "kinds and games",
		"bundle/hosting":           "host libraries",
		"bundle":                   "programs",
		"bundle/e2e/freeport":      "test and benchmark tooling",
		"bundle/edge":              "test and benchmark tooling",
		"wasm/play/idb":            "programs",
		"engine/internal/kindtest": "engine test support",
		"somewhere/else":           "",
	} {
		got := ""
		if at := rung(pkg); at >= 0 {
			got = ladder[at].name
		}
		if got != want {
			t.Errorf("%s is placed in %q, want %q", pkg, got, want)
		}
	}
}
