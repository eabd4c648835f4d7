package world

import (
	"os"
	"path/filepath"
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
	e := newEngine(t, shippedRegistry(t), nil)
	data, err := os.ReadFile(filepath.Join("testdata", "pre-achievements", "pier-fair-1.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	anHour := func(s *core.GameState) core.ActionResult {
		return e.SubmitAction(s, ActionAdvanceTicks, core.Params{"ticks": 1.0})
	}
	kindtest.PreAchievements(t, e, data, Version, anHour, "big_wheel")
}
