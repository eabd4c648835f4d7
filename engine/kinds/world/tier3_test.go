package world

import (
	"testing"

	"github.com/storyloom/storyloom/engine/validate"
)

// TestTier3 explores every shipped campaign within a small budget: it must
// reach every resolution (the careful player's moves find the win) and
// find no dead end or unwinnable state.
func TestTier3(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			warnings, ex := validate.Tier3(Kind{}, reg.Campaign(id), validate.Budget{MaxStates: 2000, MaxDepth: 20})
			for _, r := range []string{ResolutionObjectivesMet, ResolutionFailed} {
				if _, ok := ex.Terminals[r]; !ok {
					t.Errorf("tier 3 never reaches %s", r)
				}
			}
			if len(ex.DeadEnds) > 0 || len(ex.Unwinnable) > 0 {
				t.Errorf("dead ends %v, unwinnable %v", ex.DeadEnds, ex.Unwinnable)
			}
			t.Logf("%d states, bounded %v, %d warnings", ex.States, ex.Bounded, len(warnings))
			for _, w := range warnings {
				t.Logf("  %v", w)
			}
		})
	}
}
