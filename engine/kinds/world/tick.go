package world

import (
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/pipeline"
	"github.com/storyloom/storyloom/engine/rng"
)

// Stream system names of the world-level draws: each tick t draws on
// tick:<t>:<name>.
const (
	StreamIncidents  = "incidents"
	StreamArrivals   = "arrivals"
	StreamBreakdowns = "breakdowns"
)

// tickFrame is what the tick systems pass along. The state in it is the
// private copy the current advance_ticks made; systems change it in place.
type tickFrame struct {
	c      *Content
	s      *State
	t      int64 // the tick being resolved, 1-based
	derive func(rng.StreamID) *rng.Handle
	// settled collects objectives settled during the batch, in order.
	settled []settlement
	// offers collects the offers opened and lapsed during the batch.
	offers []offerEvent
	// stopAtOffer ends the batch at the tick an offer opens.
	stopAtOffer bool
	// sites mirrors s.Sites by node index for the whole advance, each site
	// resolved against the catalogue once, so that guests decide without
	// map lookups. A system that changes a site changes both.
	sites []siteSlot
	// picks is scratch space for a walking guest's weighted choice.
	picks []rng.Weighted[int]
}

// siteSlot is what stands on one node, if anything.
type siteSlot struct {
	built  bool
	broken bool
	dirty  bool // used changed and is not yet in s.Sites
	used   int64
	b      *Building
	price  int64 // of the site's price band
	appeal int64 // the building's appeal × its band's appeal / 100
}

// slots resolves s.Sites by node index.
func slots(s *State, c *Content) []siteSlot {
	ix := c.index()
	out := make([]siteSlot, len(c.Nodes))
	for i, n := range c.Nodes {
		site, ok := s.Sites[n.ID]
		if !ok {
			continue
		}
		b := &c.Buildings[ix.building[site.Building]]
		band, _ := b.band(site.Band)
		out[i] = siteSlot{built: true, broken: site.Broken, used: site.Used, b: b, price: band.Price, appeal: b.Appeal * band.Appeal / 100}
	}
	return out
}

// setBroken breaks or repairs the site on node i.
func (f *tickFrame) setBroken(i int, broken bool) {
	f.sites[i].broken = broken
	id := f.c.Nodes[i].ID
	site := f.s.Sites[id]
	site.Broken = broken
	f.s.Sites[id] = site
}

type settlement struct {
	objective *Objective
	status    string
}

// tickSystems is the normative order of one tick (docs/world-graph-kind.md,
// "The tick").
var tickSystems = []pipeline.System[*tickFrame]{
	{ID: "clock", Run: runClock},
	{ID: "incidents", Run: runIncidents},
	{ID: "arrivals", Run: runArrivals},
	{ID: "guests", Run: runGuests},
	{ID: "breakdowns", Run: runBreakdowns},
	{ID: "staff", Run: runStaff},
	{ID: "economy", Run: runEconomy},
	{ID: "offers", Run: runOffers},
	{ID: "objectives", Run: runObjectives},
}

// TickSystems returns the ids of the tick systems in the order they run.
func TickSystems() []string { return pipeline.IDs(tickSystems) }

func (f *tickFrame) alert(typ, subject string) {
	f.s.Alerts = append(f.s.Alerts, Alert{Tick: f.t, Type: typ, Subject: subject})
	if n := len(f.s.Alerts); n > MaxAlerts {
		f.s.Alerts = append(f.s.Alerts[:0:0], f.s.Alerts[n-MaxAlerts:]...)
	}
}

// runClock starts tick t: the tick count moves on, every site's use count
// resets, and incidents that ended before t expire.
func runClock(f *tickFrame) *tickFrame {
	f.s.Tick = f.t
	for i := range f.sites {
		if sl := &f.sites[i]; sl.used != 0 {
			sl.used = 0
			id := f.c.Nodes[i].ID
			site := f.s.Sites[id]
			site.Used = 0
			f.s.Sites[id] = site
		}
	}
	for id, until := range f.s.Incidents {
		if until < f.t {
			delete(f.s.Incidents, id)
		}
	}
	return f
}

// runIncidents rolls, on tick:<t>:incidents, each inactive incident in
// declaration order: a permille roll below chancePermille starts it for
// duration ticks.
func runIncidents(f *tickFrame) *tickFrame {
	if len(f.c.Incidents) == 0 {
		return f
	}
	var h *rng.Handle
	for i := range f.c.Incidents {
		in := &f.c.Incidents[i]
		if _, active := f.s.Incidents[in.ID]; active {
			continue
		}
		if h == nil {
			h = f.derive(rng.Tick(f.t, StreamIncidents))
		}
		if int64(h.Intn(1000)) < in.ChancePermille {
			f.s.Incidents[in.ID] = f.t + in.Duration - 1
			f.alert(AlertIncidentActive, in.ID)
		}
	}
	return f
}

// working counts the sites that are not broken.
func (f *tickFrame) working() int64 {
	n := int64(0)
	for _, sl := range f.sites {
		if sl.built && !sl.broken {
			n++
		}
	}
	return n
}

// runArrivals draws on tick:<t>:arrivals how many guests arrive: an
// expected number in hundredths, arrivalPercent × (50 + rating) / 100 ×
// min(100, 25 + 15 × working sites) / 100, scaled by each active
// incident's arrivalPercent; the whole part arrives and the rest arrives
// with that percent chance. Each new guest draws its budget on
// agent:<id>:0.
func runArrivals(f *tickFrame) *tickFrame {
	g := &f.c.Guests
	pct := g.ArrivalPercent * (50 + f.s.Rating) / 100
	pct = pct * min(100, 25+15*f.working()) / 100
	for _, in := range f.c.Incidents {
		if _, active := f.s.Incidents[in.ID]; active {
			pct = pct * in.ArrivalPercent / 100
		}
	}
	n := pct / 100
	if pct%100 != 0 && int64(f.derive(rng.Tick(f.t, StreamArrivals)).NextPercent()) < pct%100 {
		n++
	}
	n = min(n, g.MaxGuests-int64(len(f.s.Guests)))
	entrance := f.c.Entrance
	for i := int64(0); i < n; i++ {
		id := "g" + itoa(f.s.NextGuest)
		f.s.NextGuest++
		budget := g.BudgetMin
		if g.BudgetMax > g.BudgetMin {
			budget, _ = f.derive(rng.Agent(id, 0)).NextInt(g.BudgetMin, g.BudgetMax)
		}
		f.s.Guests = append(f.s.Guests, Guest{ID: id, Node: entrance, Money: budget, Happy: g.Happiness, Seq: 1})
		f.s.Arrived++
	}
	return f
}

// walkTicks is how long a guest takes to walk along one edge.
const walkTicks = 2

// runGuests moves every guest, in arrival order. A busy guest (on a ride)
// counts down; a guest whose patience or money has run out, or who is
// miserable, leaves and moves the rating; any other guest makes one
// decision on agent:<id>:<seq>: ride what stands at its node when it can
// and a percent roll falls below the building's appeal × its price band's
// appeal / 100 (clamped to 5–95), otherwise lose a point of happiness and
// walk to a neighbour picked by weight 1 + the appeal of what works there,
// which takes walkTicks ticks.
func runGuests(f *tickFrame) *tickFrame {
	ix := f.c.index()
	kept := f.s.Guests[:0]
	for _, g := range f.s.Guests {
		g.Stay++
		if g.Busy > 0 {
			g.Busy--
			kept = append(kept, g)
			continue
		}
		if g.Stay > f.c.Guests.Patience || g.Happy <= 0 || g.Money < ix.cheapest {
			f.s.Rating = (f.s.Rating*3 + g.Happy) / 4
			continue
		}
		// The decision draws on agent:<id>:<seq>, derived only when a draw
		// decides something: a walk with one way to go draws nothing that
		// matters, and the stream is never drawn on again.
		seq := g.Seq
		g.Seq++
		var h *rng.Handle
		here := ix.node[g.Node]
		rode := false
		if sl := &f.sites[here]; sl.built && !sl.broken && sl.used < sl.b.Capacity && sl.price <= g.Money {
			chance := min(95, max(5, sl.appeal))
			h = f.derive(rng.Agent(g.ID, int(seq)))
			if int64(h.NextPercent()) < chance {
				rode = true
				sl.used++
				sl.dirty = true
				g.Money -= sl.price
				f.s.Money += sl.price
				f.s.Revenue += sl.price
				f.s.Served++
				g.Happy = min(100, max(0, g.Happy+sl.b.Fun))
				g.Busy = sl.b.Duration - 1
			}
		}
		if !rode {
			g.Happy--
			if next := ix.neighbours[here]; len(next) > 0 {
				n := next[0]
				if len(next) > 1 {
					picks := f.picks[:0]
					for _, m := range next {
						w := int64(1)
						if sl := &f.sites[m]; sl.built && !sl.broken {
							w += sl.appeal
						}
						picks = append(picks, rng.Weighted[int]{Item: m, Weight: w})
					}
					f.picks = picks
					if h == nil {
						h = f.derive(rng.Agent(g.ID, int(seq)))
					}
					n, _ = rng.WeightedPick(h, picks)
				}
				g.Node = f.c.Nodes[n].ID
				g.Busy = walkTicks - 1
			}
		}
		kept = append(kept, g)
	}
	f.s.Guests = kept
	for i := range f.sites {
		if sl := &f.sites[i]; sl.dirty {
			sl.dirty = false
			id := f.c.Nodes[i].ID
			site := f.s.Sites[id]
			site.Used = sl.used
			f.s.Sites[id] = site
		}
	}
	return f
}

// runBreakdowns rolls, on tick:<t>:breakdowns, each working site in node
// order: a permille roll below the building's breakdownPermille breaks it.
func runBreakdowns(f *tickFrame) *tickFrame {
	var h *rng.Handle
	for i, n := range f.c.Nodes {
		sl := &f.sites[i]
		if !sl.built || sl.broken || sl.b.BreakdownPermille == 0 {
			continue
		}
		if h == nil {
			h = f.derive(rng.Tick(f.t, StreamBreakdowns))
		}
		if int64(h.Intn(1000)) < sl.b.BreakdownPermille {
			f.setBroken(i, true)
			f.alert(AlertBuildingBroken, n.ID)
		}
	}
	return f
}

// runStaff lets staff work: broken sites are repaired in node order, as
// many per tick as the hired staff's repairs add up to, and every guest
// gains the hired staff's cheer in happiness.
func runStaff(f *tickFrame) *tickFrame {
	var repairs, cheer int64
	for _, st := range f.c.Staff {
		n := f.s.Staff[st.ID]
		repairs += st.Repairs * n
		cheer += st.Cheer * n
	}
	for i, n := range f.c.Nodes {
		if repairs == 0 {
			break
		}
		if sl := &f.sites[i]; sl.built && sl.broken {
			f.setBroken(i, false)
			repairs--
			f.alert(AlertBuildingRepaired, n.ID)
		}
	}
	if cheer > 0 {
		for i := range f.s.Guests {
			f.s.Guests[i].Happy = min(100, f.s.Guests[i].Happy+cheer)
		}
	}
	return f
}

// runEconomy pays every site's upkeep and every hired staff's wage.
func runEconomy(f *tickFrame) *tickFrame {
	for _, sl := range f.sites {
		if sl.built {
			f.s.Money -= sl.b.Upkeep
		}
	}
	for _, st := range f.c.Staff {
		f.s.Money -= st.Wage * f.s.Staff[st.ID]
	}
	return f
}

// runObjectives settles the world: the first failure whose condition holds
// fails the game with its id; an objective is met the first tick its
// condition holds and fails (failureId = its id) when its deadline passes;
// when every objective is met the game ends objectives_met; at the tick
// limit it fails with failureId tick_limit.
func runObjectives(f *tickFrame) *tickFrame {
	s := f.s
	for i := range f.c.Failures {
		if holds(&f.c.Failures[i].Condition, s) {
			f.resolve(ResolutionFailed, f.c.Failures[i].ID)
			return f
		}
	}
	all := true
	failed := ""
	for i := range f.c.Objectives {
		o := &f.c.Objectives[i]
		status := s.Objectives[o.ID]
		if status == "" {
			switch {
			case holds(&o.Condition, s):
				status = ObjectiveMet
			case o.By > 0 && f.t >= o.By:
				status = ObjectiveFailed
			}
			if status != "" {
				s.Objectives[o.ID] = status
				f.settled = append(f.settled, settlement{o, status})
			}
		}
		if status == ObjectiveFailed && failed == "" {
			failed = o.ID
		}
		all = all && status == ObjectiveMet
	}
	switch {
	case failed != "":
		f.resolve(ResolutionFailed, failed)
	case all:
		f.resolve(ResolutionObjectivesMet, "")
	case f.t >= f.c.TickLimit:
		f.resolve(ResolutionFailed, FailureTickLimit)
	}
	return f
}

func (f *tickFrame) resolve(resolution, failureID string) {
	f.s.Resolution, f.s.FailureID = resolution, failureID
	f.alert(AlertScenarioResolved, resolution)
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// advanceTicks runs n ticks, stopping after the tick on which the game
// resolves (the stop is this loop's, never the pipeline's).
func advanceTicks(s *State, c *Content, n int64, derive func(rng.StreamID) *rng.Handle) *tickFrame {
	return runTicks(&tickFrame{c: c, s: s.clone(), derive: derive}, n)
}

// runTicks runs up to n ticks on f, fewer when the game ends or, with
// f.stopAtOffer, when an offer opens.
func runTicks(f *tickFrame, n int64) *tickFrame {
	f.sites = slots(f.s, f.c)
	for i := int64(0); i < n && f.s.Resolution == ""; i++ {
		f.t = f.s.Tick + 1
		opened := f.s.Offer
		f = pipeline.Run(tickSystems, f)
		if f.stopAtOffer && f.s.Offer != nil && f.s.Offer != opened {
			break
		}
	}
	return f
}

var _ = core.StatusActive
