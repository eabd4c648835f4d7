package story

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

// TestShippedCampaignsValidate: both campaigns pass tiers 1, 2 and 3 with no
// finding at all, every ending reachable, within the default budget, and
// each meets the bar for shipped content: 30 nodes, 3 endings, 4
// achievements, random transitions and locked choices with reasons.
func TestShippedCampaignsValidate(t *testing.T) {
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			rep := validate.Campaigns([]core.Kind{Kind{}}, validate.DefaultBudget(), shippedSource(t, id))
			for _, f := range rep.Findings {
				t.Errorf("tier %d: %v", f.Tier, f.ValidationError)
			}
			if rep.Registry == nil {
				t.Fatal("no registry")
			}
			c := rep.Registry.Campaigns[id]
			sc := c.Content.(*Content)
			ex := rep.Explorations[id]
			if n := (Kind{}).TerminalCount(c); ex.Bounded || len(ex.Terminals) != n {
				t.Errorf("tier 3: bounded %v, %d of %d endings reached", ex.Bounded, len(ex.Terminals), n)
			}
			random, locked := 0, 0
			for _, n := range sc.Nodes {
				if n.Type == NodeRandom {
					random++
				}
				for _, ch := range n.Choices {
					if ch.RequirementFailKey != "" {
						locked++
					}
				}
			}
			if len(sc.Nodes) < 30 || len(sc.EndingIDs()) < 3 || len(sc.Achievements) < 4 || random == 0 || locked == 0 {
				t.Errorf("%d nodes, %d endings, %d achievements, %d random nodes, %d locked choices with reasons",
					len(sc.Nodes), len(sc.EndingIDs()), len(sc.Achievements), random, locked)
			}
			t.Logf("%d nodes, %d endings, %d achievements; tier 3 explored %d states", len(sc.Nodes), len(sc.EndingIDs()), len(sc.Achievements), ex.States)
		})
	}
}

// TestTranslationComplete: Gannet Rock ships a French catalog that
// translates every authored string and keeps every placeholder.
func TestTranslationComplete(t *testing.T) {
	reg := shippedRegistry(t)
	prov := reg.Provenance["gannet-rock"]
	fr := prov.Catalogs["fr"]
	if len(fr) == 0 {
		t.Fatal("no French catalog")
	}
	for key, en := range prov.Strings {
		tr, ok := fr[key]
		if !ok || tr == "" {
			t.Errorf("%s is not translated", key)
			continue
		}
		if a, b := placeholders(en), placeholders(tr); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: placeholders %v in English, %v in French", key, a, b)
		}
	}
}

// playTo plays campaign id on e to ending, following the moves of a tier 3
// witness path and trying seeds until the random draws agree with it. It
// returns the final state.
func playTo(t *testing.T, e *core.Engine, id, ending string, path []string) *core.GameState {
	t.Helper()
	for seed := 0; seed < 5000; seed++ {
		s := mustCreate(t, e, id, fmt.Sprintf("ending-%s-%d", ending, seed))
		ok := true
		for _, label := range path {
			node, choice, isChoice := strings.Cut(strings.TrimPrefix(label, "content.nodes."), ".choices.")
			if !isChoice {
				continue // a random draw: the seed decides
			}
			st := s.KindState.(*State)
			if st.NodeID() != node {
				ok = false
				break
			}
			res := e.SubmitAction(s, choice, nil)
			if !res.OK {
				ok = false
				break
			}
			s = res.Value
		}
		if !ok {
			continue
		}
		if out, _ := e.Outcome(s); out.Terminal && out.TerminalID == ending {
			return s
		}
	}
	t.Fatalf("%s: no seed follows the path to %q: %v", id, ending, path)
	return nil
}

// TestPlayEveryEnding plays both campaigns from the start to every ending
// through core.Engine, checking the outcome, the status, the view and the
// scene at each ending.
func TestPlayEveryEnding(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	for _, id := range shipped {
		c := reg.Campaigns[id]
		ex := validate.Explore(Kind{}.StateSpace(c), validate.DefaultBudget())
		endings := c.Content.(*Content).EndingIDs()
		sort.Strings(endings)
		for _, ending := range endings {
			t.Run(id+"/"+ending, func(t *testing.T) {
				path, ok := ex.PathTo(ending)
				if !ok {
					t.Fatalf("tier 3 found no path to %q", ending)
				}
				s := playTo(t, e, id, ending, path)
				if s.Status != core.StatusEnded {
					t.Errorf("status %s", s.Status)
				}
				v, err := e.View(s, core.AudiencePlayer)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(v.KindView), `"endingId":"`+ending+`"`) {
					t.Errorf("view %s does not name the ending", v.KindView)
				}
				sc, err := e.Scene(s)
				if err != nil || sc.Body.Text == "" || len(sc.Actions) != 0 {
					t.Errorf("ending scene %+v, %v", sc.Body, err)
				}
				if res := e.SubmitAction(s, "anything", nil); res.OK || res.Errors[0].Code != core.ReasonSessionEnded {
					t.Errorf("an action after the end: %+v", res.Errors)
				}
				t.Logf("%s in %d choices", ending, s.ActionLog.Len())
			})
		}
	}
}

// TestMarrowCountsReadAsWords plays the Marrow Affair down to one hour and
// one clue and checks the scene text agrees in number ("1 hour", "1 clue"),
// and that the params a translating client fills from are the plain counts.
func TestMarrowCountsReadAsWords(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	s := mustCreate(t, e, "the-marrow-affair", "plurals")
	steps := []struct{ action, want string }{
		{"take_the_case", "4 hours until judging."},
		{"out_to_green", "4 hours until judging; 0 clues in your notebook."},
		{"visit_colonel", ""},
		{"leave", "3 hours until judging; 0 clues"},
		{"visit_colonel", ""},
		{"leave", "2 hours until judging"},
		{"revisit_tent", "1 hour until judging."},
		{"examine_ground", ""},
		{"note_it", "1 hour until judging."},
		{"out_to_green", "1 hour until judging; 1 clue in your notebook."},
	}
	for _, step := range steps {
		s = mustSubmit(t, e, s, step.action)
		sc, err := e.Scene(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sc.Body.Text, step.want) {
			t.Fatalf("after %s the scene reads %q, want %q in it", step.action, sc.Body.Text, step.want)
		}
		if strings.Contains(sc.Body.Text, "{") {
			t.Fatalf("after %s an argument is left unfilled: %q", step.action, sc.Body.Text)
		}
	}
	sc, _ := e.Scene(s)
	if sc.Body.Params["hours"] != int64(1) || sc.Body.Params["clues"] != int64(1) {
		t.Fatalf("params %v", sc.Body.Params)
	}
}

// TestMarrowOffersOnlyWhatTheStoryKnows: the Colonel's alibi is asked once,
// a Colonel with nothing left to ask costs no hour to revisit, and the
// Colonel's word alone (no rind from the sett) does not let the player
// blame the badger, whose ending produces the rind as evidence.
func TestMarrowOffersOnlyWhatTheStoryKnows(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	offered := func(s *core.GameState) map[string]bool {
		t.Helper()
		sc, err := e.Scene(s)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, a := range sc.Actions {
			out[a.ID] = true
		}
		return out
	}
	s := mustCreate(t, e, "the-marrow-affair", "offers")
	for _, a := range []string{"take_the_case", "examine_ground", "note_it", "out_to_green", "visit_colonel"} {
		s = mustSubmit(t, e, s, a)
	}
	if !offered(s)["ask_alibi"] {
		t.Fatal("the alibi is not offered on the first call")
	}
	s = mustSubmit(t, e, s, "ask_alibi")
	s = mustSubmit(t, e, s, "thank_him")
	s = mustSubmit(t, e, s, "visit_colonel")
	if offered(s)["ask_alibi"] {
		t.Fatal("the alibi is offered again after it was asked")
	}
	s = mustSubmit(t, e, s, "inspect_boots")
	s = mustSubmit(t, e, s, "shrug")
	s = mustSubmit(t, e, s, "leave")
	if offered(s)["visit_colonel"] {
		t.Fatal("the Colonel, with nothing left to ask, still costs an hour to visit")
	}
	s = mustSubmit(t, e, s, "go_to_judging")
	if offered(s)["blame_badger"] {
		t.Fatal("blaming the badger is offered on the Colonel's word, with no rind to show")
	}
}
