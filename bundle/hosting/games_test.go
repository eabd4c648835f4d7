package hosting_test

import (
	"slices"
	"testing"

	"github.com/storyloom/storyloom/bundle/hosting"
)

// TestGames checks every host serves Cheat and the card game's three
// formats, the catalog advertising the shipped cards.
func TestGames(t *testing.T) {
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	if ids := reg.IDs(); !slices.Equal(ids, []string{"cheat", "commander", "standard_ffa", "starter-1v1"}) {
		t.Fatalf("formats = %v", ids)
	}
	if cv := reg.Catalog(); len(cv.Cards) < 70 || len(cv.Formats) != 4 {
		t.Fatalf("catalog has %d cards and %d formats", len(cv.Cards), len(cv.Formats))
	}
	for _, f := range reg.Catalog().Formats {
		if f.GameSetup != "cheat" && !slices.Equal(f.AI, []string{"pilot", "random"}) {
			t.Errorf("format %s seats AI kinds %v", f.GameSetup, f.AI)
		}
	}
}
