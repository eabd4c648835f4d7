package world

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/validate"
)

var _ validate.Explorable = Kind{}

// spaceTicks is how far one tier 3 move advances the world, and
// carefulTicks how often the careful candidate decides within it.
const (
	spaceTicks   = 72
	carefulTicks = 24
)

// StateSpace implements validate.Explorable. A move is a stretch of
// spaceTicks ticks under a fixed seed: played by the careful player
// (carefulDecisions every carefulTicks), or after one decision — wait;
// build the most appealing affordable building on the first free site;
// build the cheapest; build the most appealing affordable building on
// every free site, keeping a reserve. States are keyed by tick, how many of
// each building stand, staff and objectives (where they stand, money,
// guests and rating are left out), so the search is an abstraction whose
// findings are leads, not proofs.
func (Kind) StateSpace(c *core.Campaign) validate.Space {
	return space{c: contentOf(c)}
}

type space struct{ c *Content }

func (sp space) derive(id rng.StreamID) *rng.Handle { return rng.For("tier3", id) }

func (sp space) Start() []validate.State {
	return []validate.State{Kind{}.InitialState(&core.Campaign{Content: sp.c}, nil, nil).State}
}

func (sp space) Key(st validate.State) string {
	s := st.(*State)
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%s|%s", s.Tick, s.Resolution, s.FailureID)
	built := map[string]int{}
	for _, site := range s.Sites {
		built[site.Building]++
	}
	for _, bd := range sp.c.Buildings {
		if n := built[bd.ID]; n > 0 {
			fmt.Fprintf(&b, "|%s×%d", bd.ID, n)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(s.Staff)) {
		fmt.Fprintf(&b, "|%s×%d", id, s.Staff[id])
	}
	for _, id := range slices.Sorted(maps.Keys(s.Objectives)) {
		fmt.Fprintf(&b, "|o:%s=%s", id, s.Objectives[id])
	}
	return b.String()
}

func (sp space) Moves(st validate.State) []validate.Move {
	s := st.(*State)
	if s.Resolution != "" {
		return nil
	}
	then := func(label string, next *State) validate.Move {
		f := advanceTicks(next, sp.c, spaceTicks, sp.derive)
		return validate.Move{Label: fmt.Sprintf("hour %d: %s", s.Tick, label), Outcomes: []validate.State{f.s}}
	}
	moves := []validate.Move{
		{Label: fmt.Sprintf("hour %d: play carefully", s.Tick), Outcomes: []validate.State{sp.carefully(s)}},
		then("wait", s),
	}
	for free := range sp.c.freeSites(s) {
		best, cheap := sp.c.mostAppealing(s.Money, 0), -1
		for i, b := range sp.c.Buildings {
			if b.Cost <= s.Money && (cheap < 0 || b.Cost < sp.c.Buildings[cheap].Cost) {
				cheap = i
			}
		}
		for _, i := range []int{best, cheap} {
			if i < 0 || (i == cheap && cheap == best) {
				continue
			}
			b := &sp.c.Buildings[i]
			next := s.clone()
			next.place(plot{node: free, building: b})
			moves = append(moves, then("build "+b.ID+" on "+free, next))
		}
		break // the first free site only
	}
	if fill := sp.fill(s); fill != nil {
		moves = append(moves, then("build the best it can afford everywhere, keeping a reserve", fill))
	}
	return moves
}

// fill builds, on every free site in node order, the most appealing
// building that leaves a reserve of a tenth of the starting money
// (plots); nil when it builds nothing.
func (sp space) fill(s *State) *State {
	ps := sp.c.plots(s, sp.c.StartingMoney/10)
	if len(ps) == 0 {
		return nil
	}
	next := s.clone()
	for _, p := range ps {
		next.place(p)
	}
	return next
}

// A plot is a free site and the building chosen for it.
type plot struct {
	node     string
	building *Building
}

// plots lists, on every free site in node order, the most appealing
// building the money left affords while keeping reserve, paying for each
// as it goes; it stops at the first site where none is affordable.
func (c *Content) plots(s *State, reserve int64) []plot {
	var out []plot
	money := s.Money
	for node := range c.freeSites(s) {
		best := c.mostAppealing(money, reserve)
		if best < 0 {
			break
		}
		b := &c.Buildings[best]
		money -= b.Cost
		out = append(out, plot{node: node, building: b})
	}
	return out
}

// freeSites yields, in node order, the buildable nodes nothing stands on
// in s.
func (c *Content) freeSites(s *State) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, n := range c.Nodes {
			if _, taken := s.Sites[n.ID]; n.Buildable && !taken && !yield(n.ID) {
				return
			}
		}
	}
}

// mostAppealing is the index of the most appealing building (the first of
// equals) that money affords while keeping reserve, or -1.
func (c *Content) mostAppealing(money, reserve int64) int {
	best := -1
	for i, b := range c.Buildings {
		if b.Cost+reserve <= money && (best < 0 || b.Appeal > c.Buildings[best].Appeal) {
			best = i
		}
	}
	return best
}

// place pays for p's building and puts it up on p's site, at its default
// price band.
func (s *State) place(p plot) {
	s.Money -= p.building.Cost
	s.Sites[p.node] = Site{Building: p.building.ID, Band: p.building.DefaultBand}
}

func (sp space) Terminal(st validate.State) string { return st.(*State).Resolution }

func (sp space) Covers(st validate.State) []string {
	s := st.(*State)
	var out []string
	for _, site := range s.Sites {
		out = append(out, "buildings."+site.Building)
	}
	for id := range s.Staff {
		out = append(out, "staff."+id)
	}
	for id, o := range s.Objectives {
		if o == ObjectiveMet {
			out = append(out, "objectives."+id)
		}
	}
	return out
}

func (sp space) Elements() []string {
	var out []string
	for _, b := range sp.c.Buildings {
		out = append(out, "buildings."+b.ID)
	}
	for _, st := range sp.c.Staff {
		out = append(out, "staff."+st.ID)
	}
	for _, o := range sp.c.Objectives {
		out = append(out, "objectives."+o.ID)
	}
	return out
}

func (sp space) Terminals() map[string]string {
	return map[string]string{
		ResolutionObjectivesMet: "endings.objectives_met",
		ResolutionFailed:        "endings.failed",
	}
}

// A decision is one verb and its params, as a policy would submit them.
type decision struct {
	verb   string
	params core.Params
}

// carefulDecisions are the decisions of a careful player before the next
// stretch of time: hire one of each repairing staff once two sites stand
// and one of each cheering staff once three do, then build, on every free
// site in node order, the most appealing building it can afford while
// keeping an eighth of the starting money in reserve. It is a tier 3
// candidate and the scripted careful player of the tests.
func carefulDecisions(s *State, c *Content) []decision {
	var out []decision
	for _, st := range c.Staff {
		if s.Staff[st.ID] == 0 && (st.Repairs > 0 && len(s.Sites) >= 2 || st.Cheer > 0 && len(s.Sites) >= 3) {
			out = append(out, decision{ActionHire, core.Params{"staff": st.ID}})
		}
	}
	for _, p := range c.plots(s, c.StartingMoney/8) {
		out = append(out, decision{ActionBuild, core.Params{"building": p.building.ID, "node": p.node}})
	}
	return out
}

// carefully plays the careful player for spaceTicks ticks, deciding every
// carefulTicks.
func (sp space) carefully(s *State) *State {
	for t := int64(0); t < spaceTicks && s.Resolution == ""; t += carefulTicks {
		for _, d := range carefulDecisions(s, sp.c) {
			s = d.apply(s, sp.c)
		}
		s = advanceTicks(s, sp.c, carefulTicks, sp.derive).s
	}
	return s
}

// apply takes decision d in s through its verb; a refused one changes
// nothing.
func (d decision) apply(s *State, c *Content) *State {
	var res core.AdvanceResult
	switch d.verb {
	case ActionBuild:
		res = build(s, c, d.params)
	case ActionHire, ActionFire:
		res = staffing(s, c, d.verb, d.params)
	default:
		return s
	}
	if res.Error != nil {
		return s
	}
	return res.State.(*State)
}
