package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
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
	StartingMoney int64         `json:"startingMoney"`
	Currency      string        `json:"currency"`
	IntroKey      core.LocKey   `json:"introKey"`
	TickLimit     int64         `json:"tickLimit"`
	Entrance      string        `json:"entrance"`
	Nodes         []Node        `json:"nodes"`
	Edges         []Edge        `json:"edges"`
	Buildings     []Building    `json:"buildings"`
	Staff         []Staff       `json:"staff"`
	Guests        GuestRules    `json:"guests"`
	Incidents     []Incident    `json:"incidents"`
	Start         Start         `json:"start"`
	Objectives    []Objective   `json:"objectives"`
	Failures      []Failure     `json:"failures"`
	Endings       EndingKeys    `json:"endings"`
	idx           *contentIndex `json:"-"`
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

func (c *Content) index() *contentIndex {
	if c.idx != nil {
		return c.idx
	}
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
	return ix
}

func (b *Building) band(id string) (PriceBand, bool) {
	for _, p := range b.PriceBands {
		if p.ID == id {
			return p, true
		}
	}
	return PriceBand{}, false
}

func contentOf(c *core.Campaign) *Content {
	content, ok := c.Content.(*Content)
	if !ok {
		panic(fmt.Sprintf("world: campaign %q carries %T, not *world.Content", c.ID, c.Content))
	}
	content.index()
	return content
}

// DecodeContent implements core.Kind: it reads runtime content as it
// encodes to JSON, refusing unknown fields and content that fails tier 1.
func (Kind) DecodeContent(raw json.RawMessage) (any, error) {
	var c Content
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("world: content: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("world: content: trailing data")
	}
	if errs := c.check(); len(errs) > 0 {
		return nil, fmt.Errorf("world: content: %v", errs[0])
	}
	c.index()
	return &c, nil
}

// ValidateCampaign implements core.Kind: tier 1 and every LocKey against
// the campaign's own strings; tier 2 warns about nodes no guest can reach.
func (Kind) ValidateCampaign(c *core.Campaign, strings map[core.LocKey]string) core.ValidationResult {
	content, ok := c.Content.(*Content)
	if !ok {
		err := core.KindErrorf(KindID, ReasonMissingField, "content", "world: campaign %q has no world-graph content", c.ID)
		return core.ValidationResult{Errors: []core.ValidationError{err}, Warnings: []core.ValidationWarning{}}
	}
	errs := content.check()
	for _, k := range content.locKeys() {
		if _, ok := strings[k.key]; !ok {
			errs = append(errs, core.Errorf(core.ReasonMissingStringKey, k.path, "world: no text for %q", k.key))
		}
	}
	if errs == nil {
		errs = []core.ValidationError{}
	}
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
	return core.ValidationResult{OK: len(errs) == 0, Errors: errs, Warnings: warnings}
}

type keyAt struct {
	key  core.LocKey
	path string
}

func (c *Content) locKeys() []keyAt {
	out := []keyAt{{c.IntroKey, "content.intro"}, {c.Endings.ObjectivesMet, "content.endings.objectives_met"}, {c.Endings.Failed, "content.endings.failed"}}
	for _, n := range c.Nodes {
		out = append(out, keyAt{n.LabelKey, "content.nodes." + n.ID + ".label"})
	}
	for _, b := range c.Buildings {
		p := "content.buildings." + b.ID
		out = append(out, keyAt{b.LabelKey, p + ".label"}, keyAt{b.DescriptionKey, p + ".description"})
		for _, band := range b.PriceBands {
			out = append(out, keyAt{band.LabelKey, p + ".priceBands." + band.ID + ".label"})
		}
	}
	for _, s := range c.Staff {
		out = append(out, keyAt{s.LabelKey, "content.staff." + s.ID + ".label"}, keyAt{s.DescriptionKey, "content.staff." + s.ID + ".description"})
	}
	for _, in := range c.Incidents {
		out = append(out, keyAt{in.TitleKey, "content.incidents." + in.ID + ".title"}, keyAt{in.MessageKey, "content.incidents." + in.ID + ".text"})
	}
	for _, o := range c.Objectives {
		out = append(out, keyAt{o.LabelKey, "content.objectives." + o.ID + ".label"})
	}
	for _, f := range c.Failures {
		out = append(out, keyAt{f.LabelKey, "content.failures." + f.ID + ".label"})
	}
	return out
}

type checker struct{ errs []core.ValidationError }

func (k *checker) add(code, path, format string, args ...any) {
	k.errs = append(k.errs, core.KindErrorf(KindID, code, path, "world: "+format, args...))
}

func (k *checker) rangeInt(path string, v, min, max int64) {
	if v < min || v > max {
		k.add(ReasonInvalidNumber, path, "%d is out of range [%d, %d]", v, min, max)
	}
}

func elemPath(list string, i int, id string) string {
	if core.IsSnakeID(id) {
		return list + "." + id
	}
	return fmt.Sprintf("%s[%d]", list, i)
}

func (k *checker) id(seen map[string]bool, path, id string) {
	switch {
	case id == "":
		k.add(ReasonMissingField, path+".id", "missing id")
	case !core.IsSnakeID(id):
		k.errs = append(k.errs, core.Errorf(core.ReasonInvalidIdentifier, path+".id", "world: %q is not a snake_case id", id))
	case seen[id]:
		k.add(ReasonDuplicateID, path+".id", "id %q is declared twice", id)
	}
	seen[id] = true
}

// check runs the tier 1 checks on built content.
func (c *Content) check() []core.ValidationError {
	k := &checker{}
	k.rangeInt("content.startingMoney", c.StartingMoney, 0, MaxMoney)
	k.rangeInt("content.tickLimit", c.TickLimit, 1, MaxTickLimit)
	if len(c.Currency) > 8 {
		k.add(ReasonInvalidNumber, "content.currency", "currency symbol %q is longer than 8 bytes", c.Currency)
	}
	if len(c.Nodes) == 0 || len(c.Nodes) > MaxNodes {
		k.add(ReasonInvalidNumber, "content.nodes", "a world has 1 to %d nodes, got %d", MaxNodes, len(c.Nodes))
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"content.buildings", len(c.Buildings)}, {"content.staff", len(c.Staff)}, {"content.incidents", len(c.Incidents)}, {"content.objectives", len(c.Objectives)}, {"content.failures", len(c.Failures)}} {
		if l.n > MaxElements {
			k.add(ReasonInvalidNumber, l.name, "too many elements (%d)", l.n)
		}
	}
	if len(c.Edges) > 4*MaxNodes {
		k.add(ReasonInvalidNumber, "content.edges", "at most %d edges, got %d", 4*MaxNodes, len(c.Edges))
	}
	nodes := map[string]bool{}
	seen := map[string]bool{}
	for i, n := range c.Nodes {
		p := elemPath("content.nodes", i, n.ID)
		k.id(seen, p, n.ID)
		nodes[n.ID] = true
		k.rangeInt(p+".x", n.X, -maxSmallValue, maxSmallValue)
		k.rangeInt(p+".y", n.Y, -maxSmallValue, maxSmallValue)
	}
	if !nodes[c.Entrance] {
		k.add(ReasonUnknownReference, "content.entrance", "entrance %q is not a node", c.Entrance)
	}
	for i, e := range c.Edges {
		p := fmt.Sprintf("content.edges[%d]", i)
		if !nodes[e.From] {
			k.add(ReasonUnknownReference, p+".from", "unknown node %q", e.From)
		}
		if !nodes[e.To] {
			k.add(ReasonUnknownReference, p+".to", "unknown node %q", e.To)
		}
		if e.From == e.To {
			k.add(ReasonUnknownReference, p, "an edge joins two different nodes")
		}
	}
	buildings := map[string]*Building{}
	seen = map[string]bool{}
	for i := range c.Buildings {
		b := &c.Buildings[i]
		p := elemPath("content.buildings", i, b.ID)
		k.id(seen, p, b.ID)
		buildings[b.ID] = b
		k.rangeInt(p+".cost", b.Cost, 0, MaxMoney)
		k.rangeInt(p+".upkeep", b.Upkeep, 0, MaxMoney)
		k.rangeInt(p+".capacity", b.Capacity, 1, MaxGuests)
		k.rangeInt(p+".duration", b.Duration, 1, 1000)
		k.rangeInt(p+".appeal", b.Appeal, 1, 100)
		k.rangeInt(p+".fun", b.Fun, -100, 100)
		k.rangeInt(p+".breakdownPermille", b.BreakdownPermille, 0, 1000)
		if len(b.PriceBands) == 0 || len(b.PriceBands) > 8 {
			k.add(ReasonInvalidNumber, p+".priceBands", "a building has 1 to 8 price bands, got %d", len(b.PriceBands))
		}
		bands := map[string]bool{}
		for j, band := range b.PriceBands {
			bp := elemPath(p+".priceBands", j, band.ID)
			k.id(bands, bp, band.ID)
			k.rangeInt(bp+".price", band.Price, 0, MaxMoney)
			k.rangeInt(bp+".appeal", band.Appeal, 1, 1000)
		}
		if !bands[b.DefaultBand] {
			k.add(ReasonUnknownReference, p+".defaultBand", "default band %q is not one of the building's bands", b.DefaultBand)
		}
	}
	staff := map[string]bool{}
	seen = map[string]bool{}
	for i, s := range c.Staff {
		p := elemPath("content.staff", i, s.ID)
		k.id(seen, p, s.ID)
		staff[s.ID] = true
		k.rangeInt(p+".wage", s.Wage, 0, MaxMoney)
		k.rangeInt(p+".repairs", s.Repairs, 0, MaxNodes)
		k.rangeInt(p+".cheer", s.Cheer, 0, 100)
		k.rangeInt(p+".max", s.Max, 1, 100)
	}
	g := c.Guests
	k.rangeInt("content.guests.arrivalPercent", g.ArrivalPercent, 0, 10_000)
	k.rangeInt("content.guests.maxGuests", g.MaxGuests, 1, MaxGuests)
	k.rangeInt("content.guests.budgetMin", g.BudgetMin, 0, MaxMoney)
	k.rangeInt("content.guests.budgetMax", g.BudgetMax, g.BudgetMin, MaxMoney)
	k.rangeInt("content.guests.patience", g.Patience, 1, MaxTickLimit)
	k.rangeInt("content.guests.happiness", g.Happiness, 1, 100)
	seen = map[string]bool{}
	for i, in := range c.Incidents {
		p := elemPath("content.incidents", i, in.ID)
		k.id(seen, p, in.ID)
		if in.ChancePermille <= 0 || in.ChancePermille > 1000 {
			k.add(ReasonInvalidNumber, p+".chancePermille", "chance %d is not a positive permille up to 1000", in.ChancePermille)
		}
		k.rangeInt(p+".duration", in.Duration, 1, MaxTickLimit)
		k.rangeInt(p+".arrivalPercent", in.ArrivalPercent, 0, 1000)
	}
	occupied := map[string]bool{}
	for i, pl := range c.Start.Buildings {
		p := fmt.Sprintf("content.start.buildings[%d]", i)
		if !nodes[pl.Node] {
			k.add(ReasonUnknownReference, p+".node", "unknown node %q", pl.Node)
		} else if occupied[pl.Node] {
			k.add(ReasonDuplicateID, p+".node", "node %q is built on twice", pl.Node)
		}
		occupied[pl.Node] = true
		b := buildings[pl.Building]
		if b == nil {
			k.add(ReasonUnknownReference, p+".building", "unknown building %q", pl.Building)
		} else if _, ok := b.band(pl.Band); !ok {
			k.add(ReasonUnknownReference, p+".band", "building %q has no price band %q", pl.Building, pl.Band)
		}
	}
	for _, id := range sortedKeys(c.Start.Staff) {
		if !staff[id] {
			k.add(ReasonUnknownReference, "content.start.staff."+id, "unknown staff %q", id)
			continue
		}
		k.rangeInt("content.start.staff."+id, c.Start.Staff[id], 0, 100)
	}
	seen = map[string]bool{}
	if len(c.Objectives) == 0 {
		k.add(ReasonMissingField, "content.objectives", "a campaign needs at least one objective")
	}
	for i, o := range c.Objectives {
		p := elemPath("content.objectives", i, o.ID)
		k.id(seen, p, o.ID)
		k.rangeInt(p+".by", o.By, 0, c.TickLimit)
		k.condition(p+".condition", o.Condition, buildings, staff)
	}
	for i, f := range c.Failures {
		p := elemPath("content.failures", i, f.ID)
		k.id(seen, p, f.ID)
		if f.ID == FailureTickLimit {
			k.add(ReasonReservedID, p+".id", "failure id %q is reserved", f.ID)
		}
		k.condition(p+".condition", f.Condition, buildings, staff)
	}
	return k.errs
}

// condition checks a condition's shape and vocabulary
// (docs/world-graph-kind.md, "Conditions"): every field is a number.
func (k *checker) condition(path string, c condition.Condition, buildings map[string]*Building, staff map[string]bool) {
	if err := c.Check(); err != nil {
		k.add(ReasonInvalidCondition, path, "%v", err)
		return
	}
	var walk func(c condition.Condition)
	walk = func(c condition.Condition) {
		switch {
		case c.Field != "":
			if !knownField(c.Field, buildings, staff) {
				k.add(ReasonUnknownReference, path, "unknown field %q", c.Field)
				return
			}
			switch c.Operator {
			case condition.In, condition.NotIn:
				for _, v := range c.Value.([]any) {
					if _, ok := v.(float64); !ok {
						k.add(ReasonInvalidCondition, path, "field %q is a number; %s needs numbers", c.Field, c.Operator)
					}
				}
			case condition.Contains, condition.HasTag, condition.HasFlag:
				k.add(ReasonInvalidCondition, path, "field %q is a number; %s does not apply", c.Field, c.Operator)
			default:
				if _, ok := c.Value.(float64); !ok {
					k.add(ReasonInvalidCondition, path, "field %q is a number; compare it with a number", c.Field)
				}
			}
		case c.Not != nil:
			walk(*c.Not)
		case c.Exists != nil || c.Count != nil:
			k.add(ReasonUnknownReference, path, "the world-graph kind has no collections to quantify over")
		}
		for _, sub := range c.All {
			walk(sub)
		}
		for _, sub := range c.Any {
			walk(sub)
		}
	}
	walk(c)
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
