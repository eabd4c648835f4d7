package sim

import (
	"bytes"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
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
	before, _ := e.Serialize(base)
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
		res := e.SubmitAction(base, action, p)
		if after, _ := e.Serialize(base); !bytes.Equal(before, after) {
			t.Fatal("the input state changed")
		}
		if !res.OK {
			if len(res.Errors) == 0 || res.Errors[0].Code == "" {
				t.Fatal("a refusal without a reason code")
			}
			return
		}
		out, err := e.Serialize(res.Value)
		if err != nil {
			t.Fatal(err)
		}
		back := e.Deserialize(out)
		if !back.OK {
			t.Fatalf("accepted state does not load: %v", back.Errors)
		}
		if again, _ := e.Serialize(back.Value); !bytes.Equal(out, again) {
			t.Fatal("reload changed the state")
		}
	})
}
