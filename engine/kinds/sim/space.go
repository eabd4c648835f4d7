package sim

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/validate"
)

var _ validate.Explorable = Kind{}

// spaceSeeds are the seeds whose draws the tier 3 search samples: each
// week's incident and market outcome is explored under every one of them.
var spaceSeeds = []string{"tier3-a", "tier3-b"}

// StateSpace implements validate.Explorable. A move is a whole week: one of
// a small set of candidate plans (the careful planner's plan aiming for the
// gated work first, as a player who reads the requirements does; an empty
// plan; the careful planner's plan keeping protected stats above 30, and
// above 60; one of every offerable activity in turn until nothing fits),
// then end_week, whose random outcomes are sampled under a few fixed
// seeds. States are keyed coarsely (week, goals, chains, flags, net worth
// in 500-unit steps, stats in steps of 25), so the search is an
// abstraction: its findings are leads for an author, not proofs.
func (Kind) StateSpace(c *core.Campaign) validate.Space {
	return space{c: contentOf(c)}
}

type space struct{ c *Content }

func (sp space) Start() []validate.State {
	init := Kind{}.InitialState(&core.Campaign{Content: sp.c}, nil, nil)
	return []validate.State{init.State}
}

func (sp space) Key(st validate.State) string {
	s := st.(*State)
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%s|%d", s.Week, s.Resolution, floorDiv(s.Money+s.Invested, 50000))
	for _, id := range slices.Sorted(maps.Keys(s.Stats)) {
		fmt.Fprintf(&b, "|%s=%d", id, floorDiv(s.Stats[id], 25))
	}
	for _, id := range slices.Sorted(maps.Keys(s.Goals)) {
		fmt.Fprintf(&b, "|g:%s=%s", id, s.Goals[id])
	}
	for _, id := range slices.Sorted(maps.Keys(s.Chains)) {
		fmt.Fprintf(&b, "|c:%s=%d", id, s.Chains[id])
	}
	fmt.Fprintf(&b, "|f:%s", strings.Join(s.Flags, ","))
	return b.String()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// candidate is a labelled plan for a week.
type candidate struct {
	label string
	plan  []PlanItem
}

// candidates returns the candidate plans of a week: the careful planner
// aiming for the gated work first (unlockChains), an empty plan, the
// careful planner keeping protected stats above 30 and above 60, and one
// of every offerable activity in turn until nothing fits.
func (sp space) candidates(s *State) []candidate {
	c := sp.c
	out := []candidate{
		{"careful, unlocking the gated work first", carefulPlan(s, c, 30, unlockChains(c))},
		{"rest", nil},
	}
	for _, margin := range []int64{30, 60} {
		out = append(out, candidate{fmt.Sprintf("careful (stats kept above %d)", margin), carefulPlan(s, c, margin, nil)})
	}
	if plan := fillPlan(s, c, func(a activityView) bool { return a.ID != ActivityWithdraw }); len(plan) > 1 {
		out = append(out, candidate{"a bit of everything", plan})
	}
	return out
}

func (sp space) Moves(st validate.State) []validate.Move {
	s := st.(*State)
	if s.Resolution != "" {
		return nil
	}
	var moves []validate.Move
	for _, cand := range sp.candidates(s) {
		planned := s.clone()
		planned.Plan = cand.plan
		m := validate.Move{Label: fmt.Sprintf("week %d: %s", s.Week+1, cand.label)}
		for _, seed := range spaceSeeds {
			seed := seed
			res := endWeek(planned, sp.c, nil, nil, func(id rng.StreamID) *rng.Handle { return rng.For(seed, id) })
			m.Outcomes = append(m.Outcomes, res.State)
		}
		moves = append(moves, m)
	}
	return moves
}

func (sp space) Terminal(st validate.State) string { return st.(*State).Resolution }

func (sp space) Covers(st validate.State) []string {
	s := st.(*State)
	var out []string
	for id, n := range s.Done {
		if n > 0 {
			out = append(out, "activities."+id)
		}
	}
	for _, rec := range s.History {
		if rec.Incident != "" {
			out = append(out, "incidents.pool."+rec.Incident)
		}
		for _, step := range rec.Steps {
			out = append(out, "chains."+strings.Replace(step, ".", ".steps.", 1))
		}
	}
	for id, g := range s.Goals {
		if g == GoalMet {
			out = append(out, "goals."+id)
		}
	}
	return out
}

func (sp space) Elements() []string {
	var out []string
	for _, a := range sp.c.Activities {
		out = append(out, "activities."+a.ID)
	}
	for _, in := range sp.c.Incidents.Pool {
		out = append(out, "incidents.pool."+in.ID)
	}
	for _, ch := range sp.c.Chains {
		if ch.Scope == ScopeProfile {
			continue // a profile chain may need several games
		}
		for _, st := range ch.Steps {
			out = append(out, "chains."+ch.ID+".steps."+st.ID)
		}
	}
	for _, g := range sp.c.Goals {
		out = append(out, "goals."+g.ID)
	}
	return out
}

func (sp space) Terminals() map[string]string {
	return map[string]string{
		ResolutionGoalsMet:         "endings.goals_met",
		ResolutionFailed:           "endings.failed",
		ResolutionWeekLimitReached: "endings.week_limit_reached",
	}
}
