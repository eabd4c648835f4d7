package rules

import (
	"slices"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Zones a card can move to.
const (
	toGrave   = "graveyard"
	toExile   = "exile"
	toHand    = "hand"
	toTop     = "top_of_library"
	toBottom  = "bottom_of_library"
	toCommand = "command"
)

// logEntity is a LogEntity: an id and the name frozen when the event is
// recorded.
func logEntity(id, name string) map[string]any { return map[string]any{"id": id, "name": name} }

// putCard puts card c into seat's zone dest and returns its physical
// card number (0 for a library). The card keeps its number (CR 108.1);
// one coming out of a library, c.N 0, gets a new one, and one going into
// a library loses it: nobody follows a card through a hidden, shuffled
// zone.
func (g *Game) putCard(seat int, c Card, dest string) int {
	pl := &g.st.Players[seat]
	switch dest {
	case toTop:
		pl.Library = append([]string{c.ID}, pl.Library...)
		return 0
	case toBottom:
		pl.Library = append(pl.Library, c.ID)
		return 0
	}
	if c.N == 0 {
		c.N = g.mintCard()
	}
	c.Since = 0
	switch dest {
	case toGrave:
		// a new object (CR 400.7): targets chosen before it arrived are not it
		c.Since = g.st.Next
		pl.Grave = append(pl.Grave, c)
	case toExile:
		pl.Exile = append(pl.Exile, c)
	case toHand:
		pl.Hand = append(pl.Hand, c)
	case toCommand:
		pl.Command = append(pl.Command, c)
	}
	if c.Cmdr && (dest == toGrave || dest == toExile) {
		g.st.Ask = append(g.st.Ask, c.N)
	}
	return c.N
}

// takeCard removes the card numbered n from seat's zone cards and returns
// it.
func takeCard(zone *[]Card, n int) (Card, bool) {
	for i, c := range *zone {
		if c.N == n {
			*zone = append((*zone)[:i], (*zone)[i+1:]...)
			return c, true
		}
	}
	return Card{}, false
}

// leaveField moves the permanent numbered n to its owner's zone dest. A
// token ceases to exist; a creature put into a graveyard dies (the event,
// and its dies triggers). It reports whether the permanent was there.
func (g *Game) leaveField(n int, dest string) bool {
	st := &g.st
	idx := -1
	for i := range st.Field {
		if st.Field[i].N == n {
			idx = i
		}
	}
	if idx < 0 {
		return false
	}
	p := st.Field[idx]
	c := g.chars(&st.Field[idx])
	dies := dest == toGrave && is(c.def, "creature")
	if dies {
		g.emit("permanent_died", "permanent", logEntity(g.pid(n), c.def.Name))
		pp := p
		pp.Ctrl = c.ctrl
		g.triggerOn(&pp, "dies", "")
		for i := range st.Field {
			if o := &st.Field[i]; o.N != n && g.ctrl(o) == c.ctrl {
				g.triggerOn(o, "creature_you_control_dies", "")
			}
		}
	}
	st.Field = append(st.Field[:idx], st.Field[idx+1:]...)
	kept := st.Effects[:0]
	for _, e := range st.Effects {
		if e.Perm != n {
			kept = append(kept, e)
		}
	}
	st.Effects = kept
	for i := range st.Field {
		o := &st.Field[i]
		o.Blockers = remove(o.Blockers, n)
		o.Blocks = remove(o.Blocks, n)
		if o.Attack == g.pid(n) {
			o.Attack = ""
		}
	}
	if p.Tok == nil {
		g.putCard(p.Owner, Card{N: p.Card, ID: p.ID, Cmdr: p.Cmdr}, dest)
	}
	return true
}

// remove returns list without n.
func remove(list []int, n int) []int {
	for i, v := range list {
		if v == n {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// enter puts card c (c.N 0 when it comes out of a library), or a token
// when tok is set, onto the battlefield under ctrl as a new object, and
// queues its enters triggers. It returns the new permanent's number.
func (g *Game) enter(owner, ctrl int, c Card, tok *card.Token, tapped bool) int {
	if tok == nil && c.N == 0 {
		c.N = g.mintCard()
	}
	p := Perm{N: g.mint(), Card: c.N, ID: c.ID, Tok: tok, Owner: owner, Ctrl: ctrl, TS: g.stamp(), Tapped: tapped, Cmdr: c.Cmdr, Sick: true}
	d := g.permDef(&p)
	if d.Loyalty != nil {
		p.Loyalty = *d.Loyalty
	}
	g.st.Field = append(g.st.Field, p)
	g.triggerOn(&g.st.Field[len(g.st.Field)-1], "enters", "")
	return p.N
}

// eliminate removes the players in seats from the game for reason: their
// permanents, stack objects and pending questions leave with them. The
// last player standing wins.
func (g *Game) eliminate(seats []int, reason string) {
	st := &g.st
	for _, s := range seats {
		st.Players[s].Out = reason
		st.Players[s].Pool = ""
	}
	left := g.apnap()
	if len(left) <= 1 {
		winner := ""
		if len(left) == 1 {
			winner = rooms.PlayerID(left[0])
		}
		var losers []int
		for i := range st.Players {
			if !g.alive(i) {
				losers = append(losers, i)
			}
		}
		g.end(winner, losers, reason)
		return
	}
	gone := func(seat int) bool {
		for _, s := range seats {
			if s == seat {
				return true
			}
		}
		return false
	}
	for _, s := range seats {
		g.emit("player_eliminated", "player", rooms.PlayerID(s), "reason", reason)
	}
	var leaving []int
	for i := range st.Field {
		if gone(st.Field[i].Owner) {
			leaving = append(leaving, st.Field[i].N)
		}
	}
	for _, n := range leaving {
		g.leaveField(n, toExile)
	}
	for i := range st.Field { // stolen permanents return; attacks on the gone end
		p := &st.Field[i]
		if k, n, _ := g.parseID(p.Attack); k == "p" && gone(n) {
			p.Attack = ""
		}
	}
	kept := st.Stack[:0]
	for _, it := range st.Stack {
		if !gone(it.Ctrl) {
			kept = append(kept, it)
		}
	}
	st.Stack = kept
	q := st.Queue[:0]
	for _, t := range st.Queue {
		if !gone(t.Ctrl) {
			q = append(q, t)
		}
	}
	st.Queue = q
	ek := st.Effects[:0]
	for _, e := range st.Effects {
		if e.Control == 0 || !gone(e.Control-1) {
			ek = append(ek, e)
		}
	}
	st.Effects = ek
	if st.Res != nil && gone(st.Res.Item.Ctrl) {
		st.Res = nil
	}
	if st.Dec.Kind == DecMulligan { // before the first turn: the next seat starts, once all have kept
		if gone(st.Active) {
			st.Active = g.nextAlive(st.Active)
		}
		if g.allKept() {
			st.Dec = Decision{}
		}
		return
	}
	if gone(st.Active) {
		st.Stack = st.Stack[:0]
		st.Res = nil
		st.Combat = nil
		st.Dec = Decision{}
		st.Step = StepCleanup
		st.Passes = -1
		return
	}
	if st.Combat != nil {
		st.Combat.Defenders = keepIf(st.Combat.Defenders, func(s int) bool { return !gone(s) })
	}
	if st.Dec.Kind != DecMulligan && gone(st.Dec.Seat) {
		if st.Dec.Kind == DecChoice {
			st.Res = nil
		}
		st.Dec = Decision{}
	}
	if gone(st.Prio) {
		st.Prio = g.nextAlive(st.Prio)
	}
	if st.Passes >= len(left) {
		st.Passes = 0
	}
}

// keepIf returns the members of list for which keep holds.
func keepIf(list []int, keep func(int) bool) []int {
	out := list[:0]
	for _, v := range list {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

// sba performs state-based actions once and reports whether any applied.
func (g *Game) sba() bool {
	st := &g.st
	byReason := map[string][]int{}
	var order []string
	lose := func(seat int, reason string) {
		if _, ok := byReason[reason]; !ok {
			order = append(order, reason)
		}
		byReason[reason] = append(byReason[reason], seat)
	}
	for i := range st.Players {
		pl := &st.Players[i]
		if pl.Out != "" {
			continue
		}
		switch {
		case pl.Life <= 0:
			lose(i, "life_zero")
		case pl.Drew:
			lose(i, "decked")
		case pl.Poison >= 10:
			lose(i, "poison")
		default:
			for _, d := range pl.CmdrDmg {
				if d >= 21 {
					lose(i, "commander_damage")
					break
				}
			}
		}
	}
	if len(order) > 0 {
		for _, r := range order {
			if st.Result == nil {
				g.eliminate(byReason[r], r)
			}
		}
		return true
	}
	sts := g.statics()
	var dying, toGy []int
	for i := range st.Field {
		p := &st.Field[i]
		c := g.charsWith(p, sts)
		switch {
		case is(c.def, "creature") && (c.tough <= 0 || (p.Damage > 0 && (p.Damage >= c.tough || p.DTouch))):
			dying = append(dying, p.N)
		case is(c.def, "planeswalker") && p.Loyalty <= 0:
			toGy = append(toGy, p.N)
		case g.isAura(c.def) && !g.auraLegal(p):
			toGy = append(toGy, p.N)
		}
	}
	toGy = append(toGy, g.legendRule(sts, append(dying, toGy...))...)
	for _, n := range dying {
		g.leaveField(n, toGrave)
	}
	for _, n := range toGy {
		g.leaveField(n, toGrave)
	}
	return len(dying)+len(toGy) > 0
}

// legendRule returns the permanents the legend rule (CR 704.5j) puts into
// their owners' graveyards: of two or more legendary permanents with the
// same name that one player controls, all but the newest. Which one
// stays is a Storyloom decision, not asked: the one that arrived last,
// which is the one its controller just played. leaving are the
// permanents already leaving by another state-based action.
func (g *Game) legendRule(sts []staticSrc, leaving []int) []int {
	type key struct {
		ctrl int
		name string
	}
	newest := map[key]int{} // timestamp of the newest
	var legends []*Perm
	var keys []key
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if slices.Contains(leaving, p.N) {
			continue
		}
		c := g.charsWith(p, sts)
		if !slices.Contains(c.def.Supertypes, "legendary") {
			continue
		}
		k := key{c.ctrl, c.def.Name}
		newest[k] = max(newest[k], p.TS)
		legends, keys = append(legends, p), append(keys, k)
	}
	var out []int
	for i, p := range legends {
		if p.TS < newest[keys[i]] {
			out = append(out, p.N)
		}
	}
	return out
}

// isAura reports whether d is an aura.
func (g *Game) isAura(d *card.Def) bool { return d.Enchant != "" }

// auraLegal reports whether aura p is attached to something it may
// enchant.
func (g *Game) auraLegal(p *Perm) bool {
	t := g.perm(p.Attach)
	return t != nil && g.permMatches(t, g.def(p.ID).Enchant, g.ctrl(p))
}
