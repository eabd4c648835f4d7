package story

import (
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

func TestShippedCampaignsValidate(t *testing.T) {
	for _, id := range shipped {
		t.Run(id, func(t *testing.T) {
			rep := validate.Campaigns([]core.Kind{Kind{}}, validate.DefaultBudget(), shippedSource(t, id))
			for _, f := range rep.Findings {
				t.Errorf("tier %d: %v", f.Tier, f.ValidationError)
			}
			ex := rep.Explorations[id]
			t.Logf("%s: %d states, bounded %v, endings %d", id, ex.States, ex.Bounded, len(ex.Terminals))
		})
	}
}

var _ = content.Source{}
