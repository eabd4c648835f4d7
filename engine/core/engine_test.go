package core_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/internal/testkind"
)

// newEngine builds an engine over one counter campaign ("tally", goal 10).
func newEngine(t testing.TB, opts ...func(*core.Host)) *core.Engine {
	t.Helper()
	reg, res := content.Build([]core.Kind{testkind.Kind{}}, content.Source{Path: "tally.json", Campaign: testkind.Campaign("tally", "1.0.0", 10)})
	if !res.OK {
		t.Fatalf("build: %v", res.Errors)
	}
	h := core.Host{Kinds: []core.Kind{testkind.Kind{}}, Registry: reg}
	for _, o := range opts {
		o(&h)
	}
	e, err := core.New(h)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func create(t testing.TB, e *core.Engine, seed string) *core.GameState {
	t.Helper()
	res := e.CreateGame(core.NewGameConfig{CampaignID: "tally", Seed: seed}, "")
	if !res.OK {
		t.Fatalf("create: %v", res.Errors)
	}
	return res.Value
}

func submit(t testing.TB, e *core.Engine, s *core.GameState, action string, p core.Params) *core.GameState {
	t.Helper()
	res := e.SubmitAction(s, action, p)
	if !res.OK {
		t.Fatalf("submit %s: %v", action, res.Errors)
	}
	return res.Value
}

func serialize(t testing.TB, e *core.Engine, s *core.GameState) string {
	t.Helper()
	b, err := e.Serialize(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPlayToTheEnd(t *testing.T) {
	e := newEngine(t)
	s := create(t, e, "s1")
	for i := 0; i < 2; i++ {
		s = submit(t, e, s, "inc", core.Params{"by": float64(5)})
	}
	res := e.SubmitAction(s, "finish", nil)
	if !res.OK || res.Value.Status != core.StatusEnded {
		t.Fatalf("finish: ok=%v status=%v %v", res.OK, res.Value, res.Errors)
	}
	out, err := e.Outcome(res.Value)
	if err != nil || !out.Terminal || out.TerminalID != "done" {
		t.Fatalf("outcome = %+v, %v", out, err)
	}
	b, _ := json.Marshal(out)
	if string(b) != `{"resolution":"done","terminal":true,"terminalId":"done"}` {
		t.Fatalf("outcome JSON = %s", b)
	}
	again := e.SubmitAction(res.Value, "inc", nil)
	if again.OK || again.Errors[0].Code != core.ReasonSessionEnded {
		t.Fatalf("action after the end: %+v", again.Errors)
	}
}

func TestSubmitNeverChangesItsInput(t *testing.T) {
	e := newEngine(t)
	s := submit(t, e, create(t, e, "s"), "inc", nil)
	before := serialize(t, e, s)
	p := core.Params{"by": float64(2)}
	next := submit(t, e, s, "inc", p)
	p["by"] = float64(5) // the caller's object is not the logged one
	if got := serialize(t, e, s); got != before {
		t.Fatalf("input changed:\n%s\n%s", before, got)
	}
	if a := next.ActionLog.At(1).(core.LoggedAction); a.Params["by"] != float64(2) {
		t.Fatalf("logged params aliased the caller's: %v", a.Params)
	}
}

func TestRejectedActionIsNotLogged(t *testing.T) {
	e := newEngine(t)
	s := create(t, e, "s")
	before := serialize(t, e, s)
	tests := []struct {
		name, action string
		params       core.Params
		code         string
	}{
		{"unknown action", "jump", nil, core.ReasonUnknownAction},
		{"undeclared param", "inc", core.Params{"times": float64(2)}, "unexpected_params"},
		{"param out of range", "inc", core.Params{"by": float64(9)}, "unexpected_params"},
		{"param not a number", "inc", core.Params{"by": "two"}, "unexpected_params"},
		{"nested param", "inc", core.Params{"by": []any{1}}, core.ReasonInvalidParams},
		{"param not UTF-8", "inc", core.Params{"by": "\xd0"}, core.ReasonInvalidParams},
		{"action id not UTF-8", "\xd0", nil, core.ReasonUnknownAction},
		{"kind requirement", "finish", nil, "goal_not_reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.SubmitAction(s, tt.action, tt.params)
			if res.OK || len(res.Errors) != 1 || res.Errors[0].Code != tt.code {
				t.Fatalf("got ok=%v errors=%v, want %s", res.OK, res.Errors, tt.code)
			}
			if len(res.Messages) != 1 || res.Messages[0].Key != res.Errors[0].MessageKey || !res.Messages[0].Visible {
				t.Fatalf("a rejection must carry one visible message with its key: %+v", res.Messages)
			}
			if got := serialize(t, e, s); got != before {
				t.Fatal("a rejected action changed the state")
			}
		})
	}
}

func TestBranchingLogsNeverShareEntries(t *testing.T) {
	e := newEngine(t)
	s := create(t, e, "s")
	for i := 0; i < 9; i++ { // past the first backing array's capacity
		s = submit(t, e, s, "inc", nil)
	}
	a := submit(t, e, s, "inc", core.Params{"by": float64(1)})
	b := submit(t, e, s, "roll", nil)
	a2 := submit(t, e, a, "inc", core.Params{"by": float64(3)})
	if got := a.ActionLog.At(9).(core.LoggedAction).ActionID; got != "inc" {
		t.Fatalf("a's entry 9 = %s", got)
	}
	if got := b.ActionLog.At(9).(core.LoggedAction).ActionID; got != "roll" {
		t.Fatalf("b's entry 9 = %s", got)
	}
	if a2.ActionLog.Len() != 11 || s.ActionLog.Len() != 9 {
		t.Fatalf("lengths: a2 %d, s %d", a2.ActionLog.Len(), s.ActionLog.Len())
	}
	// Replaying each branch from scratch gives the branch's own bytes.
	for _, st := range []*core.GameState{a, b, a2} {
		back := e.Deserialize([]byte(serialize(t, e, st)))
		if !back.OK || serialize(t, e, back.Value) != serialize(t, e, st) {
			t.Fatalf("round trip: %v", back.Errors)
		}
	}
}

func TestPreviewChangesNothing(t *testing.T) {
	rec := &core.RecordingEmitter{}
	e := newEngine(t, func(h *core.Host) { h.Emitter = rec })
	s := create(t, e, "s")
	before, events := serialize(t, e, s), len(rec.Events)
	p := e.PreviewAction(s, "inc", nil)
	if !p.OK || p.Value.ActionLog.Len() != 1 {
		t.Fatalf("preview: %+v", p.Errors)
	}
	if serialize(t, e, s) != before || len(rec.Events) != events {
		t.Fatal("preview changed the state or emitted events")
	}
	// A submit after a preview still logs its own entry.
	next := submit(t, e, s, "roll", nil)
	if next.ActionLog.At(0).(core.LoggedAction).ActionID != "roll" || p.Value.ActionLog.At(0).(core.LoggedAction).ActionID != "inc" {
		t.Fatal("preview and submit share a log entry")
	}
}

func TestViewIsACopy(t *testing.T) {
	e := newEngine(t)
	s := submit(t, e, create(t, e, "s"), "inc", nil)
	before := serialize(t, e, s)
	v, err := e.View(s, core.AudiencePlayer)
	if err != nil {
		t.Fatal(err)
	}
	for i := range v.KindView {
		v.KindView[i] = 'x'
	}
	scene, err := e.Scene(s)
	if err != nil {
		t.Fatal(err)
	}
	if serialize(t, e, s) != before || string(scene.View.KindView) != `{"achieved":false,"count":1,"done":false}` {
		t.Fatalf("view aliased state: %s", scene.View.KindView)
	}
	if scene.Body.Params["count"] != 1 || len(scene.Actions) != 3 || scene.Actions[2].Available || scene.Actions[2].ReasonKey == "" {
		t.Fatalf("scene = %+v", scene)
	}
	if _, err := e.View(s, "god"); err == nil {
		t.Fatal("unknown audience accepted")
	}
}

func TestSceneForProjectsTheAudience(t *testing.T) {
	e := newEngine(t)
	s := create(t, e, "s")
	ai, err := e.SceneFor(s, core.AudienceAI)
	if err != nil {
		t.Fatal(err)
	}
	player, _ := e.Scene(s)
	if string(ai.View.KindView) != `{"achieved":false,"count":0,"done":false,"goal":10}` || strings.Contains(string(player.View.KindView), "goal") {
		t.Fatalf("ai view %s, player view %s", ai.View.KindView, player.View.KindView)
	}
	if _, err := e.SceneFor(s, "god"); err == nil {
		t.Fatal("unknown audience accepted")
	}
}

func TestResponseAliases(t *testing.T) {
	e := newEngine(t, func(h *core.Host) { h.AliasAllEngineKeys = true })
	scene, err := e.Scene(create(t, e, "s"))
	if err != nil {
		t.Fatal(err)
	}
	if got := scene.Actions[2].LabelKey; got != "~counter.action.finish" {
		t.Fatalf("aliased label = %q", got)
	}
	if got := scene.Actions[0].LabelKey; got != "tally.action.inc" {
		t.Fatalf("authored label was aliased: %q", got)
	}
	for k := range e.EngineStrings() {
		if strings.Contains(k, "~") {
			t.Fatalf("engine key %q contains ~", k)
		}
	}
}

func TestDeserializeRefusesBadInput(t *testing.T) {
	e := newEngine(t)
	s := submit(t, e, create(t, e, "s"), "inc", nil)
	good := serialize(t, e, s)
	edit := func(old, new string) string { return strings.Replace(good, old, new, 1) }
	tests := []struct {
		name, data, code string
	}{
		{"not json", "hello", core.ReasonMalformedInput},
		{"truncated", good[:len(good)/2], core.ReasonMalformedInput},
		{"oversized", `{"x":"` + strings.Repeat("a", core.MaxStateBytes) + `"}`, core.ReasonInputTooLarge},
		{"wrong version", edit(`"formatVersion":1`, `"formatVersion":7`), core.ReasonUnsupportedVersion},
		{"unknown field", edit(`{"actionLog"`, `{"extra":1,"actionLog"`), core.ReasonMalformedInput},
		{"unknown kind", edit(`"kindId":"counter"`, `"kindId":"chess"`), core.ReasonUnknownKind},
		{"unknown campaign", edit(`"campaignId":"tally"`, `"campaignId":"other"`), core.ReasonUnknownCampaign},
		{"unknown version", edit(`"campaignVersion":"1.0.0"`, `"campaignVersion":"9.0.0"`), core.ReasonUnknownCampaign},
		{"bad status", edit(`"status":"active"`, `"status":"paused"`), core.ReasonInvalidState},
		{"bad kind state", edit(`"count":1`, `"count":-4`), core.ReasonInvalidState},
		{"kind state field", edit(`"count":1`, `"count":1,"cheat":true`), core.ReasonInvalidState},
		{"missing seed", edit(`"seed":"s",`, ``), core.ReasonMalformedInput},
		{"seq out of place", edit(`"seq":0`, `"seq":3`), core.ReasonMalformedInput},
		{"epoch in v1", edit(`{"actionId":"inc","seq":0}`, `{"from":"1.0.0","seq":0,"system":"content","to":"1.0.0"}`), core.ReasonInvalidState},
		{"v2 without epoch", edit(`"formatVersion":1`, `"formatVersion":2`), core.ReasonInvalidState},
		{"unknown system", edit(`{"actionId":"inc","seq":0}`, `{"from":"a","seq":0,"system":"time","to":"b"}`), core.ReasonMalformedInput},
		{"repeated field", edit(`"seed":"s",`, `"seed":"s","seed":"t",`), core.ReasonMalformedInput},
		{"repeated entry field", edit(`{"actionId":"inc","seq":0}`, `{"actionId":"inc","seq":0,"seq":0}`), core.ReasonMalformedInput},
		{"trailing data", good + " {}", core.ReasonMalformedInput},
		{"bad number", edit(`"formatVersion":1`, `"formatVersion":01`), core.ReasonMalformedInput},
		{"bad params", edit(`{"actionId":"inc","seq":0}`, `{"actionId":"inc","params":{"a":{"b":1}},"seq":0}`), core.ReasonMalformedInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.Deserialize([]byte(tt.data))
			if res.OK || len(res.Errors) == 0 || res.Errors[0].Code != tt.code {
				t.Fatalf("got ok=%v %v, want %s", res.OK, res.Errors, tt.code)
			}
			if res.Errors[0].Message == "" {
				t.Fatal("a refusal needs a message")
			}
		})
	}
	if back := e.Deserialize([]byte(good)); !back.OK || serialize(t, e, back.Value) != good {
		t.Fatalf("round trip: %v", back.Errors)
	}
}

func TestBaseReasonCodesHaveMessages(t *testing.T) {
	// The base set of core specification §12, verbatim.
	spec := `action_not_available unknown_action requirement_unmet session_ended read_only_field check_succeeded check_failed
unknown_campaign unknown_kind invalid_state string_conflict protected_string_key duplicate_campaign_id
invalid_identifier invalid_loc_key missing_string_key missing_kind_reason_message profile_missing profile_corrupt
profile_write_failed profile_kind_data_unreadable profile_kind_data_rejected save_requires_migration migration_failed
unknown_session unknown_save storage_failure concurrent_modification invalid_fork_point achievement_unlocked
pack_kind_mismatch duplicate_campaign_id_in_pack pack_dependency_missing pack_dependency_version_conflict
pack_dependency_cycle pack_override_unexpected include_missing include_version_mismatch include_kind_mismatch
include_cycle include_alias_collision attachment_host_missing compose_unsupported content_version_conflict
content_kind_changed content_not_adoptable content_incompatible content_provenance_missing
historical_string_collision epoch_unsupported campaign_version_unsupported`
	have := map[string]bool{}
	for _, c := range core.BaseReasonCodes() {
		have[c] = true
	}
	msgs := core.CoreMessages()
	for _, code := range strings.Fields(spec) {
		if !have[code] {
			t.Errorf("base code %q is missing", code)
		}
		if msgs["core.reason."+code] == "" {
			t.Errorf("base code %q has no message", code)
		}
	}
	for _, c := range core.BaseReasonCodes() {
		if !core.IsSnakeID(c) {
			t.Errorf("code %q is not snake_case", c)
		}
	}
}

func TestMigrateSave(t *testing.T) {
	e := newEngine(t)
	s := submit(t, e, create(t, e, "s"), "inc", nil)
	old := strings.Replace(serialize(t, e, s), `"kindState":{"achieved":false,"count":1,"done":false}`, `"kindState":{"achieved":false,"done":false,"n":4}`, 1)
	res, migrated := e.MigrateSave([]byte(old), "0.9.0")
	if !res.OK || !migrated || res.Value.KindState.(*testkind.State).Count != 4 {
		t.Fatalf("kind migration: %v migrated=%v", res.Errors, migrated)
	}
	if res, _ := e.MigrateSave([]byte(old), "0.1.0"); res.OK || res.Errors[0].Code != core.ReasonMigrationFailed {
		t.Fatalf("failed migration: %v", res.Errors)
	}
	if res, migrated := e.Migrate([]byte(serialize(t, e, s))); !res.OK || migrated {
		t.Fatalf("current state: %v migrated=%v", res.Errors, migrated)
	}
	// A save whose epoch is gone and whose campaign declares no migration.
	gone := strings.Replace(serialize(t, e, s), `"campaignVersion":"1.0.0"`, `"campaignVersion":"0.5.0"`, 1)
	if res, _ := e.Migrate([]byte(gone)); res.OK || res.Errors[0].Code != core.ReasonSaveRequiresMigration {
		t.Fatalf("no migration declared: %v", res.Errors)
	}
}

// archiveEngine is an engine whose archive holds tally 1.0.0 (goal 10) and
// 2.0.0 (goal 4), with 1.0.0 the default.
func archiveEngine(t *testing.T) (*core.Engine, *content.Archive) {
	kinds := []core.Kind{testkind.Kind{}}
	v1, r1 := content.Build(kinds, content.Source{Campaign: testkind.Campaign("tally", "1.0.0", 10)})
	v2, r2 := content.Build(kinds, content.Source{Campaign: testkind.Campaign("tally", "2.0.0", 4)})
	if !r1.OK || !r2.OK {
		t.Fatal(r1.Errors, r2.Errors)
	}
	a, err := content.NewArchive(kinds, v1)
	if err != nil {
		t.Fatal(err)
	}
	if res := a.Publish(v2); !res.OK || len(res.Value) != 1 {
		t.Fatalf("publish: %+v", res)
	}
	e, err := core.New(core.Host{Kinds: kinds, Registry: v1, Archive: a})
	if err != nil {
		t.Fatal(err)
	}
	return e, a
}

func TestAdoptContent(t *testing.T) {
	e, a := archiveEngine(t)
	s := submit(t, e, create(t, e, "s"), "inc", nil)
	if same := e.AdoptContent(s, "1.0.0"); !same.Adopted || same.State != s {
		t.Fatal("adopting the state's own version must return the same state")
	}
	ad := e.AdoptContent(s, a.Current("tally"))
	if !ad.Adopted || ad.State.CampaignVersion != "2.0.0" || ad.State.FormatVersion != 2 {
		t.Fatalf("adopt: %+v", ad)
	}
	if c, ok := ad.State.ActionLog.At(1).(core.LoggedContent); !ok || c.From != "1.0.0" || c.To != "2.0.0" {
		t.Fatalf("content entry = %+v", ad.State.ActionLog.At(1))
	}
	// The adopted game plays on the new goal and round-trips.
	s2 := submit(t, e, submit(t, e, ad.State, "inc", core.Params{"by": float64(3)}), "finish", nil)
	if s2.Status != core.StatusEnded {
		t.Fatal("the new goal did not apply")
	}
	if back := e.Deserialize([]byte(serialize(t, e, s2))); !back.OK {
		t.Fatalf("round trip: %v", back.Errors)
	}
	// Past the new goal, the kind refuses and the game stays pinned.
	far := submit(t, e, submit(t, e, s, "inc", core.Params{"by": float64(5)}), "inc", core.Params{"by": float64(5)})
	if r := e.AdoptContent(far, "2.0.0"); r.Adopted || r.Reason != core.ReasonContentIncompatible {
		t.Fatalf("refusal = %+v", r)
	}
	if r := e.AdoptContent(s, "7.0.0"); r.Adopted || r.Reason != core.ReasonUnknownCampaign {
		t.Fatalf("unknown version = %+v", r)
	}
}

func TestConstructionErrors(t *testing.T) {
	reg, _ := content.Build([]core.Kind{testkind.Kind{}}, content.Source{Campaign: testkind.Campaign("tally", "1.0.0", 10)})
	tests := []struct {
		name string
		host core.Host
	}{
		{"no registry", core.Host{Kinds: []core.Kind{testkind.Kind{}}}},
		{"missing kind", core.Host{Registry: reg}},
		{"kind twice", core.Host{Kinds: []core.Kind{testkind.Kind{}, testkind.Kind{}}, Registry: reg}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := core.New(tt.host); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// play runs n random moves from seed's own stream of choices.
func play(t testing.TB, e *core.Engine, seed string, n int) *core.GameState {
	s := create(t, e, seed)
	for i := 0; i < n && s.Status == core.StatusActive; i++ {
		var action string
		switch (len(seed) + i*7) % 3 {
		case 0:
			action = "inc"
		case 1:
			action = "roll"
		default:
			action = "finish"
		}
		if res := e.SubmitAction(s, action, nil); res.OK {
			s = res.Value
		}
	}
	return s
}

func TestPropertyReplayIsDeterministic(t *testing.T) {
	for i := 0; i < 200; i++ {
		seed := fmt.Sprintf("seed-%d", i)
		a := serialize(t, newEngine(t), play(t, newEngine(t), seed, 12))
		b := serialize(t, newEngine(t), play(t, newEngine(t), seed, 12))
		if a != b {
			t.Fatalf("seed %s: two runs differ", seed)
		}
	}
	// Different seeds draw differently.
	if serialize(t, newEngine(t), play(t, newEngine(t), "x", 9)) == serialize(t, newEngine(t), play(t, newEngine(t), "y", 9)) {
		t.Fatal("seeds x and y played identically")
	}
}

func TestGoldenFixtures(t *testing.T) {
	golden.Fixtures(t, "testdata", func(em core.Emitter) *core.Engine {
		return newEngine(t, func(h *core.Host) { h.Emitter = em })
	})
}

func TestIdentifiers(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) bool
		ok   []string
		bad  []string
	}{
		{"campaign", core.IsCampaignID, []string{"bulgaria-bureaucracy", "a1"}, []string{"", "Abc", "a--b", "a_b", "-a", "a-", "a::b"}},
		{"snake", core.IsSnakeID, []string{"government_office", "x"}, []string{"a__b", "a-b", "_a", "1a", "A"}},
		{"lockey", core.IsLocKey, []string{"event.pipe_disaster.title", "my-camp.node.x.text"}, []string{"plain", "a..b", "a.~b", "a.b:c", "A.b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range tt.ok {
				if !tt.fn(s) {
					t.Errorf("%q refused", s)
				}
			}
			for _, s := range tt.bad {
				if tt.fn(s) {
					t.Errorf("%q accepted", s)
				}
			}
		})
	}
}

func FuzzDeserialize(f *testing.F) {
	e := newEngine(f)
	s := play(f, e, "fuzz", 6)
	good, _ := e.Serialize(s)
	f.Add(good)
	f.Add([]byte(`{"formatVersion":2}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res := e.Deserialize(data)
		if !res.OK {
			if len(res.Errors) == 0 || res.Errors[0].Code == "" {
				t.Fatal("refusal without a code")
			}
			return
		}
		out, err := e.Serialize(res.Value)
		if err != nil {
			t.Fatalf("accepted state does not serialize: %v", err)
		}
		again := e.Deserialize(out)
		if !again.OK {
			t.Fatalf("accepted state does not round-trip: %v", again.Errors)
		}
		if out2, _ := e.Serialize(again.Value); !bytes.Equal(out, out2) {
			t.Fatal("round trip changed bytes")
		}
	})
}

func FuzzSubmitAction(f *testing.F) {
	e := newEngine(f)
	s := play(f, e, "fuzz", 3)
	before, _ := e.Serialize(s)
	f.Add("inc", []byte(`{"by":2}`))
	f.Add("roll", []byte(`{}`))
	f.Add("finish", []byte(`{"x":[1]}`))
	f.Fuzz(func(t *testing.T, action string, params []byte) {
		var p core.Params
		if json.Unmarshal(params, &p) != nil {
			p = nil
		}
		res := e.SubmitAction(s, action, p)
		if after, _ := e.Serialize(s); !bytes.Equal(before, after) {
			t.Fatal("input state changed")
		}
		if !res.OK && (len(res.Errors) != 1 || res.Errors[0].Code == "") {
			t.Fatalf("rejection without one coded error: %+v", res.Errors)
		}
	})
}

func TestSerializeBranchesConcurrently(t *testing.T) {
	e := newEngine(t)
	base := play(t, e, "branches", 9)
	want := make([]string, 4)
	states := make([]*core.GameState, 4)
	for i := range states {
		states[i] = submit(t, e, base, "inc", core.Params{"by": float64(i + 1)})
		want[i] = serialize(t, newEngine(t), states[i])
	}
	done := make(chan string, 4*50)
	for i := range states {
		go func() {
			for j := 0; j < 50; j++ {
				b, _ := e.Serialize(states[i])
				done <- fmt.Sprintf("%d|%s", i, b)
			}
		}()
	}
	for k := 0; k < 4*50; k++ {
		i, got, _ := strings.Cut(<-done, "|")
		n := int(i[0] - '0')
		if got != want[n] {
			t.Fatalf("branch %d serialized as %s, want %s", n, got, want[n])
		}
	}
}

func TestSerializeIsCanonical(t *testing.T) {
	e := newEngine(t)
	s := submit(t, e, play(t, e, "canon", 8), "inc", core.Params{"by": float64(2)})
	fast := serialize(t, e, s)
	slow, err := canon.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if fast != string(slow) {
		t.Fatalf("direct encoder differs from canonical JSON:\n%s\n%s", fast, slow)
	}
}

// panicky is the counter kind whose state checks, migrations and adoption
// panic once armed, as a kind with a defect would.
type panicky struct {
	testkind.Kind
	armed *string // "migrate", "adopt" or "decode"
}

func (k panicky) DecodeState(raw json.RawMessage, c *core.Campaign) (any, error) {
	if *k.armed == "decode" {
		panic("decode")
	}
	return k.Kind.DecodeState(raw, c)
}

func (k panicky) AdoptContent(state any, from, to *core.Campaign) (any, string) {
	if *k.armed == "adopt" {
		panic("adopt")
	}
	return k.Kind.AdoptContent(state, from, to)
}

func (k panicky) MigrateState(old json.RawMessage, from string) (json.RawMessage, error) {
	panic("migrate state")
}

func (k panicky) MigrateForCampaign(old json.RawMessage, to *core.Campaign, from string) (json.RawMessage, error) {
	if *k.armed == "migrate" {
		panic("migrate for campaign")
	}
	return old, nil
}

func TestAKindsPanicIsAReasonCode(t *testing.T) {
	armed := "migrate"
	kinds := []core.Kind{panicky{armed: &armed}}
	v1, r1 := content.Build(kinds, content.Source{Campaign: testkind.Campaign("tally", "1.0.0", 10)})
	v2, r2 := content.Build(kinds, content.Source{Campaign: []byte(strings.Replace(string(testkind.Campaign("tally", "2.0.0", 4)), `"format":1`, `"format":1,"migration":{"from":["1.0.0"]}`, 1))})
	if !r1.OK || !r2.OK {
		t.Fatal(r1.Errors, r2.Errors)
	}
	a, err := content.NewArchive(kinds, v1)
	if err != nil {
		t.Fatal(err)
	}
	a.Publish(v2)
	e, err := core.New(core.Host{Kinds: kinds, Registry: v1, Archive: a})
	if err != nil {
		t.Fatal(err)
	}
	s := submit(t, e, create(t, e, "s"), "inc", nil)
	saved := []byte(serialize(t, e, s))

	if r := e.AdoptContent(s, "2.0.0"); r.Adopted || r.Reason != core.ReasonContentIncompatible {
		t.Fatalf("a panicking migration adopted: %+v", r)
	}
	only2, err := core.New(core.Host{Kinds: kinds, Registry: v2})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := only2.Migrate(saved); res.OK || res.Errors[0].Code != core.ReasonMigrationFailed {
		t.Fatalf("a panicking campaign migration: %+v", res.Errors)
	}
	if res, _ := e.MigrateSave(saved, "0.9.0"); res.OK || res.Errors[0].Code != core.ReasonMigrationFailed {
		t.Fatalf("a panicking kind migration: %+v", res.Errors)
	}
	armed = "adopt"
	if r := e.AdoptContent(s, "2.0.0"); r.Adopted || r.Reason != core.ReasonContentIncompatible {
		t.Fatalf("a panicking adoption: %+v", r)
	}
	armed = "decode"
	if res := e.Deserialize(saved); res.OK || res.Errors[0].Code != core.ReasonInvalidState {
		t.Fatalf("a panicking state check: %+v", res.Errors)
	}
}

func TestAppendEntriesIsTheLogsOwnBytes(t *testing.T) {
	l := core.NewLog(
		core.LoggedAction{Seq: 0, ActionID: "a"},
		core.LoggedAction{Seq: 1, ActionID: "b", Params: core.Params{"z": "\u2028", "a": 1.5, "m": true}},
		core.LoggedContent{Seq: 2, From: "1", To: "2"},
		core.LoggedAction{Seq: 3, ActionID: "c"},
	)
	whole, err := l.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	inner := string(whole[1 : len(whole)-1])
	if got := string(l.AppendEntries(nil, 0, l.Len())); got != inner {
		t.Fatalf("whole log:\n got %s\nwant %s", got, inner)
	}
	var parts []string
	for i := 0; i < l.Len(); i++ {
		parts = append(parts, string(l.AppendEntries(nil, i, i+1)))
	}
	if got := strings.Join(parts, ","); got != inner {
		t.Fatalf("entry by entry:\n got %s\nwant %s", got, inner)
	}
	if got := string(l.AppendEntries([]byte("x"), 1, 3)); got != "x"+parts[1]+","+parts[2] {
		t.Fatalf("a range: %s", got)
	}
	if got := l.AppendEntries(nil, 2, 2); len(got) != 0 {
		t.Fatalf("an empty range: %s", got)
	}
}
