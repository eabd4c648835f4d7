package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/internal/kindtest"
	"github.com/storyloom/storyloom/engine/validate"
)

// TestTier3 explores every shipped campaign within a small budget: it
// must find no dead end and reach every resolution, the win included (the
// careful candidate that aims for the gated work first finds it).
func TestTier3(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			warnings, ex := kindtest.Reaches(t, Kind{}, reg, id, validate.Budget{MaxStates: 20000, MaxDepth: 60},
				ResolutionGoalsMet, ResolutionFailed, ResolutionWeekLimitReached)
			if ex.Bounded || len(warnings) > 0 {
				t.Errorf("the search is bounded (%v) or warns: %v", ex.Bounded, warnings)
			}
		})
	}
}
