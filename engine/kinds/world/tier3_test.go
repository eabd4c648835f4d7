package world

import (
	"testing"

	"github.com/storyloom/storyloom/engine/internal/kindtest"
	"github.com/storyloom/storyloom/engine/validate"
)

// TestTier3 explores every shipped campaign within a small budget: it must
// reach every resolution (the careful player's moves find the win) and
// find no dead end or unwinnable state.
func TestTier3(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			kindtest.Reaches(t, Kind{}, reg, id, validate.Budget{MaxStates: 2000, MaxDepth: 20}, ResolutionObjectivesMet, ResolutionFailed)
		})
	}
}
