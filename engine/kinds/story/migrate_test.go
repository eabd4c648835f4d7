package story

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// v2 renames node door to porch, variable noise to din and achievement
// locksmith to keymaster, adds a variable, and declares the migration.
func v2Source() string {
	s := strings.NewReplacer(`"door"`, `"porch"`, `"noise"`, `"din"`, `"locksmith"`, `"keymaster"`,
		`{"id": "noise", "type": "int", "initial": 0}`, `{"id": "din", "type": "int", "initial": 0}, {"id": "luck", "type": "int", "initial": 7}`).Replace(sampleSource)
	return s
}

func v2File(migration string) []byte {
	f := string(campaignFile("sample", "2.0.0", v2Source()))
	return []byte(strings.TrimSuffix(f, "}") + `, "migration": ` + migration + `}`)
}

const v2Migration = `{"from": ["1.0.0"], "renames": {"node": {"door": "porch"}, "variable": {"noise": "din"}, "achievement": {"locksmith": "keymaster"}}}`

// TestMigrateSave: a save made under 1.0.0 loads onto 2.0.0 with its ids
// re-addressed and the new variable at its initial value.
func TestMigrateSave(t *testing.T) {
	v1 := newEngine(t, sampleRegistry(t), nil)
	s := mustSubmit(t, v1, mustSubmit(t, v1, mustCreate(t, v1, "sample", "m"), "search"), "open")
	for s.KindState.(*State).NodeID() != "door" {
		s = mustSubmit(t, v1, mustSubmit(t, v1, mustSubmit(t, v1, mustCreate(t, v1, "sample", s.Seed+"x"), "search"), "open"), "pat")
	}
	saved := serialize(t, v1, s)

	reg2 := buildRegistry(t, content.Source{Path: "v2", Campaign: v2File(v2Migration)})
	v2 := newEngine(t, reg2, nil)
	res, migrated := v2.Migrate(saved)
	if !res.OK || !migrated {
		t.Fatalf("migrate: %v", res.Errors)
	}
	got := kindStateJSON(t, res.Value)
	for _, want := range []string{`"currentNodeId":"porch"`, `"din":1`, `"luck":7`, `"keymaster"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	mustSubmit(t, v2, res.Value, "knock")

	// A migration that removes the current node fails loudly.
	bad := buildRegistry(t, content.Source{Path: "v2", Campaign: v2File(`{"from": ["1.0.0"], "renames": {"variable": {"noise": "din"}, "achievement": {"locksmith": "keymaster"}}, "removed": {"node": ["door"]}}`)})
	if res, _ := newEngine(t, bad, nil).Migrate(saved); res.OK || res.Errors[0].Code != core.ReasonMigrationFailed {
		t.Errorf("removed current node: %+v", res.Errors)
	}
	// An id the new version neither declares nor lists as removed fails.
	partial := buildRegistry(t, content.Source{Path: "v2", Campaign: v2File(`{"from": ["1.0.0"], "renames": {"node": {"door": "porch"}}}`)})
	if res, _ := newEngine(t, partial, nil).Migrate(saved); res.OK || res.Errors[0].Code != core.ReasonMigrationFailed {
		t.Errorf("unmapped variable: %+v", res.Errors)
	}
}

// TestMigrateForCampaignDirect covers removal and passthrough.
func TestMigrateForCampaignDirect(t *testing.T) {
	reg := sampleRegistry(t)
	c := *reg.Campaigns["sample"]
	old := `{"currentNodeId":"gate","turn":1,"unlockedAchievements":["gone"],"variables":{"has_key":false,"mood":"calm","noise":0,"oil":3,"old":1},"visitedCounts":{"gate":1,"attic":2}}`
	c.Migration = &core.CampaignMigration{From: []string{"0.9"}, Removed: map[string][]string{"node": {"attic"}, "variable": {"old"}, "achievement": {"gone"}}}
	out, err := Kind{}.MigrateForCampaign(json.RawMessage(old), &c, "0.9")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Kind{}).DecodeState(out, &c); err != nil {
		t.Errorf("migrated state refused: %v\n%s", err, out)
	}
	same, err := Kind{}.MigrateForCampaign(json.RawMessage(old), &c, "0.8")
	if err != nil || string(same) != old {
		t.Errorf("an unlisted version changed: %v %s", err, same)
	}
}

// TestAdoptContent: a running game adopts a compatible new epoch and
// refuses one where its node changed type.
func TestAdoptContent(t *testing.T) {
	v1src := content.Source{Path: "v1", Campaign: campaignFile("sample", "1.0.0", sampleSource)}
	reg1 := buildRegistry(t, v1src)
	arch, err := content.NewArchive([]core.Kind{Kind{}}, reg1)
	if err != nil {
		t.Fatal(err)
	}
	// 1.1.0 rewords a label only; 1.2.0 turns gate into an ending.
	v11 := buildRegistry(t, content.Source{Path: "v11", Campaign: campaignFile("sample", "1.1.0", strings.Replace(sampleSource, `"Fill the lamp"`, `"Fill the lamp to the brim"`, 1))})
	v12 := buildRegistry(t, content.Source{Path: "v12", Campaign: campaignFile("sample", "1.2.0", strings.Replace(sampleSource,
		`{"id": "gate", "type": "choice", "text": "A gate. You have {oil} oil and feel {mood}.", "choices": [`,
		`{"id": "gate", "type": "ending", "endingId": "gate", "title": "Gate", "text": "The end.", "outcome": "neutral"},
  {"id": "gate_old", "type": "choice", "text": "A gate.", "choices": [`, 1))})
	for _, r := range []*core.Registry{v11, v12} {
		if res := arch.Publish(r); !res.OK {
			t.Fatal(res.Errors)
		}
	}
	e, err := core.New(core.Host{Kinds: []core.Kind{Kind{}}, Registry: reg1, Archive: arch})
	if err != nil {
		t.Fatal(err)
	}
	s := mustSubmit(t, e, mustCreate(t, e, "sample", "adopt"), "search")
	ad := e.AdoptContent(s, "1.1.0")
	if !ad.Adopted {
		t.Fatalf("refused: %s", ad.Reason)
	}
	mustSubmit(t, e, ad.State, "fill")
	if ad := e.AdoptContent(s, "1.2.0"); ad.Adopted || ad.Reason != core.ReasonContentIncompatible {
		t.Errorf("adopted onto a changed node: %+v", ad)
	}
}
