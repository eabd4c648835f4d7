package world

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// State is the world-graph kind's state (kindState). It is never changed
// in place: every verb returns a new State.
type State struct {
	// Tick is the number of ticks that have passed.
	Tick int64 `json:"tick"`
	// Money is cash in cents; it may fall below zero.
	Money int64 `json:"money"`
	// Rating is the world's reputation, 0–100: it moves toward the
	// happiness of each guest who leaves.
	Rating int64 `json:"rating"`
	// Sites holds what is built, by node id.
	Sites map[string]Site `json:"sites"`
	// Staff holds how many of each kind of staff are hired.
	Staff map[string]int64 `json:"staff"`
	// Guests are the agents in the world, in arrival order.
	Guests []Guest `json:"guests"`
	// NextGuest numbers the next guest to arrive: "g<NextGuest>".
	NextGuest int64 `json:"nextGuest"`
	// Totals since the start.
	Arrived int64 `json:"arrived"`
	Served  int64 `json:"served"`
	Revenue int64 `json:"revenue"`
	// Incidents maps each active incident to the last tick it is active.
	Incidents map[string]int64 `json:"incidents"`
	// Alerts are the newest alerts, at most MaxAlerts, oldest first.
	Alerts []Alert `json:"alerts"`
	// Objectives holds each settled objective: "met" or "failed".
	Objectives map[string]string `json:"objectives"`
	// Resolution and FailureID are set once the game has ended.
	Resolution string `json:"resolution,omitempty"`
	FailureID  string `json:"failureId,omitempty"`
	// Achieved lists the achievements unlocked in this game, in the order
	// they were.
	Achieved []string `json:"achieved,omitempty"`
	// Offer is the offer waiting for an answer, if any.
	Offer *OpenOffer `json:"offer,omitempty"`
}

// Site is a building placed on a node.
type Site struct {
	Building string `json:"building"`
	Band     string `json:"band"`
	Broken   bool   `json:"broken"`
	// Used counts the guests it served in the current tick.
	Used int64 `json:"used"`
}

// Guest is an agent. Seq is its own draw counter: its next decision draws
// on agent:<ID>:<Seq>.
type Guest struct {
	ID    string `json:"id"`
	Node  string `json:"node"`
	Money int64  `json:"money"`
	Happy int64  `json:"happy"`
	Busy  int64  `json:"busy"`
	Stay  int64  `json:"stay"`
	Seq   int64  `json:"seq"`
}

// Alert is one thing the world wants the player to notice. Type is
// building_broken, building_repaired, incident_active or scenario_resolved;
// Subject is the node, incident or resolution it is about.
type Alert struct {
	Tick    int64  `json:"tick"`
	Type    string `json:"type"`
	Subject string `json:"subject"`
}

// Alert types.
const (
	AlertBuildingBroken   = "building_broken"
	AlertBuildingRepaired = "building_repaired"
	AlertIncidentActive   = "incident_active"
	AlertScenarioResolved = "scenario_resolved"
)

// Objective statuses in State.Objectives.
const (
	ObjectiveMet    = "met"
	ObjectiveFailed = "failed"
)

// clone returns a deep copy of s.
func (s *State) clone() *State {
	c := *s
	c.Sites = contentkind.CloneMap(s.Sites)
	c.Staff = contentkind.CloneMap(s.Staff)
	c.Guests = append(make([]Guest, 0, len(s.Guests)+8), s.Guests...)
	c.Incidents = contentkind.CloneMap(s.Incidents)
	c.Alerts = append([]Alert(nil), s.Alerts...)
	c.Objectives = contentkind.CloneMap(s.Objectives)
	c.Achieved = slices.Clip(s.Achieved)
	return &c
}

// UnlockedAchievements implements contentkind.Achiever.
func (s *State) UnlockedAchievements() *[]string { return &s.Achieved }

// Copy implements contentkind.Achiever: a copy an action may change.
func (s *State) Copy() *State { return s.clone() }

// Resolver implements contentkind.Achiever: the state's condition fields.
func (s *State) Resolver() condition.Resolver { return resolver{s} }

// stateOf type-asserts a kind state handed back by the engine.
func stateOf(v any) (*State, error) { return spec.State(v) }

// DecodeState implements core.Kind: it reads a kind state from outside the
// engine and refuses one this campaign cannot run.
func (Kind) DecodeState(raw json.RawMessage, c *core.Campaign) (any, error) {
	return spec.DecodeState(raw, func(s *State) error {
		if err := contentOf(c).checkState(s); err != nil {
			return err
		}
		if s.Guests == nil {
			s.Guests = []Guest{}
		}
		return nil
	})
}

func (c *Content) checkState(s *State) error {
	ix := c.index()
	switch {
	case s.Tick < 0 || s.Tick > c.TickLimit:
		return fmt.Errorf("tick %d out of range", s.Tick)
	case s.Rating < 0 || s.Rating > 100:
		return fmt.Errorf("rating out of range")
	case int64(len(s.Guests)) > c.Guests.MaxGuests || s.NextGuest < 0:
		return fmt.Errorf("too many guests")
	case len(s.Alerts) > MaxAlerts:
		return fmt.Errorf("too many alerts")
	case s.Sites == nil || s.Staff == nil || s.Incidents == nil || s.Objectives == nil:
		return fmt.Errorf("missing maps")
	case s.Offer != nil && c.offer(s.Offer.ID) == nil:
		return fmt.Errorf("offer %q is not the campaign's", s.Offer.ID)
	}
	for node, site := range s.Sites {
		n, ok := ix.node[node]
		if !ok || !c.Nodes[n].Buildable && !c.startsWith(node) {
			return fmt.Errorf("site on %q", node)
		}
		b, ok := ix.building[site.Building]
		if !ok {
			return fmt.Errorf("unknown building %q", site.Building)
		}
		if _, ok := c.Buildings[b].band(site.Band); !ok {
			return fmt.Errorf("unknown band %q", site.Band)
		}
	}
	for id, n := range s.Staff {
		i, ok := ix.staff[id]
		if !ok || n < 0 || n > c.Staff[i].Max {
			return fmt.Errorf("staff %q", id)
		}
	}
	for id := range s.Incidents {
		if c.incident(id) == nil {
			return fmt.Errorf("unknown incident %q", id)
		}
	}
	for id, o := range s.Objectives {
		if _, ok := ix.objective[id]; !ok || (o != ObjectiveMet && o != ObjectiveFailed) {
			return fmt.Errorf("objective %q", id)
		}
	}
	if err := contentkind.CheckAchieved(c.Achievements, s.Achieved); err != nil {
		return err
	}
	prev := int64(-1)
	for _, g := range s.Guests {
		n, err := strconv.ParseInt(g.ID[min(1, len(g.ID)):], 10, 64)
		if len(g.ID) < 2 || g.ID[0] != 'g' || err != nil || n <= prev || n >= s.NextGuest || g.Seq < 0 || g.Busy < 0 {
			return fmt.Errorf("guest %q", g.ID)
		}
		prev = n
		if _, ok := ix.node[g.Node]; !ok {
			return fmt.Errorf("guest %q on unknown node", g.ID)
		}
	}
	switch s.Resolution {
	case "", ResolutionObjectivesMet:
	case ResolutionFailed:
		if s.FailureID == "" {
			return fmt.Errorf("failed without a failureId")
		}
	default:
		return fmt.Errorf("unknown resolution %q", s.Resolution)
	}
	return nil
}

func (c *Content) startsWith(node string) bool {
	for _, p := range c.Start.Buildings {
		if p.Node == node {
			return true
		}
	}
	return false
}

func (c *Content) incident(id string) *Incident {
	for i := range c.Incidents {
		if c.Incidents[i].ID == id {
			return &c.Incidents[i]
		}
	}
	return nil
}

// resolver exposes a state to conditions: money, tick, rating, guests,
// arrived, served, revenue, built, broken, built.<building>, staff.<staff>.
type resolver struct{ s *State }

func (r resolver) Field(path string) (any, bool) {
	s := r.s
	switch path {
	case "money":
		return s.Money, true
	case "tick":
		return s.Tick, true
	case "rating":
		return s.Rating, true
	case "guests":
		return int64(len(s.Guests)), true
	case "arrived":
		return s.Arrived, true
	case "served":
		return s.Served, true
	case "revenue":
		return s.Revenue, true
	case "built":
		return int64(len(s.Sites)), true
	case "broken":
		n := int64(0)
		for _, site := range s.Sites {
			if site.Broken {
				n++
			}
		}
		return n, true
	}
	if len(path) > 6 && path[:6] == "built." {
		n := int64(0)
		for _, site := range s.Sites {
			if site.Building == path[6:] {
				n++
			}
		}
		return n, true
	}
	if len(path) > 6 && path[:6] == "staff." {
		return s.Staff[path[6:]], true
	}
	return nil, false
}

func (r resolver) Collection(string) ([]condition.Resolver, bool) { return nil, false }

// holds evaluates c against s (contentkind.Holds: nil holds).
func holds(c *condition.Condition, s *State) bool { return contentkind.Holds(c, resolver{s}) }
