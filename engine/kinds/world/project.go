package world

import (
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// endingKey is the authored ending text of a resolution.
func (c *Content) endingKey(resolution string) core.LocKey {
	if resolution == ResolutionObjectivesMet {
		return c.Endings.ObjectivesMet
	}
	return c.Endings.Failed
}

// Scene implements core.Kind: while the game runs, the engine-owned
// world-graph.scene.status with the hour, guests, cash and rating as
// params; once it has ended, the campaign's authored ending text.
func (Kind) Scene(state any, ctx *core.ProjectionContext) core.SceneBody {
	return spec.Scene(state, ctx, func(s *State, c *Content) (string, map[string]any) {
		return KeySceneStatus, map[string]any{"tick": s.Tick, "tickLimit": c.TickLimit, "guests": int64(len(s.Guests)),
			"money": display.Money(c.Currency, s.Money), "moneyCents": s.Money, "currency": c.Currency, "rating": s.Rating}
	})
}

// AvailableActions implements core.Kind: the seven verbs, each available or
// not with the reason. Their parameter domain (the build catalogue, free
// sites, price bands, staff roster, tick bounds) is in the projection.
func (Kind) AvailableActions(state any, ctx *core.ProjectionContext) []core.AvailableAction {
	return spec.AvailableActions(state, ctx, func(s *State, c *Content) []core.AvailableAction {
		// Something can be built when a site is free and money affords a
		// building.
		canBuild := false
		for range c.freeSites(s) {
			canBuild = c.mostAppealing(s.Money, 0) >= 0
			break
		}
		canHire, hired := false, false
		for _, st := range c.Staff {
			canHire = canHire || s.Staff[st.ID] < st.Max
			hired = hired || s.Staff[st.ID] > 0
		}
		advance := contentkind.Verb(ctx, ActionAdvanceTicks, KeyActionAdvanceTicks, true, "")
		advance.Params = map[string]any{"min": 1, "max": MaxTicksPerAdvance}
		return []core.AvailableAction{
			contentkind.Verb(ctx, ActionBuild, KeyActionBuild, canBuild, KeyActionNothingToBuild),
			contentkind.Verb(ctx, ActionDemolish, KeyActionDemolish, len(s.Sites) > 0, KeyActionNothingBuilt),
			contentkind.Verb(ctx, ActionSetPrice, KeyActionSetPrice, len(s.Sites) > 0, KeyActionNothingBuilt),
			contentkind.Verb(ctx, ActionHire, KeyActionHire, canHire, KeyActionNoHire),
			contentkind.Verb(ctx, ActionFire, KeyActionFire, hired, KeyActionNoStaff),
			advance,
			contentkind.Verb(ctx, ActionDecide, KeyActionDecide, s.Offer != nil, KeyActionNoOffer),
		}
	})
}

// View is the world-graph kind's projection (§9). Guests appear as counts
// per node; a guest's purse, happiness and draw counter never leave the
// state.
type View struct {
	Tick          int64           `json:"tick"`
	TickLimit     int64           `json:"tickLimit"`
	Currency      string          `json:"currency"`
	IntroKey      core.LocKey     `json:"introKey"`
	Money         int64           `json:"money"`
	Rating        int64           `json:"rating"`
	Guests        int64           `json:"guests"`
	Arrived       int64           `json:"arrived"`
	Served        int64           `json:"served"`
	Revenue       int64           `json:"revenue"`
	RunningCost   int64           `json:"runningCostPerTick"`
	Nodes         []NodeView      `json:"nodes"`
	Edges         []Edge          `json:"edges"`
	Catalogue     []CatalogueView `json:"catalogue"`
	Staff         []StaffView     `json:"staff"`
	Incidents     []IncidentView  `json:"incidents"`
	Alerts        []AlertView     `json:"alerts"`
	Objectives    []ObjectiveView `json:"objectives"`
	Failures      []FailureView   `json:"failures"`
	MaxTicks      int64           `json:"maxTicksPerAdvance"`
	Resolution    *string         `json:"resolution"`
	FailureID     *string         `json:"failureId"`
	EndingKey     core.LocKey     `json:"endingKey,omitempty"`
	ObjectivesMet []string        `json:"objectivesMet"`
	// Offer is the offer waiting for an answer, with its choices.
	Offer *OfferView `json:"offer,omitempty"`
}

// OfferView is the open offer: the offer, and the last hour it is open.
type OfferView struct {
	Offer
	Until int64 `json:"until"`
}

// NodeView is a node with what stands on it and how many guests are there.
type NodeView struct {
	ID        string      `json:"id"`
	LabelKey  core.LocKey `json:"labelKey"`
	X         int64       `json:"x"`
	Y         int64       `json:"y"`
	Buildable bool        `json:"buildable"`
	Guests    int64       `json:"guests"`
	Site      *SiteView   `json:"site"`
}

// SiteView is a placed building.
type SiteView struct {
	Building string      `json:"building"`
	LabelKey core.LocKey `json:"labelKey"`
	Band     string      `json:"band"`
	Price    int64       `json:"price"`
	Broken   bool        `json:"broken"`
}

// CatalogueView is an entry of the build catalogue, with its price bands,
// and whether it is affordable now. It encodes as the Building's fields
// followed by affordable.
type CatalogueView struct {
	Building
	Affordable bool `json:"affordable"`
}

// StaffView is an entry of the staff roster: the Staff's fields followed
// by how many are hired.
type StaffView struct {
	Staff
	Hired int64 `json:"hired"`
}

// IncidentView is an active incident.
type IncidentView struct {
	ID         string      `json:"id"`
	TitleKey   core.LocKey `json:"titleKey"`
	MessageKey core.LocKey `json:"messageKey"`
	Until      int64       `json:"until"`
}

// AlertView is an alert with its title and message keys: engine-owned
// (world-graph.alert.*) for the engine's alerts, authored for
// incident_active.
type AlertView struct {
	Tick       int64          `json:"tick"`
	Type       string         `json:"type"`
	Subject    string         `json:"subject"`
	TitleKey   core.LocKey    `json:"titleKey"`
	MessageKey core.LocKey    `json:"messageKey"`
	Params     map[string]any `json:"params,omitempty"`
}

// ObjectiveView is an objective and its status: pending, met or failed.
type ObjectiveView struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	By       int64       `json:"by,omitempty"`
	Status   string      `json:"status"`
}

// FailureView is a failure condition the player must avoid.
type FailureView struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
}

// Project implements core.Kind. The player and ai audiences see the same
// view.
func (k Kind) Project(state any, _ core.Audience, ctx *core.ProjectionContext) any {
	s, err := stateOf(state)
	if err != nil {
		return View{}
	}
	c := contentOf(ctx.Campaign)
	ix := c.index()
	v := View{Tick: s.Tick, TickLimit: c.TickLimit, Currency: c.Currency, IntroKey: c.IntroKey, Money: s.Money, Rating: s.Rating,
		Guests: int64(len(s.Guests)), Arrived: s.Arrived, Served: s.Served, Revenue: s.Revenue, Edges: c.Edges,
		Nodes: make([]NodeView, 0, len(c.Nodes)), Catalogue: make([]CatalogueView, 0, len(c.Buildings)),
		Staff: make([]StaffView, 0, len(c.Staff)), Incidents: []IncidentView{}, Alerts: make([]AlertView, 0, len(s.Alerts)),
		Objectives: make([]ObjectiveView, 0, len(c.Objectives)), Failures: make([]FailureView, 0, len(c.Failures)),
		MaxTicks: MaxTicksPerAdvance}
	crowd := map[string]int64{}
	for _, g := range s.Guests {
		crowd[g.Node]++
	}
	for _, n := range c.Nodes {
		nv := NodeView{ID: n.ID, LabelKey: n.LabelKey, X: n.X, Y: n.Y, Buildable: n.Buildable, Guests: crowd[n.ID]}
		if site, ok := s.Sites[n.ID]; ok {
			b := &c.Buildings[ix.building[site.Building]]
			band, _ := b.band(site.Band)
			nv.Site = &SiteView{Building: site.Building, LabelKey: b.LabelKey, Band: site.Band, Price: band.Price, Broken: site.Broken}
			v.RunningCost += b.Upkeep
		}
		v.Nodes = append(v.Nodes, nv)
	}
	for _, b := range c.Buildings {
		v.Catalogue = append(v.Catalogue, CatalogueView{Building: b, Affordable: b.Cost <= s.Money})
	}
	for _, st := range c.Staff {
		v.Staff = append(v.Staff, StaffView{Staff: st, Hired: s.Staff[st.ID]})
		v.RunningCost += st.Wage * s.Staff[st.ID]
	}
	if s.Offer != nil {
		if of := c.offer(s.Offer.ID); of != nil {
			v.Offer = &OfferView{Offer: *of, Until: s.Offer.Until}
		}
	}
	for _, in := range c.Incidents {
		if until, ok := s.Incidents[in.ID]; ok {
			v.Incidents = append(v.Incidents, IncidentView{ID: in.ID, TitleKey: in.TitleKey, MessageKey: in.MessageKey, Until: until})
		}
	}
	for _, a := range s.Alerts {
		av := AlertView{Tick: a.Tick, Type: a.Type, Subject: a.Subject}
		switch a.Type {
		case AlertIncidentActive:
			if in := c.incident(a.Subject); in != nil {
				av.TitleKey, av.MessageKey = in.TitleKey, in.MessageKey
			}
		case AlertBuildingBroken, AlertBuildingRepaired:
			av.TitleKey, av.MessageKey = ctx.EngineRef(KeyAlertBrokenTitle), ctx.EngineRef(KeyAlertBrokenMessage)
			if a.Type == AlertBuildingRepaired {
				av.TitleKey, av.MessageKey = ctx.EngineRef(KeyAlertRepairedTitle), ctx.EngineRef(KeyAlertRepairedMessage)
			}
			// Each id param comes with its label's key (name and nameKey),
			// which a page renders in place of the id.
			av.Params = map[string]any{"node": a.Subject, "nodeKey": c.Nodes[ix.node[a.Subject]].LabelKey}
			if site, ok := s.Sites[a.Subject]; ok {
				av.Params["building"], av.Params["buildingKey"] = site.Building, c.Buildings[ix.building[site.Building]].LabelKey
			}
		case AlertScenarioResolved:
			av.TitleKey, av.MessageKey = ctx.EngineRef(KeyAlertResolvedTitle), ctx.EngineRef(KeyAlertResolvedMessage)
			av.Params = map[string]any{"resolution": a.Subject, "resolutionKey": c.endingKey(a.Subject)}
		}
		v.Alerts = append(v.Alerts, av)
	}
	for _, o := range c.Objectives {
		status := s.Objectives[o.ID]
		if status == "" {
			status = "pending"
		}
		v.Objectives = append(v.Objectives, ObjectiveView{ID: o.ID, LabelKey: o.LabelKey, By: o.By, Status: status})
	}
	for _, f := range c.Failures {
		v.Failures = append(v.Failures, FailureView{ID: f.ID, LabelKey: f.LabelKey})
	}
	out := k.Outcome(s)
	v.ObjectivesMet = out.Fields["objectivesMet"].([]string)
	if s.Resolution != "" {
		r := s.Resolution
		v.Resolution = &r
		v.EndingKey = c.endingKey(r)
		if s.FailureID != "" {
			f := s.FailureID
			v.FailureID = &f
		}
	}
	return v
}

// Outcome implements core.Kind (§3.2): terminalId is the resolution,
// widened with resolution, objectivesMet (objective ids, sorted) and
// failureId (the failure, missed objective or "tick_limit"; null unless
// failed).
func (Kind) Outcome(state any) core.Outcome {
	return spec.Outcome(state, func(s *State) map[string]any {
		met := []string{}
		for _, id := range slices.Sorted(maps.Keys(s.Objectives)) {
			if s.Objectives[id] == ObjectiveMet {
				met = append(met, id)
			}
		}
		var failure any
		if s.FailureID != "" {
			failure = s.FailureID
		}
		return map[string]any{"objectivesMet": met, "failureId": failure}
	})
}
