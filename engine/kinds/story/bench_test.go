package story

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

// BenchmarkSubmitAction measures one SubmitAction through core.Engine on
// each shipped campaign, from a state with several choices open, including
// the engine's own work (stream derivation, envelope, log).
func BenchmarkSubmitAction(b *testing.B) {
	reg := shippedRegistry(b)
	cases := []struct{ campaign, warmup, action string }{
		{"gannet-rock", "go_in", "take_rope"},
		{"the-marrow-affair", "take_the_case", "examine_plinth"},
	}
	for _, c := range cases {
		b.Run(c.campaign, func(b *testing.B) {
			e := newEngine(b, reg, nil)
			s := mustSubmit(b, e, mustCreate(b, e, c.campaign, "bench"), c.warmup)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if r := e.SubmitAction(s, c.action, nil); !r.OK {
					b.Fatal(r.Errors)
				}
			}
		})
	}
}

// BenchmarkTurn measures one choice as the page makes it on gannet-rock:
// SubmitAction, Serialize of the new state (the session store's autosave)
// and the Scene the page renders next.
func BenchmarkTurn(b *testing.B) {
	reg := shippedRegistry(b)
	e := newEngine(b, reg, nil)
	s := mustSubmit(b, e, mustCreate(b, e, "gannet-rock", "bench"), "go_in")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := e.SubmitAction(s, "take_rope", nil)
		if !r.OK {
			b.Fatal(r.Errors)
		}
		if _, err := e.Serialize(r.Value); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Scene(r.Value); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdvance measures the kind's own share: Kind.Advance alone.
func BenchmarkAdvance(b *testing.B) {
	reg := shippedRegistry(b)
	e := newEngine(b, reg, nil)
	s := mustSubmit(b, e, mustCreate(b, e, "gannet-rock", "bench"), "go_in")
	ctx := &core.Context{Registry: reg, Campaign: reg.Campaigns["gannet-rock"]}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := (Kind{}).Advance(s.KindState, "take_rope", nil, ctx); r.Error != nil {
			b.Fatal(r.Error)
		}
	}
}

// generateGraph returns the source of a story graph of n nodes: a spine of
// choice nodes, each offering a step forward, a detour through a random
// node that sets a flag or bumps a bounded counter, and a gated shortcut,
// with an ending every 500 nodes and a final ending.
func generateGraph(n int) string {
	var b strings.Builder
	b.WriteString(`{"start":"n0","variables":[{"id":"flag","type":"bool","initial":false},{"id":"count","type":"int","initial":0,"min":0,"max":3}],"nodes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		id := fmt.Sprintf("n%d", i)
		switch {
		case i == n-1:
			fmt.Fprintf(&b, `{"id":%q,"type":"ending","endingId":"last","title":"Last","text":"End.","outcome":"win"}`, id)
		case i%500 == 499:
			fmt.Fprintf(&b, `{"id":%q,"type":"ending","endingId":"e%d","title":"E%d","text":"End.","outcome":"neutral"}`, id, i, i)
		case i%3 == 2:
			fmt.Fprintf(&b, `{"id":%q,"type":"random","transitions":[{"to":"n%d","weight":1},{"to":"n%d","weight":2}]}`, id, i+1, min(i+2, n-1))
		default:
			next := i + 1
			if next%500 == 499 {
				next++
			}
			fmt.Fprintf(&b, `{"id":%q,"type":"choice","text":"Node %d.","effects":[{"var":"count","op":"increment","value":1}],"choices":[`+
				`{"id":"on","text":"On","to":"n%d"},`+
				`{"id":"flag","text":"Flag","effects":[{"var":"flag","op":"set","value":true},{"var":"count","op":"set","value":0}],"to":"n%d"},`+
				`{"id":"end","text":"End","requires":{"field":"var.flag","operator":"equals","value":true},"requirementFail":"Not yet.","to":"n%d"}]}`,
				id, i, next, min(next+1, n-1), (i/500)*500+499)
		}
	}
	b.WriteString(`]}`)
	return b.String()
}

func generatedCampaign(tb testing.TB, n int) *core.Campaign {
	tb.Helper()
	c, _, errs := Kind{}.BuildContent(json.RawMessage(generateGraph(n)), "gen")
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	return &core.Campaign{ID: "gen", KindID: KindID, Version: "1", TitleKey: "gen.title", Content: c}
}

// bigBudget lets the search follow a generated graph's long spine: the
// default depth cap of 400 moves is for hand-written campaigns.
var bigBudget = validate.Budget{MaxStates: 1_000_000, MaxDepth: 100_000}

// TestGeneratedGraph: the generator's graph is valid and tier 3 reaches
// every node and ending of a 2,000-node instance.
func TestGeneratedGraph(t *testing.T) {
	camp := generatedCampaign(t, 2000)
	ws, ex := validate.Tier3(Kind{}, camp, bigBudget)
	if len(ws) != 0 || ex.Bounded {
		t.Errorf("findings %v, bounded %v", ws, ex.Bounded)
	}
	if len(ex.Terminals) != (Kind{}).TerminalCount(camp) {
		t.Errorf("%d of %d endings", len(ex.Terminals), (Kind{}).TerminalCount(camp))
	}
}

// BenchmarkTier3Generated10k is the tier 3 search of a generated
// 10,000-node graph (target: under 1 s per search).
func BenchmarkTier3Generated10k(b *testing.B) {
	camp := generatedCampaign(b, 10_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws, ex := validate.Tier3(Kind{}, camp, bigBudget)
		if len(ws) != 0 || ex.Bounded {
			b.Fatalf("findings %v", ws)
		}
		b.ReportMetric(float64(ex.States), "states")
	}
}
