package world

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

// Bounds on content, so that a tick stays cheap and a state stays small.
const (
	MaxNodes      = 128
	MaxElements   = 64
	MaxGuests     = 200
	MaxTickLimit  = 100_000
	MaxMoney      = 1_000_000_000_00 // one billion, in cents
	MaxAlerts     = 20
	maxSmallValue = 1_000_000
)

// Content is the runtime content of a world-graph campaign: everything
// player-facing is a LocKey. It never changes once built.
type Content struct {
	StartingMoney int64                     `json:"startingMoney"`
	Currency      string                    `json:"currency"`
	IntroKey      core.LocKey               `json:"introKey"`
	TickLimit     int64                     `json:"tickLimit"`
	Entrance      string                    `json:"entrance"`
	Nodes         []Node                    `json:"nodes"`
	Edges         []Edge                    `json:"edges"`
	Buildings     []Building                `json:"buildings"`
	Staff         []Staff                   `json:"staff"`
	Guests        GuestRules                `json:"guests"`
	Incidents     []Incident                `json:"incidents"`
	Start         Start                     `json:"start"`
	Objectives    []Objective               `json:"objectives"`
	Failures      []Failure                 `json:"failures"`
	Achievements  []contentkind.Achievement `json:"achievements,omitempty"`
	// OfferHour is the hour of each day (0–23) an offer opens at, and
	// OfferHours how long it stays open.
	OfferHour  int64      `json:"offerHour,omitempty"`
	OfferHours int64      `json:"offerHours,omitempty"`
	Offers     []Offer    `json:"offers,omitempty"`
	Endings    EndingKeys `json:"endings"`
	// EndingTitles name the endings in the gallery (a few words), when
	// the author gave them; otherwise the ending's text names it.
	EndingTitles *EndingKeys   `json:"endingTitles,omitempty"`
	idx          *contentIndex `json:"-"`
}

// Node is a place in the world.
type Node struct {
	ID        string      `json:"id"`
	LabelKey  core.LocKey `json:"labelKey"`
	X         int64       `json:"x"`
	Y         int64       `json:"y"`
	Buildable bool        `json:"buildable"`
}

// Edge joins two nodes both ways.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Building is an entry of the build catalogue.
type Building struct {
	ID                string      `json:"id"`
	LabelKey          core.LocKey `json:"labelKey"`
	DescriptionKey    core.LocKey `json:"descriptionKey"`
	Cost              int64       `json:"cost"`
	Upkeep            int64       `json:"upkeep"`
	Capacity          int64       `json:"capacity"`
	Duration          int64       `json:"duration"`
	Appeal            int64       `json:"appeal"`
	Fun               int64       `json:"fun"`
	BreakdownPermille int64       `json:"breakdownPermille"`
	PriceBands        []PriceBand `json:"priceBands"`
	DefaultBand       string      `json:"defaultBand"`
}

// PriceBand is one price a building can charge, and how that price changes
// its appeal, in percent (100 = unchanged).
type PriceBand struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	Price    int64       `json:"price"`
	Appeal   int64       `json:"appeal"`
}

// Staff is a kind of staff the player can hire.
type Staff struct {
	ID             string      `json:"id"`
	LabelKey       core.LocKey `json:"labelKey"`
	DescriptionKey core.LocKey `json:"descriptionKey"`
	Wage           int64       `json:"wage"`
	Repairs        int64       `json:"repairs"`
	Cheer          int64       `json:"cheer"`
	Max            int64       `json:"max"`
}

// GuestRules govern arrivals and guests.
type GuestRules struct {
	ArrivalPercent int64 `json:"arrivalPercent"`
	MaxGuests      int64 `json:"maxGuests"`
	BudgetMin      int64 `json:"budgetMin"`
	BudgetMax      int64 `json:"budgetMax"`
	Patience       int64 `json:"patience"`
	Happiness      int64 `json:"happiness"`
}

// Incident is a world-level event that may start on any tick and lasts
// Duration ticks, scaling arrivals by ArrivalPercent while it does.
type Incident struct {
	ID             string      `json:"id"`
	TitleKey       core.LocKey `json:"titleKey"`
	MessageKey     core.LocKey `json:"messageKey"`
	ChancePermille int64       `json:"chancePermille"`
	Duration       int64       `json:"duration"`
	ArrivalPercent int64       `json:"arrivalPercent"`
}

// Start is what the world holds when a game begins.
type Start struct {
	Buildings []Placement      `json:"buildings"`
	Staff     map[string]int64 `json:"staff"`
}

// Placement is a building placed at start.
type Placement struct {
	Node     string `json:"node"`
	Building string `json:"building"`
	Band     string `json:"band"`
}

// Objective is met the first tick its condition holds, and fails when By
// (> 0) passes first.
type Objective struct {
	ID        string              `json:"id"`
	LabelKey  core.LocKey         `json:"labelKey"`
	Condition condition.Condition `json:"condition"`
	By        int64               `json:"by,omitempty"`
}

// Failure ends the game the first tick its condition holds; its id is the
// outcome's failureId.
type Failure struct {
	ID        string              `json:"id"`
	LabelKey  core.LocKey         `json:"labelKey"`
	Condition condition.Condition `json:"condition"`
}

// EndingKeys are the authored texts shown when the game resolves.
type EndingKeys struct {
	ObjectivesMet core.LocKey `json:"objectives_met"`
	Failed        core.LocKey `json:"failed"`
}

type contentIndex struct {
	node       map[string]int
	building   map[string]int
	staff      map[string]int
	objective  map[string]int
	neighbours [][]int // by node index, in edge declaration order
	cheapest   int64   // the lowest price of any band
}

// index returns the lookup tables compile built.
func (c *Content) index() *contentIndex { return c.idx }

// compile builds the lookup tables of c and everything else play derives
// from the content. BuildContent and DecodeContent call it before they
// return the content, and nothing changes the content afterwards, so any
// number of games (and goroutines) can share one registry.
func (c *Content) compile() {
	ix := &contentIndex{node: map[string]int{}, building: map[string]int{}, staff: map[string]int{}, objective: map[string]int{}}
	for i, n := range c.Nodes {
		ix.node[n.ID] = i
	}
	for i, b := range c.Buildings {
		ix.building[b.ID] = i
	}
	for i, s := range c.Staff {
		ix.staff[s.ID] = i
	}
	for i, o := range c.Objectives {
		ix.objective[o.ID] = i
	}
	ix.neighbours = make([][]int, len(c.Nodes))
	for _, e := range c.Edges {
		a, okA := ix.node[e.From]
		b, okB := ix.node[e.To]
		if okA && okB && a != b {
			ix.neighbours[a] = append(ix.neighbours[a], b)
			ix.neighbours[b] = append(ix.neighbours[b], a)
		}
	}
	ix.cheapest = -1
	for _, b := range c.Buildings {
		for _, p := range b.PriceBands {
			if ix.cheapest < 0 || p.Price < ix.cheapest {
				ix.cheapest = p.Price
			}
		}
	}
	c.idx = ix
}

func (b *Building) band(id string) (PriceBand, bool) {
	for _, p := range b.PriceBands {
		if p.ID == id {
			return p, true
		}
	}
	return PriceBand{}, false
}

// spec describes the kind to package contentkind.
var spec = contentkind.Spec[Content, State]{
	KindID:   KindID,
	Prefix:   "world",
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

// ValidateCampaign implements core.Kind: tier 1 and every LocKey against
// the campaign's own strings; tier 2 warns about nodes no guest can reach.
func (Kind) ValidateCampaign(c *core.Campaign, strings map[core.LocKey]string) core.ValidationResult {
	return spec.Validate(c, strings, unreachable)
}

// unreachable warns, when content passes tier 1, about every node no path
// leads to from the entrance.
func unreachable(content *Content, errs []core.ValidationError) []core.ValidationWarning {
	warnings := []core.ValidationWarning{}
	if len(errs) == 0 {
		ix := content.index()
		seen := make([]bool, len(content.Nodes))
		queue := []int{ix.node[content.Entrance]}
		seen[queue[0]] = true
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, m := range ix.neighbours[n] {
				if !seen[m] {
					seen[m] = true
					queue = append(queue, m)
				}
			}
		}
		for i, n := range content.Nodes {
			if !seen[i] {
				warnings = append(warnings, core.Errorf(core.ReasonUnreachableContent, "content.nodes."+n.ID, "world: no path leads from the entrance to node %q", n.ID))
			}
		}
	}
	return warnings
}

// locKeys lists every LocKey the content uses, with its path.
func (c *Content) locKeys() authoring.Keys {
	var ks authoring.Keys
	ks.Add(c.IntroKey, "content.intro")
	ks.Add(c.Endings.ObjectivesMet, "content.endings.objectives_met")
	ks.Add(c.Endings.Failed, "content.endings.failed")
	if t := c.EndingTitles; t != nil {
		ks.Add(t.ObjectivesMet, "content.endingTitles.objectives_met")
		ks.Add(t.Failed, "content.endingTitles.failed")
	}
	for _, n := range c.Nodes {
		ks.Add(n.LabelKey, "content.nodes."+n.ID+".label")
	}
	for _, b := range c.Buildings {
		p := "content.buildings." + b.ID
		ks.Add(b.LabelKey, p+".label")
		ks.Add(b.DescriptionKey, p+".description")
		for _, band := range b.PriceBands {
			ks.Add(band.LabelKey, p+".priceBands."+band.ID+".label")
		}
	}
	for _, s := range c.Staff {
		ks.Add(s.LabelKey, "content.staff."+s.ID+".label")
		ks.Add(s.DescriptionKey, "content.staff."+s.ID+".description")
	}
	for _, in := range c.Incidents {
		ks.Add(in.TitleKey, "content.incidents."+in.ID+".title")
		ks.Add(in.MessageKey, "content.incidents."+in.ID+".text")
	}
	for _, o := range c.Objectives {
		ks.Add(o.LabelKey, "content.objectives."+o.ID+".label")
	}
	for _, f := range c.Failures {
		ks.Add(f.LabelKey, "content.failures."+f.ID+".label")
	}
	contentkind.AchievementKeys(&ks, c.Achievements)
	c.offerKeys(&ks)
	return ks
}

// check runs the tier 1 checks on built content into k.
func (c *Content) check(k *authoring.Findings) {
	k.Range("content.startingMoney", c.StartingMoney, 0, MaxMoney)
	k.Range("content.tickLimit", c.TickLimit, 1, MaxTickLimit)
	if len(c.Currency) > 8 {
		k.Add(ReasonInvalidNumber, "content.currency", "currency symbol %q is longer than 8 bytes", c.Currency)
	}
	if len(c.Nodes) == 0 || len(c.Nodes) > MaxNodes {
		k.Add(ReasonInvalidNumber, "content.nodes", "a world has 1 to %d nodes, got %d", MaxNodes, len(c.Nodes))
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"content.buildings", len(c.Buildings)}, {"content.staff", len(c.Staff)}, {"content.incidents", len(c.Incidents)}, {"content.objectives", len(c.Objectives)}, {"content.failures", len(c.Failures)}} {
		if l.n > MaxElements {
			k.Add(ReasonInvalidNumber, l.name, "too many elements (%d)", l.n)
		}
	}
	if len(c.Edges) > 4*MaxNodes {
		k.Add(ReasonInvalidNumber, "content.edges", "at most %d edges, got %d", 4*MaxNodes, len(c.Edges))
	}
	nodes := map[string]bool{}
	seen := map[string]bool{}
	for i, n := range c.Nodes {
		p := authoring.ElemPath("content.nodes", i, n.ID)
		k.ID(seen, p, n.ID)
		nodes[n.ID] = true
		k.Range(p+".x", n.X, -maxSmallValue, maxSmallValue)
		k.Range(p+".y", n.Y, -maxSmallValue, maxSmallValue)
	}
	if !nodes[c.Entrance] {
		k.Add(ReasonUnknownReference, "content.entrance", "entrance %q is not a node", c.Entrance)
	}
	for i, e := range c.Edges {
		p := fmt.Sprintf("content.edges[%d]", i)
		if !nodes[e.From] {
			k.Add(ReasonUnknownReference, p+".from", "unknown node %q", e.From)
		}
		if !nodes[e.To] {
			k.Add(ReasonUnknownReference, p+".to", "unknown node %q", e.To)
		}
		if e.From == e.To {
			k.Add(ReasonUnknownReference, p, "an edge joins two different nodes")
		}
	}
	buildings := map[string]*Building{}
	seen = map[string]bool{}
	for i := range c.Buildings {
		b := &c.Buildings[i]
		p := authoring.ElemPath("content.buildings", i, b.ID)
		k.ID(seen, p, b.ID)
		buildings[b.ID] = b
		k.Range(p+".cost", b.Cost, 0, MaxMoney)
		k.Range(p+".upkeep", b.Upkeep, 0, MaxMoney)
		k.Range(p+".capacity", b.Capacity, 1, MaxGuests)
		k.Range(p+".duration", b.Duration, 1, 1000)
		k.Range(p+".appeal", b.Appeal, 1, 100)
		k.Range(p+".fun", b.Fun, -100, 100)
		k.Range(p+".breakdownPermille", b.BreakdownPermille, 0, 1000)
		if len(b.PriceBands) == 0 || len(b.PriceBands) > 8 {
			k.Add(ReasonInvalidNumber, p+".priceBands", "a building has 1 to 8 price bands, got %d", len(b.PriceBands))
		}
		bands := map[string]bool{}
		for j, band := range b.PriceBands {
			bp := authoring.ElemPath(p+".priceBands", j, band.ID)
			k.ID(bands, bp, band.ID)
			k.Range(bp+".price", band.Price, 0, MaxMoney)
			k.Range(bp+".appeal", band.Appeal, 1, 1000)
		}
		if !bands[b.DefaultBand] {
			k.Add(ReasonUnknownReference, p+".defaultBand", "default band %q is not one of the building's bands", b.DefaultBand)
		}
	}
	staff := map[string]bool{}
	seen = map[string]bool{}
	for i, s := range c.Staff {
		p := authoring.ElemPath("content.staff", i, s.ID)
		k.ID(seen, p, s.ID)
		staff[s.ID] = true
		k.Range(p+".wage", s.Wage, 0, MaxMoney)
		k.Range(p+".repairs", s.Repairs, 0, MaxNodes)
		k.Range(p+".cheer", s.Cheer, 0, 100)
		k.Range(p+".max", s.Max, 1, 100)
	}
	g := c.Guests
	k.Range("content.guests.arrivalPercent", g.ArrivalPercent, 0, 10_000)
	k.Range("content.guests.maxGuests", g.MaxGuests, 1, MaxGuests)
	k.Range("content.guests.budgetMin", g.BudgetMin, 0, MaxMoney)
	k.Range("content.guests.budgetMax", g.BudgetMax, g.BudgetMin, MaxMoney)
	k.Range("content.guests.patience", g.Patience, 1, MaxTickLimit)
	k.Range("content.guests.happiness", g.Happiness, 1, 100)
	seen = map[string]bool{}
	for i, in := range c.Incidents {
		p := authoring.ElemPath("content.incidents", i, in.ID)
		k.ID(seen, p, in.ID)
		if in.ChancePermille <= 0 || in.ChancePermille > 1000 {
			k.Add(ReasonInvalidNumber, p+".chancePermille", "chance %d is not a positive permille up to 1000", in.ChancePermille)
		}
		k.Range(p+".duration", in.Duration, 1, MaxTickLimit)
		k.Range(p+".arrivalPercent", in.ArrivalPercent, 0, 1000)
	}
	occupied := map[string]bool{}
	for i, pl := range c.Start.Buildings {
		p := fmt.Sprintf("content.start.buildings[%d]", i)
		if !nodes[pl.Node] {
			k.Add(ReasonUnknownReference, p+".node", "unknown node %q", pl.Node)
		} else if occupied[pl.Node] {
			k.Add(ReasonDuplicateID, p+".node", "node %q is built on twice", pl.Node)
		}
		occupied[pl.Node] = true
		b := buildings[pl.Building]
		if b == nil {
			k.Add(ReasonUnknownReference, p+".building", "unknown building %q", pl.Building)
		} else if _, ok := b.band(pl.Band); !ok {
			k.Add(ReasonUnknownReference, p+".band", "building %q has no price band %q", pl.Building, pl.Band)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.Start.Staff)) {
		if !staff[id] {
			k.Add(ReasonUnknownReference, "content.start.staff."+id, "unknown staff %q", id)
			continue
		}
		k.Range("content.start.staff."+id, c.Start.Staff[id], 0, 100)
	}
	seen = map[string]bool{}
	if len(c.Objectives) == 0 {
		k.Add(ReasonMissingField, "content.objectives", "a campaign needs at least one objective")
	}
	for i, o := range c.Objectives {
		p := authoring.ElemPath("content.objectives", i, o.ID)
		k.ID(seen, p, o.ID)
		k.Range(p+".by", o.By, 0, c.TickLimit)
		checkCondition(k, p+".condition", o.Condition, buildings, staff)
	}
	for i, f := range c.Failures {
		p := authoring.ElemPath("content.failures", i, f.ID)
		k.ID(seen, p, f.ID)
		if f.ID == FailureTickLimit {
			k.Add(ReasonReservedID, p+".id", "failure id %q is reserved", f.ID)
		}
		checkCondition(k, p+".condition", f.Condition, buildings, staff)
	}
	c.checkOffers(k, buildings, staff)
	contentkind.CheckAchievements(k, c.Achievements, func(f string) string {
		if knownField(f, buildings, staff) {
			return authoring.FieldNumber
		}
		return ""
	})
}

// checkCondition checks a condition's shape and vocabulary
// (docs/world-graph-kind.md, "Conditions"): every field is a number.
func checkCondition(k *authoring.Findings, path string, c condition.Condition, buildings map[string]*Building, staff map[string]bool) {
	k.Condition(path, c, func(f string) string {
		if knownField(f, buildings, staff) {
			return authoring.FieldNumber
		}
		return ""
	})
}

func knownField(f string, buildings map[string]*Building, staff map[string]bool) bool {
	switch f {
	case "money", "tick", "rating", "guests", "arrived", "served", "revenue", "built", "broken":
		return true
	}
	if len(f) > 6 && f[:6] == "built." {
		return buildings[f[6:]] != nil
	}
	if len(f) > 6 && f[:6] == "staff." {
		return staff[f[6:]]
	}
	return false
}
