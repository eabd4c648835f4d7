package sim

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// Bounds on content, so that a week stays cheap and a state stays small.
const (
	MaxWeeks        = 520
	MaxHoursPerWeek = 168
	MaxElements     = 256
	MaxMoney        = 1_000_000_000_00 // one billion, in cents
	MaxStatValue    = 1_000_000
	MaxChainSteps   = 64
	MaxRateBp       = 10_000 // ±100 % a week
)

// Content is the runtime content of a simulation campaign: everything
// player-facing is a LocKey. It never changes once built.
type Content struct {
	Weeks         int                       `json:"weeks"`
	HoursPerWeek  int64                     `json:"hoursPerWeek"`
	StartingMoney int64                     `json:"startingMoney"`
	Upkeep        int64                     `json:"upkeep"`
	Currency      string                    `json:"currency"`
	IntroKey      core.LocKey               `json:"introKey"`
	Stats         []Stat                    `json:"stats"`
	Activities    []Activity                `json:"activities"`
	Investment    *Investment               `json:"investment,omitempty"`
	Incidents     Incidents                 `json:"incidents"`
	Chains        []Chain                   `json:"chains"`
	Goals         []Goal                    `json:"goals"`
	Achievements  []contentkind.Achievement `json:"achievements,omitempty"`
	Endings       EndingKeys                `json:"endings"`
	// EndingTitles name the endings in the gallery (a few words), when
	// the author gave them; otherwise the ending's text names it.
	EndingTitles *EndingKeys   `json:"endingTitles,omitempty"`
	idx          *contentIndex `json:"-"`
}

// Stat is a named integer value that drifts each week, kept in [Min, Max].
type Stat struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	Start    int64       `json:"start"`
	Min      int64       `json:"min"`
	Max      int64       `json:"max"`
	Drift    int64       `json:"drift"`
}

// Activity is something the player can plan for a week.
type Activity struct {
	ID             string               `json:"id"`
	LabelKey       core.LocKey          `json:"labelKey"`
	DescriptionKey core.LocKey          `json:"descriptionKey"`
	Hours          int64                `json:"hours"`
	Cost           int64                `json:"cost"`
	MaxPerWeek     int64                `json:"maxPerWeek"`
	Effects        map[string]int64     `json:"effects"`
	Requires       *condition.Condition `json:"requires,omitempty"`
	// LockedKey says what opens the activity while Requires does not hold
	// (its reason in the view); empty when the author wrote none.
	LockedKey core.LocKey `json:"lockedKey,omitempty"`
	effects   []effect
}

// Investment declares the fixed investment account: the engine creates the
// invest and withdraw activities from it.
type Investment struct {
	Deposit            int64 `json:"deposit"`
	Hours              int64 `json:"hours"`
	MaxDepositsPerWeek int64 `json:"maxDepositsPerWeek"`
	MinReturnBp        int64 `json:"minReturnBp"`
	MaxReturnBp        int64 `json:"maxReturnBp"`
}

// Incidents is the weekly random incident roll.
type Incidents struct {
	ChancePercent int64      `json:"chancePercent"`
	Pool          []Incident `json:"pool"`
}

// Incident is one possible random incident.
type Incident struct {
	ID       string               `json:"id"`
	TitleKey core.LocKey          `json:"titleKey"`
	TextKey  core.LocKey          `json:"textKey"`
	Tone     string               `json:"tone,omitempty"`
	Weight   int64                `json:"weight"`
	Effects  map[string]int64     `json:"effects"`
	Flags    []string             `json:"flags,omitempty"`
	Requires *condition.Condition `json:"requires,omitempty"`
	effects  []effect
}

// Chain is an event chain: steps that fire in order, at most one a week,
// each when its trigger holds. A chain of scope "profile" keeps its progress
// across games through the player's profile.
type Chain struct {
	ID    string      `json:"id"`
	Scope string      `json:"scope"`
	Steps []ChainStep `json:"steps"`
}

// Chain scopes.
const (
	ScopeGame    = "game"
	ScopeProfile = "profile"
)

// ChainStep is one step of a chain.
type ChainStep struct {
	ID       string              `json:"id"`
	TitleKey core.LocKey         `json:"titleKey"`
	TextKey  core.LocKey         `json:"textKey"`
	Trigger  condition.Condition `json:"trigger"`
	Effects  map[string]int64    `json:"effects"`
	Flags    []string            `json:"flags,omitempty"`
	effects  []effect
}

// Goal is a goal of the campaign. A "reach" goal is met the first week its
// condition holds at the end of a week, and fails if By > 0 passes first; a
// "keep" goal fails the first week its condition does not hold.
type Goal struct {
	ID        string              `json:"id"`
	LabelKey  core.LocKey         `json:"labelKey"`
	Type      string              `json:"type"`
	Condition condition.Condition `json:"condition"`
	By        int                 `json:"by,omitempty"`
}

// Goal types.
const (
	GoalReach = "reach"
	GoalKeep  = "keep"
)

// EndingKeys are the authored texts shown when the game resolves.
type EndingKeys struct {
	GoalsMet         core.LocKey `json:"goals_met"`
	Failed           core.LocKey `json:"failed"`
	WeekLimitReached core.LocKey `json:"week_limit_reached"`
}

// effect is one entry of an effects map, in application order (money first,
// then stats in declaration order).
type effect struct {
	target string // "money" or a stat id
	stat   int    // index of the stat, or -1 for money
	delta  int64
}

type contentIndex struct {
	stat     map[string]int
	activity map[string]int
	chain    map[string]int
	goal     map[string]int
	incident map[string]int
}

// index returns the lookup tables compile built.
func (c *Content) index() *contentIndex { return c.idx }

// compile builds the lookup tables of c and everything else play derives
// from the content. BuildContent and DecodeContent call it before they
// return the content, and nothing changes the content afterwards, so any
// number of games (and goroutines) can share one registry.
func (c *Content) compile() {
	ix := &contentIndex{stat: map[string]int{}, activity: map[string]int{}, chain: map[string]int{}, goal: map[string]int{}, incident: map[string]int{}}
	for i, s := range c.Stats {
		ix.stat[s.ID] = i
	}
	for i, a := range c.Activities {
		ix.activity[a.ID] = i
	}
	for i, ch := range c.Chains {
		ix.chain[ch.ID] = i
	}
	for i, g := range c.Goals {
		ix.goal[g.ID] = i
	}
	for i, in := range c.Incidents.Pool {
		ix.incident[in.ID] = i
	}
	c.idx = ix
	for i := range c.Activities {
		c.Activities[i].effects = c.orderEffects(c.Activities[i].Effects)
	}
	for i := range c.Incidents.Pool {
		c.Incidents.Pool[i].effects = c.orderEffects(c.Incidents.Pool[i].Effects)
	}
	for i := range c.Chains {
		for j := range c.Chains[i].Steps {
			c.Chains[i].Steps[j].effects = c.orderEffects(c.Chains[i].Steps[j].Effects)
		}
	}
}

func (c *Content) orderEffects(m map[string]int64) []effect {
	var out []effect
	if d, ok := m["money"]; ok {
		out = append(out, effect{target: "money", stat: -1, delta: d})
	}
	for i, s := range c.Stats {
		if d, ok := m[s.ID]; ok {
			out = append(out, effect{target: s.ID, stat: i, delta: d})
		}
	}
	return out
}

// spec describes the kind to package contentkind.
var spec = contentkind.Spec[Content, State]{
	KindID:   KindID,
	Prefix:   "sim",
	Check:    (*Content).check,
	Compile:  (*Content).compile,
	Compiled: func(c *Content) bool { return c.idx != nil },
	LocKeys:  (*Content).locKeys,

	Resolution: func(s *State) string { return s.Resolution },
	Ending:     (*Content).endingKey,
}

// contentOf returns the campaign's content, which BuildContent or
// DecodeContent produced.
func contentOf(c *core.Campaign) *Content { return spec.Content(c) }

// DecodeContent implements core.Kind: it reads runtime content as it
// encodes to JSON, refusing unknown fields and content that fails tier 1.
func (Kind) DecodeContent(raw json.RawMessage) (any, error) { return spec.DecodeContent(raw) }

// ValidateCampaign implements core.Kind: tier 1 (numbers, references,
// weights, conditions, ids) and every LocKey against the campaign's own
// strings; tier 2 warns about activities no one can ever plan, and about
// one that requires a condition without a locked text saying what opens
// it (the player would read only that it is not open yet).
func (Kind) ValidateCampaign(c *core.Campaign, strings map[core.LocKey]string) core.ValidationResult {
	return spec.Validate(c, strings, func(content *Content, _ []core.ValidationError) []core.ValidationWarning {
		warnings := []core.ValidationWarning{}
		for _, a := range content.Activities {
			if a.Hours > content.HoursPerWeek {
				warnings = append(warnings, core.KindErrorf(KindID, ReasonActivityUnavailable, "content.activities."+a.ID+".hours",
					"sim: activity %q takes %d hours, more than a week has", a.ID, a.Hours))
			}
			if a.Requires != nil && a.LockedKey == "" {
				warnings = append(warnings, core.KindErrorf(KindID, ReasonActivityUnavailable, "content.activities."+a.ID+".locked",
					"sim: activity %q requires a condition but has no locked text saying what opens it", a.ID))
			}
		}
		return warnings
	})
}

// locKeys lists every LocKey the content uses, with its path.
func (c *Content) locKeys() authoring.Keys {
	var ks authoring.Keys
	ks.Add(c.IntroKey, "content.intro")
	ks.Add(c.Endings.GoalsMet, "content.endings.goals_met")
	ks.Add(c.Endings.Failed, "content.endings.failed")
	ks.Add(c.Endings.WeekLimitReached, "content.endings.week_limit_reached")
	if t := c.EndingTitles; t != nil {
		ks.Add(t.GoalsMet, "content.endingTitles.goals_met")
		ks.Add(t.Failed, "content.endingTitles.failed")
		ks.Add(t.WeekLimitReached, "content.endingTitles.week_limit_reached")
	}
	for _, s := range c.Stats {
		ks.Add(s.LabelKey, "content.stats."+s.ID+".label")
	}
	for _, a := range c.Activities {
		ks.Add(a.LabelKey, "content.activities."+a.ID+".label")
		ks.Add(a.DescriptionKey, "content.activities."+a.ID+".description")
		if a.LockedKey != "" {
			ks.Add(a.LockedKey, "content.activities."+a.ID+".locked")
		}
	}
	for _, in := range c.Incidents.Pool {
		p := "content.incidents.pool." + in.ID
		ks.Add(in.TitleKey, p+".title")
		ks.Add(in.TextKey, p+".text")
	}
	for _, ch := range c.Chains {
		for _, st := range ch.Steps {
			p := "content.chains." + ch.ID + ".steps." + st.ID
			ks.Add(st.TitleKey, p+".title")
			ks.Add(st.TextKey, p+".text")
		}
	}
	for _, g := range c.Goals {
		ks.Add(g.LabelKey, "content.goals."+g.ID+".label")
	}
	contentkind.AchievementKeys(&ks, c.Achievements)
	return ks
}

// check runs the tier 1 checks on built content into k. It is shared by
// BuildContent, DecodeContent and ValidateCampaign.
func (c *Content) check(k *authoring.Findings) {
	k.Range("content.weeks", int64(c.Weeks), 1, MaxWeeks)
	k.Range("content.hoursPerWeek", c.HoursPerWeek, 1, MaxHoursPerWeek)
	k.Range("content.startingMoney", c.StartingMoney, 0, MaxMoney)
	k.Range("content.upkeep", c.Upkeep, 0, MaxMoney)
	if len(c.Currency) > 8 {
		k.Add(ReasonInvalidNumber, "content.currency", "currency symbol %q is longer than 8 bytes", c.Currency)
	}
	for _, list := range []struct {
		name string
		n    int
	}{{"content.stats", len(c.Stats)}, {"content.activities", len(c.Activities)}, {"content.incidents.pool", len(c.Incidents.Pool)}, {"content.chains", len(c.Chains)}, {"content.goals", len(c.Goals)}} {
		if list.n > MaxElements {
			k.Add(ReasonInvalidNumber, list.name, "at most %d elements, got %d", MaxElements, list.n)
		}
	}
	stats := map[string]bool{}
	seen := map[string]bool{}
	for i, s := range c.Stats {
		p := authoring.ElemPath("content.stats", i, s.ID)
		k.ID(seen, p, s.ID)
		if s.ID == "money" {
			k.Add(ReasonReservedID, p+".id", "stat id %q is reserved", s.ID)
		}
		stats[s.ID] = true
		k.Range(p+".min", s.Min, -MaxStatValue, MaxStatValue)
		k.Range(p+".max", s.Max, s.Min, MaxStatValue)
		k.Range(p+".start", s.Start, s.Min, s.Max)
		k.Range(p+".drift", s.Drift, -MaxStatValue, MaxStatValue)
	}
	targets := func(path string, m map[string]int64) {
		for _, t := range slices.Sorted(maps.Keys(m)) {
			if t != "money" && !stats[t] {
				k.Add(ReasonUnknownReference, path+"."+t, "effect on %q, which is neither money nor a declared stat", t)
				continue
			}
			limit := int64(MaxStatValue)
			if t == "money" {
				limit = MaxMoney
			}
			k.Range(path+"."+t, m[t], -limit, limit)
		}
	}
	flags := func(path string, fl []string) {
		for i, f := range fl {
			if !core.IsSnakeID(f) {
				k.AddBase(core.ReasonInvalidIdentifier, fmt.Sprintf("%s[%d]", path, i), "flag %q is not a snake_case id", f)
			}
		}
	}
	acts := map[string]bool{}
	seen = map[string]bool{}
	for i, a := range c.Activities {
		p := authoring.ElemPath("content.activities", i, a.ID)
		k.ID(seen, p, a.ID)
		if a.ID == ActivityInvest || a.ID == ActivityWithdraw {
			k.Add(ReasonReservedID, p+".id", "activity id %q is reserved for the investment account", a.ID)
		}
		acts[a.ID] = true
		k.Range(p+".hours", a.Hours, 0, MaxHoursPerWeek)
		k.Range(p+".cost", a.Cost, 0, MaxMoney)
		k.Range(p+".maxPerWeek", a.MaxPerWeek, 1, MaxHoursPerWeek)
		targets(p+".effects", a.Effects)
	}
	if inv := c.Investment; inv != nil {
		acts[ActivityInvest], acts[ActivityWithdraw] = true, true
		k.Range("content.investment.deposit", inv.Deposit, 1, MaxMoney)
		k.Range("content.investment.hours", inv.Hours, 0, MaxHoursPerWeek)
		k.Range("content.investment.maxDepositsPerWeek", inv.MaxDepositsPerWeek, 1, MaxHoursPerWeek)
		k.Range("content.investment.minReturnBp", inv.MinReturnBp, -MaxRateBp, MaxRateBp)
		k.Range("content.investment.maxReturnBp", inv.MaxReturnBp, inv.MinReturnBp, MaxRateBp)
	}
	k.Range("content.incidents.chancePercent", c.Incidents.ChancePercent, 0, 100)
	seen = map[string]bool{}
	for i, in := range c.Incidents.Pool {
		p := authoring.ElemPath("content.incidents.pool", i, in.ID)
		k.ID(seen, p, in.ID)
		if in.Weight <= 0 || in.Weight > 1_000_000 {
			k.Add(ReasonInvalidWeight, p+".weight", "weight %d is not a positive whole number up to 1000000", in.Weight)
		}
		switch in.Tone {
		case "", core.ToneNeutral, core.TonePositive, core.ToneNegative, core.ToneAbsurd:
		default:
			k.Add(ReasonUnknownReference, p+".tone", "unknown tone %q", in.Tone)
		}
		targets(p+".effects", in.Effects)
		flags(p+".flags", in.Flags)
		if in.Requires != nil {
			checkCondition(k, p+".requires", *in.Requires, stats, acts)
		}
	}
	seen = map[string]bool{}
	for i, ch := range c.Chains {
		p := authoring.ElemPath("content.chains", i, ch.ID)
		k.ID(seen, p, ch.ID)
		if ch.Scope != ScopeGame && ch.Scope != ScopeProfile {
			k.Add(ReasonUnknownReference, p+".scope", "scope must be %q or %q, not %q", ScopeGame, ScopeProfile, ch.Scope)
		}
		if len(ch.Steps) == 0 || len(ch.Steps) > MaxChainSteps {
			k.Add(ReasonInvalidNumber, p+".steps", "a chain has 1 to %d steps, got %d", MaxChainSteps, len(ch.Steps))
		}
		stepSeen := map[string]bool{}
		for j, st := range ch.Steps {
			sp := authoring.ElemPath(p+".steps", j, st.ID)
			k.ID(stepSeen, sp, st.ID)
			targets(sp+".effects", st.Effects)
			flags(sp+".flags", st.Flags)
			checkCondition(k, sp+".trigger", st.Trigger, stats, acts)
		}
	}
	seen = map[string]bool{}
	reach := 0
	for i, g := range c.Goals {
		p := authoring.ElemPath("content.goals", i, g.ID)
		k.ID(seen, p, g.ID)
		switch g.Type {
		case GoalReach:
			reach++
		case GoalKeep:
			if g.By != 0 {
				k.Add(ReasonInvalidNumber, p+".by", "a keep goal has no deadline")
			}
		default:
			k.Add(ReasonUnknownReference, p+".type", "goal type must be %q or %q, not %q", GoalReach, GoalKeep, g.Type)
		}
		k.Range(p+".by", int64(g.By), 0, int64(c.Weeks))
		checkCondition(k, p+".condition", g.Condition, stats, acts)
	}
	if reach == 0 {
		k.Add(ReasonMissingField, "content.goals", "a campaign needs at least one reach goal")
	}
	for i, a := range c.Activities {
		if a.Requires != nil {
			checkCondition(k, authoring.ElemPath("content.activities", i, a.ID)+".requires", *a.Requires, stats, acts)
		}
	}
	contentkind.CheckAchievements(k, c.Achievements, func(f string) string { return fieldKind(f, stats, acts) })
}

// checkCondition checks a condition's shape and that every field it reads is in
// the kind's vocabulary, with values of the right type (docs/simulation-kind.md,
// "Conditions").
func checkCondition(k *authoring.Findings, path string, c condition.Condition, stats, acts map[string]bool) {
	k.Condition(path, c, func(f string) string { return fieldKind(f, stats, acts) })
}

// fieldKind classifies a condition field: authoring.FieldNumber,
// authoring.FieldFlags, or "" when unknown.
func fieldKind(f string, stats, acts map[string]bool) string {
	switch f {
	case "money", "invested", "net_worth", "week":
		return authoring.FieldNumber
	case "flags":
		return authoring.FieldFlags
	}
	if len(f) > 5 && f[:5] == "stat." && stats[f[5:]] {
		return authoring.FieldNumber
	}
	if len(f) > 5 && f[:5] == "done." && acts[f[5:]] {
		return authoring.FieldNumber
	}
	return ""
}
