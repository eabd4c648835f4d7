package rules

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/rooms"
)

// attackerCandidates lists the active player's creatures able to attack.
func (g *Game) attackerCandidates() []int {
	var out []int
	sts := g.statics()
	for i := range g.st.Field {
		p := &g.st.Field[i]
		c := g.charsWith(p, sts)
		if c.ctrl != g.st.Active || !is(c.def, "creature") || p.Tapped || c.cantFight || c.kw&kwDefender != 0 {
			continue
		}
		if p.Sick && c.kw&kwHaste == 0 {
			continue
		}
		out = append(out, p.N)
	}
	return out
}

// attackTargets lists what the active player can attack: opponents and
// their planeswalkers.
func (g *Game) attackTargets() []string {
	var out []string
	for _, s := range g.apnap() {
		if s != g.st.Active {
			out = append(out, rooms.PlayerID(s))
		}
	}
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if is(g.permDef(p), "planeswalker") && g.ctrl(p) != g.st.Active {
			out = append(out, g.pid(p.N))
		}
	}
	return out
}

// attackAction is the declare_attackers action.
func (g *Game) attackAction() rooms.Action {
	cands := g.attackerCandidates()
	ids := numIDs(cands, g.pid)
	var taps []string
	for _, n := range cands {
		if g.chars(g.perm(n)).kw&kwVigilance == 0 {
			taps = append(taps, g.pid(n))
		}
	}
	a := rooms.Action{ID: g.aid("attack"), Type: "declare_attackers", Label: "Declare attackers",
		Requirements: []rooms.Requirement{{Slot: "attackers", Prompt: "Choose attackers", Optional: true, Taps: taps, Count: len(ids), Candidates: ids}}}
	if targets := g.attackTargets(); len(targets) > 1 {
		for _, id := range ids {
			a.Requirements = append(a.Requirements, rooms.Requirement{Slot: "defender:" + id, Prompt: "Choose what it attacks",
				Optional: true, Subject: id, Candidates: targets})
		}
	}
	return a
}

// applyAttack declares the attackers.
func (g *Game) applyAttack(ans map[string][]string) error {
	st := &g.st
	targets := g.attackTargets()
	var ents []map[string]any
	for _, id := range ans["attackers"] {
		def := first(ans["defender:"+id])
		if len(targets) == 1 {
			def = targets[0]
		}
		if def == "" {
			return fmt.Errorf("rules: %s needs a defender", id)
		}
		_, n, _ := g.parseID(id)
		p := g.perm(n)
		c := g.chars(p)
		if c.kw&kwVigilance == 0 {
			p.Tapped = true
		}
		p.Attack = def
		ents = append(ents, logEntity(id, c.def.Name))
		g.triggerOn(p, "attacks", def)
	}
	st.Dec = Decision{}
	if len(ents) == 0 {
		st.Passes = -1
		return nil
	}
	st.Combat.Attacked = true
	g.emit("attackers_declared", "player", rooms.PlayerID(st.Active), "attackers", ents)
	g.givePriority()
	return nil
}

// defendingSeat is the player an attack on target defends.
func (g *Game) defendingSeat(target string) int {
	k, n, _ := g.parseID(target)
	if k == "p" {
		return n
	}
	if p := g.perm(n); p != nil {
		return g.ctrl(p)
	}
	return -1
}

// attackersOf lists the attackers attacking seat or its planeswalkers.
func (g *Game) attackersOf(seat int) []int {
	var out []int
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if p.Attack != "" && g.defendingSeat(p.Attack) == seat {
			out = append(out, p.N)
		}
	}
	return out
}

// blockerCandidates lists seat's creatures that can block attacker a.
func (g *Game) blockerCandidates(seat, a int) []string {
	ac := g.chars(g.perm(a))
	if ac.kw&kwUnblockable != 0 {
		return nil
	}
	var out []string
	sts := g.statics()
	for i := range g.st.Field {
		p := &g.st.Field[i]
		c := g.charsWith(p, sts)
		if c.ctrl != seat || !is(c.def, "creature") || p.Tapped || c.cantFight {
			continue
		}
		if ac.kw&kwFlying != 0 && c.kw&(kwFlying|kwReach) == 0 {
			continue
		}
		out = append(out, g.pid(p.N))
	}
	return out
}

// startBlocks lists the defending players, in APNAP order, and asks the
// first with any possible block.
func (g *Game) startBlocks() {
	st := &g.st
	st.Combat.Defenders = nil
	for _, s := range g.apnap() {
		if len(g.attackersOf(s)) > 0 {
			st.Combat.Defenders = append(st.Combat.Defenders, s)
		}
	}
	g.nextBlocker()
}

// nextBlocker asks the next defending player that has a possible block,
// then the damage order, then gives priority.
func (g *Game) nextBlocker() {
	st := &g.st
	for len(st.Combat.Defenders) > 0 {
		s := st.Combat.Defenders[0]
		for _, a := range g.attackersOf(s) {
			if len(g.blockerCandidates(s, a)) > 0 {
				st.Dec = Decision{Kind: DecBlockers, Seat: s}
				return
			}
		}
		st.Combat.Defenders = st.Combat.Defenders[1:]
	}
	if len(g.toOrder()) > 0 {
		st.Dec = Decision{Kind: DecOrder, Seat: st.Active}
		return
	}
	g.givePriority()
}

// blockAction is seat's declare_blockers action.
func (g *Game) blockAction(seat int) rooms.Action {
	a := rooms.Action{ID: g.aid("block"), Type: "declare_blockers", Label: "Declare blockers"}
	for _, n := range g.attackersOf(seat) {
		cands := g.blockerCandidates(seat, n)
		prompt := "Choose blockers for " + g.permDef(g.perm(n)).Name
		if g.chars(g.perm(n)).kw&kwMenace != 0 {
			prompt += " (menace: two or more)"
		}
		a.Requirements = append(a.Requirements, rooms.Requirement{Slot: "block:" + g.pid(n), Prompt: prompt, Optional: true,
			Subject: g.pid(n), Count: len(cands), Candidates: orEmpty(cands)})
	}
	return a
}

// applyBlock declares seat's blockers: a creature blocks one attacker; an
// attacker with menace needs two or more.
func (g *Game) applyBlock(seat int, ans map[string][]string) error {
	st := &g.st
	used := map[string]bool{}
	var blocks []map[string]any
	for _, n := range g.attackersOf(seat) {
		got := ans["block:"+g.pid(n)]
		if len(got) == 1 && g.chars(g.perm(n)).kw&kwMenace != 0 {
			return fmt.Errorf("rules: %s has menace and needs two or more blockers", g.pid(n))
		}
		for _, id := range got {
			if used[id] {
				return fmt.Errorf("rules: %s blocks twice", id)
			}
			used[id] = true
		}
	}
	for _, n := range g.attackersOf(seat) {
		a := g.perm(n)
		for _, id := range ans["block:"+g.pid(n)] {
			_, b, _ := g.parseID(id)
			bp := g.perm(b)
			bp.Blocks = []int{n}
			a.Blockers = append(a.Blockers, b)
			a.Blocked = true
			blocks = append(blocks, map[string]any{"blocker": logEntity(id, g.permDef(bp).Name), "attacker": logEntity(g.pid(n), g.permDef(a).Name)})
		}
	}
	if blocks == nil {
		blocks = []map[string]any{}
	}
	g.emit("blockers_declared", "player", rooms.PlayerID(seat), "blocks", blocks)
	st.Dec = Decision{}
	st.Combat.Defenders = st.Combat.Defenders[1:]
	g.nextBlocker()
	return nil
}

// toOrder lists the attackers blocked by two or more creatures.
func (g *Game) toOrder() []int {
	var out []int
	for i := range g.st.Field {
		if p := &g.st.Field[i]; p.Attack != "" && len(p.Blockers) >= 2 {
			out = append(out, p.N)
		}
	}
	return out
}

// orderAction is the order_combat_damage action.
func (g *Game) orderAction() rooms.Action {
	a := rooms.Action{ID: g.aid("order"), Type: "order_combat_damage", Label: "Order blockers for damage"}
	for _, n := range g.toOrder() {
		a.Prompts = append(a.Prompts, rooms.Prompt{Kind: rooms.PromptOrder, Slot: "order:" + g.pid(n),
			Prompt: "Order the blockers of " + g.permDef(g.perm(n)).Name, Items: numIDs(g.perm(n).Blockers, g.pid)})
	}
	return a
}

// applyOrder sets the damage assignment orders.
func (g *Game) applyOrder(ans map[string][]string) error {
	for _, n := range g.toOrder() {
		p := g.perm(n)
		var order []int
		for _, id := range ans["order:"+g.pid(n)] {
			_, b, _ := g.parseID(id)
			order = append(order, b)
		}
		p.Blockers = order
	}
	g.st.Dec = Decision{}
	g.givePriority()
	return nil
}

// hit is one assignment of combat damage.
type hit struct {
	src    damageSrc
	perm   int    // a permanent hit, or 0
	player int    // a player hit, or -1
	amt    int    // damage
	via    string // the attacker's wire id, for triggers
}

// combatDamage deals combat damage: first strikers in a first step when
// any creature in combat has first strike, the rest in the second.
func (g *Game) combatDamage() {
	st := &g.st
	cb := st.Combat
	sts := g.statics()
	inCombat := func(p *Perm) bool { return p.Attack != "" || len(p.Blocks) > 0 }
	if !cb.Split && !cb.FirstDone {
		for i := range st.Field {
			p := &st.Field[i]
			if inCombat(p) && g.charsWith(p, sts).kw&kwFirstStrike != 0 {
				cb.Split = true
			}
		}
	}
	deals := func(c chars) bool {
		fs := c.kw&kwFirstStrike != 0
		if !cb.Split {
			return true
		}
		return fs != cb.FirstDone
	}
	var hits []hit
	for i := range st.Field {
		p := &st.Field[i]
		c := g.charsWith(p, sts)
		if !inCombat(p) || !deals(c) || c.power <= 0 {
			continue
		}
		src := damageSrc{perm: p.N, kw: c.kw, ctrl: c.ctrl, cmdr: p.Cmdr}
		if len(p.Blocks) > 0 {
			hits = append(hits, hit{src: src, perm: p.Blocks[0], player: -1, amt: c.power})
			continue
		}
		left := c.power
		if p.Blocked {
			for k, b := range p.Blockers {
				bp := g.perm(b)
				if bp == nil {
					continue
				}
				lethal := max(g.charsWith(bp, sts).tough-bp.Damage, 0)
				if c.kw&kwDeathtouch != 0 {
					lethal = min(lethal, 1)
				}
				give := min(lethal, left)
				if k == len(p.Blockers)-1 && c.kw&kwTrample == 0 {
					give = left
				}
				if give > 0 {
					hits = append(hits, hit{src: src, perm: b, player: -1, amt: give})
					left -= give
				}
			}
			if c.kw&kwTrample == 0 || left <= 0 {
				continue
			}
		}
		kind, n, _ := g.parseID(p.Attack)
		if kind == "p" {
			hits = append(hits, hit{src: src, player: n, amt: left, via: g.pid(p.N)})
		} else {
			hits = append(hits, hit{src: src, perm: n, player: -1, amt: left})
		}
	}
	for _, h := range hits {
		if h.player >= 0 {
			g.damagePlayer(h.src, h.player, h.amt, true)
			if p := g.perm(h.src.perm); p != nil {
				g.triggerOn(p, "deals_combat_damage_to_player", rooms.PlayerID(h.player))
			}
			continue
		}
		g.damagePerm(h.src, h.perm, h.amt)
	}
}

// endCombat removes every creature from combat.
func (g *Game) endCombat() {
	for i := range g.st.Field {
		p := &g.st.Field[i]
		p.Attack, p.Blocks, p.Blockers, p.Blocked = "", nil, nil, false
	}
}
