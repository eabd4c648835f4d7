package sim

import (
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestTier1 refuses bad numbers, unknown references and non-positive
// weights, each at its precise path.
func TestTier1(t *testing.T) {
	tests := []struct {
		name string
		from string
		to   string
		code string
		path string
	}{
		{"fractional cost", `"cost": 4000`, `"cost": 40.5`, ReasonInvalidNumber, "content.activities.class.cost"},
		{"negative cost", `"cost": 4000`, `"cost": -1`, ReasonInvalidNumber, "content.activities.class.cost"},
		{"effect on an unknown stat", `"effects": {"skill": 30}`, `"effects": {"karma": 30}`, ReasonUnknownReference, "content.activities.class.effects.karma"},
		{"zero weight", `"weight": 1`, `"weight": 0`, ReasonInvalidWeight, "content.incidents.pool.windfall.weight"},
		{"negative weight", `"weight": 1`, `"weight": -3`, ReasonInvalidWeight, "content.incidents.pool.windfall.weight"},
		{"unknown condition field", `"field": "stat.skill"`, `"field": "stat.luck"`, ReasonUnknownReference, "content.activities.expert.requires"},
		{"condition compares a number with a string", `"value": 30}, "effects": {"money": 9000}`, `"value": "thirty"}, "effects": {"money": 9000}`, ReasonInvalidCondition, "content.activities.expert.requires"},
		{"reserved activity id", `{"id": "rest"`, `{"id": "invest"`, ReasonReservedID, "content.activities.invest.id"},
		{"duplicate activity id", `{"id": "rest"`, `{"id": "work"`, ReasonDuplicateID, "content.activities.work.id"},
		{"start outside the range", `"start": 50`, `"start": 500`, ReasonInvalidNumber, "content.stats.energy.start"},
		{"zero weeks", `"weeks": 4`, `"weeks": 0`, ReasonInvalidNumber, "content.weeks"},
		{"deadline past the last week", `"type": "reach",`, `"type": "reach", "by": 9,`, ReasonInvalidNumber, "content.goals.rich.by"},
		{"unknown chain scope", `"scope": "profile"`, `"scope": "forever"`, ReasonUnknownReference, "content.chains.saga.scope"},
		{"no reach goal", `"type": "reach"`, `"type": "keep"`, ReasonMissingField, "content.goals"},
		{"missing label", `"label": "Rest", `, ``, ReasonMissingField, "content.activities.rest.label"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(sampleSource, tc.from) {
				t.Fatalf("sample has no %q", tc.from)
			}
			src := strings.Replace(sampleSource, tc.from, tc.to, 1)
			kindtest.Finding(t, Kind{}, content.Source{Path: "bad", Campaign: campaignFile("bad", src)}, tc.code, tc.path)
		})
	}
}

func TestShippedCampaignsValidate(t *testing.T) {
	for _, id := range shipped {
		kindtest.Valid(t, Kind{}, shippedSource(t, id))
	}
}

// TestDecodeContentRoundTrip: runtime content survives its JSON form, as
// an archive stores it.
func TestDecodeContentRoundTrip(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		raw, err := core.CampaignJSON(reg.Campaign(id))
		if err != nil {
			t.Fatal(err)
		}
		c := reg.Campaign(id)
		b, _ := jsonMarshal(c.Content)
		back, err := (Kind{}).DecodeContent(b)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		b2, _ := jsonMarshal(back)
		if string(b) != string(b2) || len(raw) == 0 {
			t.Fatalf("%s: content does not round-trip", id)
		}
		if _, err := (Kind{}).DecodeContent([]byte(`{"weeks": 1, "bogus": true}`)); err == nil {
			t.Fatal("unknown field accepted")
		}
	}
}

func TestDecodeStateRefusesForeignStates(t *testing.T) {
	reg := sampleRegistry(t)
	c := reg.Campaign("sample")
	e := newEngine(t, reg, nil)
	good, _ := jsonMarshal(kindState(start(t, e, "sample", "x")))
	if _, err := (Kind{}).DecodeState(good, c); err != nil {
		t.Fatalf("own state refused: %v", err)
	}
	for name, mutate := range map[string]func(string) string{
		"unknown stat":    func(s string) string { return strings.Replace(s, `"energy"`, `"stamina"`, 1) },
		"week past limit": func(s string) string { return strings.Replace(s, `"week":0`, `"week":99`, 1) },
		"unknown field":   func(s string) string { return strings.Replace(s, `{`, `{"x":1,`, 1) },
		"plan of nothing": func(s string) string {
			return strings.Replace(s, `"plan":[]`, `"plan":[{"activity":"fly","count":1}]`, 1)
		},
	} {
		if _, err := (Kind{}).DecodeState([]byte(mutate(string(good))), c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
