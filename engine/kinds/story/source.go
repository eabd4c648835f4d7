package story

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Source is the authored form of a campaign's content (§2 of
// docs/story-graph-kind.md): Content with every player-facing string inline
// as a core.SourceText — a plain string, whose key BuildContent derives from
// where it stands, or {"key": ..., "text": ...} to name the key.
type Source struct {
	Start        string              `json:"start"`
	Variables    []SourceVariable    `json:"variables,omitempty"`
	Achievements []SourceAchievement `json:"achievements,omitempty"`
	Nodes        []SourceNode        `json:"nodes"`
}

// SourceVariable is the authored form of a Variable; Label is required for
// a visible variable.
type SourceVariable struct {
	ID      string           `json:"id"`
	Type    string           `json:"type"`
	Initial Value            `json:"initial"`
	Min     *int64           `json:"min,omitempty"`
	Max     *int64           `json:"max,omitempty"`
	Visible bool             `json:"visible,omitempty"`
	Label   *core.SourceText `json:"label,omitempty"`
}

// SourceAchievement is the authored form of an Achievement.
type SourceAchievement struct {
	ID          string               `json:"id"`
	Title       core.SourceText      `json:"title"`
	Description *core.SourceText     `json:"description,omitempty"`
	When        *condition.Condition `json:"when,omitempty"`
}

// SourceNode is the authored form of a Node; Title is an ending's title.
type SourceNode struct {
	ID          string             `json:"id"`
	Type        string             `json:"type"`
	Text        *core.SourceText   `json:"text,omitempty"`
	Effects     []Effect           `json:"effects,omitempty"`
	Choices     []SourceChoice     `json:"choices,omitempty"`
	Transitions []SourceTransition `json:"transitions,omitempty"`
	EndingID    string             `json:"endingId,omitempty"`
	Title       *core.SourceText   `json:"title,omitempty"`
	Outcome     string             `json:"outcome,omitempty"`
	ReliesOn    []string           `json:"reliesOn,omitempty"`
}

// SourceChoice is the authored form of a Choice: Text is its label, and
// RequirementFail the reason shown while Requires does not hold.
type SourceChoice struct {
	ID              string               `json:"id"`
	Text            core.SourceText      `json:"text"`
	ShowWhen        *condition.Condition `json:"showWhen,omitempty"`
	Requires        *condition.Condition `json:"requires,omitempty"`
	RequirementFail *core.SourceText     `json:"requirementFail,omitempty"`
	Effects         []Effect             `json:"effects,omitempty"`
	Unlocks         []string             `json:"unlocks,omitempty"`
	To              string               `json:"to"`
}

// SourceTransition is the authored form of a Transition. Weight is read as
// any JSON number so that a fractional weight is reported as invalid_weight
// at its path rather than as a decoding error.
type SourceTransition struct {
	To     string      `json:"to"`
	Weight json.Number `json:"weight"`
}

// Derived LocKeys (§2.2). Every segment is [a-z0-9_-] when the ids are.
func nodeTextKey(cid, node string) core.LocKey       { return cid + ".node." + node + ".text" }
func choiceKey(cid, node, choice string) core.LocKey { return cid + ".choice." + node + "." + choice }
func choiceLockedKey(cid, node, choice string) core.LocKey {
	return cid + ".choice." + node + "." + choice + ".locked"
}
func endingTitleKey(cid, ending string) core.LocKey { return cid + ".ending." + ending + ".title" }
func achTitleKey(cid, id string) core.LocKey        { return cid + ".achievement." + id + ".title" }
func achDescKey(cid, id string) core.LocKey         { return cid + ".achievement." + id + ".description" }
func varLabelKey(cid, id string) core.LocKey        { return cid + ".variable." + id + ".label" }

// lifter collects authored text, refusing one key with two texts.
type lifter struct {
	strings []core.AuthoredText
	seen    map[core.LocKey]int
	errs    []core.ValidationError
}

// lift returns the key of t (its own, or def) and records its text. A
// {key} with empty text references a key authored elsewhere in the
// campaign and records nothing.
func (l *lifter) lift(t core.SourceText, def core.LocKey, path string) core.LocKey {
	a := t.Lift(def)
	if a.Text == "" && t.Key != "" {
		return a.Key
	}
	if i, ok := l.seen[a.Key]; ok {
		if l.strings[i].Text != a.Text {
			e := core.Errorf(core.ReasonStringConflict, path, "story: key %q has two texts", a.Key)
			e.Details = map[string]any{"key": a.Key}
			l.errs = append(l.errs, e)
		}
		return a.Key
	}
	l.seen[a.Key] = len(l.strings)
	l.strings = append(l.strings, a)
	return a.Key
}

func (l *lifter) liftOpt(t *core.SourceText, def core.LocKey, path string) core.LocKey {
	if t == nil {
		return ""
	}
	return l.lift(*t, def, path)
}

// BuildContent implements core.Kind: it decodes the source strictly, lifts
// every inline text to its LocKey (derived keys are namespaced by
// campaignID) and returns the runtime *Content with the authored strings in
// the order they appear. One key with two texts is string_conflict; a
// malformed document is invalid_content; a fractional weight is
// invalid_weight. Everything else is ValidateCampaign's.
func (Kind) BuildContent(source json.RawMessage, campaignID string) (any, []core.AuthoredText, []core.ValidationError) {
	var src Source
	if err := strictjson.Decode(source, &src); err != nil {
		return nil, nil, []core.ValidationError{kindErr(ReasonInvalidContent, "content", "story: %v", err)}
	}
	l := &lifter{seen: map[core.LocKey]int{}}
	if errs := duplicates(src); len(errs) > 0 {
		return nil, nil, errs
	}
	c := &Content{Start: src.Start}
	for _, v := range src.Variables {
		if v.Initial.Type == "" {
			// Found by FuzzBuildContent: a declaration with no initial
			// value cannot be played or stored.
			l.errs = append(l.errs, kindErr(ReasonInvalidVariable, "content.variables."+v.ID+".initial",
				"story: variable %q needs an initial value", v.ID))
			continue
		}
		c.Variables = append(c.Variables, Variable{ID: v.ID, Type: v.Type, Initial: v.Initial, Min: v.Min, Max: v.Max, Visible: v.Visible,
			LabelKey: l.liftOpt(v.Label, varLabelKey(campaignID, v.ID), "content.variables."+v.ID+".label")})
	}
	for _, a := range src.Achievements {
		base := "content.achievements." + a.ID
		c.Achievements = append(c.Achievements, Achievement{ID: a.ID,
			TitleKey:       l.lift(a.Title, achTitleKey(campaignID, a.ID), base+".title"),
			DescriptionKey: l.liftOpt(a.Description, achDescKey(campaignID, a.ID), base+".description"),
			When:           a.When})
	}
	for _, n := range src.Nodes {
		base := "content.nodes." + n.ID
		node := Node{ID: n.ID, Type: n.Type, Effects: n.Effects, EndingID: n.EndingID, Outcome: n.Outcome, ReliesOn: n.ReliesOn,
			TextKey: l.liftOpt(n.Text, nodeTextKey(campaignID, n.ID), base+".text")}
		if n.Title != nil {
			node.TitleKey = l.lift(*n.Title, endingTitleKey(campaignID, n.EndingID), base+".title")
		}
		for _, ch := range n.Choices {
			cb := base + ".choices." + ch.ID
			node.Choices = append(node.Choices, Choice{ID: ch.ID,
				LabelKey:           l.lift(ch.Text, choiceKey(campaignID, n.ID, ch.ID), cb+".text"),
				ShowWhen:           ch.ShowWhen,
				Requires:           ch.Requires,
				RequirementFailKey: l.liftOpt(ch.RequirementFail, choiceLockedKey(campaignID, n.ID, ch.ID), cb+".requirementFail"),
				Effects:            ch.Effects, Unlocks: ch.Unlocks, To: ch.To})
		}
		for i, t := range n.Transitions {
			w, err := strconv.ParseInt(string(t.Weight), 10, 64)
			if err != nil {
				l.errs = append(l.errs, kindErr(ReasonInvalidWeight, base+".transitions."+strconv.Itoa(i)+".weight",
					"story: weight %s is not an integer", t.Weight))
				continue
			}
			node.Transitions = append(node.Transitions, Transition{To: t.To, Weight: w})
		}
		c.Nodes = append(c.Nodes, node)
	}
	if len(l.errs) > 0 {
		return nil, l.strings, l.errs
	}
	c.compile()
	return c, l.strings, nil
}

// duplicates reports ids declared twice, before their derived keys could
// collide and hide the real problem behind a string conflict, and authored
// ids holding ':', which only composition writes (§1.1).
func duplicates(src Source) []core.ValidationError {
	var errs []core.ValidationError
	check := func(seen map[string]bool, id, path, what string) {
		if strings.Contains(id, ":") {
			errs = append(errs, core.Errorf(core.ReasonInvalidIdentifier, path+".id", "story: %s id %q holds ':', which only composed ids have", what, id))
		}
		if seen[id] {
			errs = append(errs, kindErr(ReasonDuplicateID, path, "story: %s %q declared twice", what, id))
		}
		seen[id] = true
	}
	seen := map[string]bool{}
	for _, v := range src.Variables {
		check(seen, v.ID, "content.variables."+v.ID, "variable")
	}
	seen = map[string]bool{}
	for _, a := range src.Achievements {
		check(seen, a.ID, "content.achievements."+a.ID, "achievement")
	}
	seen = map[string]bool{}
	for _, n := range src.Nodes {
		check(seen, n.ID, "content.nodes."+n.ID, "node")
		choices := map[string]bool{}
		for _, ch := range n.Choices {
			check(choices, ch.ID, "content.nodes."+n.ID+".choices."+ch.ID, "choice")
		}
	}
	return errs
}
