package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
)

// TestScreenshots writes a picture of each kind of screen at desktop and
// phone size into testout/TestScreenshots/<size>/ (git-ignored): the
// library, a story, a simulation, the world and the French interface, so
// that a change to the page can be looked at without playing. On the phone
// no screen may be wider than the screen.
func TestScreenshots(t *testing.T) {
	t.Parallel()
	sizes := []struct {
		name          string
		width, height int64
		scale         float64
	}{
		{"desktop", 1280, 900, 1},
		{"phone", 390, 844, 2},
	}
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			p := open(t)
			p.do(chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateScale(size.scale)))
			snap := func(name string) {
				t.Helper()
				if w := eval[int](p, `document.documentElement.scrollWidth`); w > int(size.width) {
					t.Errorf("%s is %dpx wide on a %dpx screen", name, w, size.width)
				}
				p.shot(name)
				png, err := os.ReadFile(filepath.Join(browsertest.OutDir(t), name+".png"))
				if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
					t.Errorf("no screenshot of %s: %v", name, err)
				}
			}
			p.visit("")
			p.screen("library")
			snap("library")
			p.visit("#/new/gannet-rock")
			p.screen("play")
			p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 20`)
			firstChoice(t, p)
			snap("story")
			p.visit("#/new/first-flat")
			p.waitJS(`document.querySelector(".kind-screen")?.dataset.kind === "simulation"`)
			for week := 0; week < 3; week++ {
				p.act(`[data-add]:not([disabled])`)
				p.act(`[data-action-id="end_week"]`)
			}
			snap("simulation")
			p.visit("#/new/pier-fair")
			p.waitJS(`document.querySelector(".kind-screen")?.dataset.kind === "world-graph"`)
			p.act(`[data-build]`)
			p.act(`[data-advance="24"]`)
			snap("world")
			p.visit("#/new/gannet-rock")
			p.waitJS(`document.querySelector(".kind-screen")?.dataset.kind === "story-graph"`)
			n := p.seq()
			eval[bool](p, `(() => { const s = document.querySelector('[data-role="locale"]'); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
			p.waitSeq(n)
			p.waitJS(`document.documentElement.lang === "fr"`)
			snap("french-story")
			p.visit("")
			p.screen("library")
			snap("french-library")
		})
	}
}
