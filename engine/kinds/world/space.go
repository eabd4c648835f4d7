package world

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

// spaceTicks is how far one tier 3 move advances the world.
const spaceTicks = 72

// StateSpace implements validate.Explorable. A move is a decision followed
// by advancing spaceTicks ticks under a fixed seed: wait; build the most
// appealing affordable building on the first free site; build the
// cheapest; build the most appealing affordable building on every free
// site, keeping a reserve; hire one of a kind of staff not hired yet. States are keyed by
// tick, what stands where, staff and objectives (money, guests and rating
// are left out), so the search is an abstraction whose findings are leads,
// not proofs.
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
	for _, n := range sp.c.Nodes {
		if site, ok := s.Sites[n.ID]; ok {
			fmt.Fprintf(&b, "|%s=%s", n.ID, site.Building)
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
	moves := []validate.Move{then("wait", s)}
	free := ""
	for _, n := range sp.c.Nodes {
		if _, taken := s.Sites[n.ID]; n.Buildable && !taken {
			free = n.ID
			break
		}
	}
	if free != "" {
		best, cheap := -1, -1
		for i, b := range sp.c.Buildings {
			if b.Cost > s.Money {
				continue
			}
			if best < 0 || b.Appeal > sp.c.Buildings[best].Appeal {
				best = i
			}
			if cheap < 0 || b.Cost < sp.c.Buildings[cheap].Cost {
				cheap = i
			}
		}
		for _, i := range []int{best, cheap} {
			if i < 0 || (i == cheap && cheap == best) {
				continue
			}
			b := &sp.c.Buildings[i]
			next := s.clone()
			next.Money -= b.Cost
			next.Sites[free] = Site{Building: b.ID, Band: b.DefaultBand}
			moves = append(moves, then("build "+b.ID+" on "+free, next))
		}
	}
	if fill := sp.fill(s); fill != nil {
		moves = append(moves, then("build the best it can afford everywhere, keeping a reserve", fill))
	}
	for _, st := range sp.c.Staff {
		if s.Staff[st.ID] == 0 {
			next := s.clone()
			next.Staff[st.ID] = 1
			moves = append(moves, then("hire "+st.ID, next))
		}
	}
	return moves
}

// fill builds, on every free site in node order, the most appealing
// building that leaves a reserve of a tenth of the starting money; nil when
// it builds nothing.
func (sp space) fill(s *State) *State {
	reserve := sp.c.StartingMoney / 10
	var next *State
	for _, n := range sp.c.Nodes {
		cur := s
		if next != nil {
			cur = next
		}
		if _, taken := cur.Sites[n.ID]; !n.Buildable || taken {
			continue
		}
		best := -1
		for i, b := range sp.c.Buildings {
			if b.Cost+reserve <= cur.Money && (best < 0 || b.Appeal > sp.c.Buildings[best].Appeal) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		if next == nil {
			next = s.clone()
		}
		b := &sp.c.Buildings[best]
		next.Money -= b.Cost
		next.Sites[n.ID] = Site{Building: b.ID, Band: b.DefaultBand}
	}
	return next
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
