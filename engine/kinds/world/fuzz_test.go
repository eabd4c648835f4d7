package world

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// FuzzSubmitAction submits arbitrary verbs and params to a world in
// progress: nothing may panic, a refusal must change nothing, and an
// accepted state must serialize and load back to the same bytes.
func FuzzSubmitAction(f *testing.F) {
	f.Add("build", "building", "carousel", "node", "north_deck", 0.0, uint8(0))
	f.Add("advance_ticks", "ticks", "", "ticks", "", 3.0, uint8(1))
	f.Add("advance_ticks", "ticks", "", "ticks", "", 1e9, uint8(1))
	f.Add("hire", "staff", "mechanic", "count", "", -2.0, uint8(2))
	f.Add("set_price", "node", "candy_corner", "band", "steep", 0.0, uint8(3))
	e := newEngine(f, shippedRegistry(f), nil)
	base := submit(f, e, start(f, e, "pier-fair", "fuzz"), ActionAdvanceTicks, core.Params{"ticks": 30.0})
	f.Fuzz(func(t *testing.T, action, k1, s1, k2, s2 string, n float64, mode uint8) {
		p := core.Params{}
		switch mode % 4 {
		case 0:
			p[k1], p[k2] = s1, s2
		case 1:
			p[k1] = n
		case 2:
			p[k1], p[k2] = s1, n
		case 3:
			p[k1], p[k2] = s1, s2
			p["ticks"] = n
		}
		kindtest.Fuzzed(t, e, base, action, p)
	})
}
