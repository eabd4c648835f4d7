package world

import (
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestAchievementsUnlockAfterTheAction: in the Pier Fair, building the
// Ferris wheel unlocks Big Wheel at once, the first hundred rides Roll Up
// after the hours that give them, each once, as the story kind's do; the
// milestones list the campaign's three.
func TestAchievementsUnlockAfterTheAction(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	s := start(t, e, "pier-fair", "achieve")
	built := e.SubmitAction(s, ActionBuild, core.Params{"building": "ferris_wheel", "node": "north_deck"})
	if !built.OK {
		t.Fatal(built.Errors)
	}
	if got := kindtest.Unlocked(t, built, "pier-fair"); !slices.Equal(got, []string{"big_wheel"}) {
		t.Fatalf("building the wheel unlocked %v", got)
	}
	if len(kindState(s).Achieved) != 0 {
		t.Fatal("the action changed the state it acted on")
	}
	var rides []string
	s = built.Value
	for range 30 {
		res := e.SubmitAction(s, ActionAdvanceTicks, core.Params{"ticks": 24.0})
		if !res.OK {
			t.Fatal(res.Errors)
		}
		rides = append(rides, kindtest.Unlocked(t, res, "pier-fair")...)
		s = res.Value
		if kindState(s).Served >= 100 || s.Status == core.StatusEnded {
			break
		}
	}
	if kindState(s).Served < 100 || !slices.Equal(rides, []string{"roll_up"}) {
		t.Fatalf("after %d rides the days unlocked %v", kindState(s).Served, rides)
	}
	if got := kindState(s).Achieved; !slices.Equal(got, []string{"big_wheel", "roll_up"}) {
		t.Fatalf("the state holds %v", got)
	}
	ms := e.Milestones(reg.Campaign("pier-fair"))
	var ids []string
	for _, m := range ms.Achievements {
		ids = append(ids, m.ID)
	}
	if !slices.Equal(ids, []string{"roll_up", "showtime", "big_wheel"}) {
		t.Fatalf("milestones %v", ids)
	}
}

// TestAchievementsTier1: an achievement's condition reads the kind's
// fields only, and its id is unique.
func TestAchievementsTier1(t *testing.T) {
	src := shippedSource(t, "pier-fair")
	for _, tc := range []struct{ name, from, to, code, path string }{
		{"unknown field", `"staff.entertainer"`, `"staff.clown"`, ReasonUnknownReference, "content.achievements.showtime.when"},
		{"duplicate id", `"id": "showtime"`, `"id": "roll_up"`, ReasonDuplicateID, "content.achievements.roll_up.id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(src.Campaign), tc.from) {
				t.Fatalf("pier-fair has no %s", tc.from)
			}
			bad := content.Source{Path: "bad", Campaign: []byte(strings.Replace(string(src.Campaign), tc.from, tc.to, 1))}
			kindtest.Finding(t, Kind{}, bad, tc.code, tc.path)
		})
	}
}

// TestAchievementsMigrate: a new version of the Pier Fair that renames one
// achievement and removes another carries a game's unlocked achievements
// over (contentkind.CategoryAchievement); a state naming one its campaign
// does not declare is refused.
func TestAchievementsMigrate(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	kindtest.MigratesAchievements(t, Kind{}, shippedSource(t, "pier-fair"), start(t, e, "pier-fair", "seed"),
		[2]string{"big_wheel", "giant_wheel"}, "showtime")
}

// TestShippedEndingsHaveTitles: the gallery names each world ending by its
// endingTitles entry, a few words, not by the ending's sentences.
func TestShippedEndingsHaveTitles(t *testing.T) {
	reg := shippedRegistry(t)
	kindtest.ShortEndingTitles(t, newEngine(t, reg, nil), reg, "pier-fair")
}
