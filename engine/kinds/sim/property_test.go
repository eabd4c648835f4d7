package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// randomGame plays campaign under seed with a random player (its own
// generator seeded from i, so a rerun submits the same actions), including
// refused actions, and returns the final state.
func randomGame(t testing.TB, e *core.Engine, campaign string, i int) *core.GameState {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	s := start(t, e, campaign, fmt.Sprint("prop-", i))
	c := contentOf(e.Registry().Campaign(campaign))
	ids := append(c.activityIDs(), "nonsense")
	for step := 0; step < 400 && s.Status == core.StatusActive; step++ {
		var res core.ActionResult
		switch r.IntN(6) {
		case 0, 1, 2:
			res = e.SubmitAction(s, ActionPlanAdd, core.Params{"activity": ids[r.IntN(len(ids))], "count": float64(r.IntN(4) - 1)})
		case 3:
			res = e.SubmitAction(s, ActionPlanRemove, core.Params{"index": float64(r.IntN(3))})
		case 4:
			res = e.SubmitAction(s, ActionPlanClear, nil)
		default:
			res = e.SubmitAction(s, ActionEndWeek, nil)
		}
		if res.OK {
			s = res.Value
		}
	}
	return s
}

// TestPropertyDeterminism: over 200 seeds per campaign, a random game run
// twice serializes to the same bytes, with a null and a recording emitter.
func TestPropertyDeterminism(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		for i := 0; i < 200; i++ {
			a := serialize(t, newEngine(t, reg, core.NullEmitter{}), randomGame(t, newEngine(t, reg, core.NullEmitter{}), id, i))
			rec := &core.RecordingEmitter{}
			e := newEngine(t, reg, rec)
			b := serialize(t, e, randomGame(t, e, id, i))
			if !bytes.Equal(a, b) {
				t.Fatalf("%s seed %d: two runs differ", id, i)
			}
			if len(rec.Events) == 0 {
				t.Fatalf("%s seed %d: the recording emitter saw nothing", id, i)
			}
		}
	}
}

// TestPropertyReplayAndReload: a random game's log replays byte for byte,
// also with a save and load between every step (harness.Verify).
func TestPropertyReplayAndReload(t *testing.T) {
	reg := shippedRegistry(t)
	newE := func(em core.Emitter) *core.Engine { return newEngine(t, reg, em) }
	for _, id := range shipped {
		for i := 0; i < 20; i++ {
			s := randomGame(t, newE(nil), id, i)
			f := harness.FromState(fmt.Sprint(id, i), s, nil)
			run, err := harness.Verify(newE, f)
			if err != nil {
				t.Fatal(err)
			}
			if want := serialize(t, newE(nil), s); !bytes.Equal(run.Serialized, want) {
				t.Fatalf("%s %d: replay differs", id, i)
			}
		}
	}
}

// TestGolden replays the fixtures under testdata. With -update it first
// regenerates them from the scripted players.
func TestGolden(t *testing.T) {
	reg := shippedRegistry(t)
	newE := func(em core.Emitter) *core.Engine { return newEngine(t, reg, em) }
	if golden.Updating() {
		for _, id := range shipped {
			for _, p := range []struct {
				name string
				p    policy
				res  string
			}{{"careful", carefulFor(id), ResolutionGoalsMet}, {"greedy", greedy, ResolutionFailed}, {"coasting", coast(id), ResolutionWeekLimitReached}} {
				_, s := firstSeedT(t, newE(nil), id, p.p, p.res)
				golden.Write(t, "testdata", harness.FromState(id+"-"+p.name, s, nil))
			}
		}
		// A profile-seeded game: the chain resumes where the profile says.
		profile := json.RawMessage(`{"campaigns":{"first-flat":{"balcony_cat":2}}}`)
		e := newE(nil)
		res := e.CreateGame(core.NewGameConfig{CampaignID: "first-flat", Seed: "profile", KindProfileData: profile}, "")
		s := res.Value
		for i := 0; i < 3; i++ {
			s = submit(t, e, s, ActionEndWeek, nil)
		}
		golden.Write(t, "testdata", harness.FromState("first-flat-profile", s, profile))
	}
	golden.Fixtures(t, "testdata", newE)
}

func firstSeedT(t *testing.T, e *core.Engine, campaign string, p policy, resolution string) (string, *core.GameState) {
	return firstSeed(t, e, campaign, p, resolution)
}

// TestConcurrentGames plays one campaign from several goroutines over one
// registry and engine (run with -race): the compiled content is shared and
// read only.
func TestConcurrentGames(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	kindtest.Concurrently(t, 4, func(i int) []byte {
		s := play(t, e, "harbour-bakery", fmt.Sprint("concurrent-", i), carefulFor("harbour-bakery"))
		b, _ := json.Marshal(s.KindState)
		return b
	})
}
