package story

import (
	"strings"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/rng"
)

// The condition vocabulary of the story-graph kind (§6 of
// docs/story-graph-kind.md):
//
//	var.<variable>     the variable's value (int, bool or string)
//	visits.<node>      how many times the node has been entered (int)
//	achieved.<id>      whether the achievement is unlocked (bool)
//	turn               choices resolved so far (int)
//	node               the current node's id (string)
//	flags              the ids of the bool variables that are true (for has_flag)
//
// and one collection, "achievements": the unlocked achievements, each with
// the field "id".

// Field implements condition.Resolver over the state.
func (s *State) Field(path string) (any, bool) {
	ix := s.c.ix
	switch {
	case strings.HasPrefix(path, "var."):
		if i, ok := ix.varByID[path[4:]]; ok {
			return s.value(int(i)).Any(), true
		}
	case strings.HasPrefix(path, "visits."):
		if i, ok := ix.nodeByID[path[7:]]; ok {
			if s.space {
				if slot := ix.visitSlot[i]; slot >= 0 {
					return s.visits[slot], true
				}
				return int64(0), true
			}
			return s.visits[i], true
		}
	case strings.HasPrefix(path, "achieved."):
		if i, ok := ix.achByID[path[9:]]; ok {
			return s.achieved[i], true
		}
	case path == "turn":
		return s.turn, true
	case path == "node":
		return s.c.Nodes[s.node].ID, true
	case path == "flags":
		var on []string
		for i, n := range s.vars {
			if ix.varType[i] == vtBool && n != 0 {
				on = append(on, s.c.Variables[i].ID)
			}
		}
		return on, true
	}
	return nil, false
}

// Collection implements condition.Resolver: "achievements" is the only
// collection.
func (s *State) Collection(name string) ([]condition.Resolver, bool) {
	if name != "achievements" {
		return nil, false
	}
	var out []condition.Resolver
	for i, on := range s.achieved {
		if on {
			out = append(out, achievementMember(s.c.Achievements[i].ID))
		}
	}
	return out, true
}

type achievementMember string

func (a achievementMember) Field(path string) (any, bool) {
	if path == "id" {
		return string(a), true
	}
	return nil, false
}

func (achievementMember) Collection(string) ([]condition.Resolver, bool) { return nil, false }

// knownField reports whether path is in the vocabulary for content c.
func knownField(ix *index, path string, collection bool) bool {
	if collection {
		return path == "achievements"
	}
	switch {
	case strings.HasPrefix(path, "var."):
		_, ok := ix.varByID[path[4:]]
		return ok
	case strings.HasPrefix(path, "visits."):
		_, ok := ix.nodeByID[path[7:]]
		return ok
	case strings.HasPrefix(path, "achieved."):
		_, ok := ix.achByID[path[9:]]
		return ok
	}
	return path == "turn" || path == "node" || path == "flags"
}

// gate is how a choice stands in a state.
type gate uint8

const (
	gateHidden gate = iota
	gateLocked
	gateOpen
	gateBroken // a condition failed to evaluate
)

// choiceGate evaluates a choice's showWhen and requires against s. A
// showWhen that fails to evaluate hides the choice; a requires that fails to
// evaluate locks it as broken.
func choiceGate(s *State, ch *Choice) gate {
	if ch.ShowWhen != nil {
		if ok, err := condition.Eval(*ch.ShowWhen, s); err != nil || !ok {
			return gateHidden
		}
	}
	if ch.Requires != nil {
		ok, err := condition.Eval(*ch.Requires, s)
		if err != nil {
			return gateBroken
		}
		if !ok {
			return gateLocked
		}
	}
	return gateOpen
}

// batch is one resolution in progress over a fresh State: it copies each of
// the parent's slices the first time it writes to it, and tracks what the
// audit records need.
type batch struct {
	s                           *State
	pre                         []int64  // the parent's variables: the pre-batch values
	preStrs                     []string // and its string variables'
	ownVars, ownStrs, ownVisits bool
	ownAch                      bool
	unlocked                    []int32 // achievements unlocked in this batch, in order
	steps                       int     // random draws taken in this settle
	capped                      bool
}

func newBatch(parent *State) batch {
	s := &State{c: parent.c, node: parent.node, turn: parent.turn, vars: parent.vars, strs: parent.strs,
		visits: parent.visits, achieved: parent.achieved, space: parent.space}
	return batch{s: s, pre: parent.vars, preStrs: parent.strs}
}

// apply applies effects that fit their variable's type (ceffect.fits);
// the others change nothing.
func (b *batch) apply(effs []ceffect) {
	for _, e := range effs {
		if e.v < 0 || !e.fits {
			continue
		}
		if b.s.c.ix.varType[e.v] == vtString {
			if !b.ownStrs {
				b.s.strs = append([]string(nil), b.s.strs...)
				b.ownStrs = true
			}
			b.s.strs[e.v] = e.val.Str // only a set fits a string
			continue
		}
		if !b.ownVars {
			b.s.vars = append([]int64(nil), b.s.vars...)
			b.ownVars = true
		}
		n := &b.s.vars[e.v]
		switch e.op {
		case opSet:
			*n = e.num
		case opInc:
			*n = satAdd(*n, e.num)
		case opDec:
			*n = satAdd(*n, -e.num)
		}
	}
}

// changed reports whether variable i differs from its pre-batch value.
func (b *batch) changed(i int) bool {
	if b.s.c.ix.varType[i] == vtString {
		return b.ownStrs && b.s.strs[i] != b.preStrs[i]
	}
	return b.ownVars && b.s.vars[i] != b.pre[i]
}

// satAdd adds within ±maxSafeInt, so intermediate values never overflow.
func satAdd(a, b int64) int64 {
	r := a + b
	switch {
	case r > maxSafeInt:
		return maxSafeInt
	case r < -maxSafeInt:
		return -maxSafeInt
	}
	return r
}

func (b *batch) unlock(a int32) {
	if a < 0 || b.s.achieved[a] {
		return
	}
	if !b.ownAch {
		b.s.achieved = append([]bool(nil), b.s.achieved...)
		b.ownAch = true
	}
	b.s.achieved[a] = true
	b.unlocked = append(b.unlocked, a)
}

// enter moves the cursor to node n: its visit count goes up and its effects
// apply.
func (b *batch) enter(n int32) {
	ix := b.s.c.ix
	b.s.node = n
	if !b.ownVisits {
		b.s.visits = append([]int64(nil), b.s.visits...)
		b.ownVisits = true
	}
	if b.s.space {
		if slot := ix.visitSlot[n]; slot >= 0 && b.s.visits[slot] < ix.visitCap {
			b.s.visits[slot]++
		}
	} else {
		b.s.visits[n]++
	}
	b.apply(ix.nodes[n].enter)
}

// choose applies choice ch of the current node: the turn advances, its
// effects apply, its achievements unlock and the cursor enters its target.
func (b *batch) choose(ch *cchoice) {
	ix := b.s.c.ix
	if !b.s.space || ix.turnRead {
		b.s.turn++
		if b.s.space && b.s.turn > ix.turnCap {
			b.s.turn = ix.turnCap
		}
	}
	b.apply(ch.effects)
	for _, a := range ch.unlocks {
		b.unlock(a)
	}
	b.enter(ch.to)
}

// settle follows random nodes, drawing each transition from h, until the
// cursor rests on a choice or an ending node or MaxSettleSteps draws were
// taken. emit may be nil.
func (b *batch) settle(h *rng.Handle, emit *core.ResolutionEmitter) {
	ix := b.s.c.ix
	for ix.nodes[b.s.node].typ == typRandom {
		if b.steps >= MaxSettleSteps {
			b.capped = true
			if emit != nil {
				emit.Emit(EventSettleCapped, ix.nodes[b.s.node].capped)
			}
			return
		}
		cn := &ix.nodes[b.s.node]
		pick, err := rng.WeightedPick(h, cn.pickable)
		if err != nil || cn.trans[pick].Item < 0 {
			b.capped = true
			return
		}
		b.steps++
		if emit != nil {
			emit.Emit(EventTransitionDrawn, cn.drawn[pick])
		}
		b.enter(cn.trans[pick].Item)
	}
}

// finish closes the batch: int variables are clamped into their bounds,
// then every achievement whose condition now holds unlocks.
func (b *batch) finish() {
	c := b.s.c
	if b.ownVars {
		for i := range b.s.vars {
			decl := &c.Variables[i]
			v := &b.s.vars[i]
			if c.ix.varType[i] != vtInt {
				continue
			}
			if decl.Min != nil && *v < *decl.Min {
				*v = *decl.Min
			}
			if decl.Max != nil && *v > *decl.Max {
				*v = *decl.Max
			}
		}
	}
	for _, a := range c.ix.achWhen {
		if b.s.achieved[a] {
			continue
		}
		if ok, err := condition.Eval(*c.Achievements[a].When, b.s); err == nil && ok {
			b.unlock(a)
		}
	}
}

// record returns the batch's audit records and messages (§12 conventions):
// one consequence_applied change per variable whose value differs from its
// pre-batch value, in declaration order; one achievement_unlocked change and
// message per unlock, in unlock order; and the ending's message.
func (b *batch) record() ([]core.StateChange, []core.OutcomeMessage) {
	c := b.s.c
	var changes []core.StateChange
	var msgs []core.OutcomeMessage
	n := len(b.unlocked)
	if b.ownVars || b.ownStrs {
		for i := range b.s.vars {
			if b.changed(i) {
				n++
			}
		}
	}
	ended := c.ix.nodes[b.s.node].typ == typEnding
	if n > 0 {
		changes = make([]core.StateChange, 0, n)
	}
	if len(b.unlocked) > 0 || ended {
		msgs = make([]core.OutcomeMessage, 0, len(b.unlocked)+1)
	}
	if b.ownVars || b.ownStrs {
		for i := range b.s.vars {
			if !b.changed(i) {
				continue
			}
			decl := &c.Variables[i]
			changes = append(changes, core.StateChange{Path: c.ix.varPath[i], Op: OpSet, Value: b.s.value(i).Any(),
				Previous: varValue(c.ix, i, b.pre, b.preStrs).Any(), Reason: ReasonConsequenceApplied, Visible: decl.Visible})
		}
	}
	for _, a := range b.unlocked {
		ach := &c.Achievements[a]
		changes = append(changes, core.StateChange{Path: c.ix.achPath[a], Op: OpSet, Value: true,
			Reason: core.ReasonAchievementUnlocked, Visible: true})
		msgs = append(msgs, core.OutcomeMessage{Key: ach.TitleKey, Tone: core.TonePositive, Visible: true})
	}
	if ended {
		node := &c.Nodes[b.s.node]
		msgs = append(msgs, core.OutcomeMessage{Key: node.TitleKey, Tone: outcomeTone(node.Outcome), Visible: true})
	}
	return changes, msgs
}

func outcomeTone(outcome string) string {
	switch outcome {
	case OutcomeWin:
		return core.TonePositive
	case OutcomeLose:
		return core.ToneNegative
	}
	return core.ToneNeutral
}

func (b *batch) status() core.Status {
	if b.s.c.ix.nodes[b.s.node].typ == typEnding {
		return core.StatusEnded
	}
	return core.StatusActive
}
