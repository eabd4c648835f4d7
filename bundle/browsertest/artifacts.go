package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// OutDir returns testout/<test name>/ at the module root, created. Test
// names are made safe for paths (subtests become subdirectories).
func OutDir(t testing.TB) string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`[^A-Za-z0-9_./-]+`).ReplaceAllString(t.Name(), "_")
	dir := filepath.Join(root, "testout", filepath.FromSlash(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Screenshot writes a PNG of the tab's viewport to testout/<test
// name>/<name>.png and returns its path.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	p := filepath.Join(OutDir(t), name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// axeResult is the part of axe-core's results the harness reads.
type axeResult struct {
	Violations []struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any `json:"target"`
		} `json:"nodes"`
	} `json:"violations"`
}

// Axe runs axe-core (node_modules/axe-core/axe.min.js, installed by
// scripts/setup-node.sh) on the tab's document with its default rules
// (WCAG A and AA and best practices) and fails the test on every
// violation, whatever its impact: minor and moderate ones fail it as
// serious and critical ones do.
func Axe(t testing.TB, ctx context.Context) {
	t.Helper()
	for _, v := range axeViolations(t, ctx) {
		t.Error(v)
	}
}

// axeViolations runs axe-core on the tab's document and returns one line
// per violation: "axe <rule> (<impact>): <help> at <targets>".
func axeViolations(t testing.TB, ctx context.Context) []string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("browsertest: axe-core is not installed (run scripts/setup-node.sh): %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](string(src)+";true")); err != nil {
		t.Fatalf("browsertest: injecting axe-core: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`axe.run(document, {resultTypes: ["violations"]}).then((r) => JSON.stringify(r))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("browsertest: running axe-core: %v", err)
	}
	var res axeResult
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("browsertest: axe-core results: %v", err)
	}
	var out []string
	for _, v := range res.Violations {
		var targets []string
		for _, n := range v.Nodes {
			targets = append(targets, fmt.Sprint(n.Target...))
		}
		out = append(out, fmt.Sprintf("axe %s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(targets, ", ")))
	}
	return out
}
