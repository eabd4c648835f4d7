package contentkind

import (
	"errors"
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
			res, refused := spec.Refuse(&state{}, tt.ended, tt.action, tt.params, declared)
			if refused != (tt.code != "") || refused && res.Error.Code != tt.code {
				t.Fatalf("Refuse = %v, %+v; want %q", refused, res.Error, tt.code)
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

// TestAdopt: a running game adopts the new content, an ended one stays on
// its version, and a state of another kind is incompatible.
func TestAdopt(t *testing.T) {
	ended := func(s *state) bool { return s.Ended }
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
			got, code := spec.Adopt(tt.state, ended)
			if code != tt.code || (code == "") != (got == tt.state) {
				t.Fatalf("Adopt = %v, %q; want %q", got, code, tt.code)
			}
		})
	}
}
