package sim

import (
	"encoding/json"
	"fmt"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// Id categories of a simulation campaign migration (core.CampaignMigration).
const (
	CategoryActivity = "activity"
	CategoryStat     = "stat"
	CategoryChain    = "chain"
	CategoryGoal     = "goal"
)

// MigrationIDs implements core.ContentMigrator: activities (the investment
// account's included), stats, chains, goals and achievements
// (contentkind.CategoryAchievement).
func (Kind) MigrationIDs(c *core.Campaign) map[string]func(string) bool {
	ct := contentOf(c)
	ix := ct.index()
	return map[string]func(string) bool{
		CategoryActivity: func(id string) bool { _, ok := ct.activity(id); return ok },
		CategoryStat:     contentkind.Declares(ix.stat),
		CategoryChain:    contentkind.Declares(ix.chain),
		CategoryGoal:     contentkind.Declares(ix.goal),

		contentkind.CategoryAchievement: contentkind.DeclaresAchievement(ct.Achievements),
	}
}

// MigrateForCampaign implements core.ContentMigrator: it applies to's
// declared migration to a state made under fromVersion
// (docs/simulation-kind.md, "Migration"). Renamed activities, stats,
// chains, goals and achievements are re-addressed everywhere the state
// names them (the plan, the activity counts, the stats and every week's
// record of them, the unlocked achievements); removed ones are dropped (a plan line of a removed activity goes); a
// stat to declares and the state lacks starts at its start value. An id
// to neither declares nor removes fails. A version the migration does not
// list passes through unchanged.
func (Kind) MigrateForCampaign(old json.RawMessage, to *core.Campaign, fromVersion string) (json.RawMessage, error) {
	return spec.Migrate(old, to, fromVersion, func(s *State, c *Content, m contentkind.Migration) error {
		ids := Kind{}.MigrationIDs(to)
		var err error
		if s.Stats, err = contentkind.Keys(m, CategoryStat, s.Stats, ids[CategoryStat]); err != nil {
			return err
		}
		for _, st := range c.Stats {
			if _, ok := s.Stats[st.ID]; !ok {
				s.Stats[st.ID] = st.Start
			}
		}
		if s.Done, err = contentkind.Keys(m, CategoryActivity, s.Done, ids[CategoryActivity]); err != nil {
			return err
		}
		if s.Chains, err = contentkind.Keys(m, CategoryChain, s.Chains, ids[CategoryChain]); err != nil {
			return err
		}
		if s.Goals, err = contentkind.Keys(m, CategoryGoal, s.Goals, ids[CategoryGoal]); err != nil {
			return err
		}
		if s.Achieved, err = contentkind.MigrateAchieved(m, s.Achieved, ids[contentkind.CategoryAchievement]); err != nil {
			return err
		}
		plan := []PlanItem{}
		for _, it := range s.Plan {
			id, keep := m.ID(CategoryActivity, it.Activity)
			if !keep {
				continue
			}
			if !ids[CategoryActivity](id) {
				return fmt.Errorf("unknown activity %q in the plan", id)
			}
			plan = append(plan, PlanItem{Activity: id, Count: it.Count})
		}
		s.Plan = plan
		// A week's record keeps the stats it had; they only follow renames
		// and removals, so "what changed" compares like with like.
		history := make([]WeekRecord, len(s.History))
		for i, rec := range s.History {
			stats := map[string]int64{}
			for id, v := range rec.Stats {
				if to, keep := m.ID(CategoryStat, id); keep {
					stats[to] = v
				}
			}
			rec.Stats = stats
			history[i] = rec
		}
		s.History = history
		return nil
	})
}

// AdoptContent implements core.ContentAdopter. The engine has already
// applied to's migration and decoded the state against to, so every id
// the state names is declared, the week is within to's weeks and the plan
// within its budget: the game goes on on to's rules from the week it is
// in. A game that has ended stays on the version it ended on.
func (Kind) AdoptContent(state any, _, _ *core.Campaign) (any, string) {
	return spec.Adopt(state)
}
