package contentkind_test

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
)

// TestForeignStateIsRefused hands every kind a state it did not make (a
// state of another kind, a nil pointer of its own, a string): each member
// answers invalid_state or an empty projection, never a panic, as the story
// kind always has.
func TestForeignStateIsRefused(t *testing.T) {
	kinds := map[string]core.Kind{"story": story.Kind{}, "simulation": sim.Kind{}, "world": world.Kind{}}
	foreign := map[string][]any{
		"story":      {&sim.State{}, (*story.State)(nil), "nope"},
		"simulation": {&world.State{}, (*sim.State)(nil), "nope"},
		"world":      {&sim.State{}, (*world.State)(nil), "nope"},
	}
	for name, k := range kinds {
		for _, st := range foreign[name] {
			ctx := &core.ProjectionContext{}
			res := k.Advance(st, "any", nil, &core.Context{})
			if res.Error == nil || res.Error.Code != core.ReasonInvalidState || res.State != st {
				t.Errorf("%s: Advance(%T) = %+v, want invalid_state and the state unchanged", name, st, res)
			}
			if scene := k.Scene(st, ctx); scene.TextKey != core.CoreReasonKey(core.ReasonInvalidState) {
				t.Errorf("%s: Scene(%T) = %+v, want the invalid_state text", name, st, scene)
			}
			if acts := k.AvailableActions(st, ctx); acts == nil || len(acts) != 0 {
				t.Errorf("%s: AvailableActions(%T) = %v, want none", name, st, acts)
			}
			if k.Project(st, core.AudiencePlayer, ctx) == nil {
				t.Errorf("%s: Project(%T) is nil", name, st)
			}
			if out := k.Outcome(st); out.TerminalID != "" {
				t.Errorf("%s: Outcome(%T) = %+v, want no terminal", name, st, out)
			}
			if a, ok := k.(core.ContentAdopter); ok {
				if adopted, refusal := a.AdoptContent(st, nil, nil); adopted != nil || refusal != core.ReasonContentIncompatible {
					t.Errorf("%s: AdoptContent(%T) = %v, %q, want content_incompatible", name, st, adopted, refusal)
				}
			}
		}
	}
}
