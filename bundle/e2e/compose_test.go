package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/bundle/browsertest"
)

// TestComposedCampaignPlaysFromTheBuiltSite builds a site whose campaigns
// are the worked pack set (engine/kinds/story/testdata/compose): Harbour
// Night includes the chapter The Bell Tower, and a second pack attaches
// The Ferry Lantern to its quay. The page loads only the built documents
// and plays the composed campaign: into the included chapter and out by
// its exit binding (the host's variable raised by the chapter's effect,
// the chapter's achievement unlocked), then into the attached chapter and
// back by its exit, to an ending; the gallery shows the chapter's
// achievement under its composed id, bell::ringer.
func TestComposedCampaignPlaysFromTheBuiltSite(t *testing.T) {
	t.Parallel()
	need(t)
	dir := t.TempDir()
	static := filepath.Join(dir, "static")
	if err := staticTree(static, "packs", filepath.Join("engine", "kinds", "story", "testdata", "compose")); err != nil {
		t.Fatal(err)
	}
	res, err := browsertest.BuildStatic(context.Background(), filepath.Join(dir, "dist"), os.DirFS(static), false)
	if err != nil {
		t.Fatal(err)
	}
	p := origin(t, res)
	p.attach(nil)

	startStory(t, p, "harbour-night")
	fetched := eval[[]string](p, `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((u) => u.includes("/campaigns/"))`)
	docs := 0
	for _, u := range fetched {
		switch {
		case strings.Contains(u, "/built."):
			docs++
		case u != "/campaigns/index.json":
			t.Errorf("the page fetched %s, not a built document", u)
		}
	}
	if docs != 3 {
		t.Errorf("the page fetched %d built documents (%v), want the three the pack set folds to", docs, fetched)
	}
	scene := func() string { return p.text(".scene-text") }
	if got := scene(); !strings.Contains(got, "Fog sits on the quay. Your courage stands at 1.") {
		t.Fatalf("the first scene: %q", got)
	}
	if got := p.text(`[data-action-id="lantern"]`); !strings.Contains(got, "The Ferry Lantern") {
		t.Errorf("the attached chapter's choice reads %q", got)
	}

	// Into the included chapter, and back by its exit binding.
	p.act(`[data-action-id="climb"]`)
	if got := scene(); !strings.Contains(got, "The stairs wind up into the dark. Courage: 1.") {
		t.Fatalf("the included chapter's first scene: %q", got)
	}
	p.act(`[data-action-id="up"]`)
	p.act(`[data-action-id="ring"]`)
	if got := scene(); !strings.Contains(got, "Your courage stands at 3.") {
		t.Errorf("back on the quay after ringing, the host's variable: %q", got)
	}
	if p.count(`[data-action-id="climb"]`) != 0 {
		t.Error("the climb is still offered after the chapter's top was visited")
	}

	// Into the attached chapter, to its ending.
	p.act(`[data-action-id="lantern"]`)
	if got := scene(); !strings.Contains(got, "A lantern hangs dry in the ferry shed.") {
		t.Fatalf("the attached chapter's first scene: %q", got)
	}
	p.act(`[data-action-id="fill"]`)
	p.act(`[data-action-id="light"]`)
	if got := scene(); !strings.Contains(got, "Fog sits on the quay.") {
		t.Errorf("the attached chapter's exit does not lead back to the quay: %q", got)
	}
	p.act(`[data-action-id="home"]`)
	p.waitJS(`document.querySelector(".ending") !== null`)
	if got := eval[string](p, `document.querySelector(".ending").dataset.ending`); got != "bed" {
		t.Errorf("the ending's id is %q, want bed", got)
	}
	p.shot("composed-ending")

	p.visit("#/gallery/harbour-night")
	p.screen("gallery")
	for sel, what := range map[string]string{
		`[data-achievement="bell::ringer"].got`: "the included chapter's achievement, under its composed id",
		`[data-ending="bed"].got`:               "the ending reached",
	} {
		if p.count(sel) != 1 {
			t.Errorf("the gallery does not show %s (%s)", what, sel)
		}
	}
}
