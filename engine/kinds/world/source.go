package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

// The source format: what an author writes under "content".

type sourceContent struct {
	StartingMoney num               `json:"startingMoney"`
	Currency      string            `json:"currency"`
	Intro         core.SourceText   `json:"intro"`
	TickLimit     num               `json:"tickLimit"`
	Entrance      string            `json:"entrance"`
	Nodes         []sourceNode      `json:"nodes"`
	Edges         []Edge            `json:"edges"`
	Buildings     []sourceBuilding  `json:"buildings"`
	Staff         []sourceStaff     `json:"staff"`
	Guests        sourceGuests      `json:"guests"`
	Incidents     []sourceIncident  `json:"incidents"`
	Start         sourceStart       `json:"start"`
	Objectives    []sourceObjective `json:"objectives"`
	Failures      []sourceFailure   `json:"failures"`
	Endings       sourceEndings     `json:"endings"`
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

// num is a JSON number as an author wrote it: set when present, bad when it
// is not a whole number that fits in 64 bits.
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

type builder struct {
	campaign string
	strings  []core.AuthoredText
	errs     []core.ValidationError
}

func (b *builder) text(t core.SourceText, key, path string) core.LocKey {
	if t.Text == "" && t.Key == "" {
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "world: missing text"))
		return ""
	}
	lifted := t.Lift(b.campaign + "." + key)
	if !core.IsLocKey(lifted.Key) {
		b.errs = append(b.errs, core.Errorf(core.ReasonInvalidLocKey, path, "world: %q is not a dotted LocKey", lifted.Key))
	}
	if lifted.Text == "" {
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "world: missing text"))
	}
	b.strings = append(b.strings, lifted)
	return lifted.Key
}

func (b *builder) int(n num, path string, def int64, required bool) int64 {
	switch {
	case n.bad:
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonInvalidNumber, path, "world: not a whole number"))
		return 0
	case !n.set && required:
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "world: missing number"))
		return 0
	case !n.set:
		return def
	}
	return n.v
}

func (b *builder) cond(c *condition.Condition, path string) condition.Condition {
	if c == nil {
		b.errs = append(b.errs, core.KindErrorf(KindID, ReasonMissingField, path, "world: missing condition"))
		return condition.Condition{Field: "tick", Operator: condition.GreaterOrEqual, Value: float64(0)}
	}
	return *c
}

// BuildContent implements core.Kind: it reads the source document, derives
// a LocKey "<campaignID>.<element>.<id>.<field>" for every inline text the
// author did not key, and returns the runtime content with the lifted
// strings. Tier 1 errors carry paths such as
// "content.buildings.carousel.cost".
func (Kind) BuildContent(source json.RawMessage, campaignID string) (any, []core.AuthoredText, []core.ValidationError) {
	var src sourceContent
	dec := json.NewDecoder(bytes.NewReader(source))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&src); err != nil {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonMalformedInput, "content", "world: %v", err)}
	}
	if dec.More() {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonMalformedInput, "content", "world: trailing data")}
	}
	b := &builder{campaign: campaignID}
	c := &Content{
		StartingMoney: b.int(src.StartingMoney, "content.startingMoney", 0, true),
		Currency:      src.Currency,
		IntroKey:      b.text(src.Intro, "intro", "content.intro"),
		TickLimit:     b.int(src.TickLimit, "content.tickLimit", 0, true),
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
		ObjectivesMet: b.text(src.Endings.ObjectivesMet, "ending.objectives_met", "content.endings.objectives_met"),
		Failed:        b.text(src.Endings.Failed, "ending.failed", "content.endings.failed"),
	}
	for i, n := range src.Nodes {
		p := elemPath("content.nodes", i, n.ID)
		c.Nodes = append(c.Nodes, Node{ID: n.ID, LabelKey: b.text(n.Label, "node."+n.ID+".label", p+".label"),
			X: b.int(n.X, p+".x", 0, false), Y: b.int(n.Y, p+".y", 0, false), Buildable: n.Buildable})
	}
	for i, sb := range src.Buildings {
		p := elemPath("content.buildings", i, sb.ID)
		bd := Building{
			ID:                sb.ID,
			LabelKey:          b.text(sb.Label, "building."+sb.ID+".label", p+".label"),
			DescriptionKey:    b.text(sb.Description, "building."+sb.ID+".description", p+".description"),
			Cost:              b.int(sb.Cost, p+".cost", 0, true),
			Upkeep:            b.int(sb.Upkeep, p+".upkeep", 0, false),
			Capacity:          b.int(sb.Capacity, p+".capacity", 0, true),
			Duration:          b.int(sb.Duration, p+".duration", 1, false),
			Appeal:            b.int(sb.Appeal, p+".appeal", 0, true),
			Fun:               b.int(sb.Fun, p+".fun", 0, false),
			BreakdownPermille: b.int(sb.BreakdownPermille, p+".breakdownPermille", 0, false),
			PriceBands:        []PriceBand{},
			DefaultBand:       sb.DefaultBand,
		}
		for j, band := range sb.PriceBands {
			bp := elemPath(p+".priceBands", j, band.ID)
			bd.PriceBands = append(bd.PriceBands, PriceBand{ID: band.ID,
				LabelKey: b.text(band.Label, "building."+sb.ID+".band."+band.ID+".label", bp+".label"),
				Price:    b.int(band.Price, bp+".price", 0, true),
				Appeal:   b.int(band.Appeal, bp+".appeal", 100, false)})
		}
		if bd.DefaultBand == "" && len(bd.PriceBands) > 0 {
			bd.DefaultBand = bd.PriceBands[0].ID
		}
		c.Buildings = append(c.Buildings, bd)
	}
	for i, s := range src.Staff {
		p := elemPath("content.staff", i, s.ID)
		c.Staff = append(c.Staff, Staff{ID: s.ID,
			LabelKey:       b.text(s.Label, "staff."+s.ID+".label", p+".label"),
			DescriptionKey: b.text(s.Description, "staff."+s.ID+".description", p+".description"),
			Wage:           b.int(s.Wage, p+".wage", 0, true),
			Repairs:        b.int(s.Repairs, p+".repairs", 0, false),
			Cheer:          b.int(s.Cheer, p+".cheer", 0, false),
			Max:            b.int(s.Max, p+".max", 1, false)})
	}
	g := src.Guests
	c.Guests = GuestRules{
		ArrivalPercent: b.int(g.ArrivalPercent, "content.guests.arrivalPercent", 0, true),
		MaxGuests:      b.int(g.MaxGuests, "content.guests.maxGuests", 0, true),
		BudgetMin:      b.int(g.BudgetMin, "content.guests.budgetMin", 0, true),
		BudgetMax:      b.int(g.BudgetMax, "content.guests.budgetMax", 0, true),
		Patience:       b.int(g.Patience, "content.guests.patience", 0, true),
		Happiness:      b.int(g.Happiness, "content.guests.happiness", 60, false),
	}
	for i, in := range src.Incidents {
		p := elemPath("content.incidents", i, in.ID)
		c.Incidents = append(c.Incidents, Incident{ID: in.ID,
			TitleKey:       b.text(in.Title, "incident."+in.ID+".title", p+".title"),
			MessageKey:     b.text(in.Text, "incident."+in.ID+".text", p+".text"),
			ChancePermille: b.int(in.ChancePermille, p+".chancePermille", 0, true),
			Duration:       b.int(in.Duration, p+".duration", 0, true),
			ArrivalPercent: b.int(in.ArrivalPercent, p+".arrivalPercent", 100, false)})
	}
	for _, id := range sortedKeys(src.Start.Staff) {
		c.Start.Staff[id] = b.int(src.Start.Staff[id], "content.start.staff."+id, 0, true)
	}
	for i, o := range src.Objectives {
		p := elemPath("content.objectives", i, o.ID)
		c.Objectives = append(c.Objectives, Objective{ID: o.ID, LabelKey: b.text(o.Label, "objective."+o.ID+".label", p+".label"),
			Condition: b.cond(o.Condition, p+".condition"), By: b.int(o.By, p+".by", 0, false)})
	}
	for i, f := range src.Failures {
		p := elemPath("content.failures", i, f.ID)
		c.Failures = append(c.Failures, Failure{ID: f.ID, LabelKey: b.text(f.Label, "failure."+f.ID+".label", p+".label"),
			Condition: b.cond(f.Condition, p+".condition")})
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
