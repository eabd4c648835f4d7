package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// achievementSource is the sample campaign with two achievements.
var achievementSource = strings.Replace(sampleSource, ` "goals": [`, ` "achievements": [
  {"id": "studious", "title": "Studious", "description": "Take two classes.", "when": {"field": "done.class", "operator": "greater_or_equal", "value": 2}},
  {"id": "rested", "title": "Rested", "description": "Rest nine times.", "when": {"field": "done.rest", "operator": "greater_or_equal", "value": 9}}],
 "goals": [`, 1)

// TestAchievementsUnlockAtTheWeeksEnd: an achievement unlocks at the end
// of the first week that meets its condition, once, as the story kind's
// do (an achievement_unlocked change at achieved.<id> and its title), and
// the campaign's milestones list it.
func TestAchievementsUnlockAtTheWeeksEnd(t *testing.T) {
	reg := buildRegistry(t, content.Source{Path: "ach", Campaign: campaignFile("ach", achievementSource)})
	e := newEngine(t, reg, nil)
	s := start(t, e, "ach", "seed")
	planned := e.SubmitAction(s, ActionPlanAdd, core.Params{"activity": "class", "count": 2.0})
	if got := kindtest.Unlocked(t, planned, "ach"); len(got) != 0 {
		t.Fatalf("planning unlocked %v", got)
	}
	res := e.SubmitAction(planned.Value, ActionEndWeek, nil)
	if got := kindtest.Unlocked(t, res, "ach"); !slices.Equal(got, []string{"studious"}) {
		t.Fatalf("the first week unlocked %v", got)
	}
	if got := kindState(res.Value).Achieved; !slices.Equal(got, []string{"studious"}) {
		t.Fatalf("the state holds %v", got)
	}
	if len(kindState(planned.Value).Achieved) != 0 {
		t.Fatal("the week changed the state it started from")
	}
	s = submit(t, e, res.Value, ActionPlanAdd, core.Params{"activity": "rest"})
	if again := e.SubmitAction(s, ActionEndWeek, nil); len(kindtest.Unlocked(t, again, "ach")) != 0 {
		t.Fatalf("a second week unlocked %v again", kindtest.Unlocked(t, again, "ach"))
	}
	ms := e.Milestones(reg.Campaign("ach"))
	if len(ms.Achievements) != 2 || ms.Achievements[0] != (core.Milestone{ID: "studious", TitleKey: "ach.achievement.studious.title", DescriptionKey: "ach.achievement.studious.description"}) {
		t.Fatalf("milestones %+v", ms.Achievements)
	}
}

// TestAchievementsTier1: an achievement's condition reads the kind's
// fields only, and its id is unique.
func TestAchievementsTier1(t *testing.T) {
	for _, tc := range []struct{ name, from, to, code, path string }{
		{"unknown field", `"done.rest"`, `"done.sleep"`, ReasonUnknownReference, "content.achievements.rested.when"},
		{"duplicate id", `"id": "rested"`, `"id": "studious"`, ReasonDuplicateID, "content.achievements.studious.id"},
		{"missing title", `"title": "Rested", `, ``, ReasonMissingField, "content.achievements.rested.title"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(achievementSource, tc.from, tc.to, 1)
			kindtest.Finding(t, Kind{}, content.Source{Path: "bad", Campaign: campaignFile("bad", src)}, tc.code, tc.path)
		})
	}
}

// TestAchievementsMigrate: a new version of First Flat that renames one
// achievement and removes another carries a game's unlocked achievements
// over (contentkind.CategoryAchievement); a state naming one its campaign
// does not declare is refused.
func TestAchievementsMigrate(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	kindtest.MigratesAchievements(t, Kind{}, shippedSource(t, "first-flat"), start(t, e, "first-flat", "seed"),
		[2]string{"night_school", "evening_classes"}, "sunny_side")
}

// TestShippedEndingsHaveTitles: the gallery names each simulation ending
// by its endingTitles entry, a few words, not by the ending's sentences.
func TestShippedEndingsHaveTitles(t *testing.T) {
	reg := shippedRegistry(t)
	kindtest.ShortEndingTitles(t, newEngine(t, reg, nil), reg, shipped...)
}
