package story

import (
	"encoding/binary"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

var _ validate.Explorable = Kind{}

// StateSpace implements validate.Explorable: the campaign's play as an
// abstract state space for the tier 3 search (§11.3 of
// docs/story-graph-kind.md). A state is the node, the variables, the
// unlocked achievements, the visit counts and the turn only if some
// condition reads them (saturated just above the largest number any
// condition compares them with, which keeps the space finite without
// changing any condition's answer), and, while a settle is under way, the
// random draws taken so far. A random node is a state of its own whose one
// move has an outcome per transition, so the search follows every branch
// and covers the random nodes themselves; the settle cap is the engine's,
// MaxSettleSteps. Element paths are "content.nodes.<id>".
//
// A campaign that is not story-graph content, or that fails tier 1, yields
// an empty space.
func (Kind) StateSpace(c *core.Campaign) validate.Space {
	sc, err := contentOf(c)
	if err != nil || sc.index().start < 0 {
		return &space{}
	}
	return &space{c: sc}
}

// space is used by one search at a time: buf is Key's scratch buffer.
type space struct {
	c   *Content
	buf []byte
}

// spaceState is one abstract state: a search State and the settle in
// progress when the cursor stands on a random node mid-settle.
type spaceState struct {
	s     *State
	steps int  // random draws taken in the current settle
	mid   bool // mid-settle: the batch is not finished
}

func (sp *space) Start() []validate.State {
	if sp.c == nil {
		return nil
	}
	c, ix := sp.c, sp.c.ix
	base := &State{c: c, node: ix.start, visits: make([]int64, len(ix.visitRead)), achieved: make([]bool, len(c.Achievements)), space: true}
	base.vars, base.strs = newVars(c)
	for i, v := range c.Variables {
		base.setValue(i, v.Initial)
	}
	b := newBatch(base)
	b.enter(ix.start)
	return []validate.State{sp.rest(b)}
}

// rest finishes b unless it stands mid-settle on a random node.
func (sp *space) rest(b batch) spaceState {
	if sp.c.ix.nodes[b.s.node].typ == typRandom && b.steps < MaxSettleSteps {
		return spaceState{s: b.s, steps: b.steps, mid: true}
	}
	b.finish()
	return spaceState{s: b.s}
}

func (sp *space) Key(st validate.State) string {
	ss := st.(spaceState)
	s := ss.s
	buf := sp.buf[:0]
	buf = binary.AppendUvarint(buf, uint64(s.node))
	if ss.mid {
		buf = binary.AppendUvarint(buf, uint64(ss.steps)+1)
	} else {
		buf = append(buf, 0)
	}
	buf = binary.AppendVarint(buf, s.turn)
	for i, n := range s.vars {
		switch sp.c.ix.varType[i] {
		case vtInt:
			buf = binary.AppendVarint(buf, n)
		case vtBool:
			buf = append(buf, byte(n))
		default:
			buf = binary.AppendUvarint(buf, uint64(len(s.strs[i])))
			buf = append(buf, s.strs[i]...)
		}
	}
	var acc byte
	for i, on := range s.achieved {
		if on {
			acc |= 1 << (i % 8)
		}
		if i%8 == 7 {
			buf = append(buf, acc)
			acc = 0
		}
	}
	buf = append(buf, acc)
	for _, n := range s.visits {
		buf = binary.AppendUvarint(buf, uint64(n))
	}
	sp.buf = buf
	return string(buf)
}

func (sp *space) Moves(st validate.State) []validate.Move {
	ss := st.(spaceState)
	s := ss.s
	ix := sp.c.ix
	cn := &ix.nodes[s.node]
	node := &sp.c.Nodes[s.node]
	if ss.mid {
		outs := make([]validate.State, 0, len(cn.trans))
		for _, t := range cn.trans {
			if t.Item < 0 {
				continue
			}
			b := newBatch(s)
			b.pre, b.steps = nil, ss.steps+1
			b.enter(t.Item)
			outs = append(outs, sp.rest(b))
		}
		return []validate.Move{{Label: cn.label, Outcomes: outs}}
	}
	if cn.typ != typChoice {
		return nil
	}
	var moves []validate.Move
	for i := range node.Choices {
		if choiceGate(s, &node.Choices[i]) != gateOpen || cn.choices[i].to < 0 {
			continue
		}
		b := newBatch(s)
		b.choose(&cn.choices[i])
		moves = append(moves, validate.Move{Label: cn.choices[i].label, Outcomes: []validate.State{sp.rest(b)}})
	}
	return moves
}

func (sp *space) Terminal(st validate.State) string {
	ss := st.(spaceState)
	if ss.mid || sp.c.ix.nodes[ss.s.node].typ != typEnding {
		return ""
	}
	return sp.c.Nodes[ss.s.node].EndingID
}

func (sp *space) Covers(st validate.State) []string {
	return sp.c.ix.paths[st.(spaceState).s.node]
}

// Unsupported implements validate.FactChecker: the node s stands on and
// the variables of its ReliesOn that are false in s.
func (sp *space) Unsupported(st validate.State) (string, []string) {
	s := st.(spaceState).s
	var missing []string
	for _, id := range sp.c.Nodes[s.node].ReliesOn {
		if i, ok := sp.c.ix.varByID[id]; ok && !s.value(int(i)).Bool {
			missing = append(missing, id)
		}
	}
	return sp.c.ix.paths[s.node][0], missing
}

func (sp *space) Elements() []string {
	if sp.c == nil {
		return nil
	}
	out := make([]string, len(sp.c.Nodes))
	for i, p := range sp.c.ix.paths {
		out[i] = p[0]
	}
	return out
}

func (sp *space) Terminals() map[string]string {
	out := map[string]string{}
	if sp.c == nil {
		return out
	}
	for i, n := range sp.c.Nodes {
		if n.Type == NodeEnding {
			if _, ok := out[n.EndingID]; !ok {
				out[n.EndingID] = sp.c.ix.paths[i][0]
			}
		}
	}
	return out
}
