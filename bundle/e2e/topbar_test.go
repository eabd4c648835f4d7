package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// topBarJS reads the top bar: its links (text and where they lead) and
// what the theme toggle says.
const topBarJS = `(() => [
	...[...document.querySelectorAll(".topbar nav a")].map((a) => a.firstChild.textContent.trim() + " " + new URL(a.href, location.href).pathname + new URL(a.href, location.href).hash),
	"toggle " + document.getElementById("theme-label")?.textContent,
])()`

// everyPage opens a tab on a room server that serves the site too: the
// library, the rooms and the Freeport pages, at base. Freeport's endpoint
// is not mounted: its requests fail, which the tab allows.
func everyPage(t *testing.T) (*page, string) {
	t.Helper()
	base, _ := roomServer(t, true)
	p := &page{t: t, base: base}
	p.attach([]string{"freeport", "Failed to load resource", "404"})
	return p, base
}

// TestOneTopBar: the library, the rooms and the Freeport pages share one
// top bar, the same links to the same places, and one theme toggle that
// says which theme it switches to (Freeport's read "Theme" for good).
func TestOneTopBar(t *testing.T) {
	t.Parallel()
	need(t)
	p, base := everyPage(t)
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

// paletteJS resolves every custom property the page's sheets declare (the
// palette and a page's own colours) on an element in the body: its value
// as a colour and as a shadow, so that a theme reads as the colours it
// paints with, whatever CSS names them.
const paletteJS = `(() => {
	const names = new Set();
	const walk = (rules) => {
		for (const r of rules) {
			for (const p of r.style ?? []) if (p.startsWith("--")) names.add(p);
			if (r.cssRules) walk(r.cssRules);
		}
	};
	for (const s of document.styleSheets) walk(s.cssRules);
	const probe = document.body.appendChild(document.createElement("i"));
	const out = [...names].sort().map((n) => {
		probe.style.color = "var(" + n + ")";
		probe.style.boxShadow = "var(" + n + ")";
		const cs = getComputedStyle(probe);
		return n + " " + cs.color + " " + cs.boxShadow;
	});
	probe.remove();
	return out;
})()`

// TestThemesFollowTheSystem: on the library, the rooms and Freeport pages,
// with no theme chosen the palette follows the system's preference, and a
// chosen theme paints the same colours as the system's of that name,
// whatever the system prefers. The dark palette differs from the light.
func TestThemesFollowTheSystem(t *testing.T) {
	t.Parallel()
	need(t)
	p, base := everyPage(t)
	palette := func(system, chosen string) []string {
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: system}},
			})
			return err
		}))
		if chosen == "" {
			eval[bool](p, `delete document.documentElement.dataset.theme`)
		} else {
			eval[string](p, `document.documentElement.dataset.theme = "`+chosen+`"`)
		}
		return eval[[]string](p, paletteJS)
	}
	for _, path := range []string{"", "rooms/", "freeport/"} {
		p.do(chromedp.Navigate(base + path))
		p.waitJS(`document.getElementById("theme-label")?.textContent !== "Theme"`)
		light, dark := palette("light", ""), palette("dark", "")
		t.Logf("%s: light %q, dark %q", path, light, dark)
		if len(light) < 10 || strings.Join(light, "|") == strings.Join(dark, "|") {
			t.Fatalf("%s: the system's dark palette is its light one, or there is none: %q", path, light)
		}
		for _, tc := range []struct {
			system, chosen string
			want           []string
		}{
			{"dark", "light", light},
			{"light", "dark", dark},
			{"light", "light", light},
			{"dark", "dark", dark},
		} {
			if got := palette(tc.system, tc.chosen); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("%s: %s chosen on a %s system paints %q, want %q", path, tc.chosen, tc.system, got, tc.want)
			}
		}
	}
}
