package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/validate"
)

// TestTier3 explores every shipped campaign within a small budget: it
// must find no dead end and reach every resolution, the win included (the
// careful candidate that aims for the gated work first finds it).
func TestTier3(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			warnings, ex := validate.Tier3(Kind{}, reg.Campaign(id), validate.Budget{MaxStates: 20000, MaxDepth: 60})
			for _, r := range []string{ResolutionGoalsMet, ResolutionFailed, ResolutionWeekLimitReached} {
				if _, ok := ex.Terminals[r]; !ok {
					t.Errorf("tier 3 never reaches %s", r)
				}
			}
			if len(ex.DeadEnds) > 0 {
				t.Errorf("dead ends: %v", ex.DeadEnds)
			}
			if ex.Bounded || len(warnings) > 0 {
				t.Errorf("the search is bounded (%v) or warns: %v", ex.Bounded, warnings)
			}
			t.Logf("%d states", ex.States)
		})
	}
}
