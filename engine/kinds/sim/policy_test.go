package sim

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

// A policy chooses the plan of the coming week from the state.
type policy func(s *State, c *Content) []PlanItem

// careful plays like a player who reads the numbers (see carefulPlan).
func careful(margin int64, first ...string) policy {
	return func(s *State, c *Content) []PlanItem { return carefulPlan(s, c, margin, first) }
}

// greedy is a careless player: it works the best-paid activities every
// hour of every week and never rests.
func greedy(s *State, c *Content) []PlanItem {
	return fillPlan(s, c, func(a activityView) bool { return a.Authored != nil && a.Authored.Effects["money"] > 0 })
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

// carefulFor is the scripted careful player of each shipped campaign.
func carefulFor(campaign string) policy {
	switch campaign {
	case "harbour-bakery":
		return careful(30, "train_apprentice", "apprentice_batch", "wedding_cake", "market_stall", "service_oven")
	}
	return careful(30, "design_course")
}
