package story

import (
	"strconv"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
)

// checker accumulates findings.
type checker struct {
	c        *Content
	ix       *index
	strings  map[core.LocKey]string
	errs     []core.ValidationError
	warnings []core.ValidationWarning
}

func (k *checker) err(e core.ValidationError) { k.errs = append(k.errs, e) }
func (k *checker) errf(code, path, format string, args ...any) {
	k.err(kindErr(code, path, format, args...))
}
func (k *checker) coreErrf(code, path, format string, args ...any) {
	k.err(core.Errorf(code, path, format, args...))
}
func (k *checker) warnf(code, path, format string, args ...any) {
	k.warnings = append(k.warnings, kindErr(code, path, format, args...))
}
func (k *checker) coreWarnf(code, path, format string, args ...any) {
	k.warnings = append(k.warnings, core.Errorf(code, path, format, args...))
}

// ValidateCampaign implements core.Kind: the tier 1 and tier 2 checks of §11
// of docs/story-graph-kind.md against the campaign's own string table.
func (Kind) ValidateCampaign(c *core.Campaign, strings map[core.LocKey]string) core.ValidationResult {
	sc, err := contentOf(c)
	if err != nil {
		return core.ValidationResult{Errors: []core.ValidationError{kindErr(ReasonInvalidContent, "content", "%v", err)}, Warnings: []core.ValidationWarning{}}
	}
	k := &checker{c: sc, ix: sc.index(), strings: strings}
	k.tier1()
	if len(k.errs) == 0 {
		k.tier2()
	}
	res := core.ValidationResult{OK: len(k.errs) == 0, Errors: k.errs, Warnings: k.warnings}
	if res.Errors == nil {
		res.Errors = []core.ValidationError{}
	}
	if res.Warnings == nil {
		res.Warnings = []core.ValidationWarning{}
	}
	return res
}

func (k *checker) id(id, path, what string) {
	if !core.IsSnakeID(id) {
		k.coreErrf(core.ReasonInvalidIdentifier, path, "story: %s id %q is not snake_case [a-z0-9_]", what, id)
	}
}

// composedID checks a node, variable or achievement id, which composition
// may have prefixed with "<alias>::" (§1.1).
func (k *checker) composedID(id, path, what string) {
	if !core.IsComposedID(id, core.IsSnakeID) {
		k.coreErrf(core.ReasonInvalidIdentifier, path, "story: %s id %q is not snake_case [a-z0-9_]", what, id)
	}
}

// declared checks the id of a declared element (a what) at path: its
// form, and that no element before it in seen has it; it adds it to seen.
func (k *checker) declared(seen map[string]bool, id, path, what string) {
	k.composedID(id, path+".id", what)
	if seen[id] {
		k.errf(ReasonDuplicateID, path, "story: %s %q declared twice", what, id)
	}
	seen[id] = true
}

// key checks a LocKey the content references: its shape, and that the
// campaign's table holds text for it. required says whether empty is an error.
func (k *checker) key(key core.LocKey, path string, required bool) {
	if key == "" {
		if required {
			k.coreErrf(core.ReasonMissingStringKey, path, "story: missing text")
		}
		return
	}
	if !core.IsLocKey(key) {
		k.coreErrf(core.ReasonInvalidLocKey, path, "story: %q is not a dotted key of [a-z0-9_-] segments", key)
		return
	}
	if _, ok := k.strings[key]; !ok {
		e := core.Errorf(core.ReasonMissingStringKey, path, "story: no text for key %q", key)
		e.Details = map[string]any{"key": key}
		k.err(e)
	}
}

func (k *checker) tier1() {
	c, ix := k.c, k.ix
	seen := map[string]bool{}
	for _, v := range c.Variables {
		path := "content.variables." + v.ID
		k.declared(seen, v.ID, path, "variable")
		switch v.Type {
		case TypeInt, TypeBool, TypeString:
		default:
			k.errf(ReasonInvalidVariable, path+".type", "story: variable %q has type %q; want int, bool or string", v.ID, v.Type)
			continue
		}
		if v.Initial.Type != v.Type {
			k.errf(ReasonInvalidVariable, path+".initial", "story: variable %q is %s but its initial value is %s", v.ID, v.Type, orNone(v.Initial.Type))
		}
		if (v.Min != nil || v.Max != nil) && v.Type != TypeInt {
			k.errf(ReasonInvalidVariable, path, "story: only an int variable has bounds; %q is %s", v.ID, v.Type)
		}
		if v.Min != nil && v.Max != nil && *v.Min > *v.Max {
			k.errf(ReasonInvalidVariable, path+".min", "story: variable %q has min %d above max %d", v.ID, *v.Min, *v.Max)
		} else if v.Initial.Type == TypeInt && v.Type == TypeInt {
			if err := checkValue(v, v.Initial); err != nil {
				k.errf(ReasonInvalidVariable, path+".initial", "%v", err)
			}
		}
		if v.Visible && v.LabelKey == "" {
			k.coreErrf(core.ReasonMissingStringKey, path+".label", "story: visible variable %q needs a label", v.ID)
		} else {
			k.key(v.LabelKey, path+".labelKey", false)
		}
	}
	seen = map[string]bool{}
	for _, a := range c.Achievements {
		path := "content.achievements." + a.ID
		k.declared(seen, a.ID, path, "achievement")
		k.key(a.TitleKey, path+".titleKey", true)
		k.key(a.DescriptionKey, path+".descriptionKey", false)
	}
	if len(c.Nodes) == 0 {
		k.errf(ReasonInvalidContent, "content.nodes", "story: a campaign needs at least one node")
	}
	if _, ok := ix.nodeByID[c.Start]; !ok {
		k.errf(ReasonUnknownNode, "content.start", "story: unknown node %q", c.Start)
	}
	seen = map[string]bool{}
	type endingDecl struct{ title, outcome, node string }
	endings := map[string]endingDecl{}
	for _, n := range c.Nodes {
		path := "content.nodes." + n.ID
		k.declared(seen, n.ID, path, "node")
		k.effects(n.Effects, path+".effects")
		switch n.Type {
		case NodeChoice:
			k.key(n.TextKey, path+".textKey", true)
			if len(n.Choices) == 0 {
				k.errf(ReasonInvalidNode, path+".choices", "story: choice node %q has no choices", n.ID)
			}
			if len(n.Transitions) > 0 || n.EndingID != "" || n.TitleKey != "" || n.Outcome != "" {
				k.errf(ReasonInvalidNode, path, "story: choice node %q has fields of another node type", n.ID)
			}
			k.choices(n)
		case NodeRandom:
			k.key(n.TextKey, path+".textKey", false)
			if len(n.Transitions) == 0 {
				k.errf(ReasonInvalidNode, path+".transitions", "story: random node %q has no transitions", n.ID)
			}
			if len(n.Choices) > 0 || n.EndingID != "" || n.TitleKey != "" || n.Outcome != "" {
				k.errf(ReasonInvalidNode, path, "story: random node %q has fields of another node type", n.ID)
			}
			var total int64
			for i, t := range n.Transitions {
				tp := path + ".transitions." + strconv.Itoa(i)
				if _, ok := ix.nodeByID[t.To]; !ok {
					k.errf(ReasonUnknownNode, tp+".to", "story: unknown node %q", t.To)
				}
				if t.Weight <= 0 || t.Weight > 1<<31 {
					k.errf(ReasonInvalidWeight, tp+".weight", "story: weight %d is not a positive integer up to 2^31", t.Weight)
				} else {
					total += t.Weight
				}
			}
			if total > 1<<32-1 {
				k.errf(ReasonInvalidWeight, path+".transitions", "story: the weights of node %q sum above 2^32-1", n.ID)
			}
		case NodeEnding:
			k.key(n.TextKey, path+".textKey", true)
			k.key(n.TitleKey, path+".titleKey", true)
			k.id(n.EndingID, path+".endingId", "ending")
			switch n.Outcome {
			case OutcomeWin, OutcomeLose, OutcomeNeutral:
			default:
				k.errf(ReasonInvalidNode, path+".outcome", "story: ending outcome %q; want win, lose or neutral", n.Outcome)
			}
			if len(n.Choices) > 0 || len(n.Transitions) > 0 {
				k.errf(ReasonInvalidNode, path, "story: ending node %q has choices or transitions", n.ID)
			}
			if prev, ok := endings[n.EndingID]; ok && (prev.title != n.TitleKey || prev.outcome != n.Outcome) {
				k.errf(ReasonEndingConflict, path, "story: ending %q is also declared at node %q with another title or outcome", n.EndingID, prev.node)
			} else if !ok {
				endings[n.EndingID] = endingDecl{n.TitleKey, n.Outcome, n.ID}
			}
		default:
			k.errf(ReasonInvalidNode, path+".type", "story: node type %q; want choice, random or ending", n.Type)
		}
		if n.TextKey != "" && core.IsLocKey(n.TextKey) {
			k.placeholders(k.strings[n.TextKey], n.ID, path+".textKey")
		}
		for j, id := range n.ReliesOn {
			if vi, ok := k.ix.varByID[id]; !ok || k.c.Variables[vi].Type != TypeBool {
				k.errf(ReasonUnknownVariable, path+".reliesOn."+strconv.Itoa(j), "story: a node relies on %q, which is not a declared bool variable", id)
			}
		}
	}
	c.eachCondition(k.condition)
}

func orNone(t string) string {
	if t == "" {
		return "missing"
	}
	return t
}

func (k *checker) choices(n Node) {
	seen := map[string]bool{}
	for i, ch := range n.Choices {
		path := "content.nodes." + n.ID + ".choices." + ch.ID
		k.id(ch.ID, path+".id", "choice")
		if seen[ch.ID] {
			e := kindErr(ReasonDuplicateID, path, "story: node %q has two choices %q", n.ID, ch.ID)
			e.Details = map[string]any{"index": i}
			k.err(e)
		}
		seen[ch.ID] = true
		k.key(ch.LabelKey, path+".labelKey", true)
		k.key(ch.RequirementFailKey, path+".requirementFailKey", false)
		if ch.RequirementFailKey != "" && ch.Requires == nil {
			k.errf(ReasonInvalidNode, path+".requirementFailKey", "story: choice %q has a requirement reason but no requires", ch.ID)
		}
		if _, ok := k.ix.nodeByID[ch.To]; !ok {
			k.errf(ReasonUnknownNode, path+".to", "story: unknown node %q", ch.To)
		}
		k.effects(ch.Effects, path+".effects")
		for j, a := range ch.Unlocks {
			if _, ok := k.ix.achByID[a]; !ok {
				k.errf(ReasonUnknownAchievement, path+".unlocks."+strconv.Itoa(j), "story: unknown achievement %q", a)
			}
		}
	}
}

func (k *checker) effects(effs []Effect, base string) {
	for i, e := range effs {
		path := base + "." + strconv.Itoa(i)
		vi, ok := k.ix.varByID[e.Var]
		if !ok {
			k.errf(ReasonUnknownVariable, path+".var", "story: unknown variable %q", e.Var)
			continue
		}
		decl := k.c.Variables[vi]
		switch e.Op {
		case OpSet:
			if e.Value.Type != decl.Type {
				k.errf(ReasonInvalidEffect, path+".value", "story: variable %q is %s; cannot set it to a %s", e.Var, decl.Type, orNone(e.Value.Type))
			}
		case OpIncrement, OpDecrement:
			if decl.Type != TypeInt || e.Value.Type != TypeInt {
				k.errf(ReasonInvalidEffect, path, "story: %s needs an int variable and an int value", e.Op)
			}
		default:
			k.errf(ReasonInvalidEffect, path+".op", "story: effect op %q; want set, increment or decrement", e.Op)
		}
	}
}

// condition checks one condition: its shape, that every field and
// collection it reads is in the vocabulary, and that ordering comparisons
// compare numbers with numbers and strings with strings.
func (k *checker) condition(path string, cond *condition.Condition) {
	if err := cond.Check(); err != nil {
		k.errf(ReasonInvalidCondition, path, "story: %v", err)
		return
	}
	cond.Fields(func(name string, collection bool) {
		if !knownField(k.ix, name, collection) {
			e := kindErr(ReasonUnknownConditionField, path, "story: condition reads unknown %s %q", fieldWord(collection), name)
			e.Details = map[string]any{"field": name}
			k.err(e)
		}
	})
	k.conditionTypes(path, *cond, false)
}

func fieldWord(collection bool) string {
	if collection {
		return "collection"
	}
	return "field"
}

// conditionTypes checks the type of each comparison it can know.
func (k *checker) conditionTypes(path string, cond condition.Condition, inCollection bool) {
	switch {
	case cond.Field != "" && !inCollection:
		typ := k.fieldType(cond.Field)
		switch cond.Operator {
		case condition.LessThan, condition.LessOrEqual, condition.GreaterThan, condition.GreaterOrEqual:
			_, isNum := cond.Value.(float64)
			_, isStr := cond.Value.(string)
			if !(typ == TypeInt && isNum || typ == TypeString && isStr) {
				k.errf(ReasonInvalidCondition, path, "story: %s cannot order %s field %q against %v", cond.Operator, orNone(typ), cond.Field, cond.Value)
			}
		case condition.HasFlag, condition.HasTag:
			if cond.Field != "flags" {
				k.errf(ReasonInvalidCondition, path, "story: %s reads the field \"flags\", not %q", cond.Operator, cond.Field)
			} else if s, ok := cond.Value.(string); !ok || !k.isBoolVar(s) {
				k.errf(ReasonInvalidCondition, path, "story: %s needs the id of a bool variable, not %v", cond.Operator, cond.Value)
			}
		}
	case cond.Not != nil:
		k.conditionTypes(path, *cond.Not, inCollection)
	case cond.Exists != nil:
		k.conditionTypes(path, cond.Exists.Where, true)
	case cond.Count != nil:
		k.conditionTypes(path, cond.Count.Where, true)
	}
	for _, sub := range cond.All {
		k.conditionTypes(path, sub, inCollection)
	}
	for _, sub := range cond.Any {
		k.conditionTypes(path, sub, inCollection)
	}
}

func (k *checker) isBoolVar(id string) bool {
	i, ok := k.ix.varByID[id]
	return ok && k.c.Variables[i].Type == TypeBool
}

// fieldType returns the type a field reads as, or "" when it is a list or
// unknown.
func (k *checker) fieldType(field string) string {
	switch {
	case field == "turn":
		return TypeInt
	case field == "node":
		return TypeString
	case len(field) > 4 && field[:4] == "var.":
		if i, ok := k.ix.varByID[field[4:]]; ok {
			return k.c.Variables[i].Type
		}
	case len(field) > 7 && field[:7] == "visits.":
		return TypeInt
	case len(field) > 9 && field[:9] == "achieved.":
		return TypeBool
	}
	return ""
}

func (k *checker) placeholders(text, nodeID, path string) {
	args, errs := display.Arguments(text)
	for _, se := range errs {
		e := kindErr(ReasonInvalidPlural, path, "story: %s", se.Msg)
		e.Details = map[string]any{"offset": se.Offset, "syntax": se.Reason}
		k.err(e)
	}
	reported := map[string]bool{}
	for _, a := range args {
		if reported[a.Name] {
			continue
		}
		i, ok := k.ix.varByID[k.c.textVar(nodeID, a.Name)]
		switch {
		case !ok || !k.c.Variables[i].Visible:
			e := kindErr(ReasonInvalidPlaceholder, path, "story: text shows {%s}, which is not a declared visible variable", a.Name)
			e.Details = map[string]any{"placeholder": a.Name}
			k.err(e)
		case a.Plural && k.c.Variables[i].Type != TypeInt:
			e := kindErr(ReasonInvalidPlural, path, "story: {%s, plural, ...} needs an int variable, and %s is %s", a.Name, a.Name, k.c.Variables[i].Type)
			e.Details = map[string]any{"offset": a.Offset, "syntax": "plural_not_int"}
			k.err(e)
		default:
			continue
		}
		reported[a.Name] = true
	}
}

// tier2 runs the static graph checks: reachability from the start ignoring
// conditions, choice reachability, loops without exits, random cycles,
// achievements nothing unlocks and variables nothing uses.
func (k *checker) tier2() {
	c, ix := k.c, k.ix
	n := len(c.Nodes)
	succ := make([][]int32, n)
	for i := range c.Nodes {
		for _, ch := range ix.nodes[i].choices {
			succ[i] = append(succ[i], ch.to)
		}
		for _, t := range ix.nodes[i].trans {
			succ[i] = append(succ[i], t.Item)
		}
	}
	reach := make([]bool, n)
	stack := []int32{ix.start}
	reach[ix.start] = true
	anyChoice := false
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		anyChoice = anyChoice || ix.nodes[v].typ == typChoice
		for _, w := range succ[v] {
			if !reach[w] {
				reach[w] = true
				stack = append(stack, w)
			}
		}
	}
	for i, node := range c.Nodes {
		if !reach[i] {
			k.coreWarnf(core.ReasonUnreachableContent, "content.nodes."+node.ID, "story: no link from the start reaches node %q", node.ID)
		}
	}
	if !anyChoice {
		k.coreWarnf(core.ReasonNoReachableChoice, "content.start", "story: no choice node is reachable; the campaign plays itself to an ending")
	}
	for _, comp := range sccs(succ) {
		if !reach[comp[0]] {
			continue
		}
		in := map[int32]bool{}
		for _, v := range comp {
			in[v] = true
		}
		cyclic := len(comp) > 1
		exits, allRandom := false, true
		for _, v := range comp {
			allRandom = allRandom && ix.nodes[v].typ == typRandom
			for _, w := range succ[v] {
				if !in[w] {
					exits = true
				}
				if w == v {
					cyclic = true
				}
			}
		}
		if !cyclic {
			continue
		}
		first := c.Nodes[minOf(comp)].ID
		if !exits {
			k.warnf(ReasonCycleWithoutExit, "content.nodes."+first, "story: the %d node(s) looping through %q have no way out", len(comp), first)
		}
		if allRandom {
			k.warnf(ReasonRandomCycle, "content.nodes."+first, "story: random nodes around %q lead into each other; a settle may stop at its cap of %d draws", first, MaxSettleSteps)
		}
	}
	unlockedByChoice := map[string]bool{}
	used := map[string]bool{}
	for _, node := range c.Nodes {
		for _, e := range node.Effects {
			used[e.Var] = true
		}
		for _, ch := range node.Choices {
			for _, a := range ch.Unlocks {
				unlockedByChoice[a] = true
			}
			for _, e := range ch.Effects {
				used[e.Var] = true
			}
		}
		if s, ok := k.strings[node.TextKey]; ok {
			for _, p := range placeholders(s) {
				used[c.textVar(node.ID, p)] = true
			}
		}
	}
	c.eachCondition(func(_ string, cond *condition.Condition) {
		cond.Fields(func(name string, _ bool) {
			if len(name) > 4 && name[:4] == "var." {
				used[name[4:]] = true
			}
			if name == "flags" {
				for _, v := range c.Variables {
					used[v.ID] = used[v.ID] || v.Type == TypeBool
				}
			}
		})
	})
	for _, a := range c.Achievements {
		if a.When == nil && !unlockedByChoice[a.ID] {
			k.warnf(ReasonAchievementUnobtainable, "content.achievements."+a.ID, "story: nothing unlocks achievement %q", a.ID)
		}
	}
	for _, v := range c.Variables {
		if !used[v.ID] && !v.Visible {
			k.warnf(ReasonUnusedVariable, "content.variables."+v.ID, "story: variable %q is never read or written", v.ID)
		}
	}
}

func minOf(xs []int32) int32 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

// sccs returns the strongly connected components of the graph (Tarjan's
// algorithm, iterative so deep graphs need no deep recursion).
func sccs(succ [][]int32) [][]int32 {
	n := len(succ)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var out [][]int32
	var stack []int32
	type frame struct{ v, edge int32 }
	var counter int32
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{int32(root), 0}}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if int(f.edge) < len(succ[v]) {
				w := succ[v][f.edge]
				f.edge++
				if w < 0 {
					continue
				}
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var comp []int32
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				out = append(out, comp)
			}
		}
	}
	return out
}
