package sim

import (
	"encoding/json"
	"math"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
	"github.com/storyloom/storyloom/engine/rng"
)

// InitialState implements core.Kind: week 0, the campaign's starting money
// and stats, an empty plan, and every profile-scoped chain resumed at the
// step the player's profile records (docs/simulation-kind.md, "Event
// chains"). A malformed or foreign profile slice reads as no history.
func (Kind) InitialState(c *core.Campaign, _ *core.Context, profileData json.RawMessage) core.InitialResult {
	content := contentOf(c)
	s := &State{
		Money:  content.StartingMoney,
		Stats:  make(map[string]int64, len(content.Stats)),
		Plan:   []PlanItem{},
		Done:   map[string]int64{},
		Flags:  []string{},
		Chains: map[string]int{},
		Goals:  map[string]string{},
	}
	for _, st := range content.Stats {
		s.Stats[st.ID] = st.Start
	}
	progress := readProfile(profileData).Campaigns[c.ID]
	for _, ch := range content.Chains {
		if ch.Scope == ScopeProfile {
			if n := progress[ch.ID]; n > 0 {
				s.Chains[ch.ID] = min(n, len(ch.Steps))
			}
		}
	}
	s.History = []WeekRecord{s.record()}
	return core.InitialResult{State: s, Status: core.StatusActive, Changes: []core.StateChange{}, Messages: []core.OutcomeMessage{}}
}

// record snapshots s for the history.
func (s *State) record() WeekRecord {
	return WeekRecord{Week: s.Week, Money: s.Money, Invested: s.Invested, Stats: contentkind.CloneMap(s.Stats)}
}

// reject builds a rejection of a kind-owned code; the state is unchanged.
func reject(s *State, code, path, format string, args ...any) core.AdvanceResult {
	return spec.Reject(s, code, path, format, args...)
}

// declared lists the params each verb declares.
var declared = map[string][]string{
	ActionPlanAdd:    {"activity", "count"},
	ActionPlanRemove: {"index", "count"},
	ActionPlanClear:  nil,
	ActionEndWeek:    nil,
}

// Advance implements core.Kind: plan.add, plan.remove, plan.clear and
// end_week. Every bad parameter is refused with a reason code and changes
// nothing; an undeclared parameter key is refused with unexpected_params
// before any value is read.
func (Kind) Advance(state any, actionID string, params core.Params, ctx *core.Context) core.AdvanceResult {
	return spec.Advance(state, actionID, params, ctx, declared, func(s *State, c *Content) core.AdvanceResult {
		switch actionID {
		case ActionPlanAdd:
			return planAdd(s, c, params)
		case ActionPlanRemove:
			return planRemove(s, params)
		case ActionPlanClear:
			return planClear(s)
		}
		// Achievements are met by what a week does, so they unlock at its end.
		return contentkind.WithAchievements(c.Achievements, s, endWeek(s, c, ctx.Strings(), ctx.Emit, ctx.Derive))
	})
}

// planTotals returns the hours and money the plan commits.
func planTotals(s *State, c *Content) (hours, cost int64) {
	for _, it := range s.Plan {
		a, _ := c.activity(it.Activity)
		hours += a.Hours * it.Count
		cost += a.Cost * it.Count
	}
	return hours, cost
}

func planned(s *State, id string) (index int, count int64) {
	for i, it := range s.Plan {
		if it.Activity == id {
			return i, it.Count
		}
	}
	return -1, 0
}

// addToPlan plans count more of activity id: a larger count on the line
// the plan has for it, or a new line.
func (s *State) addToPlan(id string, count int64) {
	if i, _ := planned(s, id); i >= 0 {
		s.Plan[i].Count += count
	} else {
		s.Plan = append(s.Plan, PlanItem{Activity: id, Count: count})
	}
}

// addCheck says whether count more of activity a fit in s's plan, and if
// not, the reason code.
func addCheck(s *State, c *Content, a activityView, count int64) string {
	if a.ID == ActivityWithdraw && s.Invested == 0 {
		return ReasonActivityUnavailable
	}
	if !holds(a.Requires, s) {
		return ReasonActivityUnavailable
	}
	_, have := planned(s, a.ID)
	if have+count > a.MaxPerWeek {
		return ReasonActivityLimitReached
	}
	hours, cost := planTotals(s, c)
	if hours+a.Hours*count > c.HoursPerWeek {
		return ReasonPlanOverHours
	}
	if a.Cost > 0 && cost+a.Cost*count > s.Money {
		return ReasonPlanOverBudget
	}
	return ""
}

// maxAddable is how many more of a the plan could take now (0 when none).
func maxAddable(s *State, c *Content, a activityView) int64 {
	if addCheck(s, c, a, 1) != "" {
		return 0
	}
	_, have := planned(s, a.ID)
	n := a.MaxPerWeek - have
	hours, cost := planTotals(s, c)
	if a.Hours > 0 {
		n = min(n, (c.HoursPerWeek-hours)/a.Hours)
	}
	if a.Cost > 0 {
		n = min(n, (s.Money-cost)/a.Cost)
	}
	return n
}

// readCount reads the optional count of plan.add and plan.remove: def
// when it is absent, else a whole number from 1 to hi.
func readCount(s *State, p core.Params, def, hi int64) (int64, *core.AdvanceResult) {
	raw, present := p["count"]
	if !present {
		return def, nil
	}
	f, isNum := raw.(float64)
	if !isNum {
		r := reject(s, ReasonInvalidParam, "params.count", "count must be a number")
		return 0, &r
	}
	if f < 1 || f > float64(hi) || f != math.Trunc(f) {
		r := reject(s, ReasonInvalidCount, "params.count", "count must be a whole number from 1 to %d, got %v", hi, f)
		return 0, &r
	}
	return int64(f), nil
}

func planAdd(s *State, c *Content, p core.Params) core.AdvanceResult {
	id, ok, err := p.String("activity")
	if err != nil {
		return reject(s, ReasonInvalidParam, "params.activity", "%v", err)
	}
	if !ok {
		return reject(s, ReasonMissingParam, "params.activity", "plan.add needs an activity")
	}
	a, known := c.activity(id)
	if !known {
		return reject(s, ReasonUnknownActivity, "params.activity", "unknown activity %q", id)
	}
	count, bad := readCount(s, p, 1, MaxHoursPerWeek)
	if bad != nil {
		return *bad
	}
	if code := addCheck(s, c, a, count); code != "" {
		return reject(s, code, "params.activity", "cannot add %d × %q to the plan", count, id)
	}
	next := s.clone()
	next.addToPlan(id, count)
	return planChanged(s, next)
}

func planRemove(s *State, p core.Params) core.AdvanceResult {
	raw, present := p["index"]
	if !present {
		return reject(s, ReasonMissingParam, "params.index", "plan.remove needs an index")
	}
	f, isNum := raw.(float64)
	if !isNum {
		return reject(s, ReasonInvalidParam, "params.index", "index must be a number")
	}
	if f < 0 || f >= float64(len(s.Plan)) || f != math.Trunc(f) {
		return reject(s, ReasonInvalidIndex, "params.index", "no plan item at index %v (the plan has %d)", f, len(s.Plan))
	}
	i := int(f)
	// count takes that many off the item (one of "Café shift × 3"); without
	// it, or with the item's whole count, the item goes.
	count, bad := readCount(s, p, s.Plan[i].Count, s.Plan[i].Count)
	if bad != nil {
		return *bad
	}
	next := s.clone()
	if count < next.Plan[i].Count {
		next.Plan[i].Count -= count
	} else {
		next.Plan = append(next.Plan[:i], next.Plan[i+1:]...)
	}
	return planChanged(s, next)
}

func planClear(s *State) core.AdvanceResult {
	next := s.clone()
	next.Plan = []PlanItem{}
	return planChanged(s, next)
}

func planChanged(prev, next *State) core.AdvanceResult {
	return core.AdvanceResult{
		State:  next,
		Status: core.StatusActive,
		Changes: []core.StateChange{{Path: "plan", Op: "set", Value: len(next.Plan), Previous: len(prev.Plan),
			Reason: ReasonPlanChanged, Visible: false}},
		Messages: []core.OutcomeMessage{},
	}
}

// deriveFunc returns a handle on any stream of the game's seed.
type deriveFunc func(rng.StreamID) *rng.Handle
