package story

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
)

// Kind is the story-graph kind. The zero value is ready to use and holds no
// state; register it where an engine is built: core.New(core.Host{Kinds:
// []core.Kind{story.Kind{}}, ...}).
type Kind struct{}

var _ core.Kind = Kind{}
var _ core.TerminalCounter = Kind{}
var _ core.ContentMigrator = Kind{}
var _ core.ContentAdopter = Kind{}

// ID implements core.Kind: "story-graph".
func (Kind) ID() string { return KindID }

// Version implements core.Kind.
func (Kind) Version() string { return Version }

// ReasonCodes implements core.Kind: the kind-owned codes, sorted.
func (Kind) ReasonCodes() []string { return append([]string(nil), reasonCodes...) }

// ReasonMessages implements core.Kind: "story-graph.reason.<code>" → English
// for every code of ReasonCodes.
func (Kind) ReasonMessages() map[core.LocKey]string {
	return core.KindReasonMessages(KindID, reasonMessages)
}

// Event names the kind emits.
const (
	EventChoiceResolved  = "kind.story-graph.choice.resolved"
	EventTransitionDrawn = "kind.story-graph.transition.drawn"
	EventSettleCapped    = "kind.story-graph.settle.capped"
	EventEndingReached   = "kind.story-graph.ending.reached"
)

// EventNames implements core.Kind.
func (Kind) EventNames() []string {
	return []string{EventChoiceResolved, EventEndingReached, EventSettleCapped, EventTransitionDrawn}
}

// DecodeContent implements core.Kind: it reads runtime content as Content
// encodes to JSON, strictly, and indexes it for play. It checks shape only;
// ValidateCampaign judges meaning.
func (Kind) DecodeContent(raw json.RawMessage) (any, error) { return decodeContent(raw) }

// DecodeState implements core.Kind (validateState, §3).
func (Kind) DecodeState(raw json.RawMessage, c *core.Campaign) (any, error) {
	sc, err := contentOf(c)
	if err != nil {
		return nil, err
	}
	return decodeState(raw, sc)
}

func asState(state any) (*State, error) {
	s, ok := state.(*State)
	if !ok || s == nil || s.c == nil || s.c.ix == nil || s.space {
		return nil, fmt.Errorf("story: not a story-graph state: %T", state)
	}
	return s, nil
}

// InitialState implements core.Kind: the cursor enters the start node and
// the game settles on ctx.RNG (the engine's system:start:0 stream). Turn is
// 0; a campaign that settles onto an ending starts ended. profileData is
// ignored: the kind keeps no cross-game slice.
func (Kind) InitialState(c *core.Campaign, ctx *core.Context, _ json.RawMessage) core.InitialResult {
	sc, err := contentOf(c)
	if err != nil || sc.index().start < 0 {
		return core.InitialResult{Status: core.StatusActive}
	}
	ix := sc.ix
	base := &State{c: sc, node: ix.start, visits: make([]int64, len(sc.Nodes)), achieved: make([]bool, len(sc.Achievements))}
	base.vars, base.strs = newVars(sc)
	for i, v := range sc.Variables {
		base.setValue(i, v.Initial)
	}
	b := newBatch(base)
	b.enter(ix.start)
	b.settle(ctx.RNG, ctx.Emit)
	b.finish()
	changes, msgs := b.record()
	st := b.status()
	if st == core.StatusEnded {
		ctx.Emit.Emit(EventEndingReached, ix.nodes[b.s.node].ending)
	}
	return core.InitialResult{State: b.s, Status: st, Changes: changes, Messages: msgs}
}

// Advance implements core.Kind: actionID is a choice id of the current
// node; no params are accepted. A hidden or unknown choice is
// unknown_action, a locked one requirement_unmet (its message key the
// choice's authored reason when it has one), an ended game session_ended.
func (Kind) Advance(state any, actionID string, params core.Params, ctx *core.Context) core.AdvanceResult {
	st, err := asState(state)
	if err != nil {
		return core.Reject(state, core.Errorf(core.ReasonInvalidState, "kindState", "%v", err))
	}
	if len(params) > 0 {
		return core.Reject(state, kindErr(ReasonUnexpectedParams, "params",
			"story: a choice takes no parameters, got %q", params.Keys()[0]))
	}
	ix := st.c.ix
	cn := &ix.nodes[st.node]
	if cn.typ == typEnding {
		return core.Reject(state, core.Errorf(core.ReasonSessionEnded, "", "story: the game has ended at %q", st.EndingID()))
	}
	node := &st.c.Nodes[st.node]
	ci := -1
	for i := range node.Choices {
		if node.Choices[i].ID == actionID {
			ci = i
			break
		}
	}
	if ci < 0 || cn.typ != typChoice {
		return core.Reject(state, core.Errorf(core.ReasonUnknownAction, "actionId", "story: no choice %q at node %q", actionID, node.ID))
	}
	ch := &node.Choices[ci]
	switch choiceGate(st, ch) {
	case gateHidden:
		return core.Reject(state, core.Errorf(core.ReasonUnknownAction, "actionId", "story: no choice %q at node %q", actionID, node.ID))
	case gateBroken:
		return core.Reject(state, kindErr(ReasonUnknownConditionField, "actionId", "story: the requirement of choice %q at node %q cannot be evaluated", actionID, node.ID))
	case gateLocked:
		e := core.Errorf(core.ReasonRequirementUnmet, "actionId", "story: choice %q at node %q is locked", actionID, node.ID)
		if ch.RequirementFailKey != "" {
			e.MessageKey = ch.RequirementFailKey
		}
		return core.Reject(state, e)
	}
	cc := &cn.choices[ci]
	if cc.to < 0 {
		return core.Reject(state, core.Errorf(core.ReasonInvalidState, "actionId", "story: choice %q at node %q leads to an unknown node", actionID, node.ID))
	}
	b := newBatch(st)
	b.choose(cc)
	b.settle(ctx.RNG, ctx.Emit)
	b.finish()
	changes, msgs := b.record()
	status := b.status()
	ctx.Emit.Emit(EventChoiceResolved, cc.fields)
	if status == core.StatusEnded {
		ctx.Emit.Emit(EventEndingReached, ix.nodes[b.s.node].ending)
	}
	return core.AdvanceResult{State: b.s, Status: status, Changes: changes, Messages: msgs}
}

// AvailableActions implements core.Kind: one action per choice of the
// current node that is not hidden, locked ones with their reason key.
func (Kind) AvailableActions(state any, ctx *core.ProjectionContext) []core.AvailableAction {
	st, err := asState(state)
	if err != nil || st.c.ix.nodes[st.node].typ != typChoice {
		return []core.AvailableAction{}
	}
	node := &st.c.Nodes[st.node]
	out := make([]core.AvailableAction, 0, len(node.Choices))
	for i := range node.Choices {
		ch := &node.Choices[i]
		a := core.AvailableAction{ID: ch.ID, LabelKey: ch.LabelKey, Available: true}
		switch choiceGate(st, ch) {
		case gateHidden:
			continue
		case gateLocked:
			a.Available = false
			a.ReasonKey = ch.RequirementFailKey
			if a.ReasonKey == "" {
				a.ReasonKey = ctx.EngineRef(core.CoreReasonKey(core.ReasonRequirementUnmet))
			}
		case gateBroken:
			a.Available = false
			a.ReasonKey = ctx.EngineRef(reasonKey(ReasonUnknownConditionField))
		}
		out = append(out, a)
	}
	return out
}

// Scene implements core.Kind: the current node's text, with {var}
// placeholders of visible variables substituted and their values in Params.
// A game stalled on a random node by the settle cap shows the kind's
// settle_capped message.
func (Kind) Scene(state any, ctx *core.ProjectionContext) core.SceneBody {
	st, err := asState(state)
	if err != nil {
		key := ctx.EngineRef(core.CoreReasonKey(core.ReasonInvalidState))
		return core.SceneBody{TextKey: key, Text: lookupString(ctx.Registry, key)}
	}
	key := st.c.Nodes[st.node].TextKey
	if key == "" {
		key = ctx.EngineRef(reasonKey(ReasonSettleCapped))
		return core.SceneBody{TextKey: key, Text: lookupString(ctx.Registry, key)}
	}
	text, params := interpolate(lookupString(ctx.Registry, key), st)
	return core.SceneBody{TextKey: key, Text: text, Params: params}
}

func lookupString(r *core.Registry, key core.LocKey) string {
	if r == nil {
		return ""
	}
	if s, ok := r.Strings[key]; ok {
		return s
	}
	if code, ok := strings.CutPrefix(key, KindID+".reason."); ok {
		return reasonMessages[code]
	}
	return ""
}

// Outcome implements core.Kind: terminal once the game rests on an ending
// node, with TerminalID and the field endingId naming it.
func (Kind) Outcome(state any) core.Outcome {
	st, err := asState(state)
	if err != nil || !st.Ended() {
		return core.Outcome{Fields: map[string]any{"endingId": nil}}
	}
	id := st.EndingID()
	return core.Outcome{Terminal: true, TerminalID: id, Fields: map[string]any{"endingId": id}}
}

// Milestones implements core.MilestoneKind: the campaign's achievements and
// its endings, one per distinct ending id, in node order.
func (Kind) Milestones(c *core.Campaign) core.Milestones {
	m := core.Milestones{Achievements: []core.Milestone{}, Endings: []core.Milestone{}}
	sc, err := contentOf(c)
	if err != nil {
		return m
	}
	for _, a := range sc.Achievements {
		m.Achievements = append(m.Achievements, core.Milestone{ID: a.ID, TitleKey: a.TitleKey, DescriptionKey: a.DescriptionKey})
	}
	seen := map[string]bool{}
	for _, n := range sc.Nodes {
		if n.Type == NodeEnding && !seen[n.EndingID] {
			seen[n.EndingID] = true
			m.Endings = append(m.Endings, core.Milestone{ID: n.EndingID, TitleKey: n.TitleKey, Outcome: n.Outcome})
		}
	}
	return m
}

// TerminalCount implements core.TerminalCounter: the distinct ending ids of
// the campaign's ending nodes.
func (Kind) TerminalCount(c *core.Campaign) int {
	sc, err := contentOf(c)
	if err != nil {
		return 0
	}
	return len(sc.index().endings)
}
