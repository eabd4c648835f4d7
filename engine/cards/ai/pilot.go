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

// choose answers the seat's decision.
func (p *pilot) choose(acts []rooms.Action) rooms.Choice {
	for _, a := range acts {
		switch a.Type {
		case "pass_priority":
			return p.priority(acts)
		case "mulligan_decision":
			return p.mulligan(a)
		case "declare_attackers":
			return p.attack(a)
		case "declare_blockers":
			return p.block(a)
		case "order_combat_damage":
			return p.order(a)
		case "choose_targets":
			return rooms.Choice{ActionID: a.ID, Targets: p.aim(a)}
		case "player_choice":
			return p.choice(a, acts)
		case "discard":
			return rooms.Choice{ActionID: a.ID, Targets: map[string][]string{"discard": p.worst(a.Prompts[0].Candidates, a.Prompts[0].Count)}}
		}
	}
	if c, ok := p.g.Timeout(p.seat); ok {
		return c
	}
	return rooms.Choice{ActionID: acts[0].ID}
}

// priority decides what to do holding priority: a land, a counter to a
// big spell, a combat trick, the best spells of the curve, a loyalty
// ability; else pass.
func (p *pilot) priority(acts []rooms.Action) rooms.Choice {
	var pass rooms.Action
	for _, a := range acts {
		if a.Type == "pass_priority" {
			pass = a
		}
	}
	if c, ok := p.land(acts); ok {
		return c
	}
	if len(p.v.Stack) > 0 {
		if c, ok := p.counter(acts); ok {
			return c
		}
		return rooms.Choice{ActionID: pass.ID}
	}
	if p.v.Phase == "declare_blockers" {
		if c, ok := p.trick(acts); ok {
			return c
		}
	}
	if p.mainPhase() {
		if c, ok := p.cast(acts); ok {
			return c
		}
		if c, ok := p.loyalty(acts); ok {
			return c
		}
		if p.v.Phase == "postcombat_main" {
			if c, ok := p.activate(acts); ok {
				return c
			}
		}
	}
	return rooms.Choice{ActionID: pass.ID}
}

// land plays the land that makes the colours the hand still needs most.
func (p *pilot) land(acts []rooms.Action) (rooms.Choice, bool) {
	need := p.need("")
	best, score := "", -1
	for _, a := range acts {
		if a.Type != "play_land" {
			continue
		}
		c := p.hand[a.Subject[0]]
		if c == nil {
			continue
		}
		cols := p.colors(&rules.PermanentView{Card: *c})
		s := len(cols)
		for i := 0; i < len(cols); i++ {
			s += 10 * need[cols[i]]
		}
		if s > score {
			best, score = a.ID, s
		}
	}
	return rooms.Choice{ActionID: best}, best != ""
}

// plan is one way to take a cast or activation: its answers and worth.
type plan struct {
	act   rooms.Action
	ans   map[string][]string
	score int
	mv    int
	x     bool
}

// cast picks the spells that use the most of the seat's mana (the curve)
// among those worth casting, and casts the largest first, X spells last.
func (p *pilot) cast(acts []rooms.Action) (rooms.Choice, bool) {
	var plans []plan
	for _, a := range acts {
		if a.Type != "cast_spell" {
			continue
		}
		if pl, ok := p.planCast(a, false); ok && pl.score > 0 {
			plans = append(plans, pl)
		}
	}
	if len(plans) == 0 {
		return rooms.Choice{}, false
	}
	sort.SliceStable(plans, func(i, j int) bool { return plans[i].mv > plans[j].mv })
	if len(plans) > 10 {
		plans = plans[:10]
	}
	mana := len(p.sources()) + len(p.v.ManaPool)
	bestSet, bestMV, bestScore := 0, -1, -1
	for set := 1; set < 1<<len(plans); set++ {
		mv, score := 0, 0
		for i := range plans {
			if set&(1<<i) != 0 {
				mv += plans[i].mv
				score += plans[i].score
			}
		}
		if mv <= mana && (mv > bestMV || mv == bestMV && score > bestScore) {
			bestSet, bestMV, bestScore = set, mv, score
		}
	}
	pick := -1
	for i := range plans {
		if bestSet&(1<<i) == 0 {
			continue
		}
		if pick < 0 || plans[pick].x && !plans[i].x {
			pick = i
		}
	}
	if pick < 0 {
		return rooms.Choice{}, false
	}
	return rooms.Choice{ActionID: plans[pick].act.ID, Targets: plans[pick].ans}, true
}

// handDef returns the definition of the hand or command-zone card id.
func (p *pilot) handDef(id string) *card.Def {
	if c := p.hand[id]; c != nil {
		return p.def(c.FunctionalID)
	}
	for _, pile := range p.v.Command {
		for _, c := range pile.Cards {
			if c.ID == id {
				return p.def(c.FunctionalID)
			}
		}
	}
	return &card.Def{}
}

// planCast works out how to cast a (the mode, targets, X, extra costs and
// payment) and what it is worth now; combat says a trick is being
// considered, so pumps count.
func (p *pilot) planCast(a rooms.Action, combat bool) (plan, bool) {
	d := p.handDef(a.Subject[0])
	pl := plan{act: a, ans: map[string][]string{}}
	if a.Cost != nil {
		pl.mv = manaValue(a.Cost.Modified)
	}
	x := 0
	if xp, ok := xPrompt(a); ok {
		x = xp.Values[len(xp.Values)-1].Value
		pl.ans["x"] = []string{strconv.Itoa(x)}
		pl.x = true
	}
	switch {
	case d.Spell != nil && len(d.Spell.Modes) > 1:
		// Each mode slot ("mode", "mode1"…) takes the most valuable mode
		// not taken yet; the spell is worth what its modes are.
		type worth struct {
			id    string
			score int
			ans   map[string][]string
		}
		var ws []worth
		var slots []string
		for _, pr := range a.Prompts {
			if pr.Kind != rooms.PromptOption || !strings.HasPrefix(pr.Slot, "mode") {
				continue
			}
			slots = append(slots, pr.Slot)
			if ws != nil {
				continue
			}
			for _, o := range pr.Options {
				k, _ := strconv.Atoi(o.ID)
				ans := map[string][]string{}
				ws = append(ws, worth{o.ID, p.modeWorth(&d.Spell.Modes[k], "m"+o.ID, a, x, ans, combat), ans})
			}
		}
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].score > ws[j].score })
		pl.score = -1
		for i, slot := range slots {
			if i >= len(ws) {
				break
			}
			pl.ans[slot] = []string{ws[i].id}
			for sl, v := range ws[i].ans {
				pl.ans[sl] = v
			}
			pl.score = max(pl.score, 0) + ws[i].score
		}
	case d.Spell != nil && len(d.Spell.Modes) == 1:
		pl.score = p.modeWorth(&d.Spell.Modes[0], "", a, x, pl.ans, combat)
	case d.Enchant != "":
		pl.score = p.auraWorth(d, a, pl.ans)
	default:
		pl.score = 10 + manaValue(d.Cost)
	}
	if d.Spell != nil && d.Spell.AdditionalCost != nil {
		if !p.extraCost(a, pl.ans, &pl.score) {
			return pl, false
		}
	}
	pay := p.payment(a, x, a.Subject[0])
	if pay == nil && len(payPrompts(a)) > 0 {
		return pl, false
	}
	for k, v := range pay {
		pl.ans[k] = v
	}
	return pl, true
}

// effect polarity: ops that hurt what they touch.
var harmOps = map[string]bool{"damage": true, "destroy": true, "exile": true, "bounce": true, "tap": true,
	"discard": true, "lose_life": true, "counter": true, "mill": true, "exile_top": true, "sacrifice": true,
	"gain_control": true}

// harmful reports whether effect e hurts what it touches.
func harmful(e card.Effect) bool {
	switch e.Op {
	case "pump":
		return e.Power+e.Toughness < 0
	case "add_counters":
		return e.Counter == "-1/-1" || e.Counter == "poison"
	}
	return harmOps[e.Op]
}

// modeWorth scores mode m of a spell cast by a (its target slots named
// prefix+"t<i>") and fills their answers in ans: the best candidate of
// each slot; 0 when a harmful spell has nothing worth hitting.
func (p *pilot) modeWorth(m *card.Mode, prefix string, a rooms.Action, x int, ans map[string][]string, combat bool) int {
	total := 0
	for i := range m.Targets {
		slot := prefix + "t" + strconv.Itoa(i)
		var req *rooms.Requirement
		for k := range a.Requirements {
			if a.Requirements[k].Slot == slot {
				req = &a.Requirements[k]
			}
		}
		if req == nil {
			return 0
		}
		var effs []card.Effect
		for _, e := range m.Effects {
			if e.To == "t"+strconv.Itoa(i) {
				effs = append(effs, e)
			}
		}
		id, s := p.bestTarget(req.Candidates, effs, x, combat)
		if id == "" || s <= 0 {
			if m.Targets[i].Optional {
				continue
			}
			return 0
		}
		ans[slot] = []string{id}
		total += s
	}
	for _, e := range m.Effects {
		if !strings.HasPrefix(e.To, "t") {
			total += p.untargeted(e, x)
		}
	}
	return total
}

// amount is an effect's amount with X.
func amount(e card.Effect, x int) int {
	if e.XAmount {
		return x
	}
	return max(e.Amount, 1)
}

// untargeted scores an effect on a subject (no target).
func (p *pilot) untargeted(e card.Effect, x int) int {
	n := amount(e, x)
	opps := 0
	for _, pl := range p.players() {
		if pl.opponent && !pl.eliminated {
			opps++
		}
	}
	switch e.Op {
	case "draw":
		if p.v.Me != nil && p.v.Me.LibrarySize <= n+5 {
			return 0 // no drawing towards an empty library
		}
		return 3 * n
	case "gain_life", "scry", "mill":
		return 1
	case "search", "look_top", "return":
		return 4
	case "create_token":
		if e.Token != nil {
			return n * (2*e.Token.Power + e.Token.Toughness + 1)
		}
	case "damage", "lose_life":
		switch e.To {
		case "each_opponent":
			return 2 * n * opps
		case "each_creature", "each_creature_opponents_control":
			s := 0
			for i := range p.v.Battlefield {
				pv := &p.v.Battlefield[i]
				if creature(pv) && left(pv) <= n {
					if p.mine(pv) {
						if e.To == "each_creature" {
							s -= value(pv)
						}
					} else {
						s += value(pv)
					}
				}
			}
			return s
		}
	case "sacrifice":
		if e.To == "each_opponent" {
			s := 0
			for _, pl := range p.players() {
				if pl.opponent && !pl.eliminated {
					if cs := p.creaturesOf(pl.id); len(cs) > 0 {
						s += 4
					}
				}
			}
			return s
		}
	case "emblem":
		return 10
	}
	return 0
}

// bestTarget returns the candidate of a slot that effs do the most good
// with, and its worth.
func (p *pilot) bestTarget(cands []string, effs []card.Effect, x int, combat bool) (string, int) {
	harm := slices.ContainsFunc(effs, harmful)
	best, score := "", -1<<30
	for _, id := range cands {
		s := 0
		for _, e := range effs {
			if harm && !harmful(e) {
				continue // riders of a harmful effect (untap what is stolen)
			}
			s += p.targetWorth(id, e, x, combat)
		}
		if s > score {
			best, score = id, s
		}
	}
	return best, score
}

// never is the worth of a target the pilot must not pick: hurting its own
// side or helping an opponent.
const never = -1000

// targetWorth scores effect e on candidate id.
func (p *pilot) targetWorth(id string, e card.Effect, x int, combat bool) int {
	n := amount(e, x)
	harm := harmful(e)
	switch {
	case isPlayer(id):
		pl, ok := p.playerByID(id)
		if !ok {
			return never
		}
		if (id == p.me) == harm {
			return never
		}
		switch e.Op {
		case "damage", "lose_life":
			if n >= pl.life {
				return 1000
			}
			return n
		case "discard":
			return 3 * min(pl.hand, n)
		case "add_counters":
			if pl.poison+n >= 10 {
				return 1000
			}
			return 2 * n
		case "draw":
			return 3 * n
		}
		return 1
	case strings.HasPrefix(id, "perm_"):
		pv := p.perms[id]
		if pv == nil {
			return never
		}
		if p.mine(pv) == harm {
			return never
		}
		if !harm {
			return p.helpWorth(pv, e, combat)
		}
		v := p.weight(pv.Controller, value(pv))
		switch e.Op {
		case "damage":
			if creature(pv) && n >= left(pv) {
				return v
			}
			if hasType(pv.Card, "planeswalker") {
				return min(n, 8)
			}
			return 0
		case "add_counters":
			if creature(pv) && n >= left(pv) {
				return v
			}
			return n
		case "tap":
			if !creature(pv) {
				return 0
			}
			if pv.Tapped && !e.SkipUntap {
				return 0
			}
			return v / 2
		case "bounce":
			if pv.Card.Token {
				return v
			}
			return v * 2 / 3
		case "gain_control":
			if e.Duration != "" && !p.mainPhase() {
				return 0
			}
			return v
		}
		return v
	case strings.HasPrefix(id, "stack_"):
		for _, it := range p.v.Stack {
			if it.ID == id {
				if it.Controller == p.me {
					return never
				}
				if it.Card != nil {
					return 3 * manaValue(it.Card.ManaCost)
				}
			}
		}
		return 0
	case strings.HasPrefix(id, "card_"):
		for _, pile := range p.v.Graveyards {
			for _, c := range pile.Cards {
				if c.ID != id {
					continue
				}
				if (pile.PlayerID == p.me) == harm {
					return never
				}
				if harm {
					return 1
				}
				return defValue(p.def(c.FunctionalID))
			}
		}
	}
	return 0
}

// helpWorth scores a helpful effect on the seat's own permanent pv.
func (p *pilot) helpWorth(pv *rules.PermanentView, e card.Effect, combat bool) int {
	if !creature(pv) {
		return 1
	}
	switch e.Op {
	case "pump":
		if e.Duration == "" || combat {
			return value(pv) + e.Power + e.Toughness
		}
		if pv.Attacking {
			return value(pv)
		}
		return 0
	case "add_counters":
		return value(pv) + 2*e.Amount
	case "untap":
		return 1
	}
	return value(pv)
}

// isPlayer reports whether a wire id names a player ("p<seat>").
func isPlayer(id string) bool {
	if len(id) < 2 || id[0] != 'p' {
		return false
	}
	_, err := strconv.Atoi(id[1:])
	return err == nil
}
