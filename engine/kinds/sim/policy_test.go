package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

// A policy chooses the plan of the coming week from the state.
type policy func(s *State, c *Content) []PlanItem

// careful plays like a player who reads the numbers: it keeps every stat a
// keep goal protects at or above margin after the week's drift, takes the
// activities in first while they are affordable, and otherwise earns as
// much as the hours allow.
func careful(margin int64, first ...string) policy {
	return func(s *State, c *Content) []PlanItem {
		protected := map[string]bool{}
		for _, g := range c.Goals {
			if g.Type == GoalKeep && len(g.Condition.Field) > 5 && g.Condition.Field[:5] == "stat." {
				protected[g.Condition.Field[5:]] = true
			}
		}
		work := s.clone()
		work.Plan = nil
		proj := map[string]int64{}
		for _, st := range c.Stats {
			proj[st.ID] = st.Drift + s.Stats[st.ID]
		}
		money := s.Money - c.Upkeep
		const reserve = 15000
		fits := func(id string) (activityView, bool) {
			a, ok := c.activity(id)
			return a, ok && maxAddable(work, c, a) > 0
		}
		add := func(a activityView) {
			if i, _ := planned(work, a.ID); i >= 0 {
				work.Plan[i].Count++
			} else {
				work.Plan = append(work.Plan, PlanItem{Activity: a.ID, Count: 1})
			}
			money -= a.Cost
			if a.Authored != nil {
				for _, e := range a.Authored.effects {
					if e.stat < 0 {
						money += e.delta
					} else {
						proj[e.target] = clamp(proj[e.target]+e.delta, c.Stats[e.stat].Min, c.Stats[e.stat].Max)
					}
				}
			}
		}
		safe := func(a activityView) bool {
			if a.Authored == nil {
				return false
			}
			for _, e := range a.Authored.effects {
				if e.stat >= 0 && protected[e.target] && e.delta < 0 && proj[e.target]+e.delta < margin {
					return false
				}
			}
			return money-a.Cost >= reserve
		}
		for _, id := range first {
			if a, ok := fits(id); ok && safe(a) {
				add(a)
			}
		}
		// restorer returns the activity that best raises stat per hour.
		restorer := func(stat string) (activityView, bool) {
			var best activityView
			bestScore := int64(0)
			for _, id := range c.activityIDs() {
				a, ok := fits(id)
				if !ok || a.Authored == nil || money-a.Cost < reserve {
					continue
				}
				score := a.Authored.Effects[stat] * 100
				if a.Hours > 0 {
					score /= a.Hours
				}
				if score > bestScore {
					best, bestScore = a, score
				}
			}
			return best, bestScore > 0
		}
		earner := func() (activityView, bool) {
			var best activityView
			bestScore := int64(0)
			for _, id := range c.activityIDs() {
				a, ok := fits(id)
				if !ok || a.Authored == nil {
					continue
				}
				score := (a.Authored.Effects["money"] - a.Cost) * 100
				if a.Hours > 0 {
					score /= a.Hours
				}
				if score > bestScore {
					best, bestScore = a, score
				}
			}
			return best, bestScore > 0
		}
		lowest := func() string {
			low, lowID := int64(1<<62), ""
			for _, st := range c.Stats {
				if protected[st.ID] && proj[st.ID] < low {
					low, lowID = proj[st.ID], st.ID
				}
			}
			return lowID
		}
		for guard := 0; guard < 64; guard++ {
			if id := lowest(); id != "" && proj[id] < margin {
				r, ok := restorer(id)
				if !ok {
					break
				}
				add(r)
				continue
			}
			m, ok := earner()
			if !ok {
				break
			}
			if safe(m) {
				add(m)
				continue
			}
			// Rest first so that the work fits, when a restorer fits.
			blocked := ""
			for _, e := range m.Authored.effects {
				if e.stat >= 0 && protected[e.target] && e.delta < 0 && proj[e.target]+e.delta < margin {
					blocked = e.target
				}
			}
			r, ok := restorer(blocked)
			if !ok || r.Hours+m.Hours > c.HoursPerWeek-hoursOf(work, c) {
				break
			}
			add(r)
		}
		// Spend what hours are left on the lowest stat.
		for guard := 0; guard < 32; guard++ {
			r, ok := restorer(lowest())
			if !ok {
				break
			}
			add(r)
		}
		return work.Plan
	}
}

// greedy is a careless player: it works the best-paid activities every
// hour of every week and never rests.
func greedy(s *State, c *Content) []PlanItem {
	work := s.clone()
	work.Plan = nil
	for progress := true; progress; {
		progress = false
		for _, id := range c.activityIDs() {
			a, _ := c.activity(id)
			if a.Authored == nil || a.Authored.Effects["money"] <= 0 || maxAddable(work, c, a) == 0 {
				continue
			}
			if i, _ := planned(work, id); i >= 0 {
				work.Plan[i].Count++
			} else {
				work.Plan = append(work.Plan, PlanItem{Activity: id, Count: 1})
			}
			progress = true
		}
	}
	return work.Plan
}

// idle is a careless player who only does what feels good.
func idle(s *State, c *Content) []PlanItem {
	var plan []PlanItem
	for _, a := range c.Activities {
		if a.Cost == 0 && a.Effects["money"] <= 0 && len(plan) < 2 {
			plan = append(plan, PlanItem{Activity: a.ID, Count: 1})
		}
	}
	return plan
}

// play runs a policy through the engine to the end of the game.
func play(t testing.TB, e *core.Engine, campaign, seed string, p policy) *core.GameState {
	t.Helper()
	s := start(t, e, campaign, seed)
	c := contentOf(e.Registry().Campaign(campaign))
	for s.Status == core.StatusActive {
		for _, it := range p(kindState(s), c) {
			s = submit(t, e, s, ActionPlanAdd, core.Params{"activity": it.Activity, "count": float64(it.Count)})
		}
		s = submit(t, e, s, ActionEndWeek, nil)
	}
	return s
}

func hoursOf(s *State, c *Content) int64 {
	h, _ := planTotals(s, c)
	return h
}

// carefulFor is the scripted careful player of each shipped campaign.
func carefulFor(campaign string) policy {
	switch campaign {
	case "harbour-bakery":
		return careful(30, "train_apprentice", "apprentice_batch", "wedding_cake", "market_stall", "service_oven")
	}
	return careful(30, "design_course")
}
