package sim

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// The source format: what an author writes under "content" in a campaign
// file. Player-facing text is inline (core.SourceText); numbers are whole.

type sourceContent struct {
	Weeks         num                             `json:"weeks"`
	HoursPerWeek  num                             `json:"hoursPerWeek"`
	StartingMoney num                             `json:"startingMoney"`
	Upkeep        num                             `json:"upkeep"`
	Currency      string                          `json:"currency"`
	Intro         core.SourceText                 `json:"intro"`
	Stats         []sourceStat                    `json:"stats"`
	Activities    []sourceActivity                `json:"activities"`
	Investment    *sourceInvestment               `json:"investment"`
	Incidents     *sourceIncidents                `json:"incidents"`
	Chains        []sourceChain                   `json:"chains"`
	Goals         []sourceGoal                    `json:"goals"`
	Achievements  []contentkind.SourceAchievement `json:"achievements"`
	Endings       sourceEndings                   `json:"endings"`
	EndingTitles  *sourceEndings                  `json:"endingTitles"`
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
	Locked      core.SourceText      `json:"locked"`
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

// num is a whole number as an author wrote it.
type num = authoring.Num

// effects converts an effects map, every value required.
func effects(b *authoring.Builder, m map[string]num, path string) map[string]int64 {
	out := make(map[string]int64, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = b.Int(m[k], path+"."+k, 0, true)
	}
	return out
}

// missingCondition stands in for a required condition the author left out.
func missingCondition() condition.Condition { return contentkind.Placeholder("week") }

// BuildContent implements core.Kind: it reads the source document, derives
// a LocKey "<campaignID>.<element>.<id>.<field>" for every inline text the
// author did not key, and returns the runtime content with the lifted
// strings. Tier 1 errors carry paths such as
// "content.activities.night_shift.cost".
func (Kind) BuildContent(source json.RawMessage, campaignID string) (any, []core.AuthoredText, []core.ValidationError) {
	return contentkind.Build(spec, source, campaignID, buildContent)
}

// buildContent turns the source into content, lifting its texts into b.
func buildContent(src *sourceContent, b *authoring.Builder) *Content {
	c := &Content{
		Weeks:         int(b.Int(src.Weeks, "content.weeks", 0, true)),
		HoursPerWeek:  b.Int(src.HoursPerWeek, "content.hoursPerWeek", 0, true),
		StartingMoney: b.Int(src.StartingMoney, "content.startingMoney", 0, true),
		Upkeep:        b.Int(src.Upkeep, "content.upkeep", 0, false),
		Currency:      src.Currency,
		IntroKey:      b.Text(src.Intro, "intro", "content.intro", true),
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
		GoalsMet:         b.Text(src.Endings.GoalsMet, "ending.goals_met", "content.endings.goals_met", true),
		Failed:           b.Text(src.Endings.Failed, "ending.failed", "content.endings.failed", true),
		WeekLimitReached: b.Text(src.Endings.WeekLimitReached, "ending.week_limit_reached", "content.endings.week_limit_reached", true),
	}
	if t := src.EndingTitles; t != nil {
		c.EndingTitles = &EndingKeys{
			GoalsMet:         b.Text(t.GoalsMet, "ending_title.goals_met", "content.endingTitles.goals_met", true),
			Failed:           b.Text(t.Failed, "ending_title.failed", "content.endingTitles.failed", true),
			WeekLimitReached: b.Text(t.WeekLimitReached, "ending_title.week_limit_reached", "content.endingTitles.week_limit_reached", true),
		}
	}
	for i, s := range src.Stats {
		p := authoring.ElemPath("content.stats", i, s.ID)
		c.Stats = append(c.Stats, Stat{
			ID:       s.ID,
			LabelKey: b.Text(s.Label, "stat."+s.ID+".label", p+".label", true),
			Start:    b.Int(s.Start, p+".start", 0, true),
			Min:      b.Int(s.Min, p+".min", 0, false),
			Max:      b.Int(s.Max, p+".max", 100, false),
			Drift:    b.Int(s.Drift, p+".drift", 0, false),
		})
	}
	for i, a := range src.Activities {
		p := authoring.ElemPath("content.activities", i, a.ID)
		c.Activities = append(c.Activities, Activity{
			ID:             a.ID,
			LabelKey:       b.Text(a.Label, "activity."+a.ID+".label", p+".label", true),
			DescriptionKey: b.Text(a.Description, "activity."+a.ID+".description", p+".description", true),
			Hours:          b.Int(a.Hours, p+".hours", 0, true),
			Cost:           b.Int(a.Cost, p+".cost", 0, false),
			MaxPerWeek:     b.Int(a.MaxPerWeek, p+".maxPerWeek", 1, false),
			Effects:        effects(b, a.Effects, p+".effects"),
			Requires:       a.Requires,
			LockedKey:      b.Text(a.Locked, "activity."+a.ID+".locked", p+".locked", false),
		})
	}
	if inv := src.Investment; inv != nil {
		c.Investment = &Investment{
			Deposit:            b.Int(inv.Deposit, "content.investment.deposit", 0, true),
			Hours:              b.Int(inv.Hours, "content.investment.hours", 0, false),
			MaxDepositsPerWeek: b.Int(inv.MaxDepositsPerWeek, "content.investment.maxDepositsPerWeek", 1, false),
			MinReturnBp:        b.Int(inv.MinReturnBp, "content.investment.minReturnBp", 0, true),
			MaxReturnBp:        b.Int(inv.MaxReturnBp, "content.investment.maxReturnBp", 0, true),
		}
	}
	if src.Incidents != nil {
		c.Incidents.ChancePercent = b.Int(src.Incidents.ChancePercent, "content.incidents.chancePercent", 0, true)
		for i, in := range src.Incidents.Pool {
			p := authoring.ElemPath("content.incidents.pool", i, in.ID)
			c.Incidents.Pool = append(c.Incidents.Pool, Incident{
				ID:       in.ID,
				TitleKey: b.Text(in.Title, "incident."+in.ID+".title", p+".title", true),
				TextKey:  b.Text(in.Text, "incident."+in.ID+".text", p+".text", true),
				Tone:     in.Tone,
				Weight:   b.Int(in.Weight, p+".weight", 1, false),
				Effects:  effects(b, in.Effects, p+".effects"),
				Flags:    in.Flags,
				Requires: in.Requires,
			})
		}
	}
	for i, ch := range src.Chains {
		p := authoring.ElemPath("content.chains", i, ch.ID)
		chain := Chain{ID: ch.ID, Scope: ch.Scope, Steps: []ChainStep{}}
		if chain.Scope == "" {
			chain.Scope = ScopeGame
		}
		for j, st := range ch.Steps {
			sp := authoring.ElemPath(p+".steps", j, st.ID)
			key := "chain." + ch.ID + "." + st.ID
			chain.Steps = append(chain.Steps, ChainStep{
				ID:       st.ID,
				TitleKey: b.Text(st.Title, key+".title", sp+".title", true),
				TextKey:  b.Text(st.Text, key+".text", sp+".text", true),
				Trigger:  b.Cond(st.Trigger, sp+".trigger", missingCondition()),
				Effects:  effects(b, st.Effects, sp+".effects"),
				Flags:    st.Flags,
			})
		}
		c.Chains = append(c.Chains, chain)
	}
	for i, g := range src.Goals {
		p := authoring.ElemPath("content.goals", i, g.ID)
		c.Goals = append(c.Goals, Goal{
			ID:        g.ID,
			LabelKey:  b.Text(g.Label, "goal."+g.ID+".label", p+".label", true),
			Type:      g.Type,
			Condition: b.Cond(g.Condition, p+".condition", missingCondition()),
			By:        int(b.Int(g.By, p+".by", 0, false)),
		})
	}
	c.Achievements = contentkind.BuildAchievements(b, src.Achievements, missingCondition())
	return c
}
