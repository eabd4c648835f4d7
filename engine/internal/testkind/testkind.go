// Package testkind is a small, complete kind for the core's own tests: a
// counter that the player raises by one ("inc", with an optional "by"
// param), by a random one to three ("roll"), and finishes once it reaches the
// campaign's goal ("finish"). It exercises every member of the Kind seam and
// every optional capability, so core, content, validate and session tests do
// not depend on a real kind.
package testkind

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
	"github.com/storyloom/storyloom/engine/validate"
)

// ID is the kind id.
const ID = "counter"

// Kind is the counter kind. Version is its state version ("" means 1.0.0).
type Kind struct{ StateVersion string }

// Content is a counter campaign's runtime content.
type Content struct {
	Start     int         `json:"start"`
	Goal      int         `json:"goal"`
	StepKey   core.LocKey `json:"stepKey"`
	AchieveAt int         `json:"achieveAt"`
}

type source struct {
	Start     int             `json:"start"`
	Goal      int             `json:"goal"`
	Step      core.SourceText `json:"step"`
	AchieveAt int             `json:"achieveAt"`
}

// State is the counter's kind state.
type State struct {
	Count    int  `json:"count"`
	Achieved bool `json:"achieved"`
	Done     bool `json:"done"`
}

// ID implements core.Kind.
func (Kind) ID() string { return ID }

// Version implements core.Kind.
func (k Kind) Version() string {
	if k.StateVersion == "" {
		return "1.0.0"
	}
	return k.StateVersion
}

// ReasonCodes implements core.Kind.
func (Kind) ReasonCodes() []string { return []string{"unexpected_params", "goal_not_reached"} }

// ReasonMessages implements core.Kind.
func (Kind) ReasonMessages() map[core.LocKey]string {
	return map[core.LocKey]string{
		"counter.reason.unexpected_params": "That action takes no such parameter.",
		"counter.reason.goal_not_reached":  "The counter has not reached its goal yet.",
		"counter.action.finish":            "Finish",
		"counter.scene.text":               "The counter shows {count}.",
	}
}

// EventNames implements core.Kind.
func (Kind) EventNames() []string { return []string{"kind.counter.rolled"} }

// BuildContent implements core.Kind.
func (Kind) BuildContent(src json.RawMessage, campaignID string) (any, []core.AuthoredText, []core.ValidationError) {
	var s source
	if err := strictjson.Decode(src, &s); err != nil {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonMalformedInput, "content", "%v", err)}
	}
	step := s.Step.Lift(campaignID + ".action.inc")
	return &Content{Start: s.Start, Goal: s.Goal, StepKey: step.Key, AchieveAt: s.AchieveAt}, []core.AuthoredText{step}, nil
}

// DecodeContent implements core.Kind.
func (Kind) DecodeContent(raw json.RawMessage) (any, error) {
	var c Content
	if err := strictjson.Decode(raw, &c); err != nil {
		return nil, fmt.Errorf("counter: %w", err)
	}
	return &c, nil
}

// ValidateCampaign implements core.Kind.
func (Kind) ValidateCampaign(c *core.Campaign, strs map[core.LocKey]string) core.ValidationResult {
	ct := c.Content.(*Content)
	var errs, warns []core.ValidationError
	if ct.Goal <= ct.Start {
		errs = append(errs, core.Errorf(core.ReasonInvalidState, "content.goal", "goal %d must exceed start %d", ct.Goal, ct.Start))
	}
	if strs[ct.StepKey] == "" {
		errs = append(errs, core.Errorf(core.ReasonMissingStringKey, "content.step", "missing %q", ct.StepKey))
	}
	if ct.AchieveAt > ct.Goal {
		warns = append(warns, core.Errorf(core.ReasonUnreachableContent, "content.achieveAt", "achievement at %d is past the goal", ct.AchieveAt))
	}
	return core.ValidationResult{OK: len(errs) == 0, Errors: errs, Warnings: warns}
}

// InitialState implements core.Kind: profile data {"best": n} starts the
// counter at n when it exceeds the campaign's start.
func (Kind) InitialState(c *core.Campaign, ctx *core.Context, profile json.RawMessage) core.InitialResult {
	ct := c.Content.(*Content)
	st := &State{Count: ct.Start}
	var p struct{ Best int }
	if profile != nil && json.Unmarshal(profile, &p) == nil && p.Best > st.Count && p.Best < ct.Goal {
		st.Count = p.Best
	}
	return core.InitialResult{State: st, Status: core.StatusActive}
}

// AvailableActions implements core.Kind.
func (Kind) AvailableActions(state any, ctx *core.ProjectionContext) []core.AvailableAction {
	s := state.(*State)
	ct := ctx.Campaign.Content.(*Content)
	if s.Done {
		return nil
	}
	fin := core.AvailableAction{ID: "finish", LabelKey: ctx.EngineRef("counter.action.finish"), Available: s.Count >= ct.Goal}
	if !fin.Available {
		fin.ReasonKey = ctx.EngineRef("counter.reason.goal_not_reached")
	}
	return []core.AvailableAction{
		{ID: "inc", LabelKey: ct.StepKey, Available: true},
		{ID: "roll", LabelKey: ct.StepKey, Available: true},
		fin,
	}
}

// Scene implements core.Kind.
func (Kind) Scene(state any, ctx *core.ProjectionContext) core.SceneBody {
	s := state.(*State)
	return core.SceneBody{TextKey: ctx.EngineRef("counter.scene.text"), Text: "The counter shows " + strconv.Itoa(s.Count) + ".",
		Params: map[string]any{"count": s.Count}}
}

// Advance implements core.Kind.
func (Kind) Advance(state any, actionID string, params core.Params, ctx *core.Context) core.AdvanceResult {
	s := state.(*State)
	ct := ctx.Campaign.Content.(*Content)
	next := *s
	by := 1
	switch actionID {
	case "inc":
		if k := params.Unexpected("by"); k != "" {
			return core.Reject(s, core.KindErrorf(ID, "unexpected_params", "params."+k, "inc takes no %q", k))
		}
		if v, ok, err := params.Int("by", 1, 5); err != nil {
			return core.Reject(s, core.KindErrorf(ID, "unexpected_params", "params.by", "%v", err))
		} else if ok {
			by = int(v)
		}
	case "roll":
		if len(params) > 0 {
			return core.Reject(s, core.KindErrorf(ID, "unexpected_params", "params", "roll takes no params"))
		}
		v, _ := ctx.RNG.NextInt(1, 3)
		by = int(v)
		ctx.Emit.Emit("kind.counter.rolled", map[string]any{"by": by})
	case "finish":
		if len(params) > 0 {
			return core.Reject(s, core.KindErrorf(ID, "unexpected_params", "params", "finish takes no params"))
		}
		if s.Count < ct.Goal {
			return core.Reject(s, core.KindErrorf(ID, "goal_not_reached", "", "count %d is below the goal %d", s.Count, ct.Goal))
		}
		next.Done = true
		return core.AdvanceResult{State: &next, Status: core.StatusEnded,
			Messages: []core.OutcomeMessage{{Key: "counter.action.finish", Visible: true, Tone: core.TonePositive}}}
	default:
		return core.Reject(s, core.Errorf(core.ReasonUnknownAction, "actionId", "no action %q", actionID))
	}
	next.Count += by
	changes := []core.StateChange{{Path: "var.count", Op: "set", Value: next.Count, Previous: s.Count, Reason: "consequence_applied", Visible: true},
		{Path: "var.secret", Op: "set", Value: next.Count * 7, Reason: "consequence_applied", Visible: false}}
	if !s.Achieved && ct.AchieveAt > 0 && next.Count >= ct.AchieveAt {
		next.Achieved = true
		changes = append(changes, core.StateChange{Path: "achieved.reached", Op: "set", Value: true, Reason: core.ReasonAchievementUnlocked, Visible: true})
	}
	return core.AdvanceResult{State: &next, Status: core.StatusActive, Changes: changes}
}

// Project implements core.Kind: the player sees the state itself, so the
// engine's copy boundary is what protects it; the ai audience also sees the
// goal, so tests can tell the two projections apart.
func (Kind) Project(state any, audience core.Audience, ctx *core.ProjectionContext) any {
	if audience == core.AudienceAI {
		return struct {
			*State
			Goal int `json:"goal"`
		}{state.(*State), ctx.Campaign.Content.(*Content).Goal}
	}
	return state
}

// DecodeState implements core.Kind.
func (Kind) DecodeState(raw json.RawMessage, c *core.Campaign) (any, error) {
	var s State
	if err := strictjson.Decode(raw, &s); err != nil {
		return nil, fmt.Errorf("counter: %w", err)
	}
	if s.Count < 0 {
		return nil, fmt.Errorf("counter: negative count %d", s.Count)
	}
	return &s, nil
}

// Outcome implements core.Kind.
func (Kind) Outcome(state any) core.Outcome {
	if s := state.(*State); s.Done {
		return core.Outcome{Terminal: true, TerminalID: "done", Fields: map[string]any{"resolution": "done"}}
	}
	return core.Outcome{}
}

// TerminalCount implements core.TerminalCounter.
func (Kind) TerminalCount(*core.Campaign) int { return 1 }

// AdoptContent implements core.ContentAdopter: a game adopts a new goal
// unless it is already past it.
func (Kind) AdoptContent(state any, from, to *core.Campaign) (any, string) {
	s := state.(*State)
	if s.Count > to.Content.(*Content).Goal {
		return nil, core.ReasonContentIncompatible
	}
	c := *s
	return &c, ""
}

// MigrateState implements core.StateMigrator: version 0.9.0 states called
// the count "n".
func (Kind) MigrateState(old json.RawMessage, from string) (json.RawMessage, error) {
	if from != "0.9.0" {
		return nil, fmt.Errorf("counter: no migration from %s", from)
	}
	var o struct {
		N        int  `json:"n"`
		Achieved bool `json:"achieved"`
		Done     bool `json:"done"`
	}
	if err := json.Unmarshal(old, &o); err != nil {
		return nil, err
	}
	return json.Marshal(State{Count: o.N, Achieved: o.Achieved, Done: o.Done})
}

// MigrationIDs implements core.ContentMigrator: the counter has no ids.
func (Kind) MigrationIDs(*core.Campaign) map[string]func(string) bool { return nil }

// MigrateForCampaign implements core.ContentMigrator: the counter has no ids,
// so a declared migration changes nothing.
func (Kind) MigrateForCampaign(old json.RawMessage, to *core.Campaign, from string) (json.RawMessage, error) {
	return old, nil
}

// ProfileVersion implements core.ProfileKind.
func (Kind) ProfileVersion() int { return 1 }

// FoldProfile implements core.ProfileKind: it keeps the best count reached.
func (Kind) FoldProfile(current json.RawMessage, c *core.Campaign, changes []core.StateChange) (json.RawMessage, error) {
	var p struct {
		Best int `json:"best"`
	}
	if current != nil {
		if err := json.Unmarshal(current, &p); err != nil {
			return nil, err
		}
	}
	for _, ch := range changes {
		if ch.Path == "var.count" {
			if v, ok := ch.Value.(int); ok && v > p.Best {
				p.Best = v
			}
		}
	}
	return json.Marshal(p)
}

// MigrateProfile implements core.ProfileKind.
func (Kind) MigrateProfile(data json.RawMessage, from int) (json.RawMessage, error) {
	return nil, fmt.Errorf("counter: no profile migration from %d", from)
}

// StateSpace implements validate.Explorable: states are counts; inc and
// roll move up, finish ends at the goal.
func (Kind) StateSpace(c *core.Campaign) validate.Space { return space{c.Content.(*Content)} }

type space struct{ c *Content }

func (s space) Start() []validate.State      { return []validate.State{s.c.Start} }
func (s space) Key(st validate.State) string { return strconv.Itoa(st.(int)) }
func (s space) Terminal(st validate.State) string {
	if st.(int) < 0 {
		return "done"
	}
	return ""
}
func (s space) Moves(st validate.State) []validate.Move {
	n := st.(int)
	if n < 0 {
		return nil
	}
	if n >= s.c.Goal {
		return []validate.Move{{Label: "finish", Outcomes: []validate.State{-1}}}
	}
	return []validate.Move{
		{Label: "inc", Outcomes: []validate.State{n + 1}},
		{Label: "roll", Outcomes: []validate.State{n + 1, n + 2, n + 3}},
	}
}
func (s space) Covers(st validate.State) []string {
	if n := st.(int); n >= s.c.AchieveAt && s.c.AchieveAt > 0 {
		return []string{"content.achieveAt"}
	}
	return nil
}
func (s space) Elements() []string {
	if s.c.AchieveAt > 0 {
		return []string{"content.achieveAt"}
	}
	return nil
}
func (s space) Terminals() map[string]string { return map[string]string{"done": "content.goal"} }

// Campaign returns a campaign file of this kind, for tests.
func Campaign(id, version string, goal int) []byte {
	return []byte(fmt.Sprintf(`{"format":1,"id":%q,"kind":"counter","version":%q,"title":"Counter %s","content":{"start":0,"goal":%d,"step":"Add one","achieveAt":5}}`, id, version, id, goal))
}
