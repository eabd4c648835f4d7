package ai

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
)

// auraWorth scores an aura by what it does to the creature it enchants:
// a boon on the seat's best creature, a curse on an opponent's.
func (p *pilot) auraWorth(d *card.Def, a rooms.Action, ans map[string][]string) int {
	harm := false
	for _, ab := range d.Abilities {
		if ab.Static != nil {
			switch ab.Static.Op {
			case "control", "cant_attack_or_block", "doesnt_untap":
				harm = true
			case "anthem":
				harm = ab.Static.Power+ab.Static.Toughness < 0
			}
		}
	}
	if len(a.Requirements) == 0 {
		return 0
	}
	op := "pump"
	if harm {
		op = "destroy"
	}
	id, s := p.bestTarget(a.Requirements[0].Candidates, []card.Effect{{Op: op, To: "t0"}}, 0, true)
	if id == "" || s <= 0 {
		return 0
	}
	ans[a.Requirements[0].Slot] = []string{id}
	return s
}

// extraCost answers a spell's additional cost slots with what the seat
// misses least, lowering score by its worth; false when the cost is too
// dear.
func (p *pilot) extraCost(a rooms.Action, ans map[string][]string, score *int) bool {
	for _, pr := range a.Prompts {
		switch pr.Slot {
		case "cost_discard":
			got := p.worst(pr.Candidates, pr.Count)
			ans[pr.Slot] = got
			for _, id := range got {
				*score -= p.keep(id)
			}
		case "cost_sacrifice":
			got := p.cheapest(pr.Candidates, pr.Count)
			ans[pr.Slot] = got
			for _, id := range got {
				if pv := p.perms[id]; pv != nil {
					*score -= value(pv)
				}
			}
		case "cost_exile":
			ans[pr.Slot] = pr.Candidates[:pr.Count]
		}
	}
	return *score > 0
}

// cheapest returns the n permanents of ids worth least to the seat.
func (p *pilot) cheapest(ids []string, n int) []string {
	c := append([]string(nil), ids...)
	sort.SliceStable(c, func(i, j int) bool { return p.permWorth(c[i]) < p.permWorth(c[j]) })
	return c[:min(n, len(c))]
}

// permWorth is a permanent's worth, or 0 when unknown.
func (p *pilot) permWorth(id string) int {
	if pv := p.perms[id]; pv != nil {
		return value(pv)
	}
	return 0
}

// payment answers the pay slots of a cast with X = x, keeping the
// colours the rest of the hand (without the card skip) needs: single
// colour sources before duals, lands before creatures, colours not needed
// before needed ones.
func (p *pilot) payment(a rooms.Action, x int, skip string) map[string][]string {
	ps := payPrompts(a)
	if len(ps) == 0 {
		return nil
	}
	need := p.need(skip)
	cost := func(id string) int {
		pv := p.perms[id]
		if pv == nil {
			return 0
		}
		cols := p.colors(pv)
		c := 4 * (len(cols) - 1)
		for i := 0; i < len(cols); i++ {
			c += need[cols[i]]
		}
		if creature(pv) {
			c += 3
		}
		return c
	}
	rank := func(_ int, cands []string) []string {
		c := append([]string(nil), cands...)
		sort.SliceStable(c, func(i, j int) bool { return cost(c[i]) < cost(c[j]) })
		return c
	}
	pay := matchSources(ps, paySlots(a, x, len(p.v.ManaPool)), rank)
	if pay == nil {
		return nil
	}
	out := map[string][]string{}
	for i, s := range pay {
		out[ps[i].Slot] = s
	}
	return out
}

// counter counters an opponent's spell of mana value 3 or more on top
// of the stack.
func (p *pilot) counter(acts []rooms.Action) (rooms.Choice, bool) {
	top := p.v.Stack[len(p.v.Stack)-1]
	if top.Controller == p.me || top.Kind != "spell" || top.Card == nil || manaValue(top.Card.ManaCost) < 3 {
		return rooms.Choice{}, false
	}
	for _, a := range acts {
		if a.Type != "cast_spell" {
			continue
		}
		d := p.handDef(a.Subject[0])
		if d.Spell == nil || len(d.Spell.Modes) != 1 || !slices.ContainsFunc(d.Spell.Modes[0].Effects, func(e card.Effect) bool { return e.Op == "counter" }) {
			continue
		}
		if len(a.Requirements) == 0 || !slices.Contains(a.Requirements[0].Candidates, top.ID) {
			continue
		}
		pay := p.payment(a, 0, a.Subject[0])
		if pay == nil && len(payPrompts(a)) > 0 {
			continue
		}
		pay[a.Requirements[0].Slot] = []string{top.ID}
		return rooms.Choice{ActionID: a.ID, Targets: pay}, true
	}
	return rooms.Choice{}, false
}

// trick casts a pump on one of the seat's creatures in combat when it
// turns the fight: the creature survives, or kills what it fights.
func (p *pilot) trick(acts []rooms.Action) (rooms.Choice, bool) {
	var best *plan
	gain := 0
	for _, a := range acts {
		if a.Type != "cast_spell" || len(a.Requirements) != 1 {
			continue
		}
		d := p.handDef(a.Subject[0])
		if d.Spell == nil || len(d.Spell.Modes) != 1 {
			continue
		}
		var pump *card.Effect
		for i, e := range d.Spell.Modes[0].Effects {
			if (e.Op == "pump" || e.Op == "add_counters" && e.Counter == "+1/+1") && e.To == "t0" && !harmful(e) {
				pump = &d.Spell.Modes[0].Effects[i]
			}
		}
		if pump == nil {
			continue
		}
		dp, dt := pump.Power, pump.Toughness
		if pump.Op == "add_counters" {
			dp, dt = max(pump.Amount, 1), max(pump.Amount, 1)
		}
		for _, id := range a.Requirements[0].Candidates {
			pv := p.perms[id]
			if pv == nil || !p.mine(pv) || !(pv.Attacking || len(pv.Blocking) > 0) {
				continue
			}
			foes := p.foes(pv)
			if len(foes) == 0 {
				continue
			}
			before := fightScore(pv, foes, 0, 0, pump.Keywords)
			after := fightScore(pv, foes, dp, dt, pump.Keywords)
			if after-before > gain {
				pl, ok := p.planCast(a, true)
				if !ok {
					continue
				}
				pl.ans["t0"] = []string{id}
				best, gain = &pl, after-before
			}
		}
	}
	if best == nil {
		return rooms.Choice{}, false
	}
	return rooms.Choice{ActionID: best.act.ID, Targets: best.ans}, true
}

// foes lists the creatures pv fights: its blockers, or what it blocks.
func (p *pilot) foes(pv *rules.PermanentView) []*rules.PermanentView {
	var out []*rules.PermanentView
	for i := range p.v.Battlefield {
		o := &p.v.Battlefield[i]
		if slices.Contains(o.Blocking, pv.ID) || slices.Contains(pv.Blocking, o.ID) {
			out = append(out, o)
		}
	}
	return out
}

// fightScore rates pv's fight against foes with a pump of dp/dt and
// keywords: surviving counts 2, each foe killed 1.
func fightScore(pv *rules.PermanentView, foes []*rules.PermanentView, dp, dt int, kws []string) int {
	me := stats(pv)
	me.power += dp
	me.tough += dt
	for _, k := range kws {
		me.kw[k] = true
	}
	s := 0
	dealt := 0
	pw := me.power
	killed := 0
	for _, f := range foes {
		fs := stats(f)
		if pw <= 0 {
			break
		}
		need := fs.tough
		if me.kw["deathtouch"] {
			need = min(need, 1)
		}
		if pw >= need {
			killed++
			pw -= need
		} else {
			pw = 0
		}
	}
	for _, f := range foes {
		fs := stats(f)
		if me.kw["first_strike"] && !fs.kw["first_strike"] && killed == len(foes) {
			break
		}
		if fs.kw["deathtouch"] && fs.power > 0 {
			dealt += me.tough
		}
		dealt += fs.power
	}
	if dealt < me.tough {
		s += 2
	}
	return s + killed
}

// fighter is a creature's combat numbers.
type fighter struct {
	power, tough int
	kw           map[string]bool
}

// stats reads pv's combat numbers (toughness less marked damage).
func stats(pv *rules.PermanentView) fighter {
	f := fighter{power: power(pv), tough: left(pv), kw: map[string]bool{}}
	for _, k := range pv.Card.Keywords {
		f.kw[k] = true
	}
	return f
}

// loyalty activates one loyalty ability of a planeswalker: its ultimate
// when it can, a minus with a worthy target that leaves it standing,
// else a plus.
func (p *pilot) loyalty(acts []rooms.Action) (rooms.Choice, bool) {
	var best *plan
	for _, a := range acts {
		if a.Type != "activate_ability" || a.ManaAbility || len(a.Subject) == 0 {
			continue
		}
		pv := p.perms[a.Subject[0]]
		if pv == nil || !hasType(pv.Card, "planeswalker") {
			continue
		}
		d := p.def(pv.Card.FunctionalID)
		ab := p.abilityOf(d, a)
		if ab == nil || ab.Loyalty == nil {
			continue
		}
		loy := 0
		for _, c := range pv.Counters {
			if c.Kind == "loyalty" {
				loy = c.Count
			}
		}
		pl := plan{act: a, ans: map[string][]string{}}
		cost := *ab.Loyalty
		switch {
		case ab.Mode == nil:
			continue
		case cost >= 0:
			pl.score = 5 + p.modeWorth(ab.Mode, "", a, 0, pl.ans, false)
		case loy+cost == 0 && !slices.ContainsFunc(ab.Mode.Effects, func(e card.Effect) bool { return e.Op == "emblem" }):
			continue
		default:
			w := p.modeWorth(ab.Mode, "", a, 0, pl.ans, false)
			if w < 6 {
				continue
			}
			pl.score = w - cost
		}
		if best == nil || pl.score > best.score {
			best = &pl
		}
	}
	if best == nil {
		return rooms.Choice{}, false
	}
	return rooms.Choice{ActionID: best.act.ID, Targets: best.ans}, true
}

// activate spends the mana left in the seat's second main phase on an
// activated ability worth using (a draw, a token): it activates one the
// pool already pays, else taps one more source toward the best one the
// pool and its untapped sources can pay. The mana floats meanwhile; the
// next decision continues the plan, so no state is kept between them.
func (p *pilot) activate(acts []rooms.Action) (rooms.Choice, bool) {
	var best *plan
	for _, a := range acts {
		if a.Type != "activate_ability" || a.ManaAbility || len(a.Subject) == 0 {
			continue
		}
		pv := p.perms[a.Subject[0]]
		if pv == nil {
			continue
		}
		d := p.def(pv.Card.FunctionalID)
		ab := p.abilityOf(d, a)
		if ab == nil || ab.Kind != card.AbilityActivated || ab.Mode == nil {
			continue
		}
		pl := plan{act: a, ans: map[string][]string{}}
		pl.score = p.modeWorth(ab.Mode, "", a, 0, pl.ans, false)
		if pl.score > 0 && p.extraCost(a, pl.ans, &pl.score) && (best == nil || pl.score > best.score) {
			best = &pl
		}
	}
	if best != nil {
		return rooms.Choice{ActionID: best.act.ID, Targets: best.ans}, true
	}
	// tap toward the best ability the pool and the sources can pay
	want, wantSrc, score := "", "", 0
	for i := range p.v.Battlefield {
		pv := &p.v.Battlefield[i]
		if !p.mine(pv) || pv.Card.Token {
			continue
		}
		d := p.def(pv.Card.FunctionalID)
		for _, ab := range d.Abilities {
			if ab.Kind != card.AbilityActivated || ab.Mode == nil || len(ab.Mode.Targets) > 0 || ab.SorcerySpeed && len(p.v.Stack) > 0 {
				continue
			}
			c, err := card.ParseAbilityCost(ab.Cost)
			if err != nil || c.Mana == nil || c.Tap && (pv.Tapped || pv.SummoningSick) {
				continue
			}
			s := 0
			for _, e := range ab.Mode.Effects {
				s += p.untargeted(e, 0)
			}
			spare := len(p.v.ManaPool) + len(p.sources())
			if c.Tap && p.colors(pv) != "" {
				spare--
			}
			if s > score && c.Mana.ManaValue(0) <= spare && (ab.Extra == nil || ab.Extra.ExileFromGraveyard == "" || p.graveHas(ab.Extra.ExileFromGraveyard)) {
				need := strings.Join(c.Mana.Symbols, "")
				for _, sym := range p.v.ManaPool {
					need = strings.Replace(need, strings.Trim(sym, "{}"), "", 1)
				}
				want, wantSrc, score = need, pv.ID, s
			}
		}
	}
	if wantSrc == "" {
		return rooms.Choice{}, false
	}
	// a land of a still-needed colour first, else any land
	var fallback string
	for _, a := range acts {
		if !a.ManaAbility || len(a.Subject) == 0 || a.Subject[0] == wantSrc {
			continue
		}
		if pv := p.perms[a.Subject[0]]; pv == nil || !hasType(pv.Card, "land") {
			continue
		}
		// the label ends with the mana made: "Forest: add {G}"
		if col := a.Label[max(len(a.Label)-2, 0) : len(a.Label)-1]; strings.Contains(want, col) {
			return rooms.Choice{ActionID: a.ID}, true
		}
		if fallback == "" {
			fallback = a.ID
		}
	}
	return rooms.Choice{ActionID: fallback}, fallback != ""
}

// graveHas reports whether the seat's graveyard holds a card of kind.
func (p *pilot) graveHas(kind string) bool {
	for _, pile := range p.v.Graveyards {
		if pile.PlayerID != p.me {
			continue
		}
		for _, c := range pile.Cards {
			if kind != "creature_card_in_your_graveyard" || hasType(c, "creature") {
				return true
			}
		}
	}
	return false
}

// abilityOf finds the ability an activate_ability action activates, by
// its label ("Name: cost").
func (p *pilot) abilityOf(d *card.Def, a rooms.Action) *card.Ability {
	for k := range d.Abilities {
		ab := &d.Abilities[k]
		lbl := ab.Cost
		if ab.Kind == card.AbilityLoyalty && ab.Loyalty != nil {
			lbl = strconv.Itoa(*ab.Loyalty)
			if *ab.Loyalty > 0 {
				lbl = "+" + lbl
			}
		}
		if (ab.Kind == card.AbilityLoyalty || ab.Kind == card.AbilityActivated) && a.Label == d.Name+": "+lbl {
			return ab
		}
	}
	return nil
}

// aim chooses a trigger's targets: the ability is found by its text on
// the stack item.
func (p *pilot) aim(a rooms.Action) map[string][]string {
	ans := map[string][]string{}
	var mode *card.Mode
	if len(a.Subject) == 2 {
		for _, it := range p.v.Stack {
			if it.ID != a.Subject[0] {
				continue
			}
			src := p.perms[a.Subject[1]]
			var d *card.Def
			if src != nil {
				d = p.def(src.Card.FunctionalID)
			}
			if d == nil || d.ID == "" {
				d = p.graveDef(it.Description)
			}
			for k := range d.Abilities {
				if ab := &d.Abilities[k]; ab.Mode != nil && card.AbilityText(*d, *ab) == it.Description {
					mode = ab.Mode
				}
			}
		}
	}
	for i, r := range a.Requirements {
		if len(r.Candidates) == 0 {
			continue
		}
		var effs []card.Effect
		if mode != nil {
			for _, e := range mode.Effects {
				if e.To == "t"+strconv.Itoa(i) {
					effs = append(effs, e)
				}
			}
		}
		id, s := p.bestTarget(r.Candidates, effs, 0, p.v.Phase == "declare_attackers" || p.v.Phase == "declare_blockers")
		if s <= 0 && r.Optional {
			continue
		}
		if s <= never/2 {
			id = p.leastBad(r.Candidates, effs)
		}
		ans[r.Slot] = []string{id}
	}
	return ans
}

// graveDef finds the definition of a card that left the battlefield (a
// dies trigger) by the text of one of its abilities.
func (p *pilot) graveDef(text string) *card.Def {
	for _, pile := range p.v.Graveyards {
		for _, c := range pile.Cards {
			d := p.def(c.FunctionalID)
			for _, ab := range d.Abilities {
				if ab.Mode != nil && card.AbilityText(*d, ab) == text {
					return d
				}
			}
		}
	}
	return &card.Def{}
}

// leastBad picks, for a forced target the pilot would rather not choose,
// the one that costs its side least.
func (p *pilot) leastBad(cands []string, effs []card.Effect) string {
	best, score := cands[0], -1<<30
	for _, id := range cands {
		s := 0
		if pv := p.perms[id]; pv != nil {
			s = -value(pv)
		} else if id == p.me {
			s = -5
		}
		if s > score {
			best, score = id, s
		}
	}
	return best
}

// order puts each attacker's blockers in the order that kills the most:
// the easiest to kill first.
func (p *pilot) order(a rooms.Action) rooms.Choice {
	ans := map[string][]string{}
	for _, pr := range a.Prompts {
		items := append([]string(nil), pr.Items...)
		sort.SliceStable(items, func(i, j int) bool {
			x, y := p.perms[items[i]], p.perms[items[j]]
			if x == nil || y == nil {
				return false
			}
			return left(x)*100-value(x) < left(y)*100-value(y)
		})
		ans[pr.Slot] = items
	}
	return rooms.Choice{ActionID: a.ID, Targets: ans}
}

// keep is how much the seat wants to keep hand card id: lands while it
// has few, spells it can cast soon.
func (p *pilot) keep(id string) int {
	c := p.hand[id]
	if c == nil {
		return 0
	}
	lands := p.landCount()
	if hasType(*c, "land") {
		inHand := 0
		for _, h := range p.v.MyHand {
			if hasType(h, "land") {
				inHand++
			}
		}
		if lands+inHand <= 5 {
			return 12
		}
		return 1
	}
	mv := manaValue(c.ManaCost)
	if mv > lands+2 {
		return 6 - (mv - lands)
	}
	return 6 + mv
}

// worst returns the n hand cards of ids the seat wants least.
func (p *pilot) worst(ids []string, n int) []string {
	c := append([]string(nil), ids...)
	sort.SliceStable(c, func(i, j int) bool { return p.keep(c[i]) < p.keep(c[j]) })
	return c[:min(n, len(c))]
}

// mulligan keeps a hand with two to five lands (any hand after two
// mulligans), bottoming excess lands or the dearest spells.
func (p *pilot) mulligan(a rooms.Action) rooms.Choice {
	lands := 0
	for _, c := range p.v.MyHand {
		if hasType(c, "land") {
			lands++
		}
	}
	var bottom *rooms.Prompt
	mulls := 0
	for i := range a.Prompts {
		if a.Prompts[i].Slot == "bottom" {
			bottom = &a.Prompts[i]
			mulls = bottom.Count
		}
	}
	canMull := false
	for _, pr := range a.Prompts {
		for _, o := range pr.Options {
			canMull = canMull || o.ID == "mulligan"
		}
	}
	lo, hi := 2, 5
	if mulls == 1 {
		lo, hi = 1, 5
	}
	if canMull && mulls < 2 && (lands < lo || lands > hi) {
		return rooms.Choice{ActionID: a.ID, Targets: map[string][]string{"decision": {"mulligan"}}}
	}
	ans := map[string][]string{"decision": {"keep"}}
	if bottom != nil {
		c := append([]string(nil), bottom.Candidates...)
		keepLand := lands - mulls
		rank := func(id string) int {
			h := p.hand[id]
			if h == nil {
				return 0
			}
			if hasType(*h, "land") {
				if lands > 3 && keepLand < lands {
					return 0
				}
				return 50
			}
			return 40 - manaValue(h.ManaCost)
		}
		sort.SliceStable(c, func(i, j int) bool { return rank(c[i]) < rank(c[j]) })
		ans["bottom"] = c[:bottom.Count]
	}
	return rooms.Choice{ActionID: a.ID, Targets: ans}
}

// choice answers a mid-resolution player choice.
func (p *pilot) choice(a rooms.Action, acts []rooms.Action) rooms.Choice {
	pr := a.Prompts[0]
	one := func(id string) rooms.Choice {
		return rooms.Choice{ActionID: a.ID, Targets: map[string][]string{pr.Slot: {id}}}
	}
	many := func(ids []string) rooms.Choice {
		t := map[string][]string{}
		if len(ids) > 0 {
			t[pr.Slot] = ids
		}
		return rooms.Choice{ActionID: a.ID, Targets: t}
	}
	lo, hi := selectBounds(pr)
	switch p.g.PendingChoice(p.seat) {
	case "discard":
		if pr.Owner == p.me {
			return many(p.worst(pr.Candidates, hi))
		}
		return many(p.theirBest(pr.Candidates, hi))
	case "sacrifice":
		return many(p.cheapest(pr.Candidates, hi))
	case "scry":
		return many(p.scry(pr.Candidates))
	case "search", "look":
		return many(p.dearest(pr.Candidates, hi)[:max(lo, min(hi, len(pr.Candidates)))])
	case "look_order":
		return many(pr.Items)
	case "may", "optional", "commander":
		for _, o := range pr.Options {
			if o.ID == "accept" {
				return one("accept")
			}
		}
		if c, ok := p.payOptional(acts); ok {
			return c
		}
		return one("decline")
	case "color":
		if len(pr.Options) > 0 {
			return one(p.bestColor(pr.Options))
		}
	case "name":
		if len(pr.Options) > 0 {
			return one(p.nameCard(pr.Options))
		}
	}
	if c, ok := p.g.Timeout(p.seat); ok {
		return c
	}
	return one(pr.Options[0].ID)
}

// revealedDef returns the definition of a revealed or hand card id.
func (p *pilot) revealedDef(id string) *card.Def {
	for _, c := range p.v.Revealed {
		if c.ID == id {
			return p.def(c.FunctionalID)
		}
	}
	return p.handDef(id)
}

// dearest returns the n cards of ids the seat wants most: a land of a
// needed colour while it has few lands, else the best spell it can cast.
func (p *pilot) dearest(ids []string, n int) []string {
	need := p.need("")
	lands := p.landCount()
	worth := func(id string) int {
		d := p.revealedDef(id)
		if slices.Contains(d.Types, "land") {
			s := 0
			for _, sub := range d.Subtypes {
				if c, ok := basicColor[sub]; ok {
					s += need[c[0]]
				}
			}
			for _, ab := range d.Abilities {
				for _, c := range ab.Produce {
					if len(c) == 1 {
						s += need[c[0]]
					}
				}
			}
			if lands < 5 {
				return 30 + s
			}
			return s
		}
		mv := manaValue(d.Cost)
		return 10 + defValue(d) + min(mv, lands+1)
	}
	c := append([]string(nil), ids...)
	sort.SliceStable(c, func(i, j int) bool { return worth(c[i]) > worth(c[j]) })
	return c[:min(n, len(c))]
}

// theirBest returns the n cards of an opponent's revealed hand ids the
// opponent would miss most: spells before lands, the strongest first.
func (p *pilot) theirBest(ids []string, n int) []string {
	worth := func(id string) int {
		d := p.revealedDef(id)
		if slices.Contains(d.Types, "land") {
			return 0
		}
		return defValue(d) + manaValue(d.Cost)
	}
	c := append([]string(nil), ids...)
	sort.SliceStable(c, func(i, j int) bool { return worth(c[i]) > worth(c[j]) })
	return c[:min(n, len(c))]
}

// scry bottoms lands when the seat has plenty (five or more between the
// battlefield and the hand), and spells it cannot cast soon when it is
// short of lands.
func (p *pilot) scry(ids []string) []string {
	lands := p.landCount()
	for _, c := range p.v.MyHand {
		if hasType(c, "land") {
			lands++
		}
	}
	var out []string
	for _, id := range ids {
		d := p.revealedDef(id)
		isLand := slices.Contains(d.Types, "land")
		switch {
		case isLand && lands >= 5:
			out = append(out, id)
		case !isLand && lands < 3 && manaValue(d.Cost) > lands+1:
			out = append(out, id)
		}
	}
	return out
}

// payOptional taps one spare source toward an optional cost worth paying
// (the mana floats until the choice is accepted): only when the seat can
// still cast its hand's cheapest spell after it.
func (p *pilot) payOptional(acts []rooms.Action) (rooms.Choice, bool) {
	srcs := p.sources()
	cheapest := 99
	for _, c := range p.v.MyHand {
		if !hasType(c, "land") {
			cheapest = min(cheapest, manaValue(c.ManaCost))
		}
	}
	if cheapest == 99 {
		cheapest = 0
	}
	if len(srcs)-1 < cheapest || len(srcs) == 0 {
		return rooms.Choice{}, false
	}
	for _, a := range acts {
		if a.ManaAbility {
			return rooms.Choice{ActionID: a.ID}, true
		}
	}
	return rooms.Choice{}, false
}

// bestColor names the colour the seat's cards need most.
func (p *pilot) bestColor(opts []rooms.Option) string {
	need := p.need("")
	best, n := opts[0].ID, -1
	for _, o := range opts {
		if len(o.ID) == 1 && need[o.ID[0]] > n {
			best, n = o.ID, need[o.ID[0]]
		}
	}
	return best
}

// nameCard names the dearest card an opponent has shown: on the
// battlefield, else in a graveyard; else a card the seat does not hold.
func (p *pilot) nameCard(opts []rooms.Option) string {
	best, score := "", -1
	consider := func(fid string, s int) {
		if fid != "" && s > score && slices.ContainsFunc(opts, func(o rooms.Option) bool { return o.ID == fid }) {
			best, score = fid, s
		}
	}
	for i := range p.v.Battlefield {
		if pv := &p.v.Battlefield[i]; !p.mine(pv) && !hasType(pv.Card, "land") {
			consider(pv.Card.FunctionalID, 100+value(pv))
		}
	}
	for _, pile := range p.v.Graveyards {
		if pile.PlayerID == p.me {
			continue
		}
		for _, c := range pile.Cards {
			if !hasType(c, "land") {
				consider(c.FunctionalID, manaValue(c.ManaCost))
			}
		}
	}
	if best != "" {
		return best
	}
	for _, o := range opts {
		d := p.def(o.ID)
		if slices.Contains(d.Types, "land") || p.holds(o.ID) {
			continue
		}
		return o.ID
	}
	return opts[0].ID
}

// holds reports whether the seat has functional id in hand or in play.
func (p *pilot) holds(fid string) bool {
	for _, c := range p.v.MyHand {
		if c.FunctionalID == fid {
			return true
		}
	}
	for i := range p.v.Battlefield {
		if pv := &p.v.Battlefield[i]; p.mine(pv) && pv.Card.FunctionalID == fid {
			return true
		}
	}
	return false
}
