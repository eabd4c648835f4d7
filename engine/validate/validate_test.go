package validate_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/testkind"
	"github.com/storyloom/storyloom/engine/validate"
)

// graph is a hand-made Space: node → moves (each a list of outcomes).
type graph struct {
	start     []string
	moves     map[string][][]string
	terminals map[string]string // node → terminal id
	elements  []string
}

func (g graph) Start() []validate.State {
	out := []validate.State{}
	for _, s := range g.start {
		out = append(out, s)
	}
	return out
}
func (g graph) Key(s validate.State) string      { return s.(string) }
func (g graph) Terminal(s validate.State) string { return g.terminals[s.(string)] }
func (g graph) Moves(s validate.State) []validate.Move {
	var out []validate.Move
	for i, outs := range g.moves[s.(string)] {
		m := validate.Move{Label: s.(string) + "." + strconv.Itoa(i)}
		for _, o := range outs {
			m.Outcomes = append(m.Outcomes, o)
		}
		out = append(out, m)
	}
	return out
}
func (g graph) Covers(s validate.State) []string { return []string{"nodes." + s.(string)} }
func (g graph) Elements() []string               { return g.elements }
func (g graph) Terminals() map[string]string {
	out := map[string]string{}
	for n, id := range g.terminals {
		out[id] = "nodes." + n
	}
	return out
}

func TestExploreFindsEveryProblem(t *testing.T) {
	g := graph{
		start: []string{"a"},
		moves: map[string][][]string{
			"a":     {{"b"}, {"coin"}},
			"b":     {{"win"}},
			"coin":  {{"pit", "b"}}, // a random move: one branch is a dead end
			"pit":   {},
			"loop":  {{"loop"}},
			"trap":  {{"trap2"}},
			"trap2": {{"trap"}},
			"lost":  {{"lose"}},
		},
		terminals: map[string]string{"win": "good_end", "lose": "bad_end"},
		elements:  []string{"nodes.a", "nodes.b", "nodes.coin", "nodes.pit", "nodes.loop", "nodes.win"},
	}
	g.moves["b"] = append(g.moves["b"], []string{"trap"})
	ex := validate.Explore(g, validate.Budget{MaxStates: 100, MaxDepth: 50})
	if ex.Bounded {
		t.Fatal("a small graph hit the budget")
	}
	if ex.Reached["nodes.loop"] || !ex.Reached["nodes.pit"] {
		t.Fatalf("reached = %v", ex.Reached)
	}
	if p, ok := ex.PathTo("good_end"); !ok || strings.Join(p, ",") != "a.0,b.0" {
		t.Fatalf("path to good_end = %v", p)
	}
	if _, ok := ex.PathTo("bad_end"); ok {
		t.Fatal("bad_end is unreachable")
	}
	if len(ex.DeadEnds) != 1 || strings.Join(ex.DeadEnds[0], ",") != "a.1,coin.0" {
		t.Fatalf("dead ends = %v", ex.DeadEnds)
	}
	if len(ex.Unwinnable) != 1 || strings.Join(ex.Unwinnable[0], ",") != "a.0,b.1" {
		t.Fatalf("unwinnable = %v", ex.Unwinnable)
	}
}

func TestExploreReportsItsBound(t *testing.T) {
	// An endless corridor: the search must stop and say so.
	g := corridor{}
	ex := validate.Explore(g, validate.Budget{MaxStates: 50, MaxDepth: 1000})
	if !ex.Bounded || ex.States != 50 {
		t.Fatalf("bounded=%v states=%d", ex.Bounded, ex.States)
	}
	if len(ex.Unwinnable) != 0 {
		t.Fatal("a state that reaches the frontier must not count as unwinnable")
	}
	ex = validate.Explore(g, validate.Budget{MaxStates: 1000, MaxDepth: 10})
	if !ex.Bounded {
		t.Fatal("depth cap not reported")
	}
}

type corridor struct{}

func (corridor) Start() []validate.State        { return []validate.State{0} }
func (corridor) Key(s validate.State) string    { return strconv.Itoa(s.(int)) }
func (corridor) Terminal(validate.State) string { return "" }
func (corridor) Moves(s validate.State) []validate.Move {
	return []validate.Move{{Label: "on", Outcomes: []validate.State{s.(int) + 1}}}
}
func (corridor) Covers(validate.State) []string { return nil }
func (corridor) Elements() []string             { return nil }
func (corridor) Terminals() map[string]string   { return map[string]string{"end": "end"} }

func TestCampaignsRunsAllTiers(t *testing.T) {
	kinds := []core.Kind{testkind.Kind{}}
	// achieveAt 5 with a goal of 3 is past the goal: a tier 2 warning from
	// the kind, and tier 3 proves no path reaches it.
	body := strings.Replace(string(testkind.Campaign("short", "1.0.0", 3)), `"achieveAt":5`, `"achieveAt":9`, 1)
	rep := validate.Campaigns(kinds, validate.DefaultBudget(), content.Source{Path: "short.json", Campaign: []byte(body)})
	if rep.Registry == nil || rep.Errors() != 0 {
		t.Fatalf("errors: %+v", rep.Findings)
	}
	var tiers []string
	for _, f := range rep.Findings {
		tiers = append(tiers, strconv.Itoa(f.Tier)+":"+f.Code)
		if f.Details["file"] != "short.json" || f.Details["campaignId"] != "short" {
			t.Fatalf("finding without file or campaign: %+v", f)
		}
	}
	if strings.Join(tiers, " ") != "2:unreachable_content 3:unreachable_content" {
		t.Fatalf("findings = %v", tiers)
	}
	if _, ok := rep.Explorations["short"].Terminals["done"]; !ok {
		t.Fatal("the ending was not reached")
	}
	bad := validate.Campaigns(kinds, validate.DefaultBudget(), content.Source{Path: "bad.json", Campaign: []byte("{")})
	if bad.Registry != nil || bad.Errors() != 1 || bad.Findings[0].Tier != 1 {
		t.Fatalf("bad = %+v", bad.Findings)
	}
}

// exits is a corridor of n rooms where every 7th room has a door to an
// ending of its own: many endings, each deep in the graph. With pad, its
// keys are longer than the search keeps inline.
type exits struct {
	n   int
	pad string
}

func (exits) Start() []validate.State       { return []validate.State{0} }
func (g exits) Key(s validate.State) string { return g.pad + strconv.Itoa(s.(int)) }
func (exits) Terminal(s validate.State) string {
	if r := s.(int); r < 0 {
		return "exit" + strconv.Itoa(-r)
	}
	return ""
}
func (g exits) Moves(s validate.State) []validate.Move {
	r := s.(int)
	var out []validate.Move
	if r+1 < g.n {
		out = append(out, validate.Move{Label: "on", Outcomes: []validate.State{r + 1}})
	}
	if r > 0 && r%7 == 0 {
		out = append(out, validate.Move{Label: "out" + strconv.Itoa(r), Outcomes: []validate.State{-r}})
	}
	return out
}
func (exits) Covers(validate.State) []string { return nil }
func (exits) Elements() []string             { return nil }
func (exits) Terminals() map[string]string   { return nil }

func TestPathToEveryTerminal(t *testing.T) {
	for _, tc := range []struct{ name, pad string }{{"short keys", ""}, {"long keys", strings.Repeat("room ", 4)}} {
		t.Run(tc.name, func(t *testing.T) {
			ex := validate.Explore(exits{n: 51, pad: tc.pad}, validate.Budget{MaxStates: 1000, MaxDepth: 1000})
			if ex.States != 51+7 || len(ex.Terminals) != 7 || len(ex.DeadEnds) != 1 || len(ex.DeadEnds[0]) != 50 {
				t.Fatalf("states %d, terminals %v, dead ends %v", ex.States, ex.Terminals, ex.DeadEnds)
			}
			for r := 7; r < 50; r += 7 {
				p, ok := ex.PathTo("exit" + strconv.Itoa(r))
				want := strings.Repeat("on,", r) + "out" + strconv.Itoa(r)
				if !ok || strings.Join(p, ",") != want {
					t.Errorf("path to exit%d = %v", r, p)
				}
			}
		})
	}
}
