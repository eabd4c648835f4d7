package contentkind

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/core"
)

type content struct{ compiled bool }

type state struct{ Ended bool }

var spec = Spec[content, state]{
	KindID:   "test-kind",
	Prefix:   "test",
	Check:    func(*content, *authoring.Findings) {},
	Compile:  func(c *content) { c.compiled = true },
	Compiled: func(c *content) bool { return c.compiled },
	LocKeys:  func(*content) authoring.Keys { return nil },

	Resolution: func(s *state) string {
		if s.Ended {
			return "over"
		}
		return ""
	},
	Ending: func(_ *content, resolution string) core.LocKey { return "c.ending." + resolution },
}

func TestChange(t *testing.T) {
	tests := []struct {
		name       string
		prev, next int64
		op         string
	}{
		{"grew", 1, 2, "increment"},
		{"shrank", 2, 1, "decrement"},
		{"unchanged", 3, 3, "decrement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Change("money", tt.prev, tt.next, "paid")
			if c.Op != tt.op || c.Value != tt.next || c.Previous != tt.prev || c.Path != "money" || c.Reason != "paid" || !c.Visible {
				t.Fatalf("Change(%d, %d) = %+v", tt.prev, tt.next, c)
			}
		})
	}
}

func TestCloneMapOfNilIsEmpty(t *testing.T) {
	if m := CloneMap[int](nil); m == nil || len(m) != 0 {
		t.Fatalf("CloneMap(nil) = %#v", m)
	}
}

func TestRefuse(t *testing.T) {
	declared := map[string][]string{"go": {"far"}, "stop": nil}
	tests := []struct {
		name   string
		ended  bool
		action string
		params core.Params
		code   string
	}{
		{"ended first", true, "fly", core.Params{"x": 1.0}, core.ReasonSessionEnded},
		{"unknown action", false, "fly", nil, core.ReasonUnknownAction},
		{"undeclared param", false, "stop", core.Params{"far": 1.0}, ReasonUnexpectedParams},
		{"declared param", false, "go", core.Params{"far": 1.0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, refused := spec.refuse(&state{Ended: tt.ended}, tt.action, tt.params, declared)
			if refused != (tt.code != "") || refused && res.Error.Code != tt.code {
				t.Fatalf("refuse = %v, %+v; want %q", refused, res.Error, tt.code)
			}
		})
	}
}

func TestContentPanicsOnForeignContent(t *testing.T) {
	defer func() {
		if r := recover(); r != "test: campaign \"c\" carries string, not *contentkind.content" {
			t.Fatalf("recovered %v", r)
		}
	}()
	spec.Content(&core.Campaign{ID: "c", Content: "nope"})
}

// TestMigrate: a version the migration does not list passes through as it
// is; a listed one is decoded, migrated against the new content and
// encoded again; a failure names the kind.
func TestMigrate(t *testing.T) {
	to := &core.Campaign{ID: "c", Content: &content{compiled: true}, Migration: &core.CampaignMigration{From: []string{"1.0.0"}}}
	end := func(s *state, c *content, m Migration) error {
		if !c.compiled || m.M != to.Migration {
			t.Fatalf("migrate got %+v, %+v", c, m)
		}
		s.Ended = true
		return nil
	}
	if got, err := spec.Migrate([]byte(`{ "Ended" : false }`), to, "0.9.0", end); err != nil || string(got) != `{ "Ended" : false }` {
		t.Fatalf("an unlisted version: %s, %v", got, err)
	}
	if got, err := spec.Migrate([]byte(`{"Ended":false}`), to, "1.0.0", end); err != nil || string(got) != `{"Ended":true}` {
		t.Fatalf("a listed version: %s, %v", got, err)
	}
	fail := func(*state, *content, Migration) error { return errors.New("unknown thing") }
	if _, err := spec.Migrate([]byte(`{}`), to, "1.0.0", fail); err == nil || err.Error() != "test: unknown thing" {
		t.Fatalf("a failure: %v", err)
	}
	if _, err := spec.Migrate([]byte(`[`), to, "1.0.0", end); err == nil || !strings.HasPrefix(err.Error(), "test: state: ") {
		t.Fatalf("a broken state: %v", err)
	}
}

// TestAdvance: a foreign state is invalid_state, a refusal comes before
// the verb, and a declared action runs on the state and the content.
func TestAdvance(t *testing.T) {
	declared := map[string][]string{"go": nil}
	ctx := &core.Context{Campaign: &core.Campaign{ID: "c", Content: &content{compiled: true}}}
	tests := []struct {
		name  string
		state any
		code  string
	}{
		{"foreign", "nope", core.ReasonInvalidState},
		{"ended", &state{Ended: true}, core.ReasonSessionEnded},
		{"running", &state{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := false
			res := spec.Advance(tt.state, "go", nil, ctx, declared, func(s *state, c *content) core.AdvanceResult {
				ran = s == tt.state && c == ctx.Campaign.Content
				return core.AdvanceResult{State: s, Status: core.StatusActive}
			})
			got := ""
			if res.Error != nil {
				got = res.Error.Code
			}
			if got != tt.code || ran != (tt.code == "") || res.State != tt.state {
				t.Fatalf("Advance = %+v (ran %v); want %q", res, ran, tt.code)
			}
		})
	}
}

// TestScene: an ended game shows its authored ending text, a running one
// the engine's text filled with the params running gives.
func TestScene(t *testing.T) {
	ctx := &core.ProjectionContext{Context: core.Context{
		Campaign: &core.Campaign{ID: "c", Content: &content{compiled: true}},
		Registry: &core.Registry{Strings: map[core.LocKey]string{"c.ending.over": "The end.", "test.scene": "Hour {hour}."}},
	}}
	running := func(*state, *content) (string, map[string]any) { return "test.scene", map[string]any{"hour": 3} }
	if got := spec.Scene(&state{Ended: true}, ctx, running); got.TextKey != "c.ending.over" || got.Text != "The end." || got.Params != nil {
		t.Errorf("ended: %+v", got)
	}
	if got := spec.Scene(&state{}, ctx, running); got.TextKey != "test.scene" || got.Text != "Hour 3." || got.Params["hour"] != 3 {
		t.Errorf("running: %+v", got)
	}
}

// TestAdopt: a running game adopts the new content, an ended one stays on
// its version, and a state of another kind is incompatible.
func TestAdopt(t *testing.T) {
	tests := []struct {
		name  string
		state any
		code  string
	}{
		{"running", &state{}, ""},
		{"ended", &state{Ended: true}, core.ReasonContentNotAdoptable},
		{"foreign", "nope", core.ReasonContentIncompatible},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, code := spec.Adopt(tt.state)
			if code != tt.code || (code == "") != (got == tt.state) {
				t.Fatalf("Adopt = %v, %q; want %q", got, code, tt.code)
			}
		})
	}
}

// TestAvailableActions: a game that has ended offers nothing; a running
// one offers the verbs, an unavailable one with why.
func TestAvailableActions(t *testing.T) {
	ctx := &core.ProjectionContext{Context: core.Context{Campaign: &core.Campaign{ID: "c", Content: &content{compiled: true}}}}
	verbs := func(s *state, _ *content) []core.AvailableAction {
		return []core.AvailableAction{Verb(ctx, "go", "test.go", true, "test.never"), Verb(ctx, "stop", "test.stop", false, "test.moving")}
	}
	if got := spec.AvailableActions(&state{Ended: true}, ctx, verbs); got == nil || len(got) != 0 {
		t.Errorf("ended: %+v", got)
	}
	got := spec.AvailableActions(&state{}, ctx, verbs)
	want := []core.AvailableAction{{ID: "go", LabelKey: "test.go", Available: true}, {ID: "stop", LabelKey: "test.stop", ReasonKey: "test.moving"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("running: %+v, want %+v", got, want)
	}
}

// TestOutcome: the resolution is the terminal id and a field, null while
// the game runs, beside the kind's own fields.
func TestOutcome(t *testing.T) {
	fields := func(*state) map[string]any { return map[string]any{"score": 7} }
	if got := spec.Outcome(&state{Ended: true}, fields); !got.Terminal || got.TerminalID != "over" || got.Fields["resolution"] != "over" || got.Fields["score"] != 7 {
		t.Errorf("ended: %+v", got)
	}
	got := spec.Outcome(&state{}, fields)
	if r, ok := got.Fields["resolution"]; got.Terminal || got.TerminalID != "" || !ok || r != nil || got.Fields["score"] != 7 {
		t.Errorf("running: %+v", got)
	}
	if got := spec.Outcome("nope", fields); got.Terminal || got.Fields != nil {
		t.Errorf("foreign: %+v", got)
	}
}
