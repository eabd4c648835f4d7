package story

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
	"github.com/storyloom/storyloom/engine/internal/golden"
)

// randomPlay plays campaign from seed, choosing among the available
// actions with a walk derived from the seed (never math/rand), until the
// game ends or 60 choices were made. It returns the serialization.
func randomPlay(t testing.TB, e *core.Engine, campaign, seed string) []byte {
	t.Helper()
	s := mustCreate(t, e, campaign, seed)
	x := uint32(len(seed))
	for _, c := range seed {
		x = x*31 + uint32(c)
	}
	for step := 0; step < 60 && s.Status == core.StatusActive; step++ {
		acts, err := e.AvailableActions(s)
		if err != nil {
			t.Fatal(err)
		}
		var open []string
		for _, a := range acts {
			if a.Available {
				open = append(open, a.ID)
			}
		}
		if len(open) == 0 {
			t.Fatalf("%s seed %s: stuck at %s", campaign, seed, s.KindState.(*State).NodeID())
		}
		x = x*1664525 + 1013904223
		s = mustSubmit(t, e, s, open[int(x>>16)%len(open)])
		checkViewCanonical(t, s.KindState.(*State))
	}
	out := serialize(t, e, s)
	if c, err := canon.Canonicalize(out); err != nil || string(c) != string(out) {
		t.Fatalf("%s seed %s: the serialization is not canonical (%v):\n%s", campaign, seed, err, out)
	}
	return out
}

// TestPropertySeeds: 200 seeds per campaign, each played twice on fresh
// engines, give identical bytes.
func TestPropertySeeds(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			endings := map[string]bool{}
			for i := 0; i < 200; i++ {
				seed := fmt.Sprintf("prop-%d", i)
				a := randomPlay(t, newEngine(t, reg, nil), id, seed)
				b := randomPlay(t, newEngine(t, reg, &core.RecordingEmitter{}), id, seed)
				if !bytes.Equal(a, b) {
					t.Fatalf("seed %s differs:\n%s\n%s", seed, a, b)
				}
				var env struct {
					KindState struct {
						EndingID string `json:"endingId"`
					} `json:"kindState"`
				}
				if err := json.Unmarshal(a, &env); err != nil {
					t.Fatal(err)
				}
				endings[env.KindState.EndingID] = true
			}
			t.Logf("random play reached %d distinct outcomes", len(endings))
		})
	}
}

// TestSinkIndependenceAndStreams: a null and a recording emitter give the
// same bytes, and two recordings the same event sequence.
func TestSinkIndependenceAndStreams(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			for i := 0; i < 20; i++ {
				seed := fmt.Sprintf("sink-%d", i)
				r1, r2 := &core.RecordingEmitter{}, &core.RecordingEmitter{}
				a := randomPlay(t, newEngine(t, reg, core.NullEmitter{}), id, seed)
				b := randomPlay(t, newEngine(t, reg, r1), id, seed)
				c := randomPlay(t, newEngine(t, reg, r2), id, seed)
				if !bytes.Equal(a, b) || !bytes.Equal(b, c) {
					t.Fatalf("seed %s: emitters change the bytes", seed)
				}
				e1, _ := json.Marshal(r1.Events)
				e2, _ := json.Marshal(r2.Events)
				if !bytes.Equal(e1, e2) || len(r1.Events) == 0 {
					t.Fatalf("seed %s: event streams differ or are empty", seed)
				}
			}
		})
	}
}

func goldenEngine(t *testing.T) harness.NewEngine {
	reg := shippedRegistry(t)
	return func(em core.Emitter) *core.Engine { return newEngine(t, reg, em) }
}

// TestGolden replays every fixture under testdata (config and action log in,
// canonical Serialize bytes and the event stream out) four ways through the
// harness. With -update it first regenerates the fixtures of the scripted
// playthroughs below, then their expected bytes; review the diff.
func TestGolden(t *testing.T) {
	newEng := goldenEngine(t)
	if golden.Updating() {
		e := newEng(nil)
		for _, p := range goldenPlays {
			s := mustCreate(t, e, p.campaign, p.seed)
			for _, a := range p.actions {
				s = mustSubmit(t, e, s, a)
			}
			golden.Write(t, "testdata", harness.FromState(p.name, s, nil))
		}
	}
	golden.Fixtures(t, "testdata", newEng)
}

// goldenPlays are the scripted playthroughs the golden fixtures record.
var goldenPlays = []struct {
	name, campaign, seed string
	actions              []string
}{
	{"gannet-rock-dark-reef", "gannet-rock", "golden-1", []string{"go_in", "climb", "light", "keep_watch"}},
	{"gannet-rock-long-night", "gannet-rock", "golden-2", []string{"go_in", "read_log", "read_on", "shut_it", "take_rope", "back", "climb", "clean_lens", "light", "step_out", "count_lights", "open_door", "let_in", "ask_crew", "go_to_rocks"}},
	{"marrow-investigation", "the-marrow-affair", "golden-3", []string{"take_the_case", "examine_ground", "note_it", "out_to_green", "visit_church", "find_verger", "ask_for_key", "take_key", "try_vestry", "cover_it", "back_to_green", "visit_pettigrew", "ask_about_barrow", "let_it_be", "go_to_judging", "reveal_truth"}},
}

// TestGoldenFixturesExist keeps the fixture set from silently shrinking.
func TestGoldenFixturesExist(t *testing.T) {
	for _, p := range goldenPlays {
		for _, f := range []string{"fixture.json", "expected.json", "events.json"} {
			if _, err := os.Stat(filepath.Join("testdata", p.name, f)); err != nil {
				t.Error(err)
			}
		}
	}
}

// checkViewCanonical fails unless the state's view writes itself
// (View.AppendCanonical) exactly as canon makes its encoding/json form.
func checkViewCanonical(t testing.TB, st *State) {
	t.Helper()
	v := project(st)
	got, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want, err := canon.Canonicalize(raw); err != nil || string(got) != string(want) {
		t.Fatalf("the view writes\n%s\nnot its canonical form (%v)\n%s", got, err, want)
	}
}
