package e2e

import (
	"strings"
	"testing"
)

// TestLibraryCardsHaveBlurbs: every card of the library says in a line or
// two what its campaign is about, from the campaign's own blurb.
func TestLibraryCardsHaveBlurbs(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.visit("")
	p.screen("library")
	cards := eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll(".card")].map((c) => [c.dataset.campaign, c.querySelector(".blurb")?.textContent ?? ""]))`)
	if len(cards) < 5 {
		t.Fatalf("the library shows %d cards", len(cards))
	}
	for id, blurb := range cards {
		if len(blurb) < 40 || !strings.HasSuffix(blurb, ".") {
			t.Errorf("%s's card has the blurb %q", id, blurb)
		}
	}
	if got := cards["gannet-rock"]; !strings.Contains(got, "Gannet Rock") {
		t.Errorf("Gannet Rock's blurb reads %q", got)
	}
}
