package rules

import (
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// maxSettle bounds the steps one settle may take, so that a state that
// cannot reach a decision (which would be a bug) ends in a draw instead of
// hanging the host.
const maxSettle = 2000

// settle advances the game until a seat is asked something or the game is
// over: it resumes the resolution in progress, checks state-based actions,
// puts queued triggers on the stack, gives priority, and moves through the
// steps.
func (g *Game) settle() {
	st := &g.st
	for range maxSettle {
		if st.Result != nil {
			st.Dec = Decision{Kind: DecOver}
			return
		}
		if st.Dec.Kind != "" {
			return
		}
		if g.sba() {
			continue
		}
		if len(st.Ask) > 0 {
			g.askCommander()
			continue
		}
		if st.Res != nil {
			g.resume()
			continue
		}
		if len(st.Queue) > 0 {
			g.stackTriggers()
			continue
		}
		if i := g.unaimed(); i >= 0 {
			st.Dec = Decision{Kind: DecTargets, Seat: st.Stack[i].Ctrl, Item: st.Stack[i].N}
			return
		}
		if st.Passes >= 0 && st.Turn > 0 && g.priorityStep() {
			if !g.alive(st.Prio) {
				st.Prio = g.nextAlive(st.Prio)
			}
			st.Dec = Decision{Kind: DecPriority, Seat: st.Prio}
			return
		}
		g.nextStep()
	}
	g.end("", g.apnap(), "stalled")
}

// priorityStep reports whether players get priority in the current step.
func (g *Game) priorityStep() bool {
	return g.st.Step != StepUntap && (g.st.Step != StepCleanup || len(g.st.Stack) > 0)
}

// pass handles a priority pass: when every player still playing has
// passed in succession the top of the stack resolves, or the step ends.
func (g *Game) pass() {
	st := &g.st
	st.Passes++
	if st.Passes < len(g.apnap()) {
		st.Prio = g.nextAlive(st.Prio)
		return
	}
	if len(st.Stack) > 0 {
		top := st.Stack[len(st.Stack)-1]
		st.Stack = st.Stack[:len(st.Stack)-1]
		st.Res = &Res{Item: top, Path: []int{0}}
		g.givePriority()
		g.startResolution()
		return
	}
	st.Passes = -1 // the step ends
}

// acted resets the passes after a player took an action with priority:
// priority returns to them (CR 117.3c).
func (g *Game) acted(seat int) {
	g.st.Passes, g.st.Prio = 0, seat
}

// givePriority gives the active player priority with no passes yet.
func (g *Game) givePriority() {
	g.st.Passes, g.st.Prio = 0, g.st.Active
}

// nextStep leaves the current step (emptying mana pools) and enters the
// next, performing its turn-based actions.
func (g *Game) nextStep() {
	st := &g.st
	for i := range st.Players {
		st.Players[i].Pool = ""
	}
	g.givePriority()
	if st.Turn == 0 {
		st.Turn = 1
		st.Step = StepUntap
		g.beginStep()
		return
	}
	switch {
	case st.Step == StepAttackers && (st.Combat == nil || !st.Combat.Attacked):
		st.Step = StepEndCombat
	case st.Step == StepDamage && st.Combat != nil && st.Combat.Split && !st.Combat.FirstDone:
		st.Combat.FirstDone = true
	case st.Step == StepCleanup:
		g.startTurn(g.nextAlive(st.Active))
		return
	default:
		st.Step++
	}
	g.beginStep()
}

// startTurn begins seat's turn with its untap step.
func (g *Game) startTurn(seat int) {
	st := &g.st
	st.Turn++
	st.Active = seat
	st.Step = StepUntap
	g.givePriority()
	st.Combat = nil
	for i := range st.Players {
		st.Players[i].Lands = 0
	}
	for i := range st.Field {
		st.Field[i].Used = false
	}
	g.beginStep()
}

// beginStep performs the turn-based actions of the step just entered and
// queues its triggers.
func (g *Game) beginStep() {
	st := &g.st
	st.Entered++
	g.emit("step_changed", "turn", st.Turn, "active_player", rooms.PlayerID(st.Active), "phase", phaseNames[st.Step])
	switch st.Step {
	case StepUntap:
		sts := g.statics()
		for i := range st.Field {
			p := &st.Field[i]
			c := g.charsWith(p, sts)
			if c.ctrl != st.Active {
				continue
			}
			p.Sick = false
			switch {
			case p.Skip:
				p.Skip = false
			case !c.noUntap:
				p.Tapped = false
			}
		}
		st.Passes = -1
	case StepUpkeep:
		g.triggerStep("upkeep")
	case StepDraw:
		if st.Turn == 1 {
			break // the first player skips their first draw
		}
		if n := g.draw(st.Active, 1, true); n > 0 {
			g.emit("cards_drawn", "player", rooms.PlayerID(st.Active), "count", n)
		}
	case StepBeginCombat:
		st.Combat = &Combat{}
	case StepAttackers:
		if len(g.attackerCandidates()) == 0 {
			st.Passes = -1
			break
		}
		st.Dec = Decision{Kind: DecAttackers, Seat: st.Active}
	case StepBlockers:
		g.startBlocks()
	case StepDamage:
		g.combatDamage()
	case StepEndCombat:
		g.endCombat()
	case StepEnd:
		g.triggerStep("end_step")
	case StepCleanup:
		g.cleanup()
	}
}

// cleanup asks the active player to discard to hand size, then removes
// damage and ends "until end of turn" effects.
func (g *Game) cleanup() {
	st := &g.st
	if len(st.Players[st.Active].Hand) > g.maxHand(st.Active) {
		st.Dec = Decision{Kind: DecDiscard, Seat: st.Active}
		return
	}
	for i := range st.Field {
		st.Field[i].Damage = 0
		st.Field[i].DTouch = false
	}
	kept := st.Effects[:0]
	for _, e := range st.Effects {
		if !e.EOT {
			kept = append(kept, e)
		}
	}
	st.Effects = kept
	st.Passes = -1
}

// maxHand is seat's maximum hand size, or a very large number when a
// static ability lifts it.
func (g *Game) maxHand(seat int) int {
	if g.noMaxHand(seat) {
		return 1 << 30
	}
	return HandSize
}

// noMaxHand reports whether seat has no maximum hand size.
func (g *Game) noMaxHand(seat int) bool {
	for _, s := range g.statics() {
		if s.st.Op == "no_max_hand_size" && s.ctrl == seat {
			return true
		}
	}
	return false
}

// triggerStep queues the active player's triggers of a step beginning.
func (g *Game) triggerStep(when string) {
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if g.ctrl(p) == g.st.Active {
			g.triggerOn(p, when, "")
		}
	}
}

// triggerOn queues p's triggered abilities for event when.
func (g *Game) triggerOn(p *Perm, when, event string) {
	if p.Tok != nil {
		return
	}
	d := g.def(p.ID)
	for k := range d.Abilities {
		a := &d.Abilities[k]
		if a.Kind == card.AbilityTriggered && a.When == when {
			g.st.Queue = append(g.st.Queue, Pending{Ctrl: g.ctrl(p), Source: p.N, ID: p.ID, Ab: k, Event: event, Name: d.Name})
		}
	}
}

// stackTriggers puts the queued triggers on the stack in APNAP order, each
// controller's in the order they were queued. A trigger whose mandatory
// target slot has no legal choice is removed (CR 603.3c).
func (g *Game) stackTriggers() {
	st := &g.st
	queue := st.Queue
	st.Queue = nil
	for _, seat := range g.apnap() {
		for _, t := range queue {
			if t.Ctrl != seat {
				continue
			}
			it := Item{N: g.mint(), Kind: "triggered", Ctrl: t.Ctrl, Owner: t.Ctrl, ID: t.ID, Source: t.Source, Ab: t.Ab, Event: t.Event, Name: t.Name}
			m := g.itemMode(&it, 0)
			it.Aimed = m == nil || len(m.Targets) == 0
			if !it.Aimed && !g.aimable(&it, m) {
				continue
			}
			st.Stack = append(st.Stack, it)
		}
	}
}

// unaimed returns the index of the lowest trigger on the stack still to be
// aimed, or -1.
func (g *Game) unaimed() int {
	for i := range g.st.Stack {
		if !g.st.Stack[i].Aimed {
			return i
		}
	}
	return -1
}

// end finishes the game: winner (empty for a draw), losers and reason.
func (g *Game) end(winner string, losers []int, reason string) {
	r := &rooms.Result{Winner: winner, Reason: reason, Losers: []string{}}
	for _, s := range losers {
		r.Losers = append(r.Losers, rooms.PlayerID(s))
	}
	g.st.Result = r
	g.st.Dec = Decision{Kind: DecOver}
	g.st.Res = nil
	g.emit("game_over", "result", r)
}
