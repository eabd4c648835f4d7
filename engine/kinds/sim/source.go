package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

// The source format: what an author writes under "content" in a campaign
// file. Player-facing text is inline (core.SourceText); numbers are whole.

type sourceContent struct {
	Weeks         num               `json:"weeks"`
	HoursPerWeek  num               `json:"hoursPerWeek"`
	StartingMoney num               `json:"startingMoney"`
	Upkeep        num               `json:"upkeep"`
	Currency      string            `json:"currency"`
	Intro         core.SourceText   `json:"intro"`
	Stats         []sourceStat      `json:"stats"`
	Activities    []sourceActivity  `json:"activities"`
	Investment    *sourceInvestment `json:"investment"`
	Incidents     *sourceIncidents  `json:"incidents"`
	Chains        []sourceChain     `json:"chains"`
	Goals         []sourceGoal      `json:"goals"`
	Endings       sourceEndings     `json:"endings"`
}

type sourceStat struct {
	ID    string          `json:"id"`
	Label core.SourceText `json:"label"`
	Start num             `json:"start"`
	Min   num             `json:"min"`
	Max   num             `json:"max"`
	Drift num             `json:"drift"`
}

type sourceActivity struct {
	ID          string               `json:"id"`
	Label       core.SourceText      `json:"label"`
	Description core.SourceText      `json:"description"`
	Hours       num                  `json:"hours"`
	Cost        num                  `json:"cost"`
	MaxPerWeek  num                  `json:"maxPerWeek"`
	Effects     map[string]num       `json:"effects"`
	Requires    *condition.Condition `json:"requires"`
}

type sourceInvestment struct {
	Deposit            num `json:"deposit"`
	Hours              num `json:"hours"`
	MaxDepositsPerWeek num `json:"maxDepositsPerWeek"`
	MinReturnBp        num `json:"minReturnBp"`
	MaxReturnBp        num `json:"maxReturnBp"`
}

type sourceIncidents struct {
	ChancePercent num              `json:"chancePercent"`
	Pool          []sourceIncident `json:"pool"`
}

type sourceIncident struct {
	ID       string               `json:"id"`
	Title    core.SourceText      `json:"title"`
	Text     core.SourceText      `json:"text"`
	Tone     string               `json:"tone"`
	Weight   num                  `json:"weight"`
	Effects  map[string]num       `json:"effects"`
	Flags    []string             `json:"flags"`
	Requires *condition.Condition `json:"requires"`
}

type sourceChain struct {
	ID    string            `json:"id"`
	Scope string            `json:"scope"`
	Steps []sourceChainStep `json:"steps"`
}

type sourceChainStep struct {
	ID      string               `json:"id"`
	Title   core.SourceText      `json:"title"`
	Text    core.SourceText      `json:"text"`
	Trigger *condition.Condition `json:"trigger"`
	Effects map[string]num       `json:"effects"`
	Flags   []string             `json:"flags"`
}

type sourceGoal struct {
	ID        string               `json:"id"`
	Label     core.SourceText      `json:"label"`
	Type      string               `json:"type"`
	Condition *condition.Condition `json:"condition"`
	By        num                  `json:"by"`
}

type sourceEndings struct {
	GoalsMet         core.SourceText `json:"goals_met"`
	Failed           core.SourceText `json:"failed"`
	WeekLimitReached core.SourceText `json:"week_limit_reached"`
}

// num is a JSON number as an author wrote it: set when present, bad when it
// is not a whole number that fits in 64 bits. Tier 1 reports a bad number
// at its path rather than failing the whole document.
type num struct {
	v   int64
	set bool
	bad bool
}

func (n *num) UnmarshalJSON(b []byte) error {
	var x json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return fmt.Errorf("want a number, got %s", b)
	}
	n.set = true
	v, err := strconv.ParseInt(x.String(), 10, 64)
	if err != nil {
		n.bad = true
		return nil
	}
	n.v = v
	return nil
}

// builder lifts text and converts numbers, collecting tier 1 errors.
type builder struct {
	campaign string
	strings  []core.AuthoredText
	errs     []core.ValidationError
}

func (b *builder) text(t core.SourceText, key, path string, required bool) core.LocKey {
	if t.Text == "" && t.Key == "" {
		if required {
			b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "sim: missing text"))
		}
		return ""
	}
	lifted := t.Lift(b.campaign + "." + key)
	if !core.IsLocKey(lifted.Key) {
		b.errs = append(b.errs, core.Errorf(core.ReasonInvalidLocKey, path, "sim: %q is not a dotted LocKey", lifted.Key))
	}
	if lifted.Text == "" {
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "sim: missing text"))
	}
	b.strings = append(b.strings, lifted)
	return lifted.Key
}

// int converts n; def is used when the author left it out (required fields
// pass required=true and get an error instead).
func (b *builder) int(n num, path string, def int64, required bool) int64 {
	switch {
	case n.bad:
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonInvalidNumber, path, "sim: not a whole number"))
		return 0
	case !n.set && required:
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "sim: missing number"))
		return 0
	case !n.set:
		return def
	}
	return n.v
}

func (b *builder) effects(m map[string]num, path string) map[string]int64 {
	out := make(map[string]int64, len(m))
	for _, k := range sortedKeys(m) {
		out[k] = b.int(m[k], path+"."+k, 0, true)
	}
	return out
}

func (b *builder) cond(c *condition.Condition, path string) condition.Condition {
	if c == nil {
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "sim: missing condition"))
		return condition.Condition{Field: "week", Operator: condition.GreaterOrEqual, Value: float64(0)}
	}
	return *c
}

// BuildContent implements core.Kind: it reads the source document, derives
// a LocKey "<campaignID>.<element>.<id>.<field>" for every inline text the
// author did not key, and returns the runtime content with the lifted
// strings. Tier 1 errors carry paths such as
// "content.activities.night_shift.cost".
func (Kind) BuildContent(source json.RawMessage, campaignID string) (any, []core.AuthoredText, []core.ValidationError) {
	var src sourceContent
	dec := json.NewDecoder(bytes.NewReader(source))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&src); err != nil {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonMalformedInput, "content", "sim: %v", err)}
	}
	if dec.More() {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonMalformedInput, "content", "sim: trailing data")}
	}
	b := &builder{campaign: campaignID}
	c := &Content{
		Weeks:         int(b.int(src.Weeks, "content.weeks", 0, true)),
		HoursPerWeek:  b.int(src.HoursPerWeek, "content.hoursPerWeek", 0, true),
		StartingMoney: b.int(src.StartingMoney, "content.startingMoney", 0, true),
		Upkeep:        b.int(src.Upkeep, "content.upkeep", 0, false),
		Currency:      src.Currency,
		IntroKey:      b.text(src.Intro, "intro", "content.intro", true),
		Stats:         []Stat{},
		Activities:    []Activity{},
		Chains:        []Chain{},
		Goals:         []Goal{},
		Incidents:     Incidents{Pool: []Incident{}},
	}
	if c.Currency == "" {
		c.Currency = "$"
	}
	c.Endings = EndingKeys{
		GoalsMet:         b.text(src.Endings.GoalsMet, "ending.goals_met", "content.endings.goals_met", true),
		Failed:           b.text(src.Endings.Failed, "ending.failed", "content.endings.failed", true),
		WeekLimitReached: b.text(src.Endings.WeekLimitReached, "ending.week_limit_reached", "content.endings.week_limit_reached", true),
	}
	for i, s := range src.Stats {
		p := elemPath("content.stats", i, s.ID)
		c.Stats = append(c.Stats, Stat{
			ID:       s.ID,
			LabelKey: b.text(s.Label, "stat."+s.ID+".label", p+".label", true),
			Start:    b.int(s.Start, p+".start", 0, true),
			Min:      b.int(s.Min, p+".min", 0, false),
			Max:      b.int(s.Max, p+".max", 100, false),
			Drift:    b.int(s.Drift, p+".drift", 0, false),
		})
	}
	for i, a := range src.Activities {
		p := elemPath("content.activities", i, a.ID)
		c.Activities = append(c.Activities, Activity{
			ID:             a.ID,
			LabelKey:       b.text(a.Label, "activity."+a.ID+".label", p+".label", true),
			DescriptionKey: b.text(a.Description, "activity."+a.ID+".description", p+".description", true),
			Hours:          b.int(a.Hours, p+".hours", 0, true),
			Cost:           b.int(a.Cost, p+".cost", 0, false),
			MaxPerWeek:     b.int(a.MaxPerWeek, p+".maxPerWeek", 1, false),
			Effects:        b.effects(a.Effects, p+".effects"),
			Requires:       a.Requires,
		})
	}
	if inv := src.Investment; inv != nil {
		c.Investment = &Investment{
			Deposit:            b.int(inv.Deposit, "content.investment.deposit", 0, true),
			Hours:              b.int(inv.Hours, "content.investment.hours", 0, false),
			MaxDepositsPerWeek: b.int(inv.MaxDepositsPerWeek, "content.investment.maxDepositsPerWeek", 1, false),
			MinReturnBp:        b.int(inv.MinReturnBp, "content.investment.minReturnBp", 0, true),
			MaxReturnBp:        b.int(inv.MaxReturnBp, "content.investment.maxReturnBp", 0, true),
		}
	}
	if src.Incidents != nil {
		c.Incidents.ChancePercent = b.int(src.Incidents.ChancePercent, "content.incidents.chancePercent", 0, true)
		for i, in := range src.Incidents.Pool {
			p := elemPath("content.incidents.pool", i, in.ID)
			c.Incidents.Pool = append(c.Incidents.Pool, Incident{
				ID:       in.ID,
				TitleKey: b.text(in.Title, "incident."+in.ID+".title", p+".title", true),
				TextKey:  b.text(in.Text, "incident."+in.ID+".text", p+".text", true),
				Tone:     in.Tone,
				Weight:   b.int(in.Weight, p+".weight", 1, false),
				Effects:  b.effects(in.Effects, p+".effects"),
				Flags:    in.Flags,
				Requires: in.Requires,
			})
		}
	}
	for i, ch := range src.Chains {
		p := elemPath("content.chains", i, ch.ID)
		chain := Chain{ID: ch.ID, Scope: ch.Scope, Steps: []ChainStep{}}
		if chain.Scope == "" {
			chain.Scope = ScopeGame
		}
		for j, st := range ch.Steps {
			sp := elemPath(p+".steps", j, st.ID)
			key := "chain." + ch.ID + "." + st.ID
			chain.Steps = append(chain.Steps, ChainStep{
				ID:       st.ID,
				TitleKey: b.text(st.Title, key+".title", sp+".title", true),
				TextKey:  b.text(st.Text, key+".text", sp+".text", true),
				Trigger:  b.cond(st.Trigger, sp+".trigger"),
				Effects:  b.effects(st.Effects, sp+".effects"),
				Flags:    st.Flags,
			})
		}
		c.Chains = append(c.Chains, chain)
	}
	for i, g := range src.Goals {
		p := elemPath("content.goals", i, g.ID)
		c.Goals = append(c.Goals, Goal{
			ID:        g.ID,
			LabelKey:  b.text(g.Label, "goal."+g.ID+".label", p+".label", true),
			Type:      g.Type,
			Condition: b.cond(g.Condition, p+".condition"),
			By:        int(b.int(g.By, p+".by", 0, false)),
		})
	}
	errs := b.errs
	reported := map[string]bool{}
	for _, e := range errs {
		reported[e.Path] = true
	}
	for _, e := range c.check() {
		if !reported[e.Path] {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, b.strings, errs
	}
	c.index()
	return c, b.strings, nil
}
