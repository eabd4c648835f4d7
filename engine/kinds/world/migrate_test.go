package world

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// pierFairV2 is pier-fair 2.0.0: the carousel is a roundabout, the north
// deck the upper deck, mechanics are fixers, and the arcade is gone.
func pierFairV2(t *testing.T, migration string) *core.Registry {
	src := kindtest.Revised(t, shippedSource(t, "pier-fair"), "2.0.0", migration, func(doc map[string]any) {
		c := doc["content"].(map[string]any)
		c["buildings"] = kindtest.Without(c["buildings"], "arcade")
	}, `"carousel"`, `"roundabout"`, `"north_deck"`, `"upper_deck"`, `"mechanic"`, `"fixer"`)
	return buildRegistry(t, src)
}

const pierFairMigration = `{"from":["1.3.1"],"renames":{"building":{"carousel":"roundabout"},"node":{"north_deck":"upper_deck"},"staff":{"mechanic":"fixer"}},"removed":{"building":["arcade"]}}`

// aFewHoursIn builds a carousel and an arcade, hires a mechanic and lets
// ten hours of pier-fair 1.3.1 pass.
func aFewHoursIn(t *testing.T, e *core.Engine) *core.GameState {
	res := e.CreateGame(core.NewGameConfig{CampaignID: "pier-fair", Seed: "3"}, "1.3.1")
	if !res.OK {
		t.Fatal(res.Errors)
	}
	s := submit(t, e, res.Value, ActionBuild, core.Params{"building": "carousel", "node": "north_deck"})
	s = submit(t, e, s, ActionBuild, core.Params{"building": "arcade", "node": "south_deck"})
	s = submit(t, e, s, ActionHire, core.Params{"staff": "mechanic"})
	return submit(t, e, s, ActionAdvanceTicks, core.Params{"ticks": 10.0})
}

func TestMigrationAdoptsAndLoads(t *testing.T) {
	v1 := shippedRegistry(t)
	v2 := pierFairV2(t, pierFairMigration)
	e := kindtest.Epochs(t, Kind{}, v1, v2)
	before := aFewHoursIn(t, e)
	old := kindState(before)

	res := e.AdoptContent(before, "2.0.0")
	if !res.Adopted {
		t.Fatalf("not adopted: %s", res.Reason)
	}
	s := kindState(res.State)
	if s.Sites["upper_deck"].Building != "roundabout" || s.Sites["upper_deck"].Band != old.Sites["north_deck"].Band {
		t.Errorf("sites %v", s.Sites)
	}
	if _, ok := s.Sites["south_deck"]; ok || len(s.Sites) != len(old.Sites)-1 {
		t.Errorf("the arcade's site stayed: %v", s.Sites)
	}
	if s.Staff["fixer"] != 1 || len(s.Staff) != 1 {
		t.Errorf("staff %v", s.Staff)
	}
	for _, g := range s.Guests {
		if g.Node == "north_deck" {
			t.Errorf("guest %s still on the north deck", g.ID)
		}
	}
	if s.Tick != old.Tick || s.Money != old.Money || len(s.Guests) != len(old.Guests) {
		t.Errorf("play changed: tick %d money %d guests %d", s.Tick, s.Money, len(s.Guests))
	}
	after := submit(t, e, res.State, ActionAdvanceTicks, core.Params{"ticks": 2.0})
	if kindState(after).Tick != old.Tick+2 {
		t.Error("the world did not go on on 2.0.0")
	}

	t.Run("a save whose version is gone migrates, golden", func(t *testing.T) {
		golden.Check(t, filepath.Join("testdata", "migration", "pier-fair-2.0.0.json"), kindtest.MigratedSave(t, Kind{}, e, before, v2))
	})
	t.Run("a removed node sends its guests to the entrance", func(t *testing.T) {
		raw, _ := json.Marshal(old)
		var st State
		_ = json.Unmarshal(raw, &st)
		st.Guests = append(st.Guests, Guest{ID: "g999", Node: "north_deck"})
		raw, _ = json.Marshal(&st)
		to := *v2.Campaign("pier-fair")
		to.Migration = &core.CampaignMigration{From: []string{"1.3.1"}, Removed: map[string][]string{"node": {"north_deck"}, "building": {"arcade", "carousel"}},
			Renames: map[string]map[string]string{"staff": {"mechanic": "fixer"}}}
		out, err := (Kind{}).MigrateForCampaign(raw, &to, "1.3.1")
		if err != nil {
			t.Fatal(err)
		}
		var got State
		_ = json.Unmarshal(out, &got)
		if g := got.Guests[len(got.Guests)-1]; g.Node != to.Content.(*Content).Entrance {
			t.Errorf("guest on %q", g.Node)
		}
	})
	t.Run("without a migration nothing adopts", func(t *testing.T) {
		bare := kindtest.Epochs(t, Kind{}, v1, pierFairV2(t, ""))
		if r := bare.AdoptContent(aFewHoursIn(t, bare), "2.0.0"); r.Adopted || r.Reason != core.ReasonContentIncompatible {
			t.Fatalf("%+v", r)
		}
	})
}

func TestMigrationChecks(t *testing.T) {
	tests := []struct {
		name, migration, path string
	}{
		{"an unknown category", `{"from":["1.3.1"],"renames":{"activity":{"a":"b"}}}`, "migration.renames.activity"},
		{"a rename onto nothing", `{"from":["1.3.1"],"renames":{"building":{"carousel":"dodgems"}}}`, "migration.renames.building.carousel"},
		{"a removal of what is declared", `{"from":["1.3.1"],"removed":{"node":["gate"]}}`, "migration.removed.node[0]"},
		{"its own version", `{"from":["2.0.0"]}`, "migration.from[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := kindtest.Revised(t, shippedSource(t, "pier-fair"), "2.0.0", tt.migration, nil)
			kindtest.Finding(t, Kind{}, src, core.ReasonInvalidIdentifier, tt.path)
		})
	}
}
