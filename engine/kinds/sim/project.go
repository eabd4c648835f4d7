package sim

import (
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// endingKey is the authored ending text of a resolution.
func (c *Content) endingKey(resolution string) core.LocKey {
	switch resolution {
	case ResolutionGoalsMet:
		return c.Endings.GoalsMet
	case ResolutionFailed:
		return c.Endings.Failed
	}
	return c.Endings.WeekLimitReached
}

// Scene implements core.Kind. While the game runs the text is the
// engine-owned simulation.scene.week with the week, cash and free hours as
// params; once it has ended it is the campaign's authored ending text.
func (Kind) Scene(state any, ctx *core.ProjectionContext) core.SceneBody {
	return spec.Scene(state, ctx, func(s *State, c *Content) (string, map[string]any) {
		hours, _ := planTotals(s, c)
		return KeySceneWeek, map[string]any{
			"week":         s.Week + 1,
			"weeks":        c.Weeks,
			"money":        display.Money(c.Currency, s.Money),
			"moneyCents":   s.Money,
			"currency":     c.Currency,
			"hoursFree":    c.HoursPerWeek - hours,
			"hoursPerWeek": c.HoursPerWeek,
		}
	})
}

// AvailableActions implements core.Kind: the four verbs, each available or
// not with the reason. Their parameter domain is in the projection
// (View.Activities and View.Plan); see docs/simulation-kind.md.
func (Kind) AvailableActions(state any, ctx *core.ProjectionContext) []core.AvailableAction {
	return spec.AvailableActions(state, ctx, func(s *State, c *Content) []core.AvailableAction {
		canAdd := false
		for _, id := range c.activityIDs() {
			a, _ := c.activity(id)
			if maxAddable(s, c, a) > 0 {
				canAdd = true
				break
			}
		}
		return []core.AvailableAction{
			contentkind.Verb(ctx, ActionPlanAdd, KeyActionPlanAdd, canAdd, KeyNothingToAdd),
			contentkind.Verb(ctx, ActionPlanRemove, KeyActionPlanRemove, len(s.Plan) > 0, KeyPlanEmpty),
			contentkind.Verb(ctx, ActionPlanClear, KeyActionPlanClear, len(s.Plan) > 0, KeyPlanEmpty),
			contentkind.Verb(ctx, ActionEndWeek, KeyActionEndWeek, true, ""),
		}
	})
}

// View is the simulation kind's projection (§9): everything a client needs
// to render the week and to build a valid plan without guessing.
type View struct {
	Week         int            `json:"week"`
	Weeks        int            `json:"weeks"`
	Currency     string         `json:"currency"`
	IntroKey     core.LocKey    `json:"introKey"`
	Money        int64          `json:"money"`
	Invested     int64          `json:"invested"`
	HoursPerWeek int64          `json:"hoursPerWeek"`
	HoursPlanned int64          `json:"hoursPlanned"`
	CostPlanned  int64          `json:"costPlanned"`
	Upkeep       int64          `json:"upkeep"`
	UpkeepKey    core.LocKey    `json:"upkeepLabelKey"`
	Stats        []StatView     `json:"stats"`
	Plan         []PlanView     `json:"plan"`
	Activities   []ActivityView `json:"activities"`
	Investment   *InvestView    `json:"investment,omitempty"`
	Goals        []GoalView     `json:"goals"`
	Chains       []ChainView    `json:"chains"`
	Flags        []string       `json:"flags"`
	History      []WeekRecord   `json:"history"`
	LastWeek     *LastWeekView  `json:"lastWeek,omitempty"`
	Resolution   *string        `json:"resolution"`
	EndingKey    core.LocKey    `json:"endingKey,omitempty"`
	GoalsMet     []string       `json:"goalsMet"`
	GoalsFailed  []string       `json:"goalsFailed"`
}

// StatView is one stat with its range and weekly drift.
type StatView struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	Value    int64       `json:"value"`
	Min      int64       `json:"min"`
	Max      int64       `json:"max"`
	Drift    int64       `json:"drift"`
}

// PlanView is one plan item: index is what plan.remove takes.
type PlanView struct {
	Index    int         `json:"index"`
	Activity string      `json:"activity"`
	LabelKey core.LocKey `json:"labelKey"`
	Count    int64       `json:"count"`
	Hours    int64       `json:"hours"`
	Cost     int64       `json:"cost"`
}

// ActivityView is one activity of the catalogue: what one more costs, its
// effects, and how many more plan.add would accept now (MaxAddable), with
// the reason when that is 0.
type ActivityView struct {
	ID             string           `json:"id"`
	LabelKey       core.LocKey      `json:"labelKey"`
	DescriptionKey core.LocKey      `json:"descriptionKey"`
	Hours          int64            `json:"hours"`
	Cost           int64            `json:"cost"`
	Effects        map[string]int64 `json:"effects"`
	MaxPerWeek     int64            `json:"maxPerWeek"`
	Planned        int64            `json:"planned"`
	Offerable      bool             `json:"offerable"`
	MaxAddable     int64            `json:"maxAddable"`
	ReasonKey      core.LocKey      `json:"reasonKey,omitempty"`
	Engine         bool             `json:"engine,omitempty"`
}

// InvestView is the fixed investment account.
type InvestView struct {
	LabelKey    core.LocKey `json:"labelKey"`
	Balance     int64       `json:"balance"`
	Deposit     int64       `json:"deposit"`
	MinReturnBp int64       `json:"minReturnBp"`
	MaxReturnBp int64       `json:"maxReturnBp"`
}

// GoalView is one goal and its status: "pending", "met" or "failed".
type GoalView struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	Type     string      `json:"type"`
	By       int         `json:"by,omitempty"`
	Status   string      `json:"status"`
}

// ChainView is an event chain's progress, with the steps fired so far.
type ChainView struct {
	ID    string      `json:"id"`
	Scope string      `json:"scope"`
	Fired int         `json:"fired"`
	Steps int         `json:"steps"`
	Last  core.LocKey `json:"lastTitleKey,omitempty"`
}

// LastWeekView is "what changed this week": the deltas of the last week
// and what happened in it.
type LastWeekView struct {
	Week          int              `json:"week"`
	MoneyDelta    int64            `json:"moneyDelta"`
	InvestedDelta int64            `json:"investedDelta"`
	StatDeltas    map[string]int64 `json:"statDeltas"`
	Incident      string           `json:"incident,omitempty"`
	IncidentTitle core.LocKey      `json:"incidentTitleKey,omitempty"`
	IncidentText  core.LocKey      `json:"incidentTextKey,omitempty"`
	Steps         []string         `json:"steps,omitempty"`
	ReturnBp      int64            `json:"returnBp"`
}

// Project implements core.Kind. The player and ai audiences see the same
// view: the simulation has no hidden state besides the seed, which never
// reaches a projection.
func (k Kind) Project(state any, _ core.Audience, ctx *core.ProjectionContext) any {
	s, err := stateOf(state)
	if err != nil {
		return View{}
	}
	c := contentOf(ctx.Campaign)
	hours, cost := planTotals(s, c)
	v := View{
		Week: s.Week, Weeks: c.Weeks, Currency: c.Currency, IntroKey: c.IntroKey,
		Money: s.Money, Invested: s.Invested, HoursPerWeek: c.HoursPerWeek, HoursPlanned: hours, CostPlanned: cost,
		Upkeep: c.Upkeep, UpkeepKey: ctx.EngineRef(KeyUpkeepLabel),
		Stats: make([]StatView, 0, len(c.Stats)), Plan: make([]PlanView, 0, len(s.Plan)),
		Activities: []ActivityView{}, Goals: make([]GoalView, 0, len(c.Goals)), Chains: make([]ChainView, 0, len(c.Chains)),
		Flags: s.Flags, History: s.History,
	}
	for _, st := range c.Stats {
		v.Stats = append(v.Stats, StatView{ID: st.ID, LabelKey: st.LabelKey, Value: s.Stats[st.ID], Min: st.Min, Max: st.Max, Drift: st.Drift})
	}
	for i, it := range s.Plan {
		a, _ := c.activity(it.Activity)
		v.Plan = append(v.Plan, PlanView{Index: i, Activity: it.Activity, LabelKey: k.activityLabel(a, ctx), Count: it.Count, Hours: a.Hours * it.Count, Cost: a.Cost * it.Count})
	}
	if s.Resolution == "" {
		for _, id := range c.activityIDs() {
			a, _ := c.activity(id)
			_, have := planned(s, id)
			av := ActivityView{ID: id, LabelKey: k.activityLabel(a, ctx), Hours: a.Hours, Cost: a.Cost, MaxPerWeek: a.MaxPerWeek, Planned: have, Effects: map[string]int64{}}
			if a.Authored != nil {
				av.DescriptionKey, av.Effects = a.Authored.DescriptionKey, a.Authored.Effects
			} else {
				av.Engine = true
				av.DescriptionKey = ctx.EngineRef(KeyInvestmentInvestDesc)
				if id == ActivityWithdraw {
					av.DescriptionKey = ctx.EngineRef(KeyInvestmentWithdrawDesc)
				}
			}
			av.Offerable = (a.ID != ActivityWithdraw || s.Invested > 0) && holds(a.Requires, s)
			av.MaxAddable = maxAddable(s, c, a)
			switch {
			case a.Authored != nil && a.Authored.LockedKey != "" && !holds(a.Requires, s):
				// The author's words for what opens it.
				av.ReasonKey = a.Authored.LockedKey
			case av.MaxAddable == 0:
				av.ReasonKey = ctx.EngineRef(core.KindReasonKey(KindID, addCheck(s, c, a, 1)))
			}
			v.Activities = append(v.Activities, av)
		}
	}
	if inv := c.Investment; inv != nil {
		v.Investment = &InvestView{LabelKey: ctx.EngineRef(KeyInvestmentLabel), Balance: s.Invested, Deposit: inv.Deposit, MinReturnBp: inv.MinReturnBp, MaxReturnBp: inv.MaxReturnBp}
	}
	for _, g := range c.Goals {
		status := s.Goals[g.ID]
		if status == "" {
			status = "pending"
		}
		v.Goals = append(v.Goals, GoalView{ID: g.ID, LabelKey: g.LabelKey, Type: g.Type, By: g.By, Status: status})
	}
	for _, ch := range c.Chains {
		cv := ChainView{ID: ch.ID, Scope: ch.Scope, Fired: s.Chains[ch.ID], Steps: len(ch.Steps)}
		if cv.Fired > 0 {
			cv.Last = ch.Steps[cv.Fired-1].TitleKey
		}
		v.Chains = append(v.Chains, cv)
	}
	if n := len(s.History); n > 1 {
		cur, prev := s.History[n-1], s.History[n-2]
		lw := &LastWeekView{Week: cur.Week, MoneyDelta: cur.Money - prev.Money, InvestedDelta: cur.Invested - prev.Invested,
			StatDeltas: map[string]int64{}, Incident: cur.Incident, Steps: cur.Steps, ReturnBp: cur.ReturnBp}
		for id, val := range cur.Stats {
			lw.StatDeltas[id] = val - prev.Stats[id]
		}
		if i, ok := c.index().incident[cur.Incident]; ok {
			lw.IncidentTitle, lw.IncidentText = c.Incidents.Pool[i].TitleKey, c.Incidents.Pool[i].TextKey
		}
		v.LastWeek = lw
	}
	out := k.Outcome(s)
	if s.Resolution != "" {
		r := s.Resolution
		v.Resolution = &r
		v.EndingKey = c.endingKey(r)
	}
	v.GoalsMet, v.GoalsFailed = out.Fields["goalsMet"].([]string), out.Fields["goalsFailed"].([]string)
	return v
}

func (Kind) activityLabel(a activityView, ctx *core.ProjectionContext) core.LocKey {
	switch {
	case a.Authored != nil:
		return a.Authored.LabelKey
	case a.ID == ActivityInvest:
		return ctx.EngineRef(KeyInvestmentInvest)
	}
	return ctx.EngineRef(KeyInvestmentWithdraw)
}

// Outcome implements core.Kind (§3.2): terminalId is the resolution, and
// the outcome is widened with resolution, goalsMet and goalsFailed (goal
// ids, sorted).
func (Kind) Outcome(state any) core.Outcome {
	return spec.Outcome(state, func(s *State) map[string]any {
		met, failed := []string{}, []string{}
		for _, id := range slices.Sorted(maps.Keys(s.Goals)) {
			if s.Goals[id] == GoalMet {
				met = append(met, id)
			} else {
				failed = append(failed, id)
			}
		}
		return map[string]any{"goalsMet": met, "goalsFailed": failed}
	})
}
