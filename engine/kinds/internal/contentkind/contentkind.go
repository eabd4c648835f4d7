package contentkind

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Reason codes of a verb's parameters, refused alike by every kind using
// this package. A kind declares them among its own codes (with the
// messages of ReasonMessages).
const (
	ReasonUnexpectedParams = "unexpected_params"
	ReasonMissingParam     = "missing_param"
	ReasonInvalidParam     = "invalid_param"
)

// ReasonMessages returns a kind's reason table: own (code → English
// message) together with the messages of the parameter codes above and
// those of authoring's tier 1 findings.
func ReasonMessages(own map[string]string) map[string]string {
	m := map[string]string{
		ReasonUnexpectedParams: "That action does not take those parameters.",
		ReasonMissingParam:     "That action needs a parameter that is missing.",
		ReasonInvalidParam:     "A parameter of that action has the wrong type.",
	}
	maps.Copy(m, own)
	return authoring.ReasonMessages(m)
}

// Spec describes one kind to the shared plumbing: C is its runtime content
// and S its state.
type Spec[C, S any] struct {
	// KindID is the kind's id, the namespace of its reason messages.
	KindID string
	// Prefix is the word the kind's messages start with, such as "sim".
	Prefix string
	// Check runs the tier 1 checks on built content, recording what it
	// finds in k.
	Check func(c *C, k *authoring.Findings)
	// Compile builds the lookup tables play derives from checked content.
	Compile func(*C)
	// Compiled reports whether Compile has run on the content.
	Compiled func(*C) bool
	// LocKeys lists every LocKey the content uses, with its path.
	LocKeys func(*C) authoring.Keys
	// Resolution is the resolution a game's state ended on, "" while the
	// game runs.
	Resolution func(*S) string
	// Ending is the campaign's authored ending text of a resolution.
	Ending func(c *C, resolution string) core.LocKey
}

// findings starts the tier 1 findings of the kind.
func (sp Spec[C, S]) findings() *authoring.Findings {
	return &authoring.Findings{KindID: sp.KindID, Prefix: sp.Prefix}
}

// check returns the tier 1 findings of c.
func (sp Spec[C, S]) check(c *C) []core.ValidationError {
	k := sp.findings()
	sp.Check(c, k)
	return k.Errs
}

// Content returns the campaign's content, which BuildContent or
// DecodeContent produced; anything else is a bug and panics.
func (sp Spec[C, S]) Content(c *core.Campaign) *C {
	content, ok := c.Content.(*C)
	if !ok {
		panic(fmt.Sprintf("%s: campaign %q carries %T, not %T", sp.Prefix, c.ID, c.Content, content))
	}
	if !sp.Compiled(content) {
		panic(fmt.Sprintf("%s: campaign %q carries content that BuildContent or DecodeContent did not make", sp.Prefix, c.ID))
	}
	return content
}

// State type-asserts a kind state handed back by the engine. Anything but
// a non-nil *S (a state of another kind, say) is an error, which each
// member turns into its invalid_state answer rather than a panic.
func (sp Spec[C, S]) State(v any) (*S, error) {
	s, ok := v.(*S)
	if !ok || s == nil {
		return nil, fmt.Errorf("%s: kind state is %T, not %T", sp.Prefix, v, s)
	}
	return s, nil
}

// Build implements core.Kind's BuildContent: it decodes the author's
// source document into a Src, has build turn it into content with the
// campaign's builder (which lifts inline texts and reads numbers), and
// returns the content compiled, or the builder's findings and the tier 1
// checks' when there are any. The lifted strings are returned either way;
// a malformed document gives the one malformed_input error.
func Build[Src, C, S any](sp Spec[C, S], source json.RawMessage, campaignID string, build func(*Src, *authoring.Builder) *C) (any, []core.AuthoredText, []core.ValidationError) {
	src := new(Src)
	if err := strictjson.Decode(source, src); err != nil {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonMalformedInput, "content", "%s: %v", sp.Prefix, err)}
	}
	b := &authoring.Builder{Findings: *sp.findings(), Campaign: campaignID}
	c := build(src, b)
	if errs := b.Finish(sp.check(c)); len(errs) > 0 {
		return nil, b.Strings, errs
	}
	sp.Compile(c)
	return c, b.Strings, nil
}

// Placeholder is a condition that always holds on the whole-number field
// (the game's clock): it stands in for a required condition the author
// left out, so that building goes on to report everything else.
func Placeholder(field string) condition.Condition {
	return condition.Condition{Field: field, Operator: condition.GreaterOrEqual, Value: float64(0)}
}

// DecodeContent implements core.Kind's DecodeContent: it reads runtime
// content as it encodes to JSON, refusing unknown fields and content that
// fails tier 1.
func (sp Spec[C, S]) DecodeContent(raw json.RawMessage) (any, error) {
	return core.DecodeChecked(raw, sp.Prefix+": content", func(c *C) error {
		if errs := sp.check(c); len(errs) > 0 {
			return errs[0]
		}
		sp.Compile(c)
		return nil
	})
}

// DecodeState implements core.Kind's DecodeState: it reads a kind state
// from outside the engine and refuses one that check refuses.
func (sp Spec[C, S]) DecodeState(raw json.RawMessage, check func(*S) error) (any, error) {
	return core.DecodeChecked(raw, sp.Prefix+": state", check)
}

// Validate implements core.Kind's ValidateCampaign: tier 1 and every
// LocKey against the campaign's own strings, then the tier 2 warnings of
// warn, which is told the tier 1 errors.
func (sp Spec[C, S]) Validate(c *core.Campaign, strings map[core.LocKey]string, warn func(content *C, errs []core.ValidationError) []core.ValidationWarning) core.ValidationResult {
	k := sp.findings()
	content, ok := c.Content.(*C)
	if !ok {
		return k.NoContent(c)
	}
	sp.Check(content, k)
	k.MissingText(sp.LocKeys(content), strings)
	errs := k.Errs
	if errs == nil {
		errs = []core.ValidationError{}
	}
	warnings := warn(content, errs)
	if warnings == nil {
		warnings = []core.ValidationWarning{}
	}
	return core.ValidationResult{OK: len(errs) == 0, Errors: errs, Warnings: warnings}
}

// Reject builds a rejection of a kind-owned code; the state is unchanged.
func (sp Spec[C, S]) Reject(state any, code, path, format string, args ...any) core.AdvanceResult {
	return core.Reject(state, core.KindErrorf(sp.KindID, code, path, sp.Prefix+": "+format, args...))
}

// Advance implements core.Kind's Advance: a state State refuses is
// answered with invalid_state, then come the refusals before a verb
// (refuse), and only then does act run the declared action on the state
// and the campaign's content.
func (sp Spec[C, S]) Advance(state any, actionID string, params core.Params, ctx *core.Context, declared map[string][]string, act func(s *S, c *C) core.AdvanceResult) core.AdvanceResult {
	s, err := sp.State(state)
	if err != nil {
		return core.Reject(state, core.Errorf(core.ReasonInvalidState, "kindState", "%v", err))
	}
	c := sp.Content(ctx.Campaign)
	if refusal, refused := sp.refuse(s, actionID, params, declared); refused {
		return refusal
	}
	return act(s, c)
}

// refuse is what Advance checks before a verb reads its parameters: a game
// that has ended takes no action, an action must be one of declared's, and
// a parameter key it does not declare is refused with unexpected_params
// before any value is read. ok is false when none applies.
func (sp Spec[C, S]) refuse(s *S, actionID string, params core.Params, declared map[string][]string) (refusal core.AdvanceResult, ok bool) {
	if sp.Resolution(s) != "" {
		return core.Reject(s, core.Errorf(core.ReasonSessionEnded, "", "%s: the game has ended", sp.Prefix)), true
	}
	allowed, known := declared[actionID]
	if !known {
		return core.Reject(s, core.Errorf(core.ReasonUnknownAction, "actionId", "%s: unknown action %q", sp.Prefix, actionID)), true
	}
	if key := params.Unexpected(allowed...); key != "" {
		return sp.Reject(s, ReasonUnexpectedParams, "params."+key, "%s does not take %q", actionID, key), true
	}
	return core.AdvanceResult{}, false
}

// Scene implements core.Kind's Scene: the engine's invalid_state text for
// a state State refuses, the campaign's authored ending text (Ending) once
// the game has ended, and while it runs the engine-owned text key that
// running returns, filled with its params.
func (sp Spec[C, S]) Scene(state any, ctx *core.ProjectionContext, running func(s *S, c *C) (key string, params map[string]any)) core.SceneBody {
	s, err := sp.State(state)
	if err != nil {
		return engineScene(ctx, core.CoreReasonKey(core.ReasonInvalidState), nil)
	}
	c := sp.Content(ctx.Campaign)
	if r := sp.Resolution(s); r != "" {
		ending := sp.Ending(c, r)
		return core.SceneBody{TextKey: ending, Text: ctx.Strings()[ending]}
	}
	key, params := running(s, c)
	return engineScene(ctx, key, params)
}

// AvailableActions implements core.Kind's AvailableActions: none for a
// state State refuses or a game that has ended; otherwise the verbs verbs
// lists for the state and the campaign's content.
func (sp Spec[C, S]) AvailableActions(state any, ctx *core.ProjectionContext, verbs func(s *S, c *C) []core.AvailableAction) []core.AvailableAction {
	s, err := sp.State(state)
	if err != nil || sp.Resolution(s) != "" {
		return []core.AvailableAction{}
	}
	return verbs(s, sp.Content(ctx.Campaign))
}

// Verb is one verb as AvailableActions lists it: labelled by the
// engine-owned key label, available when ok, and otherwise with the
// engine-owned key unavailable saying why.
func Verb(ctx *core.ProjectionContext, id, label string, ok bool, unavailable string) core.AvailableAction {
	a := core.AvailableAction{ID: id, LabelKey: ctx.EngineRef(label), Available: ok}
	if !ok {
		a.ReasonKey = ctx.EngineRef(unavailable)
	}
	return a
}

// Outcome implements core.Kind's Outcome (§3.2): the terminal id is the
// resolution, and the fields are those fields gives for the state with
// "resolution" added (null while the game runs); a state State refuses
// has no outcome.
func (sp Spec[C, S]) Outcome(state any, fields func(s *S) map[string]any) core.Outcome {
	s, err := sp.State(state)
	if err != nil {
		return core.Outcome{}
	}
	r := sp.Resolution(s)
	out := core.Outcome{Terminal: r != "", TerminalID: r, Fields: fields(s)}
	out.Fields["resolution"] = nil
	if r != "" {
		out.Fields["resolution"] = r
	}
	return out
}

// engineScene is the engine-owned text key filled with params.
func engineScene(ctx *core.ProjectionContext, key string, params map[string]any) core.SceneBody {
	return core.SceneBody{TextKey: ctx.EngineRef(key), Text: display.Fill(ctx.Strings()[key], params), Params: params}
}

// Holds evaluates a condition of checked content against r; a missing one
// (nil) holds. Tier 1 guarantees a condition reads only fields of the
// right type, so an evaluation error cannot occur for checked content; it
// reads as false.
func Holds(c *condition.Condition, r condition.Resolver) bool {
	if c == nil {
		return true
	}
	ok, err := condition.Eval(*c, r)
	return err == nil && ok
}

// Change is the visible change of the number at path from prev to next:
// an increment when it grew, a decrement otherwise.
func Change(path string, prev, next int64, reason string) core.StateChange {
	op := "decrement"
	if next > prev {
		op = "increment"
	}
	return core.StateChange{Path: path, Op: op, Value: next, Previous: prev, Reason: reason, Visible: true}
}

// CloneMap returns a copy of m; the copy of a nil map is empty, not nil,
// so that it encodes as {}.
func CloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
