package story

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestAdvanceRejections: every refused action has its code, its message
// key, one visible message, and leaves the state byte-identical.
func TestAdvanceRejections(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	start := mustCreate(t, e, "sample", "r")
	withKey := mustSubmit(t, e, start, "search")
	tests := []struct {
		name    string
		state   *core.GameState
		action  string
		params  core.Params
		code    string
		msgKey  string
		details string
	}{
		{name: "params", state: start, action: "fill", params: core.Params{"n": 1.0}, code: ReasonUnexpectedParams, msgKey: "story-graph.reason.unexpected_params"},
		{name: "unknown choice", state: start, action: "fly", code: core.ReasonUnknownAction, msgKey: "core.reason.unknown_action"},
		{name: "hidden choice", state: withKey, action: "search", code: core.ReasonUnknownAction, msgKey: "core.reason.unknown_action"},
		{name: "locked with authored reason", state: start, action: "open", code: core.ReasonRequirementUnmet, msgKey: "sample.choice.gate.open.locked"},
		{name: "locked without reason", state: start, action: "climb", code: core.ReasonRequirementUnmet, msgKey: "core.reason.requirement_unmet"},
		{name: "empty action", state: start, action: "", code: core.ReasonUnknownAction, msgKey: "core.reason.unknown_action"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := serialize(t, e, tc.state)
			res := e.SubmitAction(tc.state, tc.action, tc.params)
			if res.OK || len(res.Errors) != 1 {
				t.Fatalf("accepted: %+v", res)
			}
			if got := res.Errors[0]; got.Code != tc.code || got.MessageKey != tc.msgKey {
				t.Errorf("got %s / %s, want %s / %s", got.Code, got.MessageKey, tc.code, tc.msgKey)
			}
			if len(res.Messages) != 1 || res.Messages[0].Key != tc.msgKey || !res.Messages[0].Visible {
				t.Errorf("messages %+v", res.Messages)
			}
			if after := serialize(t, e, tc.state); !bytes.Equal(before, after) {
				t.Errorf("state changed:\n%s\n%s", before, after)
			}
			if !strings.HasPrefix(res.Errors[0].Message, "story: ") {
				t.Errorf("message %q", res.Errors[0].Message)
			}
		})
	}
}

// TestAdvanceDirect covers what the engine's own guards hide: an ended
// state and a foreign state handed straight to the kind.
func TestAdvanceDirect(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	s := mustCreate(t, e, "sample", "d")
	s = mustSubmit(t, e, s, "search")
	s = mustSubmit(t, e, s, "open")
	for s.Status == core.StatusActive {
		acts, _ := e.AvailableActions(s)
		s = mustSubmit(t, e, s, acts[len(acts)-1].ID)
	}
	ctx := &core.Context{Registry: reg, Campaign: reg.Campaigns["sample"]}
	tests := []struct {
		name  string
		state any
		code  string
	}{
		{"ended", s.KindState, core.ReasonSessionEnded},
		{"not a story state", "nope", core.ReasonInvalidState},
		{"nil", (*State)(nil), core.ReasonInvalidState},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Kind{}.Advance(tc.state, "knock", nil, ctx)
			if res.Error == nil || res.Error.Code != tc.code {
				t.Fatalf("got %+v", res.Error)
			}
		})
	}
}

// TestResolution: effects, clamping after all effects, coalesced audit
// records, achievements by condition and by choice, random settle and turn.
func TestResolution(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	s := mustCreate(t, e, "sample", "x")

	// fill: oil 3+4 = 7, clamped to 5 after the batch; mood set; one
	// change per variable; well_oiled unlocks by condition.
	res := e.SubmitAction(s, "fill", nil)
	if !res.OK {
		t.Fatal(res.Errors)
	}
	want := []core.StateChange{
		{Path: "var.oil", Op: "set", Value: int64(5), Previous: int64(3), Reason: ReasonConsequenceApplied, Visible: true},
		{Path: "var.mood", Op: "set", Value: "bright", Previous: "calm", Reason: ReasonConsequenceApplied, Visible: true},
		{Path: "achieved.well_oiled", Op: "set", Value: true, Reason: core.ReasonAchievementUnlocked, Visible: true},
	}
	if !reflect.DeepEqual(res.Changes, want) {
		t.Errorf("changes\n got %+v\nwant %+v", res.Changes, want)
	}
	if len(res.Messages) != 1 || res.Messages[0].Key != "sample.achievement.well_oiled.title" || res.Messages[0].Tone != core.TonePositive {
		t.Errorf("messages %+v", res.Messages)
	}
	st := res.Value.KindState.(*State)
	if st.Turn() != 1 || st.Visits("gate") != 2 || st.NodeID() != "gate" {
		t.Errorf("turn %d visits %d node %s", st.Turn(), st.Visits("gate"), st.NodeID())
	}
	// The input state is untouched.
	if v, _ := s.KindState.(*State).Var("oil"); v.Int != 3 {
		t.Errorf("input state changed: oil %d", v.Int)
	}

	// fill again: nothing changes value, so no record; the achievement is
	// not unlocked twice.
	res = e.SubmitAction(res.Value, "fill", nil)
	if len(res.Changes) != 0 || len(res.Messages) != 0 {
		t.Errorf("a no-op batch recorded %+v %+v", res.Changes, res.Messages)
	}

	// search: a hidden variable's change is recorded invisibly.
	res = e.SubmitAction(res.Value, "search", nil)
	for _, c := range res.Changes {
		if c.Path == "var.noise" && c.Visible {
			t.Errorf("hidden variable change is visible: %+v", c)
		}
	}
	// open: unlocked by choice, then the random yard settles onto dog or door.
	res = e.SubmitAction(res.Value, "open", nil)
	if !res.OK {
		t.Fatal(res.Errors)
	}
	st = res.Value.KindState.(*State)
	if n := st.NodeID(); n != "dog" && n != "door" {
		t.Errorf("settled on %q", n)
	}
	if st.Visits("yard") != 1 || !reflect.DeepEqual(st.Unlocked(), []string{"well_oiled", "locksmith"}) {
		t.Errorf("visits %d unlocked %v", st.Visits("yard"), st.Unlocked())
	}
}

// TestRandomDistribution: the yard's 1:3 weights show over many seeds,
// and each seed's draw is reproducible.
func TestRandomDistribution(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	dogs := 0
	const n = 400
	for i := 0; i < n; i++ {
		s := mustCreate(t, e, "sample", "w"+string(rune('a'+i%26))+itoa(i))
		s = mustSubmit(t, e, mustSubmit(t, e, s, "search"), "open")
		again := mustSubmit(t, e, mustSubmit(t, e, mustCreate(t, e, "sample", s.Seed), "search"), "open")
		if a, b := s.KindState.(*State).NodeID(), again.KindState.(*State).NodeID(); a != b {
			t.Fatalf("seed %s drew %s then %s", s.Seed, a, b)
		}
		if s.KindState.(*State).NodeID() == "dog" {
			dogs++
		}
	}
	if dogs < n/4-40 || dogs > n/4+40 {
		t.Errorf("dog %d of %d; want about a quarter", dogs, n)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestSceneAndActions: interpolation with params, hidden choices left out,
// locked ones with their reason, and aliasing of engine-owned keys.
func TestSceneAndActions(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	s := mustCreate(t, e, "sample", "sc")
	sc, err := e.Scene(s)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Body.Text != "A gate. You have 3 oil and feel calm." || sc.Body.TextKey != "sample.node.gate.text" ||
		!reflect.DeepEqual(sc.Body.Params, map[string]any{"oil": int64(3), "mood": "calm"}) {
		t.Errorf("body %+v", sc.Body)
	}
	want := []core.AvailableAction{
		{ID: "search", LabelKey: "sample.choice.gate.search", Available: true},
		{ID: "fill", LabelKey: "sample.choice.gate.fill", Available: true},
		{ID: "open", LabelKey: "sample.choice.gate.open", ReasonKey: "sample.choice.gate.open.locked"},
		{ID: "climb", LabelKey: "sample.choice.gate.climb", ReasonKey: "core.reason.requirement_unmet"},
	}
	if !reflect.DeepEqual(sc.Actions, want) {
		t.Errorf("actions\n got %+v\nwant %+v", sc.Actions, want)
	}
	s = mustSubmit(t, e, s, "search")
	acts, _ := e.AvailableActions(s)
	if acts[0].ID != "fill" || acts[1].ID != "open" || !acts[1].Available {
		t.Errorf("after search: %+v", acts)
	}
	// Under the forced-alias context every engine-owned key is aliased.
	ea := kindtest.AliasedEngine(t, Kind{}, reg)
	acts, _ = ea.AvailableActions(mustCreate(t, ea, "sample", "a"))
	if acts[3].ReasonKey != "~core.reason.requirement_unmet" || acts[2].ReasonKey != "sample.choice.gate.open.locked" {
		t.Errorf("aliases: %+v", acts)
	}
}

// TestProjection: the view carries turn, visible variables, unlocked
// achievements and the ending; it hides hidden variables, visit counts and
// the node. The ai audience sees the same.
func TestProjection(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	s := mustSubmit(t, e, mustSubmit(t, e, mustCreate(t, e, "sample", "p"), "fill"), "search")
	pv, _ := e.View(s, core.AudiencePlayer)
	av, _ := e.View(s, core.AudienceAI)
	if !bytes.Equal(pv.KindView, av.KindView) {
		t.Errorf("ai view differs:\n%s\n%s", pv.KindView, av.KindView)
	}
	want := `{"achievements":[{"descriptionKey":"sample.achievement.well_oiled.description","id":"well_oiled","titleKey":"sample.achievement.well_oiled.title"}],"turn":2,"variables":[{"id":"oil","labelKey":"sample.variable.oil.label","max":5,"min":0,"value":5},{"id":"mood","labelKey":"sample.variable.mood.label","value":"bright"}]}`
	if string(pv.KindView) != want {
		t.Errorf("view\n got %s\nwant %s", pv.KindView, want)
	}
	for _, hidden := range []string{"has_key", "noise", "visit", "gate"} {
		if strings.Contains(string(pv.KindView), hidden) {
			t.Errorf("view leaks %q", hidden)
		}
	}
	s = mustSubmit(t, e, s, "open")
	for s.Status == core.StatusActive {
		s = mustSubmit(t, e, s, map[string]string{"dog": "pat", "door": "knock"}[s.KindState.(*State).NodeID()])
	}
	pv, _ = e.View(s, core.AudiencePlayer)
	if !strings.Contains(string(pv.KindView), `"ending":{"endingId":"home","outcome":"win","titleKey":"sample.ending.home.title"}`) {
		t.Errorf("ended view %s", pv.KindView)
	}
	out, _ := e.Outcome(s)
	if !out.Terminal || out.TerminalID != "home" || out.Fields["endingId"] != "home" {
		t.Errorf("outcome %+v", out)
	}
	if out, _ := e.Outcome(mustCreate(t, e, "sample", "q")); out.Terminal || out.TerminalID != "" {
		t.Errorf("active outcome %+v", out)
	}
	if n := (Kind{}).TerminalCount(reg.Campaigns["sample"]); n != 2 {
		t.Errorf("terminal count %d", n)
	}
}

// TestDecodeState: validateState is strict about every field.
func TestDecodeState(t *testing.T) {
	reg := sampleRegistry(t)
	c := reg.Campaigns["sample"]
	good := `{"currentNodeId":"gate","turn":0,"unlockedAchievements":[],"variables":{"has_key":false,"mood":"calm","noise":0,"oil":3},"visitedCounts":{"gate":1}}`
	tests := []struct {
		name, raw, err string
	}{
		{"good", good, ""},
		{"ended", `{"currentNodeId":"home","endingId":"home","turn":3,"unlockedAchievements":["locksmith"],"variables":{"has_key":true,"mood":"calm","noise":1,"oil":3},"visitedCounts":{"gate":1,"home":1}}`, ""},
		{"unknown field", strings.Replace(good, `"turn"`, `"extra":1,"turn"`, 1), "unknown field"},
		{"unknown node", strings.Replace(good, `"gate",`, `"nowhere",`, 1), `unknown node "nowhere"`},
		{"missing variable", strings.Replace(good, `"has_key":false,`, ``, 1), `variable "has_key" is missing`},
		{"undeclared variable", strings.Replace(good, `"oil":3`, `"oil":3,"gold":1`, 1), `unknown variable "gold"`},
		{"wrong type", strings.Replace(good, `"oil":3`, `"oil":"3"`, 1), `variable "oil" is int, not string`},
		{"out of bounds", strings.Replace(good, `"oil":3`, `"oil":9`, 1), "outside its bounds"},
		{"fraction", strings.Replace(good, `"oil":3`, `"oil":3.5`, 1), "not an integer"},
		{"negative turn", strings.Replace(good, `"turn":0`, `"turn":-1`, 1), "negative turn"},
		{"missing turn", strings.Replace(good, `"turn":0,`, ``, 1), "missing turn"},
		{"visit of unknown node", strings.Replace(good, `{"gate":1}`, `{"attic":1}`, 1), `unknown node "attic"`},
		{"negative visit", strings.Replace(good, `{"gate":1}`, `{"gate":-1}`, 1), "negative visit"},
		{"unknown achievement", strings.Replace(good, `[]`, `["nope"]`, 1), `unknown achievement "nope"`},
		{"achievement twice", strings.Replace(good, `[]`, `["locksmith","locksmith"]`, 1), "unlocked twice"},
		{"ending on a choice node", strings.Replace(good, `"turn"`, `"endingId":"home","turn"`, 1), "not an ending"},
		{"ending node without endingId", `{"currentNodeId":"home","turn":3,"unlockedAchievements":[],"variables":{"has_key":true,"mood":"calm","noise":1,"oil":3},"visitedCounts":{}}`, "does not say so"},
		{"trailing data", good + `{}`, "trailing"},
		{"not an object", `[]`, "cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Kind{}.DecodeState(json.RawMessage(tc.raw), c)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := canon.Marshal(st)
				if string(b) != tc.raw {
					t.Errorf("round trip\n got %s\nwant %s", b, tc.raw)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "story: ") {
				t.Errorf("got %v, want %q", err, tc.err)
			}
		})
	}
	if _, err := (Kind{}).DecodeState(json.RawMessage(good), &core.Campaign{ID: "x", Content: "not story"}); err == nil {
		t.Error("decoded against foreign content")
	}
}

// TestSaveLoadBetweenSteps: a game saved and loaded between every step
// plays to the same bytes.
func TestSaveLoadBetweenSteps(t *testing.T) {
	reg := sampleRegistry(t)
	e := newEngine(t, reg, nil)
	a := mustCreate(t, e, "sample", "sl")
	b := a
	for _, act := range []string{"search", "fill", "open"} {
		a = mustSubmit(t, e, a, act)
		back := e.Deserialize(serialize(t, e, b))
		if !back.OK {
			t.Fatal(back.Errors)
		}
		b = mustSubmit(t, e, back.Value, act)
	}
	if x, y := serialize(t, e, a), serialize(t, e, b); !bytes.Equal(x, y) {
		t.Errorf("differ:\n%s\n%s", x, y)
	}
}

// TestMetadata: reason codes all have messages; event names are declared.
func TestMetadata(t *testing.T) {
	k := Kind{}
	msgs := k.ReasonMessages()
	for _, code := range k.ReasonCodes() {
		if msgs[core.KindReasonKey(KindID, code)] == "" {
			t.Errorf("code %s has no message", code)
		}
	}
	for _, must := range []string{ReasonUnexpectedParams, ReasonUnknownConditionField, ReasonConsequenceApplied} {
		if msgs["story-graph.reason."+must] == "" {
			t.Errorf("missing %s", must)
		}
	}
	if k.ID() != "story-graph" || k.Version() == "" || len(k.EventNames()) == 0 {
		t.Error("metadata")
	}
}
