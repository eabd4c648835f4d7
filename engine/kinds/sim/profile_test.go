package sim

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

func TestProfileFold(t *testing.T) {
	reg := sampleRegistry(t)
	c := reg.Campaign("sample")
	k := Kind{}
	adv := func(chain string, n any) core.StateChange {
		return core.StateChange{Path: "chain." + chain, Op: "set", Value: n, Reason: ReasonChainAdvanced, Visible: true}
	}
	tests := []struct {
		name    string
		current string
		changes []core.StateChange
		want    string
	}{
		{"first write", "", []core.StateChange{adv("saga", 1)}, `{"campaigns":{"sample":{"saga":1}}}`},
		{"raises to the maximum", `{"campaigns":{"sample":{"saga":1}}}`, []core.StateChange{adv("saga", 2.0)}, `{"campaigns":{"sample":{"saga":2}}}`},
		{"never lowers", `{"campaigns":{"sample":{"saga":2}}}`, []core.StateChange{adv("saga", 1)}, `{"campaigns":{"sample":{"saga":2}}}`},
		{"caps at the chain's length", "", []core.StateChange{adv("saga", 9)}, `{"campaigns":{"sample":{"saga":2}}}`},
		{"ignores other reasons", "", []core.StateChange{{Path: "chain.saga", Value: 1, Reason: ReasonGoalMet}}, `{"campaigns":{}}`},
		{"ignores unknown chains", "", []core.StateChange{adv("other", 1)}, `{"campaigns":{}}`},
		{"keeps other campaigns", `{"campaigns":{"elsewhere":{"x":3}}}`, []core.StateChange{adv("saga", 1)}, `{"campaigns":{"elsewhere":{"x":3},"sample":{"saga":1}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cur json.RawMessage
			if tc.current != "" {
				cur = json.RawMessage(tc.current)
			}
			once, err := k.FoldProfile(cur, c, tc.changes)
			if err != nil {
				t.Fatal(err)
			}
			if string(once) != tc.want {
				t.Fatalf("fold = %s, want %s", once, tc.want)
			}
			twice, err := k.FoldProfile(once, c, tc.changes)
			if err != nil || !bytes.Equal(once, twice) {
				t.Fatalf("fold is not idempotent: %s then %s (%v)", once, twice, err)
			}
		})
	}
}

func TestProfileSizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"campaigns":{`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"campaign-` + strings.Repeat("x", 10) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)) + `":{"chain":1}`)
	}
	b.WriteString(`}}`)
	c := sampleRegistry(t).Campaign("sample")
	if _, err := (Kind{}).FoldProfile(json.RawMessage(b.String()), c, nil); err == nil {
		t.Fatal("a slice over 65,536 bytes was accepted")
	}
}

// TestProfileChainsAdvanceAcrossGames: a game folds its chain progress
// into the profile, and the next game resumes the chain from there.
func TestProfileChainsAdvanceAcrossGames(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	c := reg.Campaign("sample")
	var profile json.RawMessage
	s := start(t, e, "sample", "first")
	res := e.SubmitAction(s, ActionEndWeek, nil)
	profile, err := (Kind{}).FoldProfile(profile, c, res.Changes)
	if err != nil {
		t.Fatal(err)
	}
	next := e.CreateGame(core.NewGameConfig{CampaignID: "sample", Seed: "second", KindProfileData: profile}, "")
	if got := kindState(next.Value).Chains["saga"]; got != 1 {
		t.Fatalf("the second game starts the chain at %d, want 1", got)
	}
	after := submit(t, e, submit(t, e, next.Value, ActionEndWeek, nil), ActionEndWeek, nil)
	if got := kindState(after).Chains["saga"]; got != 2 {
		t.Fatalf("the chain did not go on to step 2: %d", got)
	}
	for _, bad := range []string{`not json`, `{"campaigns":{"sample":{"saga":"x"}}}`, `[]`} {
		g := e.CreateGame(core.NewGameConfig{CampaignID: "sample", Seed: "bad", KindProfileData: json.RawMessage(bad)}, "")
		if !g.OK || len(kindState(g.Value).Chains) != 0 {
			t.Fatalf("profile %s: want a fresh start, got %v", bad, g.Errors)
		}
	}
}
