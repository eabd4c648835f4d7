package sim

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestPreAchievements: games saved before simulations had achievements
// (First Flat and the Harbour Bakery 1.1.0, saved by the code of that day
// into testdata/pre-achievements) load on a host that holds only the
// versions shipped now, through the campaigns' declared migration, with
// no achievement yet; one their past already earned (First Flat's three
// design courses) unlocks at the end of the next week, once.
func TestPreAchievements(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
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
			s := kindtest.EarlierSave(t, e, data, Version)
			if got, want := s.CampaignVersion, reg.Campaign(tc.campaign).Version; got != want {
				t.Fatalf("the save plays version %s, not %s", got, want)
			}
			if got := kindState(s).Achieved; len(got) != 0 {
				t.Fatalf("the loaded game holds achievements %v", got)
			}
			week := e.SubmitAction(s, ActionEndWeek, nil)
			if !week.OK {
				t.Fatal(week.Errors)
			}
			got := kindtest.Unlocked(t, week, tc.campaign)
			for _, id := range tc.want {
				if !slices.Contains(got, id) {
					t.Errorf("the next week unlocked %v, not %s", got, id)
				}
			}
			if held := kindState(week.Value).Achieved; !slices.Equal(held, got) {
				t.Errorf("the state holds %v after unlocking %v", held, got)
			}
			again := e.SubmitAction(week.Value, ActionEndWeek, nil)
			if !again.OK {
				t.Fatal(again.Errors)
			}
			for _, id := range kindtest.Unlocked(t, again, tc.campaign) {
				if slices.Contains(got, id) {
					t.Errorf("%s unlocked twice", id)
				}
			}
		})
	}
}
