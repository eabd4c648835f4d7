package sim

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// State is the simulation kind's state (kindState). It is never changed in
// place: every verb returns a new State.
type State struct {
	// Week is the number of weeks completed; the week being planned is
	// Week+1.
	Week int `json:"week"`
	// Money is cash in cents; it may fall below zero (debt).
	Money int64 `json:"money"`
	// Invested is the investment account's balance in cents.
	Invested int64 `json:"invested"`
	// Stats holds every declared stat's value.
	Stats map[string]int64 `json:"stats"`
	// Plan is the current week's plan, in the order it was built.
	Plan []PlanItem `json:"plan"`
	// Done counts how many times each activity has been carried out.
	Done map[string]int64 `json:"done"`
	// Flags are set by incidents and chain steps, sorted.
	Flags []string `json:"flags"`
	// Chains holds how many steps of each chain have fired.
	Chains map[string]int `json:"chains"`
	// Goals holds each settled goal: "met" or "failed".
	Goals map[string]string `json:"goals"`
	// History has one record per week, record 0 being the start.
	History []WeekRecord `json:"history"`
	// Resolution is the terminal id once the game has ended.
	Resolution string `json:"resolution,omitempty"`
	// Achieved lists the achievements unlocked in this game, in the order
	// they were.
	Achieved []string `json:"achieved,omitempty"`
}

// PlanItem is one line of the weekly plan: an activity and how many times.
type PlanItem struct {
	Activity string `json:"activity"`
	Count    int64  `json:"count"`
}

// WeekRecord is the snapshot taken when a week ends, for the history chart
// and "what changed this week".
type WeekRecord struct {
	Week     int              `json:"week"`
	Money    int64            `json:"money"`
	Invested int64            `json:"invested"`
	Stats    map[string]int64 `json:"stats"`
	Incident string           `json:"incident,omitempty"`
	Steps    []string         `json:"steps,omitempty"`
	ReturnBp int64            `json:"returnBp,omitempty"`
}

// Goal statuses in State.Goals.
const (
	GoalMet    = "met"
	GoalFailed = "failed"
)

// clone returns a deep copy of s. History records are shared: they are
// never changed once written.
func (s *State) clone() *State {
	c := *s
	c.Stats = contentkind.CloneMap(s.Stats)
	c.Plan = append([]PlanItem(nil), s.Plan...)
	c.Done = contentkind.CloneMap(s.Done)
	c.Flags = append([]string(nil), s.Flags...)
	c.Chains = contentkind.CloneMap(s.Chains)
	c.Goals = contentkind.CloneMap(s.Goals)
	c.History = s.History[:len(s.History):len(s.History)]
	c.Achieved = slices.Clip(s.Achieved)
	return &c
}

// UnlockedAchievements implements contentkind.Achiever.
func (s *State) UnlockedAchievements() *[]string { return &s.Achieved }

// Copy implements contentkind.Achiever: a copy an action may change.
func (s *State) Copy() *State { return s.clone() }

// Resolver implements contentkind.Achiever: the state's condition fields.
func (s *State) Resolver() condition.Resolver { return resolver{s} }

func (s *State) setFlag(f string) bool {
	i := sort.SearchStrings(s.Flags, f)
	if i < len(s.Flags) && s.Flags[i] == f {
		return false
	}
	s.Flags = append(s.Flags, "")
	copy(s.Flags[i+1:], s.Flags[i:])
	s.Flags[i] = f
	return true
}

// stateOf type-asserts a kind state handed back by the engine.
func stateOf(v any) (*State, error) { return spec.State(v) }

// DecodeState implements core.Kind: it reads a kind state from outside the
// engine and refuses one this campaign cannot run (unknown stats, chains,
// goals or activities, values out of range, a plan over budget).
func (Kind) DecodeState(raw json.RawMessage, c *core.Campaign) (any, error) {
	return spec.DecodeState(raw, func(s *State) error { return contentOf(c).checkState(s) })
}

func (c *Content) checkState(s *State) error {
	ix := c.index()
	switch {
	case s.Week < 0 || s.Week > c.Weeks:
		return fmt.Errorf("week %d is out of range", s.Week)
	case s.Money < -MaxMoney*4 || s.Money > MaxMoney*4 || s.Invested < 0 || s.Invested > MaxMoney*4:
		return fmt.Errorf("money out of range")
	case len(s.Stats) != len(c.Stats):
		return fmt.Errorf("stats do not match the campaign")
	case len(s.History) != s.Week+1:
		return fmt.Errorf("history has %d records for week %d", len(s.History), s.Week)
	case !sort.StringsAreSorted(s.Flags):
		return fmt.Errorf("flags are not sorted")
	}
	for _, st := range c.Stats {
		v, ok := s.Stats[st.ID]
		if !ok || v < st.Min || v > st.Max {
			return fmt.Errorf("stat %q missing or out of range", st.ID)
		}
	}
	for id, n := range s.Chains {
		i, ok := ix.chain[id]
		if !ok || n < 0 || n > len(c.Chains[i].Steps) {
			return fmt.Errorf("chain %q unknown or out of range", id)
		}
	}
	for id, g := range s.Goals {
		if _, ok := ix.goal[id]; !ok || (g != GoalMet && g != GoalFailed) {
			return fmt.Errorf("goal %q unknown or invalid", id)
		}
	}
	for id, n := range s.Done {
		if _, ok := c.activity(id); !ok || n < 0 {
			return fmt.Errorf("activity %q unknown", id)
		}
	}
	if err := contentkind.CheckAchieved(c.Achievements, s.Achieved); err != nil {
		return err
	}
	switch s.Resolution {
	case "", ResolutionGoalsMet, ResolutionFailed, ResolutionWeekLimitReached:
	default:
		return fmt.Errorf("unknown resolution %q", s.Resolution)
	}
	var hours, cost int64
	seen := map[string]bool{}
	for _, it := range s.Plan {
		a, ok := c.activity(it.Activity)
		if !ok || it.Count < 1 || it.Count > a.MaxPerWeek || seen[it.Activity] {
			return fmt.Errorf("plan item %q is not valid", it.Activity)
		}
		seen[it.Activity] = true
		hours += a.Hours * it.Count
		cost += a.Cost * it.Count
	}
	if hours > c.HoursPerWeek || (cost > 0 && cost > s.Money) {
		return fmt.Errorf("plan is over budget")
	}
	return nil
}

// activityView is an activity as the kind plays it: an authored one, or
// one of the engine-created investment activities.
type activityView struct {
	ID         string
	Hours      int64
	Cost       int64
	MaxPerWeek int64
	Requires   *condition.Condition
	Authored   *Activity
}

// activity returns the playable activity id, authored or engine-created.
func (c *Content) activity(id string) (activityView, bool) {
	if i, ok := c.index().activity[id]; ok {
		a := &c.Activities[i]
		return activityView{ID: a.ID, Hours: a.Hours, Cost: a.Cost, MaxPerWeek: a.MaxPerWeek, Requires: a.Requires, Authored: a}, true
	}
	if inv := c.Investment; inv != nil {
		switch id {
		case ActivityInvest:
			return activityView{ID: id, Hours: inv.Hours, Cost: inv.Deposit, MaxPerWeek: inv.MaxDepositsPerWeek}, true
		case ActivityWithdraw:
			return activityView{ID: id, Hours: inv.Hours, MaxPerWeek: 1}, true
		}
	}
	return activityView{}, false
}

// activityIDs lists every playable activity: authored ones in declaration
// order, then invest and withdraw when the account exists.
func (c *Content) activityIDs() []string {
	out := make([]string, 0, len(c.Activities)+2)
	for _, a := range c.Activities {
		out = append(out, a.ID)
	}
	if c.Investment != nil {
		out = append(out, ActivityInvest, ActivityWithdraw)
	}
	return out
}

// resolver exposes a state to conditions: money, invested, net_worth, week,
// flags, stat.<id> and done.<activity>.
type resolver struct{ s *State }

func (r resolver) Field(path string) (any, bool) {
	switch path {
	case "money":
		return r.s.Money, true
	case "invested":
		return r.s.Invested, true
	case "net_worth":
		return r.s.Money + r.s.Invested, true
	case "week":
		return int64(r.s.Week), true
	case "flags":
		return r.s.Flags, true
	}
	if len(path) > 5 {
		switch path[:5] {
		case "stat.":
			v, ok := r.s.Stats[path[5:]]
			return v, ok
		case "done.":
			return r.s.Done[path[5:]], true
		}
	}
	return nil, false
}

func (r resolver) Collection(string) ([]condition.Resolver, bool) { return nil, false }

// holds evaluates c against s (contentkind.Holds: nil holds).
func holds(c *condition.Condition, s *State) bool { return contentkind.Holds(c, resolver{s}) }
