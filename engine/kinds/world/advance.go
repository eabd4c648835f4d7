package world

import (
	"encoding/json"
	"math"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// InitialState implements core.Kind: tick 0, the starting money, rating
// 50, the start's buildings and staff, no guests.
func (Kind) InitialState(c *core.Campaign, _ *core.Context, _ json.RawMessage) core.InitialResult {
	content := contentOf(c)
	s := &State{
		Money:      content.StartingMoney,
		Rating:     50,
		Sites:      map[string]Site{},
		Staff:      map[string]int64{},
		Guests:     []Guest{},
		Incidents:  map[string]int64{},
		Alerts:     []Alert{},
		Objectives: map[string]string{},
	}
	for _, p := range content.Start.Buildings {
		s.Sites[p.Node] = Site{Building: p.Building, Band: p.Band}
	}
	for id, n := range content.Start.Staff {
		if n > 0 {
			s.Staff[id] = n
		}
	}
	return core.InitialResult{State: s, Status: core.StatusActive, Changes: []core.StateChange{}, Messages: []core.OutcomeMessage{}}
}

// reject builds a rejection of a kind-owned code; the state is unchanged.
func reject(s *State, code, path, format string, args ...any) core.AdvanceResult {
	return spec.Reject(s, code, path, format, args...)
}

// params declared by each verb.
var declared = map[string][]string{
	ActionBuild:        {"building", "node", "band"},
	ActionDemolish:     {"node"},
	ActionSetPrice:     {"node", "band"},
	ActionHire:         {"staff", "count"},
	ActionFire:         {"staff", "count"},
	ActionAdvanceTicks: {"ticks"},
	ActionDecide:       {"choice"},
}

// Advance implements core.Kind: build, demolish, set_price, hire, fire and
// advance_ticks. Every bad parameter is refused with a reason code and
// changes nothing; an undeclared key is refused with unexpected_params
// before any value is read. After an accepted action, every achievement
// whose condition now holds is unlocked.
func (Kind) Advance(state any, actionID string, params core.Params, ctx *core.Context) core.AdvanceResult {
	return spec.Advance(state, actionID, params, ctx, declared, func(s *State, c *Content) core.AdvanceResult {
		return contentkind.WithAchievements(c.Achievements, s, act(s, c, actionID, params, ctx))
	})
}

// act runs one declared action.
func act(s *State, c *Content, actionID string, params core.Params, ctx *core.Context) core.AdvanceResult {
	switch actionID {
	case ActionBuild:
		return build(s, c, params)
	case ActionDemolish:
		return demolish(s, c, params)
	case ActionSetPrice:
		return setPrice(s, c, params)
	case ActionHire, ActionFire:
		return staffing(s, c, actionID, params)
	case ActionDecide:
		return decide(s, c, params)
	}
	return advance(s, c, params, ctx)
}

// str reads a required string parameter.
func str(s *State, p core.Params, name string) (string, *core.AdvanceResult) {
	v, ok, err := p.String(name)
	if err != nil {
		r := reject(s, ReasonInvalidParam, "params."+name, "%v", err)
		return "", &r
	}
	if !ok {
		r := reject(s, ReasonMissingParam, "params."+name, "missing %q", name)
		return "", &r
	}
	return v, nil
}

// whole reads an optional whole-number parameter in [lo, hi]; bad is the
// reason code for a number outside it.
func whole(s *State, p core.Params, name string, def, lo, hi int64, bad string) (int64, *core.AdvanceResult) {
	raw, present := p[name]
	if !present {
		return def, nil
	}
	f, isNum := raw.(float64)
	if !isNum {
		r := reject(s, ReasonInvalidParam, "params."+name, "%q must be a number", name)
		return 0, &r
	}
	if f < float64(lo) || f > float64(hi) || f != math.Trunc(f) {
		r := reject(s, bad, "params."+name, "%q must be a whole number from %d to %d, got %v", name, lo, hi, f)
		return 0, &r
	}
	return int64(f), nil
}

func (c *Content) node(s *State, p core.Params) (Node, *core.AdvanceResult) {
	id, bad := str(s, p, "node")
	if bad != nil {
		return Node{}, bad
	}
	i, ok := c.index().node[id]
	if !ok {
		r := reject(s, ReasonUnknownNode, "params.node", "unknown node %q", id)
		return Node{}, &r
	}
	return c.Nodes[i], nil
}

func done(prev, next *State, changes []core.StateChange) core.AdvanceResult {
	return core.AdvanceResult{State: next, Status: core.StatusActive, Changes: changes, Messages: []core.OutcomeMessage{}}
}

// moneyChange is the change of cash from prev to next.
func moneyChange(prev, next int64, reason string) core.StateChange {
	return contentkind.Change("money", prev, next, reason)
}

func build(s *State, c *Content, p core.Params) core.AdvanceResult {
	id, bad := str(s, p, "building")
	if bad != nil {
		return *bad
	}
	bi, ok := c.index().building[id]
	if !ok {
		return reject(s, ReasonUnknownBuilding, "params.building", "unknown building %q", id)
	}
	b := &c.Buildings[bi]
	n, bad := c.node(s, p)
	if bad != nil {
		return *bad
	}
	band := b.DefaultBand
	if _, present := p["band"]; present {
		if band, bad = str(s, p, "band"); bad != nil {
			return *bad
		}
		if _, ok := b.band(band); !ok {
			return reject(s, ReasonUnknownBand, "params.band", "building %q has no price band %q", id, band)
		}
	}
	switch {
	case !n.Buildable:
		return reject(s, ReasonNodeNotBuildable, "params.node", "nothing can be built on %q", n.ID)
	case s.Sites[n.ID] != Site{}:
		return reject(s, ReasonNodeOccupied, "params.node", "%q is already built on", n.ID)
	case b.Cost > s.Money:
		return reject(s, ReasonInsufficientFunds, "params.building", "%q costs %d, you have %d", id, b.Cost, s.Money)
	}
	next := s.clone()
	next.Money -= b.Cost
	next.Sites[n.ID] = Site{Building: id, Band: band}
	return done(s, next, []core.StateChange{
		moneyChange(s.Money, next.Money, ReasonBuildingBuilt),
		{Path: "site." + n.ID, Op: "set", Value: id, Reason: ReasonBuildingBuilt, Visible: true},
	})
}

func demolish(s *State, c *Content, p core.Params) core.AdvanceResult {
	n, bad := c.node(s, p)
	if bad != nil {
		return *bad
	}
	site, ok := s.Sites[n.ID]
	if !ok {
		return reject(s, ReasonNodeEmpty, "params.node", "nothing is built on %q", n.ID)
	}
	b := &c.Buildings[c.index().building[site.Building]]
	next := s.clone()
	delete(next.Sites, n.ID)
	next.Money += b.Cost / 2
	return done(s, next, []core.StateChange{
		moneyChange(s.Money, next.Money, ReasonBuildingDemolished),
		{Path: "site." + n.ID, Op: "set", Value: "", Previous: site.Building, Reason: ReasonBuildingDemolished, Visible: true},
	})
}

func setPrice(s *State, c *Content, p core.Params) core.AdvanceResult {
	n, bad := c.node(s, p)
	if bad != nil {
		return *bad
	}
	band, bad := str(s, p, "band")
	if bad != nil {
		return *bad
	}
	site, ok := s.Sites[n.ID]
	if !ok {
		return reject(s, ReasonNodeEmpty, "params.node", "nothing is built on %q", n.ID)
	}
	if _, ok := c.Buildings[c.index().building[site.Building]].band(band); !ok {
		return reject(s, ReasonUnknownBand, "params.band", "building %q has no price band %q", site.Building, band)
	}
	next := s.clone()
	prev := site.Band
	site.Band = band
	next.Sites[n.ID] = site
	return done(s, next, []core.StateChange{{Path: "site." + n.ID + ".band", Op: "set", Value: band, Previous: prev, Reason: ReasonPriceSet, Visible: true}})
}

func staffing(s *State, c *Content, verb string, p core.Params) core.AdvanceResult {
	id, bad := str(s, p, "staff")
	if bad != nil {
		return *bad
	}
	i, ok := c.index().staff[id]
	if !ok {
		return reject(s, ReasonUnknownStaff, "params.staff", "unknown staff %q", id)
	}
	count, bad := whole(s, p, "count", 1, 1, 100, ReasonInvalidCount)
	if bad != nil {
		return *bad
	}
	have := s.Staff[id]
	want, reason := have+count, ReasonStaffHired
	if verb == ActionFire {
		if count > have {
			return reject(s, ReasonInvalidCount, "params.count", "you have %d %q, not %d", have, id, count)
		}
		want, reason = have-count, ReasonStaffFired
	} else if want > c.Staff[i].Max {
		return reject(s, ReasonStaffLimit, "params.count", "at most %d %q", c.Staff[i].Max, id)
	}
	next := s.clone()
	if want == 0 {
		delete(next.Staff, id)
	} else {
		next.Staff[id] = want
	}
	return done(s, next, []core.StateChange{contentkind.Change("staff."+id, have, want, reason)})
}

// advance runs advance_ticks: ticks is a whole number from 1 to
// MaxTicksPerAdvance.
func advance(s *State, c *Content, p core.Params, ctx *core.Context) core.AdvanceResult {
	if _, present := p["ticks"]; !present {
		return reject(s, ReasonMissingParam, "params.ticks", "advance_ticks needs ticks")
	}
	n, bad := whole(s, p, "ticks", 1, 1, MaxTicksPerAdvance, ReasonInvalidTickCount)
	if bad != nil {
		return *bad
	}
	// Time stops at the hour an offer opens: the player faces it.
	f := runTicks(&tickFrame{c: c, s: s.clone(), derive: ctx.Derive, stopAtOffer: true}, n)
	next := f.s
	changes := []core.StateChange{
		{Path: "tick", Op: "increment", Value: next.Tick, Previous: s.Tick, Reason: ReasonTicksAdvanced, Visible: true},
	}
	if next.Money != s.Money {
		changes = append(changes, moneyChange(s.Money, next.Money, ReasonTicksAdvanced))
	}
	for _, num := range []struct {
		path       string
		prev, next int64
	}{{"served", s.Served, next.Served}, {"rating", s.Rating, next.Rating}, {"guests", int64(len(s.Guests)), int64(len(next.Guests))}} {
		if num.prev != num.next {
			changes = append(changes, contentkind.Change(num.path, num.prev, num.next, ReasonTicksAdvanced))
		}
	}
	strings := ctx.Strings()
	messages := []core.OutcomeMessage{}
	for _, st := range f.settled {
		reason, key, tone := ReasonObjectiveMet, KeyObjectiveMet, core.TonePositive
		if st.status == ObjectiveFailed {
			reason, key, tone = ReasonObjectiveFailed, KeyObjectiveFailed, core.ToneNegative
		}
		changes = append(changes, core.StateChange{Path: "objective." + st.objective.ID, Op: "set", Value: st.status, Reason: reason, Visible: true})
		messages = append(messages, core.OutcomeMessage{Key: key, Params: map[string]any{"objective": strings[st.objective.LabelKey], "objectiveKey": st.objective.LabelKey}, Tone: tone, Visible: true})
	}
	for _, ev := range f.offers {
		if ev.lapsed {
			ch, _ := ev.offer.choice(ev.offer.Default)
			changes = append(changes, core.StateChange{Path: "offer." + ev.offer.ID, Op: "set", Value: ch.ID, Reason: ReasonOfferLapsed, Visible: true})
			messages = append(messages, core.OutcomeMessage{Key: KeyOfferLapsed, Params: map[string]any{"offer": strings[ev.offer.TitleKey], "offerKey": ev.offer.TitleKey,
				"choice": strings[ch.LabelKey], "choiceKey": ch.LabelKey}, Tone: core.ToneNeutral, Visible: true})
			continue
		}
		changes = append(changes, core.StateChange{Path: "offer", Op: "set", Value: ev.offer.ID, Reason: ReasonOfferOpened, Visible: true})
		messages = append(messages, core.OutcomeMessage{Key: ev.offer.TitleKey, Tone: core.ToneNeutral, Visible: true})
	}
	for _, a := range next.Alerts {
		if a.Tick > s.Tick && a.Type == AlertIncidentActive {
			if in := c.incident(a.Subject); in != nil {
				messages = append(messages, core.OutcomeMessage{Key: in.TitleKey, Tone: core.ToneNegative, Visible: true})
			}
		}
	}
	status := core.StatusActive
	if next.Resolution != "" {
		status = core.StatusEnded
		changes = append(changes, core.StateChange{Path: "resolution", Op: "set", Value: next.Resolution, Reason: ReasonScenarioResolved, Visible: true})
		key, ending, tone := KeyResolutionMet, c.Endings.ObjectivesMet, core.TonePositive
		if next.Resolution == ResolutionFailed {
			key, ending, tone = KeyResolutionFailed, c.Endings.Failed, core.ToneNegative
		}
		messages = append(messages, core.OutcomeMessage{Key: key, Tone: tone, Visible: true}, core.OutcomeMessage{Key: ending, Tone: tone, Visible: true})
	}
	if ctx.Emit != nil {
		ctx.Emit.Emit(EventTicksAdvanced, map[string]any{"from": s.Tick, "to": next.Tick, "status": string(status)})
	}
	return core.AdvanceResult{State: next, Status: status, Changes: changes, Messages: messages}
}
