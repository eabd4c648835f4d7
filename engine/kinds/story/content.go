package story

import (
	"fmt"
	"sort"
	"strings"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Node types.
const (
	NodeChoice = "choice"
	NodeRandom = "random"
	NodeEnding = "ending"
)

// Ending outcomes: an ending node's Outcome.
const (
	OutcomeWin     = core.OutcomeWin
	OutcomeLose    = core.OutcomeLose
	OutcomeNeutral = core.OutcomeNeutral
)

// Effect operations.
const (
	OpSet       = "set"
	OpIncrement = "increment"
	OpDecrement = "decrement"
)

// MaxSettleSteps caps the random transitions one settle follows. A settle
// that reaches it rests on the random node it stands on, with nothing to do;
// tier 2 warns about random cycles and tier 3 reports such a state as a dead
// end.
const MaxSettleSteps = 64

// Content is the runtime content of a story-graph campaign (§1 of
// docs/story-graph-kind.md): every player-facing string is a LocKey. It is
// immutable once built; build it with Kind.BuildContent or
// Kind.DecodeContent, which also index it for play.
type Content struct {
	// Start is the node a new game enters.
	Start string `json:"start"`
	// Variables are the typed variables, in declaration order.
	Variables []Variable `json:"variables,omitempty"`
	// Achievements are the campaign's achievements, in declaration order.
	Achievements []Achievement `json:"achievements,omitempty"`
	// Nodes are the story's nodes, in authored order.
	Nodes []Node `json:"nodes"`
	// TextVars is set by composition (§1.1): per composed scope (an
	// include's alias, "a::b" for a module's own include), the placeholder
	// names in its nodes' text that stand for a variable other than
	// "<scope>::<name>" — a variable bound to the host's.
	TextVars map[string]map[string]string `json:"textVars,omitempty"`

	ix *index
}

// Variable declares one typed variable.
type Variable struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Initial Value  `json:"initial"`
	// Min and Max bound an int variable; the value is clamped into them
	// after all of a resolution's effects.
	Min *int64 `json:"min,omitempty"`
	Max *int64 `json:"max,omitempty"`
	// Visible variables reach the player's view and may be interpolated.
	Visible  bool        `json:"visible,omitempty"`
	LabelKey core.LocKey `json:"labelKey,omitempty"`
}

// Achievement is unlocked once per game, by a choice that lists it or when
// its When condition holds after a resolution.
type Achievement struct {
	ID             string               `json:"id"`
	TitleKey       core.LocKey          `json:"titleKey"`
	DescriptionKey core.LocKey          `json:"descriptionKey,omitempty"`
	When           *condition.Condition `json:"when,omitempty"`
}

// Node is one node of the graph. Type selects which fields apply: a choice
// node has TextKey and Choices; a random node has Transitions (and may have
// TextKey); an ending node has TextKey, EndingID, TitleKey and Outcome.
// Effects apply each time the node is entered.
type Node struct {
	ID          string       `json:"id"`
	Type        string       `json:"type"`
	TextKey     core.LocKey  `json:"textKey,omitempty"`
	Effects     []Effect     `json:"effects,omitempty"`
	Choices     []Choice     `json:"choices,omitempty"`
	Transitions []Transition `json:"transitions,omitempty"`
	EndingID    string       `json:"endingId,omitempty"`
	TitleKey    core.LocKey  `json:"titleKey,omitempty"`
	Outcome     string       `json:"outcome,omitempty"`
	// ReliesOn lists the bool variables the node's text states as facts:
	// each must be true whenever the node is entered (after its effects).
	// Tier 3 reports a path that reaches the node without one.
	ReliesOn []string `json:"reliesOn,omitempty"`
}

// Choice is one thing the player can do at a choice node. ShowWhen false
// hides it; Requires false shows it locked, with RequirementFailKey (or the
// core requirement_unmet message) as the reason.
type Choice struct {
	ID                 string               `json:"id"`
	LabelKey           core.LocKey          `json:"labelKey"`
	ShowWhen           *condition.Condition `json:"showWhen,omitempty"`
	Requires           *condition.Condition `json:"requires,omitempty"`
	RequirementFailKey core.LocKey          `json:"requirementFailKey,omitempty"`
	Effects            []Effect             `json:"effects,omitempty"`
	Unlocks            []string             `json:"unlocks,omitempty"`
	To                 string               `json:"to"`
}

// Effect changes one variable: set (any type), increment or decrement (int).
type Effect struct {
	Var   string `json:"var"`
	Op    string `json:"op"`
	Value Value  `json:"value"`
}

// Transition is one weighted branch of a random node. Weight is a positive
// integer.
type Transition struct {
	To     string `json:"to"`
	Weight int64  `json:"weight"`
}

// NodeByID returns the node id, or nil.
func (c *Content) NodeByID(id string) *Node {
	if i, ok := c.index().nodeByID[id]; ok {
		return &c.Nodes[i]
	}
	return nil
}

// EndingIDs returns the distinct ending ids of the campaign's ending nodes,
// in authored order.
func (c *Content) EndingIDs() []string { return append([]string(nil), c.index().endings...) }

// Kind's DecodeContent reads this form back; it refuses unknown fields and
// trailing data.
func decodeContent(raw []byte) (*Content, error) {
	var c Content
	if err := strictjson.Decode(raw, &c); err != nil {
		return nil, fmt.Errorf("story: content: %w", err)
	}
	c.compile()
	return &c, nil
}

// index is the content compiled for play: ids resolved to positions. It is
// built once and never changed; an unresolved reference is -1, which play
// treats as broken content rather than panicking (validation refuses it
// before a registry is frozen).
type index struct {
	nodeByID map[string]int32
	varByID  map[string]int32
	achByID  map[string]int32
	nodes    []cnode
	start    int32
	endings  []string
	// achWhen lists the achievements with a When condition.
	achWhen []int32
	// visitRead lists the nodes whose visit count some condition reads;
	// visitSlot maps a node to its position there, or -1. visitCap and
	// turnCap bound the values the conditions distinguish.
	visitRead []int32
	visitSlot []int32
	visitCap  int64
	turnRead  bool
	turnCap   int64
	// paths are "content.nodes.<id>" per node, for tier 3.
	paths [][]string
	// varPath and achPath are the audit paths "var.<id>" and
	// "achieved.<id>", built once so a resolution does not concatenate.
	varPath, achPath []string
	// varType is each variable's declared type (vtInt, vtBool, vtString);
	// hasStrings says whether any is a string.
	varType    []uint8
	hasStrings bool
	// varOrder and nodeOrder are the variables and the nodes in the
	// canonical order of their ids (canon.CompareKeys), so a state writes
	// its canonical form directly; both are nil when ids repeat, which
	// only content that failed validation has.
	varOrder, nodeOrder []int32
}

type cnode struct {
	typ     uint8
	choices []cchoice
	trans   []rng.Weighted[int32]
	// pickable is trans with each item its own position, so a draw
	// names the transition (and its prebuilt event fields) it took.
	pickable []rng.Weighted[int]
	enter    []ceffect
	// Event fields, built once and shared by every event that carries
	// them; a sink must treat event fields as read-only.
	drawn  []map[string]any // per transition: {from, to}
	capped map[string]any   // {nodeId}
	ending map[string]any   // {endingId}
	label  string           // "content.nodes.<node>.transitions", for tier 3
}

type cchoice struct {
	to      int32
	effects []ceffect
	unlocks []int32
	fields  map[string]any // {choiceId, from, to}
	label   string         // "content.nodes.<node>.choices.<choice>", for tier 3
}

type ceffect struct {
	v   int32
	op  uint8
	val Value
	// fits says whether the effect applies to its variable's type (set: the
	// value has that type; increment, decrement: both are ints); num is the
	// value as a State stores an int or a bool.
	fits bool
	num  int64
}

const (
	typChoice uint8 = iota + 1
	typRandom
	typEnding
)

// Variable types as the index and a State hold them.
const (
	vtInt uint8 = iota
	vtBool
	vtString
)

// typeOf maps a variable type name to its vt constant; content with any
// other name fails tier 1 and is never played.
func typeOf(name string) uint8 {
	switch name {
	case TypeBool:
		return vtBool
	case TypeString:
		return vtString
	}
	return vtInt
}

const (
	opSet uint8 = iota + 1
	opInc
	opDec
)

func (c *Content) index() *index {
	if c.ix == nil {
		c.compile()
	}
	return c.ix
}

// compile builds the index. It is total over any decoded content.
func (c *Content) compile() {
	ix := &index{
		nodeByID: make(map[string]int32, len(c.Nodes)),
		varByID:  make(map[string]int32, len(c.Variables)),
		achByID:  make(map[string]int32, len(c.Achievements)),
		nodes:    make([]cnode, len(c.Nodes)),
		paths:    make([][]string, len(c.Nodes)),
	}
	for i, n := range c.Nodes {
		if _, dup := ix.nodeByID[n.ID]; !dup {
			ix.nodeByID[n.ID] = int32(i)
		}
		ix.paths[i] = []string{"content.nodes." + n.ID}
	}
	for _, v := range c.Variables {
		ix.varPath = append(ix.varPath, "var."+v.ID)
		ix.varType = append(ix.varType, typeOf(v.Type))
		ix.hasStrings = ix.hasStrings || v.Type == TypeString
	}
	for _, a := range c.Achievements {
		ix.achPath = append(ix.achPath, "achieved."+a.ID)
	}
	for i, v := range c.Variables {
		if _, dup := ix.varByID[v.ID]; !dup {
			ix.varByID[v.ID] = int32(i)
		}
	}
	for i, a := range c.Achievements {
		if _, dup := ix.achByID[a.ID]; !dup {
			ix.achByID[a.ID] = int32(i)
		}
		if a.When != nil {
			ix.achWhen = append(ix.achWhen, int32(i))
		}
	}
	ix.start = lookup(ix.nodeByID, c.Start)
	seenEnding := map[string]bool{}
	for i := range c.Nodes {
		n := &c.Nodes[i]
		cn := &ix.nodes[i]
		switch n.Type {
		case NodeChoice:
			cn.typ = typChoice
		case NodeRandom:
			cn.typ = typRandom
		case NodeEnding:
			cn.typ = typEnding
			if !seenEnding[n.EndingID] {
				seenEnding[n.EndingID] = true
				ix.endings = append(ix.endings, n.EndingID)
			}
		}
		cn.enter = compileEffects(ix, n.Effects)
		cn.capped = map[string]any{"nodeId": n.ID}
		cn.label = "content.nodes." + n.ID + ".transitions"
		cn.ending = map[string]any{"endingId": n.EndingID}
		for _, ch := range n.Choices {
			cc := cchoice{to: lookup(ix.nodeByID, ch.To), effects: compileEffects(ix, ch.Effects),
				fields: map[string]any{"choiceId": ch.ID, "from": n.ID, "to": ch.To},
				label:  "content.nodes." + n.ID + ".choices." + ch.ID}
			for _, a := range ch.Unlocks {
				cc.unlocks = append(cc.unlocks, lookup(ix.achByID, a))
			}
			cn.choices = append(cn.choices, cc)
		}
		for _, t := range n.Transitions {
			cn.trans = append(cn.trans, rng.Weighted[int32]{Item: lookup(ix.nodeByID, t.To), Weight: t.Weight})
			cn.drawn = append(cn.drawn, map[string]any{"from": n.ID, "to": t.To})
			cn.pickable = append(cn.pickable, rng.Weighted[int]{Item: len(cn.pickable), Weight: t.Weight})
		}
	}
	ix.visitSlot = make([]int32, len(c.Nodes))
	for i := range ix.visitSlot {
		ix.visitSlot[i] = -1
	}
	c.eachCondition(func(_ string, cond *condition.Condition) {
		scanReads(ix, *cond)
	})
	ix.varOrder = keyOrder(len(c.Variables), func(i int) string { return c.Variables[i].ID })
	ix.nodeOrder = keyOrder(len(c.Nodes), func(i int) string { return c.Nodes[i].ID })
	c.ix = ix
}

// keyOrder returns the indexes 0..n-1 ordered by canon.CompareKeys of
// their ids, or nil when two ids are equal.
func keyOrder(n int, id func(int) string) []int32 {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool { return canon.CompareKeys(id(int(order[a])), id(int(order[b]))) < 0 })
	for i := 1; i < n; i++ {
		if id(int(order[i-1])) == id(int(order[i])) {
			return nil
		}
	}
	return order
}

// scanReads records which visit counts and whether the turn a condition
// reads, and the largest constant it compares them with.
func scanReads(ix *index, cond condition.Condition) {
	switch {
	case cond.Field != "":
		bound := constBound(cond.Value)
		if cond.Field == "turn" {
			ix.turnRead = true
			ix.turnCap = max(ix.turnCap, bound+1)
		} else if id, ok := strings.CutPrefix(cond.Field, "visits."); ok {
			if n, found := ix.nodeByID[id]; found && ix.visitSlot[n] < 0 {
				ix.visitSlot[n] = int32(len(ix.visitRead))
				ix.visitRead = append(ix.visitRead, n)
			}
			ix.visitCap = max(ix.visitCap, bound+1)
		}
	case cond.Not != nil:
		scanReads(ix, *cond.Not)
	case cond.Exists != nil:
		scanReads(ix, cond.Exists.Where)
	case cond.Count != nil:
		scanReads(ix, cond.Count.Where)
	}
	for _, sub := range cond.All {
		scanReads(ix, sub)
	}
	for _, sub := range cond.Any {
		scanReads(ix, sub)
	}
}

// constBound is the largest integer a comparison value names (0 for none).
func constBound(v any) int64 {
	var m int64
	switch x := v.(type) {
	case float64:
		if x > 0 && x < maxSafeInt {
			m = int64(x) + 1
		}
	case []any:
		for _, e := range x {
			m = max(m, constBound(e))
		}
	}
	return m
}

func lookup(m map[string]int32, id string) int32 {
	if i, ok := m[id]; ok {
		return i
	}
	return -1
}

func compileEffects(ix *index, effs []Effect) []ceffect {
	if len(effs) == 0 {
		return nil
	}
	out := make([]ceffect, 0, len(effs))
	for _, e := range effs {
		ce := ceffect{v: lookup(ix.varByID, e.Var), val: e.Value, num: e.Value.Int}
		if e.Value.Bool {
			ce.num = 1
		}
		switch e.Op {
		case OpSet:
			ce.op = opSet
		case OpIncrement:
			ce.op = opInc
		case OpDecrement:
			ce.op = opDec
		}
		if ce.v >= 0 {
			decl := ix.varType[ce.v]
			if ce.op == opSet {
				ce.fits = e.Value.Type != "" && typeOf(e.Value.Type) == decl
			} else {
				ce.fits = e.Value.Type == TypeInt && decl == vtInt
			}
		}
		out = append(out, ce)
	}
	return out
}

// eachCondition calls fn with every condition of the content and its path.
func (c *Content) eachCondition(fn func(path string, cond *condition.Condition)) {
	for _, a := range c.Achievements {
		if a.When != nil {
			fn("content.achievements."+a.ID+".when", a.When)
		}
	}
	for _, n := range c.Nodes {
		for _, ch := range n.Choices {
			base := "content.nodes." + n.ID + ".choices." + ch.ID
			if ch.ShowWhen != nil {
				fn(base+".showWhen", ch.ShowWhen)
			}
			if ch.Requires != nil {
				fn(base+".requires", ch.Requires)
			}
		}
	}
}
