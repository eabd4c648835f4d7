package sim

import (
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
	"github.com/storyloom/storyloom/engine/pipeline"
	"github.com/storyloom/storyloom/engine/rng"
)

// Stream system names: the incidents and investment systems draw on
// system:<name>:<week>, where <week> is the 1-based number of the week
// being resolved. Keying by week rather than by action seq means adding or
// removing plan items never rerolls a week.
const (
	StreamIncidents  = "incidents"
	StreamInvestment = "investment"
)

// weekFrame is what the end-of-week systems pass along. The state in it is
// a private copy made when the week started; systems change it in place.
type weekFrame struct {
	c        *Content
	s        *State
	week     int // the week being resolved, 1-based
	derive   deriveFunc
	strings  map[core.LocKey]string
	changes  []core.StateChange
	messages []core.OutcomeMessage
	record   WeekRecord
}

// System ids of the end-of-week pipeline, in their normative order
// (docs/simulation-kind.md, "The week").
var weekSystems = []pipeline.System[*weekFrame]{
	{ID: "calendar", Run: runCalendar},
	{ID: "plan", Run: runPlan},
	{ID: "upkeep", Run: runUpkeep},
	{ID: "investment", Run: runInvestment},
	{ID: "drift", Run: runDrift},
	{ID: "incidents", Run: runIncidents},
	{ID: "chains", Run: runChains},
	{ID: "goals", Run: runGoals},
	{ID: "record", Run: runRecord},
}

// WeekSystems returns the ids of the end-of-week systems in the order they
// run.
func WeekSystems() []string { return pipeline.IDs(weekSystems) }

// endWeek resolves the week through the pipeline. Each entry is wrapped so
// that it emits kind.simulation.system.ran after it runs (§20: the
// emission lives in the entry, not in the substrate).
func endWeek(s *State, c *Content, strings map[core.LocKey]string, emit *core.ResolutionEmitter, derive deriveFunc) core.AdvanceResult {
	f := &weekFrame{c: c, s: s.clone(), week: s.Week + 1, derive: derive, strings: strings}
	systems := weekSystems
	if emit != nil {
		systems = make([]pipeline.System[*weekFrame], len(weekSystems))
		for i, sys := range weekSystems {
			id, run := sys.ID, sys.Run
			systems[i] = pipeline.System[*weekFrame]{ID: id, Run: func(f *weekFrame) *weekFrame {
				f = run(f)
				emit.Emit(EventSystemRan, map[string]any{"system": id, "week": f.week})
				return f
			}}
		}
	}
	f = pipeline.Run(systems, f)
	status := core.StatusActive
	if f.s.Resolution != "" {
		status = core.StatusEnded
	}
	if emit != nil {
		emit.Emit(EventWeekEnded, map[string]any{"week": f.week, "status": string(status)})
	}
	if f.changes == nil {
		f.changes = []core.StateChange{}
	}
	if f.messages == nil {
		f.messages = []core.OutcomeMessage{}
	}
	return core.AdvanceResult{State: f.s, Status: status, Changes: f.changes, Messages: f.messages}
}

// change records a numeric change of path from prev to next.
func (f *weekFrame) change(path string, prev, next int64, reason string) {
	if prev != next {
		f.changes = append(f.changes, contentkind.Change(path, prev, next, reason))
	}
}

// addMoney changes cash by delta.
func (f *weekFrame) addMoney(delta int64, reason string) {
	prev := f.s.Money
	f.s.Money += delta
	f.change("money", prev, f.s.Money, reason)
}

// apply applies effects times times, each stat clamped into its range.
func (f *weekFrame) apply(effects []effect, times int64, reason string) {
	for _, e := range effects {
		if e.stat < 0 {
			f.addMoney(e.delta*times, reason)
			continue
		}
		st := &f.c.Stats[e.stat]
		prev := f.s.Stats[st.ID]
		f.s.Stats[st.ID] = clamp(prev+e.delta*times, st.Min, st.Max)
		f.change("stat."+st.ID, prev, f.s.Stats[st.ID], reason)
	}
}

func (f *weekFrame) setFlags(flags []string, reason string) {
	for _, fl := range flags {
		if f.s.setFlag(fl) {
			f.changes = append(f.changes, core.StateChange{Path: "flags." + fl, Op: "set", Value: true, Reason: reason, Visible: false})
		}
	}
}

func clamp(v, lo, hi int64) int64 {
	return max(lo, min(v, hi))
}

// runPlan carries out the plan in order: each item's cost, then its
// effects, count times; invest moves the deposit into the account and
// withdraw moves the whole balance back.
func runPlan(f *weekFrame) *weekFrame {
	for _, it := range f.s.Plan {
		a, _ := f.c.activity(it.Activity)
		if a.Cost > 0 {
			f.addMoney(-a.Cost*it.Count, ReasonActivityResolved)
		}
		switch {
		case a.Authored != nil:
			f.apply(a.Authored.effects, it.Count, ReasonActivityResolved)
		case a.ID == ActivityInvest:
			prev := f.s.Invested
			f.s.Invested += a.Cost * it.Count
			f.change("invested", prev, f.s.Invested, ReasonActivityResolved)
		case a.ID == ActivityWithdraw:
			amount := f.s.Invested
			f.change("invested", amount, 0, ReasonActivityResolved)
			f.s.Invested = 0
			f.addMoney(amount, ReasonActivityResolved)
		}
		prev := f.s.Done[a.ID]
		f.s.Done[a.ID] = prev + it.Count
		f.changes = append(f.changes, core.StateChange{Path: "done." + a.ID, Op: "increment", Value: prev + it.Count, Previous: prev, Reason: ReasonActivityResolved, Visible: false})
	}
	return f
}

// runUpkeep pays the week's fixed upkeep.
func runUpkeep(f *weekFrame) *weekFrame {
	if f.c.Upkeep > 0 {
		f.addMoney(-f.c.Upkeep, ReasonUpkeepPaid)
	}
	return f
}

// runInvestment moves the account's balance by a rate drawn uniformly from
// [minReturnBp, maxReturnBp] on system:investment:<week>; the return is
// balance × rate / 10000, truncated toward zero.
func runInvestment(f *weekFrame) *weekFrame {
	inv := f.c.Investment
	if inv == nil {
		return f
	}
	h := f.derive(rng.System(StreamInvestment, f.week))
	bp, _ := h.NextInt(inv.MinReturnBp, inv.MaxReturnBp)
	f.record.ReturnBp = bp
	if f.s.Invested == 0 {
		return f
	}
	delta := f.s.Invested * bp / 10000
	if delta == 0 {
		return f
	}
	prev := f.s.Invested
	f.s.Invested = max(0, prev+delta)
	f.change("invested", prev, f.s.Invested, ReasonInvestmentReturned)
	key, amount := KeyInvestmentGained, delta
	tone := core.TonePositive
	if delta < 0 {
		key, amount, tone = KeyInvestmentLost, -delta, core.ToneNegative
	}
	f.messages = append(f.messages, core.OutcomeMessage{Key: key, Params: map[string]any{"amount": display.Money(f.c.Currency, amount), "amountCents": amount, "currency": f.c.Currency}, Tone: tone, Visible: true})
	return f
}

// runDrift moves every stat by its weekly drift, clamped.
func runDrift(f *weekFrame) *weekFrame {
	for _, st := range f.c.Stats {
		if st.Drift == 0 {
			continue
		}
		prev := f.s.Stats[st.ID]
		f.s.Stats[st.ID] = clamp(prev+st.Drift, st.Min, st.Max)
		f.change("stat."+st.ID, prev, f.s.Stats[st.ID], ReasonStatDrifted)
	}
	return f
}

// runIncidents rolls on system:incidents:<week>: a percent roll below
// chancePercent means an incident happens, picked by weight among those
// whose requires holds now.
func runIncidents(f *weekFrame) *weekFrame {
	pool := f.c.Incidents.Pool
	if len(pool) == 0 || f.c.Incidents.ChancePercent == 0 {
		return f
	}
	h := f.derive(rng.System(StreamIncidents, f.week))
	if int64(h.NextPercent()) >= f.c.Incidents.ChancePercent {
		return f
	}
	eligible := make([]rng.Weighted[int], 0, len(pool))
	for i := range pool {
		if holds(pool[i].Requires, f.s) {
			eligible = append(eligible, rng.Weighted[int]{Item: i, Weight: pool[i].Weight})
		}
	}
	if len(eligible) == 0 {
		return f
	}
	i, _ := rng.WeightedPick(h, eligible)
	in := &pool[i]
	f.record.Incident = in.ID
	f.changes = append(f.changes, core.StateChange{Path: "incident", Op: "set", Value: in.ID, Reason: ReasonIncidentOccurred, Visible: true})
	f.apply(in.effects, 1, ReasonIncidentOccurred)
	f.setFlags(in.Flags, ReasonIncidentOccurred)
	tone := in.Tone
	if tone == "" {
		tone = core.ToneNeutral
	}
	f.messages = append(f.messages, core.OutcomeMessage{Key: in.TitleKey, Tone: tone, Visible: true},
		core.OutcomeMessage{Key: in.TextKey, Tone: tone, Visible: true})
	return f
}

// runChains fires, for every chain in declaration order, its next step
// when that step's trigger holds: at most one step per chain per week.
func runChains(f *weekFrame) *weekFrame {
	for _, ch := range f.c.Chains {
		n := f.s.Chains[ch.ID]
		if n >= len(ch.Steps) {
			continue
		}
		st := &ch.Steps[n]
		if !holds(&st.Trigger, f.s) {
			continue
		}
		f.s.Chains[ch.ID] = n + 1
		f.record.Steps = append(f.record.Steps, ch.ID+"."+st.ID)
		f.changes = append(f.changes, core.StateChange{Path: "chain." + ch.ID, Op: "set", Value: n + 1, Previous: n, Reason: ReasonChainAdvanced, Visible: true})
		f.apply(st.effects, 1, ReasonChainAdvanced)
		f.setFlags(st.Flags, ReasonChainAdvanced)
		f.messages = append(f.messages, core.OutcomeMessage{Key: st.TitleKey, Tone: core.ToneNeutral, Visible: true},
			core.OutcomeMessage{Key: st.TextKey, Tone: core.ToneNeutral, Visible: true})
	}
	return f
}

// runCalendar opens the resolution of the week: the week count moves on,
// so every later system and condition sees the week being resolved.
func runCalendar(f *weekFrame) *weekFrame {
	f.s.Week = f.week
	f.changes = append(f.changes, core.StateChange{Path: "week", Op: "increment", Value: f.week, Previous: f.week - 1, Reason: ReasonWeekEnded, Visible: true})
	return f
}

// runRecord closes the week: the plan is cleared and the week's snapshot
// joins the history.
func runRecord(f *weekFrame) *weekFrame {
	f.s.Plan = []PlanItem{}
	rec := f.s.record()
	rec.Incident, rec.Steps, rec.ReturnBp = f.record.Incident, f.record.Steps, f.record.ReturnBp
	f.s.History = append(f.s.History, rec)
	return f
}

// runGoals settles goals in declaration order and resolves the game:
// failed if any goal failed, goals_met once every reach goal is met,
// week_limit_reached when the last week is over. On resolution every
// pending goal is settled: a keep goal that held is met, a reach goal not
// met has failed.
func runGoals(f *weekFrame) *weekFrame {
	anyFailed, allReached := false, true
	for _, g := range f.c.Goals {
		status, settled := f.s.Goals[g.ID]
		if !settled {
			switch {
			case g.Type == GoalKeep && !holds(&g.Condition, f.s):
				status = GoalFailed
			case g.Type == GoalReach && holds(&g.Condition, f.s):
				status = GoalMet
			case g.Type == GoalReach && g.By > 0 && f.week >= g.By:
				status = GoalFailed
			}
			if status != "" {
				f.settleGoal(g, status)
			}
		}
		anyFailed = anyFailed || status == GoalFailed
		allReached = allReached && (g.Type == GoalKeep || status == GoalMet)
	}
	resolution := ""
	switch {
	case anyFailed:
		resolution = ResolutionFailed
	case allReached:
		resolution = ResolutionGoalsMet
	case f.week >= f.c.Weeks:
		resolution = ResolutionWeekLimitReached
	}
	if resolution == "" {
		return f
	}
	for _, g := range f.c.Goals {
		if _, settled := f.s.Goals[g.ID]; !settled {
			if g.Type == GoalKeep {
				f.settleGoal(g, GoalMet)
			} else {
				f.settleGoal(g, GoalFailed)
			}
		}
	}
	f.s.Resolution = resolution
	f.changes = append(f.changes, core.StateChange{Path: "resolution", Op: "set", Value: resolution, Reason: ReasonGameResolved, Visible: true})
	tone := core.TonePositive
	if resolution != ResolutionGoalsMet {
		tone = core.ToneNegative
	}
	f.messages = append(f.messages, core.OutcomeMessage{Key: keyResolutionPrefix + resolution, Tone: tone, Visible: true},
		core.OutcomeMessage{Key: f.c.endingKey(resolution), Tone: tone, Visible: true})
	return f
}

func (f *weekFrame) settleGoal(g Goal, status string) {
	f.s.Goals[g.ID] = status
	reason, key, tone := ReasonGoalMet, KeyGoalMet, core.TonePositive
	if status == GoalFailed {
		reason, key, tone = ReasonGoalFailed, KeyGoalFailed, core.ToneNegative
	}
	f.changes = append(f.changes, core.StateChange{Path: "goal." + g.ID, Op: "set", Value: status, Reason: reason, Visible: true})
	f.messages = append(f.messages, core.OutcomeMessage{Key: key, Params: map[string]any{"goal": f.strings[g.LabelKey], "goalKey": g.LabelKey}, Tone: tone, Visible: true})
}
