package ai

import (
	"slices"
	"sort"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
)

// duel reports who dies when attacker a and blocker b fight alone.
func duel(a, b fighter) (aDies, bDies bool) {
	bDies = a.power > 0 && (a.power >= b.tough || a.kw["deathtouch"])
	aDies = b.power > 0 && (b.power >= a.tough || b.kw["deathtouch"])
	if a.kw["first_strike"] && !b.kw["first_strike"] && bDies {
		aDies = false
	}
	if b.kw["first_strike"] && !a.kw["first_strike"] && aDies {
		bDies = false
	}
	return aDies, bDies
}

// canBlock reports whether blocker b can block attacker a by evasion.
func canBlock(b, a *rules.PermanentView) bool {
	if hasKW(a, "unblockable") {
		return false
	}
	return !hasKW(a, "flying") || hasKW(b, "flying") || hasKW(b, "reach")
}

// blockers lists player id's creatures able to block next: untapped and
// not held by an aura that forbids it.
func (p *pilot) blockers(id string) []*rules.PermanentView {
	var out []*rules.PermanentView
	for _, c := range p.creaturesOf(id) {
		if !c.Tapped && !p.pinned(c) {
			out = append(out, c)
		}
	}
	return out
}

// pinned reports whether an aura forbids pv to attack or block.
func (p *pilot) pinned(pv *rules.PermanentView) bool {
	for i := range p.v.Battlefield {
		a := &p.v.Battlefield[i]
		if a.AttachedTo != pv.ID {
			continue
		}
		for _, ab := range p.def(a.Card.FunctionalID).Abilities {
			if ab.Static != nil && ab.Static.Op == "cant_attack_or_block" {
				return true
			}
		}
	}
	return false
}

// hit is what attackers deal a player if the defender blocks them as well
// as it can with blockers (each blocker on the largest attacker it can
// stop): damage, poison, and the largest commander damage.
type hit struct{ damage, poison, cmdr int }

// through works out hit for attackers against blockers.
func through(attackers, blockers []*rules.PermanentView) hit {
	att := append([]*rules.PermanentView(nil), attackers...)
	sort.SliceStable(att, func(i, j int) bool { return power(att[i]) > power(att[j]) })
	used := map[string]bool{}
	var h hit
	for _, a := range att {
		blocked := false
		if !hasKW(a, "menace") {
			for _, b := range blockers {
				if !used[b.ID] && canBlock(b, a) {
					used[b.ID], blocked = true, true
					if hasKW(a, "trample") {
						h.add(a, max(power(a)-left(b), 0))
					}
					break
				}
			}
		}
		if !blocked {
			h.add(a, power(a))
		}
	}
	return h
}

// add counts n damage from attacker a.
func (h *hit) add(a *rules.PermanentView, n int) {
	if n <= 0 {
		return
	}
	h.damage += n
	if hasKW(a, "venom") {
		h.poison += n
	}
	if a.IsCommander {
		h.cmdr = max(h.cmdr, n)
	}
}

// kills reports whether h finishes player pl, who has taken cmdrTaken
// from the commanders in h already.
func (h hit) kills(pl player, cmdrTaken int) bool {
	return h.damage >= pl.life || pl.poison+h.poison >= 10 || h.cmdr > 0 && cmdrTaken+h.cmdr >= 21
}

// cmdrTaken is the most combat damage player id has taken from one
// commander.
func (p *pilot) cmdrTaken(id string) int {
	n := 0
	for _, c := range p.v.CommanderDamage {
		if c.Damaged == id {
			n = max(n, c.Amount)
		}
	}
	return n
}

// attack declares attackers on race arithmetic: everything at a player
// it can kill this turn; otherwise the attackers that no blocker can eat
// for free (and even trades when the seat wins the race), keeping back
// enough to survive any one opponent's swing back. It attacks the player
// it can kill, else the one it can hurt most (the leader on a tie).
func (p *pilot) attack(a rooms.Action) rooms.Choice {
	var cands []*rules.PermanentView
	targets := map[string]bool{}
	for _, r := range a.Requirements {
		if r.Slot == "attackers" {
			for _, id := range r.Candidates {
				if pv := p.perms[id]; pv != nil {
					cands = append(cands, pv)
				}
			}
		}
		if strings.HasPrefix(r.Slot, "defender:") {
			for _, id := range r.Candidates {
				targets[id] = true
			}
		}
	}
	ans := map[string][]string{}
	if len(cands) == 0 {
		return rooms.Choice{ActionID: a.ID, Targets: ans}
	}
	var opps []player
	for _, pl := range p.players() {
		if pl.opponent && !pl.eliminated && (len(targets) == 0 || targets[pl.id]) {
			opps = append(opps, pl)
		}
	}
	if len(opps) == 0 {
		return rooms.Choice{ActionID: a.ID, Targets: ans}
	}
	target := opps[0]
	lethal := false
	for _, o := range opps {
		if o.id == p.leader() {
			target = o
		}
	}
	for _, o := range opps {
		if through(cands, p.blockers(o.id)).kills(o, p.cmdrTaken(o.id)) {
			target, lethal = o, true
			break
		}
	}
	chosen := cands
	if !lethal {
		// the opponent it can hurt most, the leader on a tie
		best := -1
		for _, o := range opps {
			set := p.safeAttackers(cands, o)
			dealt := through(set, p.blockers(o.id)).damage
			if dealt > best || dealt == best && o.id == p.leader() {
				target, chosen, best = o, set, dealt
			}
		}
	}
	for _, c := range chosen {
		ans["attackers"] = append(ans["attackers"], c.ID)
		if len(targets) > 0 {
			ans["defender:"+c.ID] = []string{target.id}
		}
	}
	return rooms.Choice{ActionID: a.ID, Targets: ans}
}

// safeAttackers picks the attackers worth sending at target.
func (p *pilot) safeAttackers(cands []*rules.PermanentView, target player) []*rules.PermanentView {
	me, _ := p.playerByID(p.me)
	blk := p.blockers(target.id)
	// the swing back: each opponent's creatures that could attack
	swing := map[string][]*rules.PermanentView{}
	for _, pl := range p.players() {
		if pl.opponent && !pl.eliminated {
			for _, c := range p.creaturesOf(pl.id) {
				if !hasKW(c, "defender") && !p.pinned(c) {
					swing[pl.id] = append(swing[pl.id], c)
				}
			}
		}
	}
	myPower, theirPower := 0, 0
	for _, c := range cands {
		myPower += max(power(c), 0)
	}
	for _, c := range swing[target.id] {
		theirPower += max(power(c), 0)
	}
	racing := (target.life+myPower-1)/max(myPower, 1) < (me.life+theirPower-1)/max(theirPower, 1)
	var out []*rules.PermanentView
	for _, c := range cands {
		ok := true
		for _, b := range blk {
			if !canBlock(b, c) {
				continue
			}
			aDies, bDies := duel(stats(c), stats(b))
			if aDies && !(bDies && (value(b) >= value(c) || racing)) {
				ok = false
			}
		}
		if ok && power(c) > 0 {
			out = append(out, c)
		}
	}
	// keep back enough blockers to survive the swing back
	for len(out) > 0 {
		var home []*rules.PermanentView
		for _, c := range p.creaturesOf(p.me) {
			if !p.pinned(c) && (!slices.Contains(out, c) || hasKW(c, "vigilance")) {
				home = append(home, c)
			}
		}
		dies := false
		for _, theirs := range swing {
			dies = dies || through(theirs, home).kills(me, p.cmdrTaken(p.me))
		}
		if !dies {
			break
		}
		sort.SliceStable(out, func(i, j int) bool { return toughness(out[i]) < toughness(out[j]) })
		out = out[:len(out)-1]
	}
	return out
}

// block declares blockers: blocks that kill an attacker and survive,
// trades that win value, blocks that survive and soak damage; and, when
// the attack would kill the seat (life, poison or commander damage),
// chump blocks on the largest attackers until it would not.
func (p *pilot) block(a rooms.Action) rooms.Choice {
	type slot struct {
		att   *rules.PermanentView
		slot  string
		cands []*rules.PermanentView
	}
	var slots []slot
	for _, r := range a.Requirements {
		att := p.perms[r.Subject]
		if att == nil || !strings.HasPrefix(r.Slot, "block:") {
			continue
		}
		s := slot{att: att, slot: r.Slot}
		for _, id := range r.Candidates {
			if pv := p.perms[id]; pv != nil {
				s.cands = append(s.cands, pv)
			}
		}
		slots = append(slots, s)
	}
	sort.SliceStable(slots, func(i, j int) bool { return value(slots[i].att) > value(slots[j].att) })
	used := map[string]bool{}
	ans := map[string][]string{}
	assign := func(s slot, bs ...*rules.PermanentView) {
		for _, b := range bs {
			used[b.ID] = true
			ans[s.slot] = append(ans[s.slot], b.ID)
		}
	}
	cheapestWhere := func(s slot, ok func(b *rules.PermanentView) bool) *rules.PermanentView {
		var best *rules.PermanentView
		for _, b := range s.cands {
			if !used[b.ID] && ok(b) && (best == nil || value(b) < value(best)) {
				best = b
			}
		}
		return best
	}
	for pass := 0; pass < 3; pass++ {
		for _, s := range slots {
			if len(ans[s.slot]) > 0 || hasKW(s.att, "menace") {
				continue
			}
			b := cheapestWhere(s, func(b *rules.PermanentView) bool {
				aDies, bDies := duel(stats(s.att), stats(b))
				switch pass {
				case 0: // kills it and lives
					return aDies && !bDies
				case 1: // a trade that wins value
					return aDies && bDies && value(b) <= value(s.att)
				}
				return !bDies && !hasKW(s.att, "trample") && power(s.att) > 0 // soaks it
			})
			if b != nil {
				assign(s, b)
			}
		}
	}
	me, _ := p.playerByID(p.me)
	incoming := func() hit {
		var h hit
		for _, s := range slots {
			if s.att.AttackingPlayer != p.me || s.att.AttackingPlaneswalker != "" {
				continue
			}
			dealt := power(s.att)
			for _, id := range ans[s.slot] {
				if !hasKW(s.att, "trample") {
					dealt = 0
					break
				}
				dealt -= left(p.perms[id])
			}
			h.add(s.att, dealt)
		}
		return h
	}
	// chump blocks while the attack is lethal
	sort.SliceStable(slots, func(i, j int) bool { return power(slots[i].att) > power(slots[j].att) })
	for _, s := range slots {
		if !incoming().kills(me, p.cmdrTaken(p.me)) {
			break
		}
		if len(ans[s.slot]) > 0 || s.att.AttackingPlayer != p.me {
			continue
		}
		need := 1
		if hasKW(s.att, "menace") {
			need = 2
		}
		var free []*rules.PermanentView
		for _, b := range s.cands {
			if !used[b.ID] {
				free = append(free, b)
			}
		}
		if len(free) < need {
			continue
		}
		sort.SliceStable(free, func(i, j int) bool { return value(free[i]) < value(free[j]) })
		assign(s, free[:need]...)
	}
	return rooms.Choice{ActionID: a.ID, Targets: ans}
}
