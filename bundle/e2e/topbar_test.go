package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// topBarJS reads the top bar: its links (text and where they lead) and
// what the theme toggle says.
const topBarJS = `(() => [
	...[...document.querySelectorAll(".topbar nav a")].map((a) => a.firstChild.textContent.trim() + " " + new URL(a.href, location.href).pathname + new URL(a.href, location.href).hash),
	"toggle " + document.getElementById("theme-label")?.textContent,
])()`

// TestOneTopBar: the library, the rooms and the Freeport pages share one
// top bar, the same links to the same places, and one theme toggle that
// says which theme it switches to (Freeport's read "Theme" for good).
func TestOneTopBar(t *testing.T) {
	t.Parallel()
	need(t)
	base, _ := roomServer(t, true)
	// Freeport's endpoint is not mounted here: its requests fail.
	p := &page{t: t, base: base}
	p.attach([]string{"freeport", "Failed to load resource", "404"})
	p.visit("")
	p.screen("library")
	want := eval[[]string](p, topBarJS)
	if len(want) != 5 || !strings.HasPrefix(want[4], "toggle ") || want[4] == "toggle Theme" {
		t.Fatalf("the library's top bar reads %q", want)
	}
	for _, path := range []string{"rooms/", "freeport/"} {
		p.do(chromedp.Navigate(base + path))
		p.waitJS(`document.getElementById("theme-label")?.textContent !== "Theme"`)
		got := eval[[]string](p, topBarJS)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s's top bar reads %q, the library's %q", path, got, want)
		}
		if cur := eval[string](p, `document.querySelector(".topbar nav a[aria-current=page]")?.getAttribute("href") ?? ""`); !strings.Contains(cur, path) {
			t.Errorf("%s's top bar marks %q as the current page", path, cur)
		}
		p.click("#theme-toggle")
		p.waitJS(`document.getElementById("theme-label").textContent !== "` + strings.TrimPrefix(want[4], "toggle ") + `"`)
		p.click("#theme-toggle")
		p.shot(strings.TrimSuffix(path, "/"))
	}
}
