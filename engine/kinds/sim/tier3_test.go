package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/validate"
)

// TestTier3 explores every shipped campaign within a small budget: it
// must find no dead end and reach failed; first-flat's abstraction also
// reaches every resolution. (harbour-bakery's win needs a plan the generic
// candidates do not make — the coarse search reports it as a lead.)
func TestTier3(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			warnings, ex := validate.Tier3(Kind{}, reg.Campaign(id), validate.Budget{MaxStates: 20000, MaxDepth: 60})
			want := []string{ResolutionFailed}
			if id == "first-flat" {
				want = []string{ResolutionGoalsMet, ResolutionFailed, ResolutionWeekLimitReached}
			}
			for _, r := range want {
				if _, ok := ex.Terminals[r]; !ok {
					t.Errorf("tier 3 never reaches %s", r)
				}
			}
			if len(ex.DeadEnds) > 0 {
				t.Errorf("dead ends: %v", ex.DeadEnds)
			}
			t.Logf("%d states, bounded %v, %d warnings", ex.States, ex.Bounded, len(warnings))
			for _, w := range warnings {
				t.Logf("  %v", w)
			}
		})
	}
}
