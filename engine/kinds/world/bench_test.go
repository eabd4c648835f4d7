package world

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// benchState is the pier-fair world in full swing — every plot built, a
// mechanic and an entertainer hired, 240 ticks in — in a copy of the
// campaign whose tick limit and objectives are out of reach and which asks
// no offers, so that no advance ends early.
func benchState(b *testing.B) (*core.Engine, *core.GameState) {
	raw, err := readCampaign("pier-fair")
	if err != nil {
		b.Fatal(err)
	}
	raw = strings.Replace(raw, `"tickLimit": 720`, `"tickLimit": 100000`, 1)
	raw = strings.Replace(raw, `"value": 5000`, `"value": 100000000`, 1)
	raw = strings.Replace(raw, `"value": 3000000`, `"value": 100000000000`, 1)
	raw = strings.Replace(raw, `"value": 70`, `"value": 101`, 1)
	raw = strings.Replace(raw, `"value": -50000`, `"value": -100000000000`, 1)
	// Without offers: advance_ticks stops at the hour one opens.
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		b.Fatal(err)
	}
	delete(doc["content"].(map[string]any), "offers")
	bench, err := json.Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	reg := buildRegistry(b, content.Source{Path: "bench", Campaign: bench})
	e := newEngine(b, reg, nil)
	s := start(b, e, "pier-fair", "bench")
	c := contentOf(reg.Campaign("pier-fair"))
	for kindState(s).Tick < 240 {
		acts, _ := careful(kindState(s), c)
		for _, a := range acts {
			s = submit(b, e, s, a.id, a.params)
		}
		s = submit(b, e, s, ActionAdvanceTicks, core.Params{"ticks": 24.0})
	}
	if s.Status != core.StatusActive {
		b.Fatal("the bench world ended")
	}
	return e, s
}

// BenchmarkAdvanceTicks measures advance_ticks of 10, 100 and 1,000 ticks
// on the pier-fair world; the cost is linear in ticks (target: 1,000 ticks
// in at most 20 ms).
func BenchmarkAdvanceTicks(b *testing.B) {
	e, s := benchState(b)
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("ticks=%d", n), func(b *testing.B) {
			p := core.Params{"ticks": float64(n)}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res := e.SubmitAction(s, ActionAdvanceTicks, p)
				if !res.OK || kindState(res.Value).Tick != kindState(s).Tick+int64(n) {
					b.Fatal("the advance did not run every tick", res.Errors)
				}
			}
		})
	}
}
