package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

// BenchmarkEndWeek measures end_week with a full plan on the largest
// sample campaign (harbour-bakery), through core.Engine (target: at most
// 50 µs).
func BenchmarkEndWeek(b *testing.B) {
	reg := shippedRegistry(b)
	e := newEngine(b, reg, nil)
	s := start(b, e, "harbour-bakery", "bench")
	c := contentOf(reg.Campaign("harbour-bakery"))
	for _, it := range carefulFor("harbour-bakery")(kindState(s), c) {
		s = submit(b, e, s, ActionPlanAdd, core.Params{"activity": it.Activity, "count": float64(it.Count)})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := e.SubmitAction(s, ActionEndWeek, nil); !res.OK {
			b.Fatal(res.Errors)
		}
	}
}
