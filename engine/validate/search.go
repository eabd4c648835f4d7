package validate

import (
	"fmt"
	"maps"
	"slices"
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
	// Terminals is every terminal id reached, with the number (in
	// breadth-first order, from 0) of the first explored state resting on
	// it; PathTo gives the moves of a shortest path there.
	Terminals map[string]int
	// DeadEnds are paths to non-terminal states with no moves.
	DeadEnds [][]string
	// Unwinnable are paths to states (with moves) from which no explored
	// path reaches a terminal.
	Unwinnable [][]string
	// Unsupported are, per element whose facts a FactChecker space found
	// broken, the first (shortest) path there and the facts missing on it.
	Unsupported []Unsupported

	tree tree
}

// Unsupported is an element reached without some facts it relies on.
type Unsupported struct {
	Element string
	Facts   []string
	Path    []string
}

// PathTo returns the moves of a shortest path from the start to terminal
// id, and whether the search reached it.
func (ex Exploration) PathTo(id string) ([]string, bool) {
	i, ok := ex.Terminals[id]
	if !ok {
		return nil, false
	}
	return ex.tree.path(int32(i)), true
}

// maxExamples bounds how many dead ends and unwinnable states are reported.
const maxExamples = 5

// tree is the breadth-first search tree, one entry per explored state:
// the state it was first reached from (-1 for a start), the move's label
// and the number of moves from the start. It is all an Exploration keeps of
// the search, so a path is built only when asked for: materializing a path
// to every terminal would cost the sum of their depths, which grows as the
// square of a long graph's size.
type tree struct {
	parent []int32
	move   []string
	depth  []int32
}

func (t *tree) add(parent int32, move string, depth int32) {
	t.parent = append(t.parent, parent)
	t.move = append(t.move, move)
	t.depth = append(t.depth, depth)
}

// path returns the moves from the start to state i.
func (t *tree) path(i int32) []string {
	moves := make([]string, t.depth[i])
	for ; i >= 0 && t.parent[i] >= 0; i = t.parent[i] {
		moves[t.depth[i]-1] = t.move[i]
	}
	return moves
}

// Explore runs a breadth-first search of s within b. Random outcomes are
// all explored, so "reachable" means reachable under some draw.
//
// Its cost is linear in the states explored: each state is keyed and
// expanded once, the edges are kept in flat arrays (the successors of
// state i are succ[first[i]:first[i+1]], in expansion order), and a
// state's value is dropped once it is expanded, so only the frontier is
// held.
func Explore(s Space, b Budget) Exploration {
	ex := Exploration{Reached: map[string]bool{}, Terminals: map[string]int{}}
	t := &ex.tree
	index := newIndex()
	var states []State // states[i] until state i is expanded
	var goal []bool    // terminal, or not expanded because a cap stopped the search there
	facts, _ := s.(FactChecker)
	broken := map[string]bool{}
	add := func(st State, parent int32, move string, depth int32) int32 {
		k := s.Key(st)
		if i, ok := index.get(k); ok {
			return i
		}
		if len(states) >= b.MaxStates {
			ex.Bounded = true
			return -1
		}
		i := int32(len(states))
		index.put(k, i)
		states = append(states, st)
		goal = append(goal, false)
		t.add(parent, move, depth)
		return i
	}
	for _, st := range s.Start() {
		add(st, -1, "", 0)
	}
	first := make([]int32, 0, len(states)+1)
	var succ []int32
	for i := int32(0); int(i) < len(states); i++ {
		first = append(first, int32(len(succ)))
		st := states[i]
		states[i] = nil
		for _, el := range s.Covers(st) {
			ex.Reached[el] = true
		}
		if facts != nil {
			if el, missing := facts.Unsupported(st); len(missing) > 0 && !broken[el] {
				broken[el] = true
				ex.Unsupported = append(ex.Unsupported, Unsupported{Element: el, Facts: missing, Path: t.path(i)})
			}
		}
		if id := s.Terminal(st); id != "" {
			goal[i] = true
			if _, seen := ex.Terminals[id]; !seen {
				ex.Terminals[id] = int(i)
			}
			continue
		}
		moves := s.Moves(st)
		if len(moves) == 0 {
			if len(ex.DeadEnds) < maxExamples {
				ex.DeadEnds = append(ex.DeadEnds, t.path(i))
			}
			continue
		}
		depth := t.depth[i]
		if int(depth) >= b.MaxDepth {
			goal[i] = true
			ex.Bounded = true
			continue
		}
		for _, m := range moves {
			for _, out := range m.Outcomes {
				j := add(out, i, m.Label, depth+1)
				if j < 0 {
					goal[i] = true
					continue
				}
				succ = append(succ, j)
			}
		}
	}
	first = append(first, int32(len(succ)))
	ex.States = len(states)
	ex.Unwinnable = unwinnable(t, first, succ, goal)
	return ex
}

// index numbers the explored states by key. A key of up to shortKey bytes,
// the common case, is kept inline in a map whose entries hold no pointer:
// no allocation per key, nothing for the garbage collector to scan, no
// pointer to follow on a lookup, which keeps the cost per state flat as
// the search grows. Longer keys go in a map of strings. A key's length
// picks its map, so equal keys always meet in the same one.
type index struct {
	short map[[shortKey + 1]byte]int32
	long  map[string]int32
}

const shortKey = 15

func newIndex() index {
	return index{short: map[[shortKey + 1]byte]int32{}, long: map[string]int32{}}
}

// inline returns k as a short map key: its length, then its bytes.
func inline(k string) (a [shortKey + 1]byte) {
	a[0] = byte(len(k))
	copy(a[1:], k)
	return a
}

func (x index) get(k string) (int32, bool) {
	var i int32
	var ok bool
	if len(k) <= shortKey {
		i, ok = x.short[inline(k)]
	} else {
		i, ok = x.long[k]
	}
	return i, ok
}

func (x index) put(k string, i int32) {
	if len(k) <= shortKey {
		x.short[inline(k)] = i
	} else {
		x.long[k] = i
	}
}

// unwinnable finds states with moves from which no goal (a terminal, or
// an unexplored frontier, which might lead to one) is reachable. The edges
// are first[i]..first[i+1] of succ, as Explore keeps them.
func unwinnable(t *tree, first, succ []int32, goal []bool) [][]string {
	n := len(goal)
	// The predecessors, flat in the same way: those of j are
	// pred[pfirst[j]:pfirst[j+1]].
	pfirst := make([]int32, n+1)
	for _, j := range succ {
		pfirst[j+1]++
	}
	for j := 0; j < n; j++ {
		pfirst[j+1] += pfirst[j]
	}
	pred := make([]int32, len(succ))
	fill := append([]int32(nil), pfirst[:n]...)
	for i := 0; i < n; i++ {
		for _, j := range succ[first[i]:first[i+1]] {
			pred[fill[j]] = int32(i)
			fill[j]++
		}
	}
	win := append([]bool(nil), goal...)
	var queue []int32
	for i, g := range goal {
		if g {
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range pred[pfirst[j]:pfirst[j+1]] {
			if !win[i] {
				win[i] = true
				queue = append(queue, i)
			}
		}
	}
	var out [][]string
	for i := 0; i < n; i++ {
		// Report the first state of each losing region: a losing state
		// whose parent could still win.
		p := t.parent[i]
		if win[i] || first[i] == first[i+1] || (p >= 0 && !win[p]) {
			continue
		}
		out = append(out, t.path(int32(i)))
		if len(out) == maxExamples {
			break
		}
	}
	return out
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
	for _, id := range slices.Sorted(maps.Keys(terms)) {
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
	for _, u := range ex.Unsupported {
		w := core.Errorf(core.ReasonFactUnsupported, u.Element, "reached without %s after: %s", strings.Join(u.Facts, ", "), describe(u.Path))
		w.Details = map[string]any{"facts": u.Facts}
		out = append(out, w)
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
