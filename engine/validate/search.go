package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
)

// Exploration is what a bounded search of a Space found.
type Exploration struct {
	// States is the number of distinct states explored.
	States int
	// Bounded is true when a cap was reached anywhere: every "not reached"
	// below then means "not proven reachable", never "unreachable".
	Bounded bool
	// Reached is every element path some explored state covers.
	Reached map[string]bool
	// Terminals is every terminal id reached, with the moves of a shortest
	// path to it.
	Terminals map[string][]string
	// DeadEnds are paths to non-terminal states with no moves.
	DeadEnds [][]string
	// Unwinnable are paths to states (with moves) from which no explored
	// path reaches a terminal.
	Unwinnable [][]string
}

// maxExamples bounds how many dead ends and unwinnable states are reported.
const maxExamples = 5

type node struct {
	state  State
	parent int
	move   string
	depth  int
	succ   []int
	open   bool // not expanded: a cap stopped the search here
}

// Explore runs a breadth-first search of s within b. Random outcomes are
// all explored, so "reachable" means reachable under some draw.
func Explore(s Space, b Budget) Exploration {
	ex := Exploration{Reached: map[string]bool{}, Terminals: map[string][]string{}}
	index := map[string]int{}
	var nodes []node
	add := func(st State, parent int, move string, depth int) int {
		k := s.Key(st)
		if i, ok := index[k]; ok {
			return i
		}
		if len(nodes) >= b.MaxStates {
			ex.Bounded = true
			return -1
		}
		index[k] = len(nodes)
		nodes = append(nodes, node{state: st, parent: parent, move: move, depth: depth})
		return len(nodes) - 1
	}
	for _, st := range s.Start() {
		add(st, -1, "", 0)
	}
	for i := 0; i < len(nodes); i++ {
		n := &nodes[i]
		for _, el := range s.Covers(n.state) {
			ex.Reached[el] = true
		}
		if t := s.Terminal(n.state); t != "" {
			if _, seen := ex.Terminals[t]; !seen {
				ex.Terminals[t] = pathTo(nodes, i)
			}
			continue
		}
		moves := s.Moves(n.state)
		if len(moves) == 0 {
			if len(ex.DeadEnds) < maxExamples {
				ex.DeadEnds = append(ex.DeadEnds, pathTo(nodes, i))
			}
			continue
		}
		if n.depth >= b.MaxDepth {
			nodes[i].open = true
			ex.Bounded = true
			continue
		}
		depth := n.depth
		for _, m := range moves {
			for _, out := range m.Outcomes {
				j := add(out, i, m.Label, depth+1)
				if j < 0 {
					nodes[i].open = true
					continue
				}
				nodes[i].succ = append(nodes[i].succ, j)
			}
		}
	}
	ex.States = len(nodes)
	ex.Unwinnable = unwinnable(s, nodes)
	return ex
}

// unwinnable finds states with moves from which no terminal (and no
// unexplored frontier, which might lead to one) is reachable.
func unwinnable(s Space, nodes []node) [][]string {
	pred := make([][]int, len(nodes))
	win := make([]bool, len(nodes))
	var queue []int
	for i, n := range nodes {
		for _, j := range n.succ {
			pred[j] = append(pred[j], i)
		}
		if n.open || s.Terminal(n.state) != "" {
			win[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, i := range pred[j] {
			if !win[i] {
				win[i] = true
				queue = append(queue, i)
			}
		}
	}
	var out [][]string
	for i, n := range nodes {
		// Report the first state of each losing region: a losing state
		// whose parent could still win.
		if win[i] || len(n.succ) == 0 || (n.parent >= 0 && !win[n.parent]) {
			continue
		}
		out = append(out, pathTo(nodes, i))
		if len(out) == maxExamples {
			break
		}
	}
	return out
}

func pathTo(nodes []node, i int) []string {
	var moves []string
	for ; i >= 0 && nodes[i].parent >= 0; i = nodes[i].parent {
		moves = append(moves, nodes[i].move)
	}
	for l, r := 0, len(moves)-1; l < r; l, r = l+1, r-1 {
		moves[l], moves[r] = moves[r], moves[l]
	}
	return moves
}

// Tier3 explores campaign c of kind k within b and turns what it found into
// findings: unreachable content and endings, dead ends, unwinnable states,
// and a search_bounded note when a cap was hit. A kind that is not
// Explorable gets no tier 3 findings.
func Tier3(k core.Kind, c *core.Campaign, b Budget) ([]core.ValidationWarning, Exploration) {
	e, ok := k.(Explorable)
	if !ok {
		return nil, Exploration{}
	}
	space := e.StateSpace(c)
	ex := Explore(space, b)
	var out []core.ValidationWarning
	qualifier := ""
	if ex.Bounded {
		qualifier = " within the search budget"
	}
	for _, el := range sortedStrings(space.Elements()) {
		if !ex.Reached[el] {
			out = append(out, core.Errorf(core.ReasonUnreachableContent, el, "no path reaches this%s", qualifier))
		}
	}
	terms := space.Terminals()
	for _, id := range sortedKeys(terms) {
		if _, ok := ex.Terminals[id]; !ok {
			out = append(out, core.Errorf(core.ReasonUnreachableEnding, terms[id], "no path reaches ending %q%s", id, qualifier))
		}
	}
	for _, p := range ex.DeadEnds {
		out = append(out, core.Errorf(core.ReasonDeadEnd, "", "the player is stuck with nothing to do after: %s", describe(p)))
	}
	for _, p := range ex.Unwinnable {
		out = append(out, core.Errorf(core.ReasonUnwinnableState, "", "no ending can be reached after: %s", describe(p)))
	}
	if ex.Bounded {
		w := core.Errorf(core.ReasonSearchBounded, "", "explored %d states before the budget (%d states, depth %d) ran out; findings are not proofs", ex.States, b.MaxStates, b.MaxDepth)
		w.Details = map[string]any{"states": ex.States}
		out = append(out, w)
	}
	return out, ex
}

func describe(path []string) string {
	if len(path) == 0 {
		return "(the start)"
	}
	const max = 12
	if len(path) > max {
		return fmt.Sprintf("%s → … (%d moves) → %s", strings.Join(path[:4], " → "), len(path)-8, strings.Join(path[len(path)-4:], " → "))
	}
	return strings.Join(path, " → ")
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
