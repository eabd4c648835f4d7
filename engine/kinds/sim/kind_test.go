package sim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// sampleSource is a small campaign exercising every rule.
const sampleSource = `{
 "weeks": 4, "hoursPerWeek": 20, "startingMoney": 10000, "upkeep": 1000, "currency": "€",
 "intro": "A test.",
 "stats": [{"id": "energy", "label": "Energy", "start": 50, "min": 0, "max": 100, "drift": -10},
           {"id": "skill", "label": "Skill", "start": 0}],
 "activities": [
  {"id": "work", "label": "Work", "description": "Work.", "hours": 8, "maxPerWeek": 2, "effects": {"money": 5000, "energy": -20}},
  {"id": "rest", "label": "Rest", "description": "Rest.", "hours": 4, "maxPerWeek": 3, "effects": {"energy": 15}},
  {"id": "class", "label": "Class", "description": "Learn.", "hours": 2, "cost": 4000, "maxPerWeek": 5, "effects": {"skill": 30}},
  {"id": "expert", "label": "Expert job", "description": "Needs skill.", "hours": 4, "requires": {"field": "stat.skill", "operator": "greater_or_equal", "value": 30}, "effects": {"money": 9000}}
 ],
 "investment": {"deposit": 2000, "hours": 1, "maxDepositsPerWeek": 2, "minReturnBp": 100, "maxReturnBp": 100},
 "incidents": {"chancePercent": 50, "pool": [{"id": "windfall", "title": "Windfall", "text": "Money!", "weight": 1, "effects": {"money": 100}, "flags": ["lucky"]}]},
 "chains": [{"id": "saga", "scope": "profile", "steps": [
   {"id": "one", "title": "One", "text": "First.", "trigger": {"field": "week", "operator": "greater_or_equal", "value": 1}},
   {"id": "two", "title": "Two", "text": "Second.", "trigger": {"field": "week", "operator": "greater_or_equal", "value": 2}, "effects": {"energy": 5}}]}],
 "goals": [
  {"id": "rich", "label": "Be rich", "type": "reach", "condition": {"field": "net_worth", "operator": "greater_or_equal", "value": 30000}},
  {"id": "awake", "label": "Stay awake", "type": "keep", "condition": {"field": "stat.energy", "operator": "greater_than", "value": 0}}
 ],
 "endings": {"goals_met": "Won.", "failed": "Lost.", "week_limit_reached": "Out of time."}
}`

func sampleRegistry(t testing.TB) *core.Registry {
	return buildRegistry(t, content.Source{Path: "sample", Campaign: campaignFile("sample", sampleSource)})
}

// TestVerbs covers every verb's accepted and refused forms. A refusal must
// answer its reason code and leave the state byte for byte as it was.
func TestVerbs(t *testing.T) {
	e := newEngine(t, sampleRegistry(t), nil)
	fresh := start(t, e, "sample", "verbs")
	withPlan := submit(t, e, fresh, ActionPlanAdd, core.Params{"activity": "work"})
	withTwo := submit(t, e, withPlan, ActionPlanAdd, core.Params{"activity": "work"})
	tests := []struct {
		name   string
		state  *core.GameState
		action string
		params core.Params
		code   string // "" = accepted
		plan   []PlanItem
	}{
		{name: "add one", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest"}, plan: []PlanItem{{"rest", 1}}},
		{name: "add with count", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": 3.0}, plan: []PlanItem{{"rest", 3}}},
		{name: "add merges into the same item", state: withPlan, action: ActionPlanAdd, params: core.Params{"activity": "work"}, plan: []PlanItem{{"work", 2}}},
		{name: "add the invest activity", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "invest", "count": 2.0}, plan: []PlanItem{{"invest", 2}}},
		{name: "unknown activity", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "juggle"}, code: ReasonUnknownActivity},
		{name: "missing activity", state: fresh, action: ActionPlanAdd, params: nil, code: ReasonMissingParam},
		{name: "activity not a string", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": 3.0}, code: ReasonInvalidParam},
		{name: "negative count", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": -1.0}, code: ReasonInvalidCount},
		{name: "zero count", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": 0.0}, code: ReasonInvalidCount},
		{name: "fractional count", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": 1.5}, code: ReasonInvalidCount},
		{name: "huge count", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": 1e9}, code: ReasonInvalidCount},
		{name: "count not a number", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": "2"}, code: ReasonInvalidParam},
		{name: "plan over budget", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "class", "count": 3.0}, code: ReasonPlanOverBudget},
		{name: "plan over hours", state: withTwo, action: ActionPlanAdd, params: core.Params{"activity": "rest", "count": 2.0}, code: ReasonPlanOverHours},
		{name: "over the weekly limit", state: withPlan, action: ActionPlanAdd, params: core.Params{"activity": "work", "count": 2.0}, code: ReasonActivityLimitReached},
		{name: "requirement unmet", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "expert"}, code: ReasonActivityUnavailable},
		{name: "withdraw with nothing invested", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "withdraw"}, code: ReasonActivityUnavailable},
		{name: "undeclared param", state: fresh, action: ActionPlanAdd, params: core.Params{"activity": "rest", "colour": "red"}, code: ReasonUnexpectedParams},
		{name: "remove", state: withPlan, action: ActionPlanRemove, params: core.Params{"index": 0.0}, plan: []PlanItem{}},
		{name: "remove out of range", state: withPlan, action: ActionPlanRemove, params: core.Params{"index": 1.0}, code: ReasonInvalidIndex},
		{name: "remove negative", state: withPlan, action: ActionPlanRemove, params: core.Params{"index": -1.0}, code: ReasonInvalidIndex},
		{name: "remove fractional", state: withPlan, action: ActionPlanRemove, params: core.Params{"index": 0.5}, code: ReasonInvalidIndex},
		{name: "remove without index", state: withPlan, action: ActionPlanRemove, params: nil, code: ReasonMissingParam},
		{name: "remove with a string index", state: withPlan, action: ActionPlanRemove, params: core.Params{"index": "0"}, code: ReasonInvalidParam},
		{name: "remove with an undeclared param", state: withPlan, action: ActionPlanRemove, params: core.Params{"index": 0.0, "all": true}, code: ReasonUnexpectedParams},
		{name: "remove one of a stack", state: withTwo, action: ActionPlanRemove, params: core.Params{"index": 0.0, "count": 1.0}, plan: []PlanItem{{"work", 1}}},
		{name: "remove the whole stack by count", state: withTwo, action: ActionPlanRemove, params: core.Params{"index": 0.0, "count": 2.0}, plan: []PlanItem{}},
		{name: "remove more than the stack", state: withTwo, action: ActionPlanRemove, params: core.Params{"index": 0.0, "count": 3.0}, code: ReasonInvalidCount},
		{name: "remove none", state: withTwo, action: ActionPlanRemove, params: core.Params{"index": 0.0, "count": 0.0}, code: ReasonInvalidCount},
		{name: "remove a fraction", state: withTwo, action: ActionPlanRemove, params: core.Params{"index": 0.0, "count": 0.5}, code: ReasonInvalidCount},
		{name: "remove a count that is not a number", state: withTwo, action: ActionPlanRemove, params: core.Params{"index": 0.0, "count": "1"}, code: ReasonInvalidParam},
		{name: "clear", state: withPlan, action: ActionPlanClear, params: nil, plan: []PlanItem{}},
		{name: "clear takes no params", state: withPlan, action: ActionPlanClear, params: core.Params{"index": 0.0}, code: ReasonUnexpectedParams},
		{name: "end week takes no params", state: withPlan, action: ActionEndWeek, params: core.Params{"weeks": 2.0}, code: ReasonUnexpectedParams},
		{name: "end week clears the plan", state: withPlan, action: ActionEndWeek, params: nil, plan: []PlanItem{}},
		{name: "unknown verb", state: fresh, action: "invest", params: nil, code: core.ReasonUnknownAction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := kindtest.Verb(t, e, tc.state, tc.action, tc.params, tc.code)
			if tc.code != "" {
				return
			}
			if got := kindState(res.Value).Plan; !reflect.DeepEqual(got, tc.plan) {
				t.Fatalf("plan = %v, want %v", got, tc.plan)
			}
		})
	}
}

// TestEndWeekResolvesThePipeline checks one week's arithmetic system by
// system and its StateChanges.
func TestEndWeekResolvesThePipeline(t *testing.T) {
	e := newEngine(t, sampleRegistry(t), nil)
	s := start(t, e, "sample", "week")
	s = submit(t, e, s, ActionPlanAdd, core.Params{"activity": "work"})
	s = submit(t, e, s, ActionPlanAdd, core.Params{"activity": "invest"})
	res := e.SubmitAction(s, ActionEndWeek, nil)
	if !res.OK {
		t.Fatal(res.Errors)
	}
	k := kindState(res.Value)
	// work +5000, invest -2000, upkeep -1000, windfall maybe +100.
	wantMoney := int64(10000 + 5000 - 2000 - 1000)
	if k.History[1].Incident == "windfall" {
		wantMoney += 100
	}
	switch {
	case k.Week != 1 || k.Money != wantMoney:
		t.Fatalf("week %d money %d, want 1 and %d", k.Week, k.Money, wantMoney)
	case k.Invested != 2020: // 2000 then +1 % in the investment system
		t.Fatalf("invested %d, want 2020", k.Invested)
	case k.Stats["energy"] != 50-20-10:
		t.Fatalf("energy %d, want 20", k.Stats["energy"])
	case k.Chains["saga"] != 1 || k.Done["work"] != 1 || len(k.Plan) != 0:
		t.Fatalf("chains %v done %v plan %v", k.Chains, k.Done, k.Plan)
	}
	var reasons []string
	for _, c := range res.Changes {
		if len(reasons) == 0 || reasons[len(reasons)-1] != c.Reason {
			reasons = append(reasons, c.Reason)
		}
	}
	// The audit records arrive in system order.
	order := map[string]int{ReasonWeekEnded: -1, ReasonPlanChanged: 0, ReasonActivityResolved: 0, ReasonUpkeepPaid: 1, ReasonInvestmentReturned: 2, ReasonStatDrifted: 3, ReasonIncidentOccurred: 4, ReasonChainAdvanced: 5, ReasonGoalMet: 7, ReasonGoalFailed: 7, ReasonGameResolved: 8}
	for i := 1; i < len(reasons); i++ {
		if order[reasons[i]] < order[reasons[i-1]] {
			t.Fatalf("changes out of system order: %v", reasons)
		}
	}
}

func TestWeekSystemsOrderAndEvents(t *testing.T) {
	want := []string{"calendar", "plan", "upkeep", "investment", "drift", "incidents", "chains", "goals", "record"}
	if got := WeekSystems(); !reflect.DeepEqual(got, want) {
		t.Fatalf("WeekSystems = %v, want %v", got, want)
	}
	rec := &core.RecordingEmitter{}
	e := newEngine(t, sampleRegistry(t), rec)
	submit(t, e, start(t, e, "sample", "events"), ActionEndWeek, nil)
	var ran []string
	for _, ev := range rec.Events {
		if ev.Name == EventSystemRan {
			ran = append(ran, ev.Fields["system"].(string))
		}
	}
	if !reflect.DeepEqual(ran, want) {
		t.Fatalf("system.ran events %v, want %v", ran, want)
	}
}

func TestInvestmentRoundTrip(t *testing.T) {
	e := newEngine(t, sampleRegistry(t), nil)
	s := start(t, e, "sample", "invest")
	s = submit(t, e, s, ActionPlanAdd, core.Params{"activity": "invest", "count": 2.0})
	s = submit(t, e, s, ActionEndWeek, nil)
	if got := kindState(s).Invested; got != 4040 {
		t.Fatalf("invested %d, want 4040", got)
	}
	s = submit(t, e, s, ActionPlanAdd, core.Params{"activity": "withdraw"})
	s = submit(t, e, s, ActionEndWeek, nil)
	if k := kindState(s); k.Invested != 0 {
		t.Fatalf("invested %d after withdrawing", k.Invested)
	}
	view, err := e.View(s, core.AudiencePlayer)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(view.KindView), `"labelKey":"simulation.finance.investment.label"`) {
		t.Fatalf("the investment account's engine-owned label is missing: %s", view.KindView)
	}
	if _, ok := (Kind{}).ReasonMessages()[KeyInvestmentLabel]; !ok {
		t.Fatal("simulation.finance.investment.label is not shipped in ReasonMessages")
	}
}

func TestEngineKeysGoThroughEngineRef(t *testing.T) {
	e := kindtest.AliasedEngine(t, Kind{}, sampleRegistry(t))
	sc := kindtest.AliasedScene(t, e, start(t, e, "sample", "alias"), "~simulation.scene.", "~simulation.action.")
	if !strings.Contains(string(sc.View.KindView), `"~simulation.finance.investment.label"`) {
		t.Fatalf("the investment label is not aliased: %s", sc.View.KindView)
	}
	if strings.Contains(string(sc.View.KindView), `"~sample.`) {
		t.Fatal("an authored key was aliased")
	}
}

// TestSceneOffersTheWholeParameterDomain: the projection lists every
// activity with its cost and how many more fit, and the plan with indexes.
func TestSceneOffersTheWholeParameterDomain(t *testing.T) {
	e := newEngine(t, sampleRegistry(t), nil)
	s := submit(t, e, start(t, e, "sample", "domain"), ActionPlanAdd, core.Params{"activity": "work"})
	sc, v := kindtest.SceneView[View](t, e, s)
	if len(v.Plan) != 1 || v.Plan[0].Index != 0 || v.Plan[0].Hours != 8 {
		t.Fatalf("plan view %+v", v.Plan)
	}
	got := map[string]int64{}
	for _, a := range v.Activities {
		got[a.ID] = a.MaxAddable
	}
	want := map[string]int64{"work": 1, "rest": 3, "class": 2, "expert": 0, "invest": 2, "withdraw": 0}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("maxAddable %v, want %v", got, want)
	}
	if len(sc.Actions) != 4 || sc.Actions[0].ID != ActionPlanAdd || !sc.Actions[3].Available {
		t.Fatalf("actions %+v", sc.Actions)
	}
	// Every maxAddable is exactly what plan.add accepts.
	for id, n := range got {
		if n > 0 {
			if res := e.SubmitAction(s, ActionPlanAdd, core.Params{"activity": id, "count": float64(n)}); !res.OK {
				t.Errorf("%s × %d refused: %v", id, n, res.Errors)
			}
		}
		if res := e.SubmitAction(s, ActionPlanAdd, core.Params{"activity": id, "count": float64(n + 1)}); res.OK {
			t.Errorf("%s × %d accepted beyond maxAddable", id, n+1)
		}
	}
}

// firstSeed returns the first seed in seed-0…seed-99 for which p ends
// campaign with resolution.
func firstSeed(t *testing.T, e *core.Engine, campaign string, p policy, resolution string) (string, *core.GameState) {
	t.Helper()
	for i := 0; i < 100; i++ {
		seed := fmt.Sprint("seed-", i)
		if s := play(t, e, campaign, seed, p); kindState(s).Resolution == resolution {
			return seed, s
		}
	}
	t.Fatalf("%s: no seed of 100 ends %s", campaign, resolution)
	return "", nil
}

// coast plays carefully until every dated goal is met, then does the bare
// minimum to stay afloat: a careful start that runs out of time.
func coast(campaign string) policy {
	c := carefulFor(campaign)
	return func(s *State, content *Content) []PlanItem {
		for _, g := range content.Goals {
			if g.By > 0 && s.Goals[g.ID] != GoalMet {
				return c(s, content)
			}
		}
		return careful(75)(s, content)
	}
}

// TestCampaignsPlayToEveryResolution plays every shipped campaign through
// core.Engine: the careful player wins, the careless ones fail, a timid one
// runs out of weeks; and the outcome carries the §3.2 fields.
func TestCampaignsPlayToEveryResolution(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	for _, id := range shipped {
		tests := []struct {
			name       string
			p          policy
			resolution string
		}{
			{"careful", carefulFor(id), ResolutionGoalsMet},
			{"greedy", greedy, ResolutionFailed},
			{"idle", idle, ResolutionFailed},
			{"coasting", coast(id), ResolutionWeekLimitReached},
		}
		for _, tc := range tests {
			t.Run(id+"/"+tc.name, func(t *testing.T) {
				_, s := firstSeed(t, e, id, tc.p, tc.resolution)
				out, err := e.Outcome(s)
				if err != nil {
					t.Fatal(err)
				}
				if !out.Terminal || out.TerminalID != tc.resolution || out.Fields["resolution"] != tc.resolution || s.Status != core.StatusEnded {
					t.Fatalf("outcome %+v", out)
				}
				met, failed := out.Fields["goalsMet"].([]string), out.Fields["goalsFailed"].([]string)
				if len(met)+len(failed) != len(contentOf(e.Registry().Campaign(id)).Goals) {
					t.Fatalf("every goal is settled at the end: met %v failed %v", met, failed)
				}
				if tc.resolution == ResolutionGoalsMet && len(failed) != 0 || tc.resolution != ResolutionGoalsMet && len(failed) == 0 {
					t.Fatalf("%s with goalsFailed %v", tc.resolution, failed)
				}
				if res := e.SubmitAction(s, ActionEndWeek, nil); res.OK || res.Errors[0].Code != core.ReasonSessionEnded {
					t.Fatalf("an ended game accepted end_week: %v", res.Errors)
				}
			})
		}
	}
}

// TestCarefulWinsAcrossSeeds: the careful player wins nearly every seed,
// the greedy one none.
func TestCarefulWinsAcrossSeeds(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	for _, id := range shipped {
		wins, greedyWins := 0, 0
		for i := 0; i < 50; i++ {
			if kindState(play(t, e, id, fmt.Sprint("s", i), carefulFor(id))).Resolution == ResolutionGoalsMet {
				wins++
			}
			if kindState(play(t, e, id, fmt.Sprint("s", i), greedy)).Resolution == ResolutionGoalsMet {
				greedyWins++
			}
		}
		if wins < 45 || greedyWins > 0 {
			t.Errorf("%s: careful won %d of 50, greedy %d", id, wins, greedyWins)
		}
	}
}
