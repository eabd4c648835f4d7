package sim

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// firstFlatV2 is first-flat 2.0.0: the café shift renamed, mood renamed
// spirits, the night shift removed, and a new stat, savvy.
func firstFlatV2(t *testing.T, migration string) *core.Registry {
	src := kindtest.Revised(t, shippedSource(t, "first-flat"), "2.0.0", migration, func(doc map[string]any) {
		c := doc["content"].(map[string]any)
		c["activities"] = kindtest.Without(c["activities"], "night_shift")
		c["stats"] = append(c["stats"].([]any), map[string]any{"id": "savvy", "label": "Savvy", "start": 5, "min": 0, "max": 100, "drift": 0})
	}, "cafe_shift", "coffee_shift", `"mood"`, `"spirits"`, "stat.mood", "stat.spirits")
	return buildRegistry(t, src)
}

const firstFlatMigration = `{"from":["1.2.1"],"renames":{"activity":{"cafe_shift":"coffee_shift"},"stat":{"mood":"spirits"}},"removed":{"activity":["night_shift"]}}`

// aWeekIn plays a week of first-flat 1.2.1 with both shifts, and plans
// the next with both again.
func aWeekIn(t *testing.T, e *core.Engine) *core.GameState {
	res := e.CreateGame(core.NewGameConfig{CampaignID: "first-flat", Seed: "7"}, "1.2.1")
	if !res.OK {
		t.Fatal(res.Errors)
	}
	s := res.Value
	for _, step := range []struct {
		action string
		params core.Params
	}{
		{ActionPlanAdd, core.Params{"activity": "cafe_shift", "count": 2.0}},
		{ActionPlanAdd, core.Params{"activity": "night_shift", "count": 1.0}},
		{ActionEndWeek, nil},
		{ActionPlanAdd, core.Params{"activity": "night_shift", "count": 1.0}},
		{ActionPlanAdd, core.Params{"activity": "cafe_shift", "count": 1.0}},
	} {
		s = submit(t, e, s, step.action, step.params)
	}
	return s
}

func TestMigrationAdoptsAndLoads(t *testing.T) {
	v1 := shippedRegistry(t)
	v2 := firstFlatV2(t, firstFlatMigration)
	e := kindtest.Epochs(t, Kind{}, v1, v2)
	before := aWeekIn(t, e)
	old := kindState(before)

	res := e.AdoptContent(before, "2.0.0")
	if !res.Adopted || res.State.CampaignVersion != "2.0.0" {
		t.Fatalf("not adopted: %s", res.Reason)
	}
	s := kindState(res.State)
	if s.Done["coffee_shift"] != old.Done["cafe_shift"] || len(s.Done) != 1 {
		t.Errorf("done %v from %v", s.Done, old.Done)
	}
	if len(s.Plan) != 1 || s.Plan[0] != (PlanItem{Activity: "coffee_shift", Count: 1}) {
		t.Errorf("plan %v", s.Plan)
	}
	if s.Stats["spirits"] != old.Stats["mood"] || s.Stats["savvy"] != 5 || len(s.Stats) != 4 {
		t.Errorf("stats %v from %v", s.Stats, old.Stats)
	}
	if _, ok := s.History[1].Stats["spirits"]; !ok || s.Money != old.Money || s.Week != 1 {
		t.Errorf("history %v, money %d, week %d", s.History[1].Stats, s.Money, s.Week)
	}
	// The game goes on on 2.0.0's rules.
	after := submit(t, e, res.State, ActionEndWeek, nil)
	if kindState(after).Done["coffee_shift"] != old.Done["cafe_shift"]+1 {
		t.Errorf("the week did not play on 2.0.0: %v", kindState(after).Done)
	}

	t.Run("a save whose version is gone migrates, golden", func(t *testing.T) {
		golden.Check(t, filepath.Join("testdata", "migration", "first-flat-2.0.0.json"), kindtest.MigratedSave(t, Kind{}, e, before, v2))
	})
	t.Run("an ended game stays", func(t *testing.T) {
		ended := *kindState(before)
		ended.Resolution = ResolutionFailed
		st := *before
		st.KindState = &ended
		if r, _ := (Kind{}).AdoptContent(&ended, nil, nil); r != nil {
			t.Fatal("adopted an ended game")
		}
		if r := e.AdoptContent(&st, "2.0.0"); r.Adopted || r.Reason != core.ReasonContentNotAdoptable {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("without a migration nothing adopts", func(t *testing.T) {
		bare := kindtest.Epochs(t, Kind{}, v1, firstFlatV2(t, ""))
		if r := bare.AdoptContent(aWeekIn(t, bare), "2.0.0"); r.Adopted || r.Reason != core.ReasonContentIncompatible {
			t.Fatalf("%+v", r)
		}
	})
}

func TestMigrationRefusesWhatItCannotPlace(t *testing.T) {
	tests := []struct {
		name      string
		migration string
	}{
		{"a removed activity it still names", `{"from":["1.2.1"],"renames":{"activity":{"cafe_shift":"coffee_shift"},"stat":{"mood":"spirits"}}}`},
		{"two stats onto one", `{"from":["1.2.1"],"renames":{"activity":{"cafe_shift":"coffee_shift"},"stat":{"mood":"spirits","energy":"spirits"}},"removed":{"activity":["night_shift"]}}`},
	}
	v1 := shippedRegistry(t)
	e := newEngine(t, v1, nil)
	s := aWeekIn(t, e)
	raw, _ := json.Marshal(s.KindState)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m core.CampaignMigration
			if err := json.Unmarshal([]byte(tt.migration), &m); err != nil {
				t.Fatal(err)
			}
			to := *firstFlatV2(t, firstFlatMigration).Campaign("first-flat")
			to.Migration = &m
			if _, err := (Kind{}).MigrateForCampaign(raw, &to, "1.2.1"); err == nil {
				t.Fatal("migrated")
			}
		})
	}
}

func TestMigrationChecks(t *testing.T) {
	tests := []struct {
		name, migration, path string
	}{
		{"an unknown category", `{"from":["1.2.1"],"renames":{"node":{"a":"b"}}}`, "migration.renames.node"},
		{"a rename onto nothing", `{"from":["1.2.1"],"renames":{"activity":{"cafe_shift":"tea_shift"}}}`, "migration.renames.activity.cafe_shift"},
		{"a removal of what is declared", `{"from":["1.2.1"],"removed":{"stat":["energy"]}}`, "migration.removed.stat[0]"},
		{"no version", `{"from":[],"removed":{"activity":["night_shift"]}}`, "migration.from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := kindtest.Revised(t, shippedSource(t, "first-flat"), "2.0.0", tt.migration, nil, "cafe_shift", "coffee_shift")
			kindtest.Finding(t, Kind{}, src, core.ReasonInvalidIdentifier, tt.path)
		})
	}
}
