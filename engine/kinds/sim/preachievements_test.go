package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestPreAchievements: games saved before simulations had achievements
// (First Flat and the Harbour Bakery 1.1.0, saved by the code of that day
// into testdata/pre-achievements) load on a host that holds only the
// versions shipped now, through the campaigns' declared migration, with
// no achievement yet; one their past already earned (First Flat's three
// design courses) unlocks at the end of the next week, once.
func TestPreAchievements(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	endWeek := func(s *core.GameState) core.ActionResult { return e.SubmitAction(s, ActionEndWeek, nil) }
	for _, tc := range []struct {
		campaign string
		want     []string
	}{
		{"first-flat", []string{"night_school"}},
		{"harbour-bakery", nil},
	} {
		t.Run(tc.campaign, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "pre-achievements", tc.campaign+"-1.1.0.json"))
			if err != nil {
				t.Fatal(err)
			}
			kindtest.PreAchievements(t, e, data, Version, endWeek, tc.want...)
		})
	}
}
