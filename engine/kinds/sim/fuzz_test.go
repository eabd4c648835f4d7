package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// FuzzSubmitAction submits arbitrary verbs and params to a game in
// progress: nothing may panic, a refusal must change nothing, and an
// accepted state must serialize and load back to the same bytes.
func FuzzSubmitAction(f *testing.F) {
	f.Add("plan.add", "activity", "work", "count", 2.0, false, uint8(0))
	f.Add("plan.add", "activity", "invest", "count", -1.0, true, uint8(1))
	f.Add("plan.remove", "index", "", "index", 0.0, false, uint8(2))
	f.Add("end_week", "", "", "", 0.0, false, uint8(3))
	f.Add("plan.clear", "x", "y", "z", 1e300, true, uint8(4))
	reg := sampleRegistry(f)
	e := newEngine(f, reg, nil)
	base := submit(f, e, start(f, e, "sample", "fuzz"), ActionPlanAdd, core.Params{"activity": "rest"})
	f.Fuzz(func(t *testing.T, action, k1, s1, k2 string, n float64, b bool, mode uint8) {
		p := core.Params{}
		switch mode % 4 {
		case 0:
			p[k1] = s1
		case 1:
			p[k1] = s1
			p[k2] = n
		case 2:
			p[k2] = n
			p[k1] = b
		}
		kindtest.Fuzzed(t, e, base, action, p)
	})
}
