package world

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestPreAchievements: a Pier Fair game saved before the world had
// achievements (1.1.0, saved by the code of that day into
// testdata/pre-achievements, with the Ferris wheel built) loads on a host
// that holds only the version shipped now, through the campaign's
// declared migration, with no achievement yet; Big Wheel, which its past
// already earned, unlocks after the next action, once.
func TestPreAchievements(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	data, err := os.ReadFile(filepath.Join("testdata", "pre-achievements", "pier-fair-1.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := kindtest.EarlierSave(t, e, data, Version)
	if got, want := s.CampaignVersion, reg.Campaign("pier-fair").Version; got != want {
		t.Fatalf("the save plays version %s, not %s", got, want)
	}
	if got := kindState(s).Achieved; len(got) != 0 {
		t.Fatalf("the loaded game holds achievements %v", got)
	}
	next := e.SubmitAction(s, ActionAdvanceTicks, core.Params{"ticks": 1.0})
	if !next.OK {
		t.Fatal(next.Errors)
	}
	got := kindtest.Unlocked(t, next, "pier-fair")
	if !slices.Contains(got, "big_wheel") {
		t.Fatalf("the next hour unlocked %v, not big_wheel", got)
	}
	if held := kindState(next.Value).Achieved; !slices.Equal(held, got) {
		t.Errorf("the state holds %v after unlocking %v", held, got)
	}
	again := e.SubmitAction(next.Value, ActionAdvanceTicks, core.Params{"ticks": 1.0})
	if !again.OK {
		t.Fatal(again.Errors)
	}
	if slices.Contains(kindtest.Unlocked(t, again, "pier-fair"), "big_wheel") {
		t.Error("big_wheel unlocked twice")
	}
}
