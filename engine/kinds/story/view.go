package story

import (
	"fmt"
	"slices"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
)

// View is the story-graph projection (StoryGraphView, §9 of
// docs/story-graph-kind.md): the turn, the visible variables, the unlocked
// achievements and, once ended, the ending with its outcome. It leaves out
// hidden variables, visit counts and the current node's id; the scene text
// and choices travel in the generic Scene, not here. The "ai" audience sees
// exactly what the player sees: a story has no rival seat, and widening it
// would be a declared difficulty setting, which this kind does not have.
type View struct {
	Turn         int64             `json:"turn"`
	Variables    []ViewVariable    `json:"variables"`
	Achievements []ViewAchievement `json:"achievements"`
	Ending       *ViewEnding       `json:"ending,omitempty"`
}

// ViewVariable is one visible variable: its id, label and value, and an int
// variable's bounds.
type ViewVariable struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	Value    any         `json:"value"`
	Min      *int64      `json:"min,omitempty"`
	Max      *int64      `json:"max,omitempty"`
}

// ViewAchievement is one unlocked achievement.
type ViewAchievement struct {
	ID             string      `json:"id"`
	TitleKey       core.LocKey `json:"titleKey"`
	DescriptionKey core.LocKey `json:"descriptionKey,omitempty"`
}

// ViewEnding is the ending a game closed on.
type ViewEnding struct {
	EndingID string      `json:"endingId"`
	TitleKey core.LocKey `json:"titleKey"`
	Outcome  string      `json:"outcome"`
}

// AppendCanonical appends the view's canonical form (package canon), the
// bytes canon.Canonicalize makes of its encoding/json form, written
// directly: a scene is projected after every choice.
func (v View) AppendCanonical(b []byte) ([]byte, error) {
	if b == nil { // room for the usual view, so it is written in one buffer
		b = make([]byte, 0, 64+96*len(v.Variables)+96*len(v.Achievements))
	}
	o := canon.OpenObject(b)
	o.Key("achievements")
	o.B = canon.AppendList(o.B, v.Achievements, func(b []byte, a *ViewAchievement) []byte {
		ao := canon.OpenObject(b)
		ao.OptString("descriptionKey", string(a.DescriptionKey))
		ao.String("id", a.ID)
		ao.String("titleKey", string(a.TitleKey))
		return ao.Close()
	})
	if e := v.Ending; e != nil {
		o.Key("ending")
		eo := canon.OpenObject(o.B)
		eo.String("endingId", e.EndingID)
		eo.String("outcome", e.Outcome)
		eo.String("titleKey", string(e.TitleKey))
		o.B = eo.Close()
	}
	o.Int("turn", v.Turn)
	for _, x := range v.Variables {
		switch x.Value.(type) {
		case int64, bool, string, nil:
		default:
			return nil, fmt.Errorf("story: view variable %q holds a %T", x.ID, x.Value)
		}
	}
	canon.List(&o, "variables", v.Variables, appendViewVariable)
	return o.Close(), nil
}

// appendViewVariable appends x, whose value AppendCanonical has checked
// to be an int64, a bool, a string or nil.
func appendViewVariable(b []byte, x *ViewVariable) []byte {
	o := canon.OpenObject(b)
	o.String("id", x.ID)
	o.String("labelKey", string(x.LabelKey))
	if x.Max != nil {
		o.Int("max", *x.Max)
	}
	if x.Min != nil {
		o.Int("min", *x.Min)
	}
	switch val := x.Value.(type) {
	case int64:
		o.Int("value", val)
	case bool:
		o.Bool("value", val)
	case string:
		o.String("value", val)
	default:
		o.Null("value")
	}
	return o.Close()
}

// Project implements core.Kind: the View, the same for both audiences.
func (Kind) Project(state any, _ core.Audience, _ *core.ProjectionContext) any {
	st, err := asState(state)
	if err != nil {
		return View{Variables: []ViewVariable{}, Achievements: []ViewAchievement{}}
	}
	return project(st)
}

func project(st *State) View {
	c := st.c
	v := View{Turn: st.turn, Variables: []ViewVariable{}, Achievements: []ViewAchievement{}}
	for i, decl := range c.Variables {
		if decl.Visible {
			v.Variables = append(v.Variables, ViewVariable{ID: decl.ID, LabelKey: decl.LabelKey, Value: st.value(i).Any(), Min: decl.Min, Max: decl.Max})
		}
	}
	for i, on := range st.achieved {
		if on {
			a := &c.Achievements[i]
			v.Achievements = append(v.Achievements, ViewAchievement{ID: a.ID, TitleKey: a.TitleKey, DescriptionKey: a.DescriptionKey})
		}
	}
	if st.Ended() {
		n := &c.Nodes[st.node]
		v.Ending = &ViewEnding{EndingID: n.EndingID, TitleKey: n.TitleKey, Outcome: n.Outcome}
	}
	return v
}

// placeholders returns the names of text's arguments ({name} and
// {name, plural, ...}, see package display), in order of first appearance.
// Any other brace is literal text.
func placeholders(text string) []string {
	args, _ := display.Arguments(text)
	var out []string
	for _, a := range args {
		if !slices.Contains(out, a.Name) {
			out = append(out, a.Name)
		}
	}
	return out
}

// interpolate renders text with every argument naming a visible variable
// filled in (plurals chosen by the default locale's CLDR categories) and
// returns the values it used as params (nil for none), so a client
// rendering another locale fills the same. Arguments naming anything else
// stay as written; tier 1 refuses them.
func interpolate(text string, st *State) (string, map[string]any) {
	nodeID := st.c.Nodes[st.node].ID
	names := placeholders(text)
	if len(names) == 0 {
		return text, nil
	}
	var params, fill map[string]any
	for _, name := range names {
		vi, ok := st.c.ix.varByID[st.c.textVar(nodeID, name)]
		if !ok || !st.c.Variables[vi].Visible {
			continue
		}
		if params == nil {
			params, fill = map[string]any{}, map[string]any{}
		}
		v := st.value(int(vi))
		params[name] = v.Any()
		fill[name] = v.Any()
		if v.Type != TypeInt {
			fill[name] = v.String()
		}
	}
	if params == nil {
		return text, nil
	}
	return display.FillIn(core.DefaultLocale, text, fill), params
}
