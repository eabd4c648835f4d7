package story

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

var _ core.Composer = Kind{}

// Binding is a story-graph include's binding (§1.1 of
// docs/story-graph-kind.md): how a module's content meets its host's.
type Binding struct {
	// Entry is the module node an attachment's choice leads to; empty
	// means the module's start.
	Entry string `json:"entry,omitempty"`
	// Exits maps a module ending node to the host node play goes on at
	// instead of ending.
	Exits map[string]string `json:"exits,omitempty"`
	// Variables maps a module variable to the host variable it shares
	// (same type): the module reads and writes the host's.
	Variables map[string]string `json:"variables,omitempty"`
}

// Payload is a story-graph attachment's payload: the host node that gains
// a choice leading into the module.
type Payload struct {
	// Node is the host node, a choice node.
	Node string `json:"node"`
	// Choice is the new choice's id in that node.
	Choice string `json:"choice"`
	// LabelKey is the choice's label, a key the module authors; empty
	// means the module's title.
	LabelKey core.LocKey `json:"labelKey,omitempty"`
}

// ComposeContent implements core.Composer (§1.1): each module's nodes,
// variables and achievements join the host's under "<alias>::<id>", bound
// variables become the host's, bound exits continue in the host, and each
// attachment adds a choice into its module.
func (Kind) ComposeContent(host *core.Campaign, modules []core.ComposedModule, attachments []core.ComposedAttachment) (any, []core.ValidationError) {
	hc, err := contentOf(host)
	if err != nil {
		return nil, []core.ValidationError{kindErr(ReasonInvalidContent, "content", "%v", err)}
	}
	out := &Content{Start: hc.Start, Variables: slices.Clone(hc.Variables), Achievements: slices.Clone(hc.Achievements),
		Nodes: slices.Clone(hc.Nodes), TextVars: maps.Clone(hc.TextVars)}
	var errs []core.ValidationError
	for i, m := range modules {
		_, es := out.merge(hc, m, fmt.Sprintf("includes[%d].binding", i))
		errs = append(errs, es...)
	}
	for i, a := range attachments {
		path := fmt.Sprintf("attachments[%d]", i)
		entry, es := out.merge(hc, a.Module, path+".include.binding")
		if len(es) == 0 {
			es = out.attach(a, entry, path+".payload")
		}
		errs = append(errs, es...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	out.compile()
	return out, nil
}

// merge adds module m's content, composed under its alias, to c, and
// returns the composed id of the module's entry. host is the host's own
// content, which exits must land in.
func (c *Content) merge(host *Content, m core.ComposedModule, path string) (string, []core.ValidationError) {
	mc, err := contentOf(m.Campaign)
	if err != nil {
		return "", []core.ValidationError{kindErr(ReasonInvalidContent, path, "%v", err)}
	}
	var b Binding
	if len(m.Include.Binding) > 0 {
		if err := strictjson.Decode(m.Include.Binding, &b); err != nil {
			return "", []core.ValidationError{kindErr(ReasonInvalidBinding, path, "story: binding: %v", err)}
		}
	}
	alias := m.Include.Alias
	r := renamer{node: prefixer(alias), ach: prefixer(alias), vars: map[string]string{}}
	var errs []core.ValidationError
	bad := func(at, format string, args ...any) {
		errs = append(errs, kindErr(ReasonInvalidBinding, path+"."+at, "story: "+format, args...))
	}
	if b.Entry != "" && mc.NodeByID(b.Entry) == nil {
		bad("entry", "the module has no node %q", b.Entry)
	}
	for _, mv := range slices.Sorted(maps.Keys(b.Variables)) {
		hv := b.Variables[mv]
		mi, mok := mc.index().varByID[mv]
		hi, hok := host.index().varByID[hv]
		switch {
		case !mok:
			bad("variables."+mv, "the module declares no variable %q", mv)
		case !hok:
			bad("variables."+mv, "the host declares no variable %q", hv)
		case mc.Variables[mi].Type != host.Variables[hi].Type:
			bad("variables."+mv, "module variable %q is %s but host variable %q is %s", mv, mc.Variables[mi].Type, hv, host.Variables[hi].Type)
		}
		r.vars[mv] = hv
	}
	for _, mn := range slices.Sorted(maps.Keys(b.Exits)) {
		if n := mc.NodeByID(mn); n == nil || n.Type != NodeEnding {
			bad("exits."+mn, "the module has no ending node %q", mn)
		}
		if host.NodeByID(b.Exits[mn]) == nil {
			bad("exits."+mn, "the host has no node %q", b.Exits[mn])
		}
	}
	if len(errs) > 0 {
		return "", errs
	}
	for _, v := range mc.Variables {
		if _, bound := r.vars[v.ID]; !bound {
			r.vars[v.ID] = core.ComposeID(alias, v.ID)
			v.ID = r.vars[v.ID]
			c.Variables = append(c.Variables, v)
		}
	}
	for _, a := range mc.Achievements {
		a.ID = r.ach(a.ID)
		a.When = r.condition(a.When)
		c.Achievements = append(c.Achievements, a)
	}
	for _, n := range mc.Nodes {
		if to, ok := b.Exits[n.ID]; ok {
			c.Nodes = append(c.Nodes, Node{ID: r.node(n.ID), Type: NodeRandom, Effects: r.effects(n.Effects),
				Transitions: []Transition{{To: to, Weight: 1}}})
			continue
		}
		c.Nodes = append(c.Nodes, r.renameNode(n))
	}
	if c.TextVars == nil {
		c.TextVars = map[string]map[string]string{}
	}
	for scope, names := range mc.TextVars {
		renamed := map[string]string{}
		for name, v := range names {
			renamed[name] = r.vars[v]
		}
		c.TextVars[core.ComposeID(alias, scope)] = renamed
	}
	for mv, hv := range b.Variables {
		if c.TextVars[alias] == nil {
			c.TextVars[alias] = map[string]string{}
		}
		c.TextVars[alias][mv] = hv
	}
	if len(c.TextVars) == 0 {
		c.TextVars = nil
	}
	entry := mc.Start
	if b.Entry != "" {
		entry = b.Entry
	}
	return r.node(entry), nil
}

// attach adds an attachment's choice, leading to entry, to its host node.
func (c *Content) attach(a core.ComposedAttachment, entry, path string) []core.ValidationError {
	var p Payload
	if err := strictjson.Decode(a.Payload, &p); err != nil {
		return []core.ValidationError{kindErr(ReasonInvalidBinding, path, "story: payload: %v", err)}
	}
	i := slices.IndexFunc(c.Nodes, func(n Node) bool { return n.ID == p.Node })
	if i < 0 || c.Nodes[i].Type != NodeChoice {
		return []core.ValidationError{kindErr(ReasonInvalidBinding, path+".node", "story: the host has no choice node %q", p.Node)}
	}
	label := p.LabelKey
	if label == "" {
		label = a.Module.Campaign.TitleKey
	}
	n := c.Nodes[i]
	n.Choices = append(slices.Clip(n.Choices), Choice{ID: p.Choice, LabelKey: label, To: entry})
	c.Nodes[i] = n
	return nil
}

// textVar returns the variable a placeholder {name} in the text of node
// nodeID names: name itself in a host's own node, and in a module's node
// the module's variable as composed (TextVars, else "<scope>::name").
func (c *Content) textVar(nodeID, name string) string {
	i := strings.LastIndex(nodeID, core.ComposedSeparator)
	if i < 0 {
		return name
	}
	scope := nodeID[:i]
	if v, ok := c.TextVars[scope][name]; ok {
		return v
	}
	return core.ComposeID(scope, name)
}

// renamer maps a module's ids to their composed form.
type renamer struct {
	node, ach func(string) string
	vars      map[string]string
}

func prefixer(alias string) func(string) string {
	return func(id string) string { return core.ComposeID(alias, id) }
}

func (r renamer) variable(id string) string {
	if v, ok := r.vars[id]; ok {
		return v
	}
	return id
}

func (r renamer) renameNode(n Node) Node {
	n.ID = r.node(n.ID)
	n.Effects = r.effects(n.Effects)
	n.ReliesOn = mapAll(n.ReliesOn, r.variable)
	n.Choices = slices.Clone(n.Choices)
	for i, ch := range n.Choices {
		ch.To = r.node(ch.To)
		ch.ShowWhen = r.condition(ch.ShowWhen)
		ch.Requires = r.condition(ch.Requires)
		ch.Effects = r.effects(ch.Effects)
		ch.Unlocks = mapAll(ch.Unlocks, r.ach)
		n.Choices[i] = ch
	}
	n.Transitions = slices.Clone(n.Transitions)
	for i, t := range n.Transitions {
		n.Transitions[i].To = r.node(t.To)
	}
	return n
}

func (r renamer) effects(effs []Effect) []Effect {
	if len(effs) == 0 {
		return nil
	}
	out := make([]Effect, len(effs))
	for i, e := range effs {
		e.Var = r.variable(e.Var)
		out[i] = e
	}
	return out
}

func mapAll(ids []string, f func(string) string) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = f(id)
	}
	return out
}

// condition returns a copy of c reading the composed ids (§6's
// vocabulary): var.*, visits.*, achieved.*, the values compared with node
// and flags, and the ids of the achievements collection.
func (r renamer) condition(c *condition.Condition) *condition.Condition {
	if c == nil {
		return nil
	}
	out := r.tree(*c, false)
	return &out
}

func (r renamer) tree(c condition.Condition, inAchievements bool) condition.Condition {
	out := c
	switch {
	case inAchievements && c.Field == "id":
		out.Value = renameValue(c.Value, r.ach)
	case strings.HasPrefix(c.Field, "var."):
		out.Field = "var." + r.variable(c.Field[4:])
	case strings.HasPrefix(c.Field, "visits."):
		out.Field = "visits." + r.node(c.Field[7:])
	case strings.HasPrefix(c.Field, "achieved."):
		out.Field = "achieved." + r.ach(c.Field[9:])
	case c.Field == "node":
		out.Value = renameValue(c.Value, r.node)
	case c.Field == "flags":
		out.Value = renameValue(c.Value, r.variable)
	}
	out.All = r.trees(c.All, inAchievements)
	out.Any = r.trees(c.Any, inAchievements)
	if c.Not != nil {
		not := r.tree(*c.Not, inAchievements)
		out.Not = &not
	}
	out.Exists = r.quantifier(c.Exists)
	out.Count = r.quantifier(c.Count)
	return out
}

func (r renamer) trees(cs []condition.Condition, inAchievements bool) []condition.Condition {
	if cs == nil {
		return nil
	}
	out := make([]condition.Condition, len(cs))
	for i, c := range cs {
		out[i] = r.tree(c, inAchievements)
	}
	return out
}

func (r renamer) quantifier(q *condition.Quantifier) *condition.Quantifier {
	if q == nil {
		return nil
	}
	return &condition.Quantifier{Collection: q.Collection, Where: r.tree(q.Where, q.Collection == "achievements")}
}

// renameValue renames a compared id, or each of a list of them; any other
// value is left as it is (tier 1 judges it).
func renameValue(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = renameValue(e, f)
		}
		return out
	}
	return v
}
