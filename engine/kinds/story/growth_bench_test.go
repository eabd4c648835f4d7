package story

import (
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

// loopSource is a story that never has to end: a walk around a ring of
// rooms through a random node, with a lamp to light and a door whose
// choice depends on a visit count, so that a game can be played to any
// length on the real kind.
const loopSource = `{"start": "yard",
 "variables": [
  {"id": "steps", "type": "int", "initial": 0, "visible": true, "label": "Steps"},
  {"id": "lit", "type": "bool", "initial": false}],
 "nodes": [
  {"id": "yard", "type": "choice", "text": "The yard. {steps} steps so far.",
   "effects": [{"var": "steps", "op": "increment", "value": 1}],
   "choices": [
    {"id": "walk", "text": "Walk on", "to": "path"},
    {"id": "light", "text": "Light the lamp", "showWhen": {"field": "var.lit", "operator": "equals", "value": false},
     "effects": [{"var": "lit", "op": "set", "value": true}], "to": "yard"},
    {"id": "door", "text": "Try the door", "requires": {"field": "visits.hall", "operator": "greater_or_equal", "value": 3},
     "requirementFail": "Not yet.", "to": "hall"}]},
  {"id": "path", "type": "random", "transitions": [{"to": "hall", "weight": 1}, {"to": "yard", "weight": 2}]},
  {"id": "hall", "type": "choice", "text": "The hall.",
   "effects": [{"var": "lit", "op": "set", "value": false}],
   "choices": [{"id": "walk", "text": "Back out", "to": "yard"}]}]}`

// BenchmarkStorySubmitActionAtHistory is one SubmitAction through
// core.Engine on a story-graph campaign after n logged actions. Play goes
// on from each result, as a player's does (acting twice on one state
// branches, and a branch copies its log); every 1,000 actions the game is
// reloaded (untimed) from its serialized form at n, so the history stays
// within n..n+1,000.
func BenchmarkStorySubmitActionAtHistory(b *testing.B) {
	reg := buildRegistry(b, content.Source{Path: "loop", Campaign: campaignFile("loop", "1.0.0", loopSource)})
	e := newEngine(b, reg, nil)
	for _, n := range []int{10, 1000, 10000} {
		s := mustCreate(b, e, "loop", "bench")
		for i := 0; i < n; i++ {
			s = mustSubmit(b, e, s, "walk")
		}
		data := serialize(b, e, s)
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			cur := reload(b, e, data)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%1000 == 0 {
					b.StopTimer()
					cur = reload(b, e, data)
					b.StartTimer()
				}
				r := e.SubmitAction(cur, "walk", nil)
				if !r.OK {
					b.Fatal(r.Errors)
				}
				cur = r.Value
			}
		})
	}
}

// reload deserializes a game for a benchmark.
func reload(b *testing.B, e *core.Engine, data []byte) *core.GameState {
	b.Helper()
	res := e.Deserialize(data)
	if !res.OK {
		b.Fatal(res.Errors)
	}
	return res.Value
}

// BenchmarkTier3AtGraphSize is the tier 3 search of a generated story
// graph of n nodes (the generator of bench_test.go). `make bench` runs the
// 100,000-node point once, on its own.
func BenchmarkTier3AtGraphSize(b *testing.B) {
	budget := validate.Budget{MaxStates: 10_000_000, MaxDepth: 1_000_000}
	for _, n := range []int{1000, 10_000, 100_000} {
		var camp *core.Campaign
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			if camp == nil {
				camp = generatedCampaign(b, n)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ws, ex := validate.Tier3(Kind{}, camp, budget)
				if len(ws) != 0 || ex.Bounded {
					b.Fatalf("findings %v, bounded %v", ws, ex.Bounded)
				}
				b.ReportMetric(float64(ex.States), "states")
			}
		})
	}
}
