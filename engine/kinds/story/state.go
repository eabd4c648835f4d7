package story

import (
	"encoding/json"
	"fmt"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// State is the story-graph kind state (StoryGraphKindState, §8.1 of
// docs/story-graph-kind.md): the current node, the variables, the turn, the
// visit counts, the unlocked achievements and, once ended, the ending id. It
// is immutable: resolutions build a new State and share whatever they did
// not change. Its JSON form is
//
//	{"currentNodeId": "gate", "variables": {"oil": 3}, "turn": 2,
//	 "visitedCounts": {"gate": 1}, "unlockedAchievements": ["first_light"],
//	 "endingId": "dawn"}
//
// with endingId present exactly when the game has ended.
type State struct {
	c    *Content
	node int32
	turn int64
	// vars holds each variable's value by its declared type: an int's
	// value, 1 or 0 for a bool; strs holds the string variables' values
	// (other slots unused) and is nil when the campaign declares none. The
	// split keeps the slice a resolution copies free of pointers.
	vars     []int64
	strs     []string
	visits   []int64 // per node; in a tier 3 state, per read node (space)
	achieved []bool
	space    bool
}

// NodeID returns the id of the node the game rests on.
func (s *State) NodeID() string { return s.c.Nodes[s.node].ID }

// Turn returns the number of choices resolved so far.
func (s *State) Turn() int64 { return s.turn }

// Var returns variable id's value and whether it is declared.
func (s *State) Var(id string) (Value, bool) {
	i, ok := s.c.index().varByID[id]
	if !ok {
		return Value{}, false
	}
	return s.value(int(i)), true
}

// value returns variable i.
func (s *State) value(i int) Value { return varValue(s.c.ix, i, s.vars, s.strs) }

// varValue returns variable i of the values vars and strs hold.
func varValue(ix *index, i int, vars []int64, strs []string) Value {
	switch ix.varType[i] {
	case vtBool:
		return BoolValue(vars[i] != 0)
	case vtString:
		return StringValue(strs[i])
	}
	return IntValue(vars[i])
}

// newVars returns zeroed variable slices for content c.
func newVars(c *Content) ([]int64, []string) {
	var strs []string
	if c.index().hasStrings {
		strs = make([]string, len(c.Variables))
	}
	return make([]int64, len(c.Variables)), strs
}

// setValue stores v, which has the variable's declared type, as variable i.
func (s *State) setValue(i int, v Value) {
	switch s.c.ix.varType[i] {
	case vtBool:
		s.vars[i] = 0
		if v.Bool {
			s.vars[i] = 1
		}
	case vtString:
		s.strs[i] = v.Str
	default:
		s.vars[i] = v.Int
	}
}

// Visits returns how many times node id has been entered.
func (s *State) Visits(id string) int64 {
	i, ok := s.c.index().nodeByID[id]
	if !ok || s.space {
		return 0
	}
	return s.visits[i]
}

// Unlocked returns the ids of the unlocked achievements, in declaration order.
func (s *State) Unlocked() []string {
	var out []string
	for i, on := range s.achieved {
		if on {
			out = append(out, s.c.Achievements[i].ID)
		}
	}
	return out
}

// EndingID returns the ending the game closed on, or "" while it is active.
func (s *State) EndingID() string {
	if n := &s.c.Nodes[s.node]; n.Type == NodeEnding {
		return n.EndingID
	}
	return ""
}

// Ended reports whether the game rests on an ending node.
func (s *State) Ended() bool { return s.c.ix.nodes[s.node].typ == typEnding }

// stateJSON is the wire form of State.
type stateJSON struct {
	CurrentNodeID        *string                    `json:"currentNodeId"`
	Variables            map[string]json.RawMessage `json:"variables"`
	Turn                 *int64                     `json:"turn"`
	VisitedCounts        map[string]int64           `json:"visitedCounts"`
	UnlockedAchievements []string                   `json:"unlockedAchievements"`
	EndingID             *string                    `json:"endingId,omitempty"`
}

// MarshalJSON writes the state's wire form, which is its canonical form
// (AppendCanonical).
func (s *State) MarshalJSON() ([]byte, error) { return s.AppendCanonical(nil) }

// AppendCanonical appends the state's canonical form (package canon), the
// same bytes canon.Canonicalize makes of any encoding of it, without the
// re-parse: keys in canonical order, visit counts of zero left out,
// unlocked achievements in declaration order.
func (s *State) AppendCanonical(b []byte) ([]byte, error) {
	if s.space {
		return nil, fmt.Errorf("story: a tier 3 search state does not serialize")
	}
	ix := s.c.index()
	if ix.varOrder == nil || ix.nodeOrder == nil {
		return nil, fmt.Errorf("story: the content repeats a variable or node id")
	}
	if b == nil { // room for the usual state, so it is written in one buffer
		b = make([]byte, 0, 128+24*len(s.vars)+16*len(s.visits))
	}
	o := canon.OpenObject(b)
	o.String("currentNodeId", s.NodeID())
	o.OptString("endingId", s.EndingID())
	o.Int("turn", s.turn)
	o.Key("unlockedAchievements")
	o.B = append(o.B, '[')
	first := true
	for i, on := range s.achieved {
		if on {
			if !first {
				o.B = append(o.B, ',')
			}
			first = false
			o.B = canon.AppendString(o.B, s.c.Achievements[i].ID)
		}
	}
	o.B = append(o.B, ']')
	// The variables and visit counts are objects keyed by the content's
	// ids, in the canonical order the content index holds.
	o.Key("variables")
	vars := canon.OpenObject(o.B)
	for _, i := range ix.varOrder {
		switch id := s.c.Variables[i].ID; ix.varType[i] {
		case vtBool:
			vars.Bool(id, s.vars[i] != 0)
		case vtString:
			vars.String(id, s.strs[i])
		default:
			vars.Int(id, s.vars[i])
		}
	}
	o.B = vars.Close()
	o.Key("visitedCounts")
	visits := canon.OpenObject(o.B)
	for _, i := range ix.nodeOrder {
		visits.OptInt(s.c.Nodes[i].ID, s.visits[i])
	}
	o.B = visits.Close()
	return o.Close(), nil
}

// decodeState reads a state's wire form strictly and judges it against c
// (validateState): every field present and typed, the current node an
// existing node, every declared variable present with its type and within
// its bounds and no other, visit counts of existing nodes, declared and
// distinct achievements, and endingId present exactly when the current node
// is an ending, naming that node's ending.
func decodeState(raw []byte, c *Content) (*State, error) {
	w, ok := canonicalWire(raw)
	if !ok {
		if err := strictjson.Decode(raw, &w); err != nil {
			return nil, fmt.Errorf("story: state: %w", err)
		}
	}
	ix := c.index()
	switch {
	case w.CurrentNodeID == nil:
		return nil, fmt.Errorf("story: state: missing currentNodeId")
	case w.Variables == nil:
		return nil, fmt.Errorf("story: state: missing variables")
	case w.Turn == nil:
		return nil, fmt.Errorf("story: state: missing turn")
	case w.VisitedCounts == nil:
		return nil, fmt.Errorf("story: state: missing visitedCounts")
	case w.UnlockedAchievements == nil:
		return nil, fmt.Errorf("story: state: missing unlockedAchievements")
	case *w.Turn < 0:
		return nil, fmt.Errorf("story: state: negative turn %d", *w.Turn)
	}
	node, ok := ix.nodeByID[*w.CurrentNodeID]
	if !ok {
		return nil, fmt.Errorf("story: unknown node %q", *w.CurrentNodeID)
	}
	s := &State{c: c, node: node, turn: *w.Turn, visits: make([]int64, len(c.Nodes)), achieved: make([]bool, len(c.Achievements))}
	s.vars, s.strs = newVars(c)
	for id := range w.Variables {
		if _, ok := ix.varByID[id]; !ok {
			return nil, fmt.Errorf("story: unknown variable %q", id)
		}
	}
	for i, decl := range c.Variables {
		raw, ok := w.Variables[decl.ID]
		if !ok {
			return nil, fmt.Errorf("story: variable %q is missing", decl.ID)
		}
		var v Value
		if err := v.UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("story: variable %q: %w", decl.ID, err)
		}
		if err := checkValue(decl, v); err != nil {
			return nil, err
		}
		s.setValue(i, v)
	}
	for id, n := range w.VisitedCounts {
		i, ok := ix.nodeByID[id]
		if !ok {
			return nil, fmt.Errorf("story: visit count of unknown node %q", id)
		}
		if n < 0 {
			return nil, fmt.Errorf("story: negative visit count of node %q", id)
		}
		s.visits[i] = n
	}
	for _, id := range w.UnlockedAchievements {
		i, ok := ix.achByID[id]
		if !ok {
			return nil, fmt.Errorf("story: unknown achievement %q", id)
		}
		if s.achieved[i] {
			return nil, fmt.Errorf("story: achievement %q unlocked twice", id)
		}
		s.achieved[i] = true
	}
	cur := &c.Nodes[node]
	switch {
	case cur.Type == NodeEnding && (w.EndingID == nil || *w.EndingID != cur.EndingID):
		return nil, fmt.Errorf("story: node %q is the ending %q, and the state does not say so", cur.ID, cur.EndingID)
	case cur.Type != NodeEnding && w.EndingID != nil:
		return nil, fmt.Errorf("story: state names ending %q but node %q is not an ending", *w.EndingID, cur.ID)
	}
	return s, nil
}

// checkValue reports whether v fits decl's type and bounds.
func checkValue(decl Variable, v Value) error {
	if v.Type != decl.Type {
		return fmt.Errorf("story: variable %q is %s, not %s", decl.ID, decl.Type, v.Type)
	}
	if v.Type == TypeInt {
		if decl.Min != nil && v.Int < *decl.Min || decl.Max != nil && v.Int > *decl.Max {
			return fmt.Errorf("story: variable %q is %d, outside its bounds", decl.ID, v.Int)
		}
	}
	return nil
}

// contentOf returns the story content of a campaign.
func contentOf(c *core.Campaign) (*Content, error) {
	if c == nil {
		return nil, fmt.Errorf("story: no campaign")
	}
	sc, ok := c.Content.(*Content)
	if !ok || sc == nil {
		return nil, fmt.Errorf("story: campaign %q does not hold story-graph content", c.ID)
	}
	return sc, nil
}
