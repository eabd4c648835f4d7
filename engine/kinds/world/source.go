package world

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// The source format: what an author writes under "content".

type sourceContent struct {
	StartingMoney num                             `json:"startingMoney"`
	Currency      string                          `json:"currency"`
	Intro         core.SourceText                 `json:"intro"`
	TickLimit     num                             `json:"tickLimit"`
	Entrance      string                          `json:"entrance"`
	Nodes         []sourceNode                    `json:"nodes"`
	Edges         []Edge                          `json:"edges"`
	Buildings     []sourceBuilding                `json:"buildings"`
	Staff         []sourceStaff                   `json:"staff"`
	Guests        sourceGuests                    `json:"guests"`
	Incidents     []sourceIncident                `json:"incidents"`
	Start         sourceStart                     `json:"start"`
	Objectives    []sourceObjective               `json:"objectives"`
	Failures      []sourceFailure                 `json:"failures"`
	Achievements  []contentkind.SourceAchievement `json:"achievements"`
	OfferHour     num                             `json:"offerHour"`
	OfferHours    num                             `json:"offerHours"`
	Offers        []sourceOffer                   `json:"offers"`
	Endings       sourceEndings                   `json:"endings"`
	EndingTitles  *sourceEndings                  `json:"endingTitles"`
}

type sourceNode struct {
	ID        string          `json:"id"`
	Label     core.SourceText `json:"label"`
	X         num             `json:"x"`
	Y         num             `json:"y"`
	Buildable bool            `json:"buildable"`
}

type sourceBuilding struct {
	ID                string            `json:"id"`
	Label             core.SourceText   `json:"label"`
	Description       core.SourceText   `json:"description"`
	Cost              num               `json:"cost"`
	Upkeep            num               `json:"upkeep"`
	Capacity          num               `json:"capacity"`
	Duration          num               `json:"duration"`
	Appeal            num               `json:"appeal"`
	Fun               num               `json:"fun"`
	BreakdownPermille num               `json:"breakdownPermille"`
	PriceBands        []sourcePriceBand `json:"priceBands"`
	DefaultBand       string            `json:"defaultBand"`
}

type sourcePriceBand struct {
	ID     string          `json:"id"`
	Label  core.SourceText `json:"label"`
	Price  num             `json:"price"`
	Appeal num             `json:"appeal"`
}

type sourceStaff struct {
	ID          string          `json:"id"`
	Label       core.SourceText `json:"label"`
	Description core.SourceText `json:"description"`
	Wage        num             `json:"wage"`
	Repairs     num             `json:"repairs"`
	Cheer       num             `json:"cheer"`
	Max         num             `json:"max"`
}

type sourceGuests struct {
	ArrivalPercent num `json:"arrivalPercent"`
	MaxGuests      num `json:"maxGuests"`
	BudgetMin      num `json:"budgetMin"`
	BudgetMax      num `json:"budgetMax"`
	Patience       num `json:"patience"`
	Happiness      num `json:"happiness"`
}

type sourceIncident struct {
	ID             string          `json:"id"`
	Title          core.SourceText `json:"title"`
	Text           core.SourceText `json:"text"`
	ChancePermille num             `json:"chancePermille"`
	Duration       num             `json:"duration"`
	ArrivalPercent num             `json:"arrivalPercent"`
}

type sourceStart struct {
	Buildings []Placement    `json:"buildings"`
	Staff     map[string]num `json:"staff"`
}

type sourceObjective struct {
	ID        string               `json:"id"`
	Label     core.SourceText      `json:"label"`
	Condition *condition.Condition `json:"condition"`
	By        num                  `json:"by"`
}

type sourceFailure struct {
	ID        string               `json:"id"`
	Label     core.SourceText      `json:"label"`
	Condition *condition.Condition `json:"condition"`
}

type sourceEndings struct {
	ObjectivesMet core.SourceText `json:"objectives_met"`
	Failed        core.SourceText `json:"failed"`
}

// num is a whole number as an author wrote it.
type num = authoring.Num

// missingCondition stands in for a required condition the author left out.
func missingCondition() condition.Condition { return contentkind.Placeholder("tick") }

// BuildContent implements core.Kind: it reads the source document, derives
// a LocKey "<campaignID>.<element>.<id>.<field>" for every inline text the
// author did not key, and returns the runtime content with the lifted
// strings. Tier 1 errors carry paths such as
// "content.buildings.carousel.cost".
func (Kind) BuildContent(source json.RawMessage, campaignID string) (any, []core.AuthoredText, []core.ValidationError) {
	return contentkind.Build(spec, source, campaignID, buildContent)
}

// buildContent turns the source into content, lifting its texts into b.
func buildContent(src *sourceContent, b *authoring.Builder) *Content {
	c := &Content{
		StartingMoney: b.Int(src.StartingMoney, "content.startingMoney", 0, true),
		Currency:      src.Currency,
		IntroKey:      b.Text(src.Intro, "intro", "content.intro", true),
		TickLimit:     b.Int(src.TickLimit, "content.tickLimit", 0, true),
		Entrance:      src.Entrance,
		Nodes:         []Node{},
		Edges:         src.Edges,
		Buildings:     []Building{},
		Staff:         []Staff{},
		Incidents:     []Incident{},
		Objectives:    []Objective{},
		Failures:      []Failure{},
		Start:         Start{Buildings: src.Start.Buildings, Staff: map[string]int64{}},
	}
	if c.Currency == "" {
		c.Currency = "$"
	}
	if c.Edges == nil {
		c.Edges = []Edge{}
	}
	if c.Start.Buildings == nil {
		c.Start.Buildings = []Placement{}
	}
	c.Endings = EndingKeys{
		ObjectivesMet: b.Text(src.Endings.ObjectivesMet, "ending.objectives_met", "content.endings.objectives_met", true),
		Failed:        b.Text(src.Endings.Failed, "ending.failed", "content.endings.failed", true),
	}
	if t := src.EndingTitles; t != nil {
		c.EndingTitles = &EndingKeys{
			ObjectivesMet: b.Text(t.ObjectivesMet, "ending_title.objectives_met", "content.endingTitles.objectives_met", true),
			Failed:        b.Text(t.Failed, "ending_title.failed", "content.endingTitles.failed", true),
		}
	}
	for i, n := range src.Nodes {
		p := authoring.ElemPath("content.nodes", i, n.ID)
		c.Nodes = append(c.Nodes, Node{ID: n.ID, LabelKey: b.Text(n.Label, "node."+n.ID+".label", p+".label", true),
			X: b.Int(n.X, p+".x", 0, false), Y: b.Int(n.Y, p+".y", 0, false), Buildable: n.Buildable})
	}
	for i, sb := range src.Buildings {
		p := authoring.ElemPath("content.buildings", i, sb.ID)
		bd := Building{
			ID:                sb.ID,
			LabelKey:          b.Text(sb.Label, "building."+sb.ID+".label", p+".label", true),
			DescriptionKey:    b.Text(sb.Description, "building."+sb.ID+".description", p+".description", true),
			Cost:              b.Int(sb.Cost, p+".cost", 0, true),
			Upkeep:            b.Int(sb.Upkeep, p+".upkeep", 0, false),
			Capacity:          b.Int(sb.Capacity, p+".capacity", 0, true),
			Duration:          b.Int(sb.Duration, p+".duration", 1, false),
			Appeal:            b.Int(sb.Appeal, p+".appeal", 0, true),
			Fun:               b.Int(sb.Fun, p+".fun", 0, false),
			BreakdownPermille: b.Int(sb.BreakdownPermille, p+".breakdownPermille", 0, false),
			PriceBands:        []PriceBand{},
			DefaultBand:       sb.DefaultBand,
		}
		for j, band := range sb.PriceBands {
			bp := authoring.ElemPath(p+".priceBands", j, band.ID)
			bd.PriceBands = append(bd.PriceBands, PriceBand{ID: band.ID,
				LabelKey: b.Text(band.Label, "building."+sb.ID+".band."+band.ID+".label", bp+".label", true),
				Price:    b.Int(band.Price, bp+".price", 0, true),
				Appeal:   b.Int(band.Appeal, bp+".appeal", 100, false)})
		}
		if bd.DefaultBand == "" && len(bd.PriceBands) > 0 {
			bd.DefaultBand = bd.PriceBands[0].ID
		}
		c.Buildings = append(c.Buildings, bd)
	}
	for i, s := range src.Staff {
		p := authoring.ElemPath("content.staff", i, s.ID)
		c.Staff = append(c.Staff, Staff{ID: s.ID,
			LabelKey:       b.Text(s.Label, "staff."+s.ID+".label", p+".label", true),
			DescriptionKey: b.Text(s.Description, "staff."+s.ID+".description", p+".description", true),
			Wage:           b.Int(s.Wage, p+".wage", 0, true),
			Repairs:        b.Int(s.Repairs, p+".repairs", 0, false),
			Cheer:          b.Int(s.Cheer, p+".cheer", 0, false),
			Max:            b.Int(s.Max, p+".max", 1, false)})
	}
	g := src.Guests
	c.Guests = GuestRules{
		ArrivalPercent: b.Int(g.ArrivalPercent, "content.guests.arrivalPercent", 0, true),
		MaxGuests:      b.Int(g.MaxGuests, "content.guests.maxGuests", 0, true),
		BudgetMin:      b.Int(g.BudgetMin, "content.guests.budgetMin", 0, true),
		BudgetMax:      b.Int(g.BudgetMax, "content.guests.budgetMax", 0, true),
		Patience:       b.Int(g.Patience, "content.guests.patience", 0, true),
		Happiness:      b.Int(g.Happiness, "content.guests.happiness", 60, false),
	}
	for i, in := range src.Incidents {
		p := authoring.ElemPath("content.incidents", i, in.ID)
		c.Incidents = append(c.Incidents, Incident{ID: in.ID,
			TitleKey:       b.Text(in.Title, "incident."+in.ID+".title", p+".title", true),
			MessageKey:     b.Text(in.Text, "incident."+in.ID+".text", p+".text", true),
			ChancePermille: b.Int(in.ChancePermille, p+".chancePermille", 0, true),
			Duration:       b.Int(in.Duration, p+".duration", 0, true),
			ArrivalPercent: b.Int(in.ArrivalPercent, p+".arrivalPercent", 100, false)})
	}
	for _, id := range slices.Sorted(maps.Keys(src.Start.Staff)) {
		c.Start.Staff[id] = b.Int(src.Start.Staff[id], "content.start.staff."+id, 0, true)
	}
	for i, o := range src.Objectives {
		p := authoring.ElemPath("content.objectives", i, o.ID)
		c.Objectives = append(c.Objectives, Objective{ID: o.ID, LabelKey: b.Text(o.Label, "objective."+o.ID+".label", p+".label", true),
			Condition: b.Cond(o.Condition, p+".condition", missingCondition()), By: b.Int(o.By, p+".by", 0, false)})
	}
	for i, f := range src.Failures {
		p := authoring.ElemPath("content.failures", i, f.ID)
		c.Failures = append(c.Failures, Failure{ID: f.ID, LabelKey: b.Text(f.Label, "failure."+f.ID+".label", p+".label", true),
			Condition: b.Cond(f.Condition, p+".condition", missingCondition())})
	}
	c.Achievements = contentkind.BuildAchievements(b, src.Achievements, missingCondition())
	if len(src.Offers) > 0 {
		c.OfferHour = b.Int(src.OfferHour, "content.offerHour", 10, false)
		c.OfferHours = b.Int(src.OfferHours, "content.offerHours", 8, false)
		c.Offers = buildOffers(b, src.Offers)
	}
	return c
}
