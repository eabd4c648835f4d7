package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// aid builds an action id: the decision serial, then the parts, in one
// allocation.
func (g *Game) aid(parts ...string) string {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], int64(g.st.Serial), 10)
	for _, p := range parts {
		b = append(append(b, '.'), p...)
	}
	return string(b)
}

// asked reports whether seat is being asked something now.
func (g *Game) asked(seat int) bool {
	st := &g.st
	if st.Result != nil || seat < 0 || seat >= len(st.Players) || !g.alive(seat) {
		return false
	}
	if st.Dec.Kind == DecMulligan {
		return !st.Players[seat].Kept
	}
	return st.Dec.Kind != "" && st.Dec.Kind != DecOver && st.Dec.Seat == seat
}

// Actions returns the legal actions of seat for the pending decision, nil
// when seat is not asked anything.
func (g *Game) Actions(seat int) []rooms.Action {
	m := g.memoized()
	if acts, ok := m.acts[seat]; ok {
		return acts
	}
	acts := g.actions(seat)
	m.acts[seat] = acts
	return acts
}

// actions derives Actions.
func (g *Game) actions(seat int) []rooms.Action {
	if !g.asked(seat) {
		return nil
	}
	st := &g.st
	var acts []rooms.Action
	switch st.Dec.Kind {
	case DecMulligan:
		acts = append(acts, g.mulliganAction(seat))
	case DecPriority:
		acts = g.priorityActions(seat)
	case DecTargets:
		if a, ok := g.aimAction(); ok {
			acts = append(acts, a)
		}
	case DecChoice:
		acts = append(acts, g.choiceAction())
		if st.Dec.Choice.Pay != "" {
			acts = append(acts, g.manaActions(seat)...)
		}
	case DecDiscard:
		pl := &st.Players[seat]
		n := len(pl.Hand) - g.maxHand(seat)
		acts = append(acts, rooms.Action{ID: g.aid("discard"), Type: "discard", Label: "Discard to hand size",
			Prompts: []rooms.Prompt{{Kind: rooms.PromptSelectFromZone, Slot: "discard", Prompt: "Discard " + plural(n, "card"),
				Zone: "hand", Owner: rooms.PlayerID(seat), Count: n, Candidates: g.handIDs(pl.Hand)}}})
	case DecAttackers:
		acts = append(acts, g.attackAction())
	case DecBlockers:
		acts = append(acts, g.blockAction(seat))
	case DecOrder:
		acts = append(acts, g.orderAction())
	}
	if st.Dec.Kind != DecTargets {
		acts = append(acts, rooms.Action{ID: g.aid("concede"), Type: "concede", Label: "Concede"})
	}
	return acts
}

// handIDs lists the wire ids of cards.
func (g *Game) handIDs(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = g.cardID(c.N)
	}
	return out
}

// mulliganAction is the London mulligan decision of seat.
func (g *Game) mulliganAction(seat int) rooms.Action {
	pl := &g.st.Players[seat]
	opt := rooms.Prompt{Kind: rooms.PromptOption, Slot: "decision", Prompt: "Keep this hand?"}
	keep := rooms.Option{ID: "keep", Label: "Keep"}
	a := rooms.Action{ID: g.aid("mulligan"), Type: "mulligan_decision", Label: "Keep or mulligan"}
	if pl.Mulls > 0 {
		keep.Label = "Keep, putting " + plural(pl.Mulls, "card") + " on the bottom"
		keep.Requires = []string{"bottom"}
	}
	opt.Options = append(opt.Options, keep)
	if pl.Mulls < OpeningHand {
		opt.Options = append(opt.Options, rooms.Option{ID: "mulligan", Label: "Mulligan"})
	}
	a.Prompts = append(a.Prompts, opt)
	if pl.Mulls > 0 {
		zero := 0
		a.Prompts = append(a.Prompts, rooms.Prompt{Kind: rooms.PromptSelectFromZone, Slot: "bottom",
			Prompt: "Put " + plural(pl.Mulls, "card") + " on the bottom of your library", Zone: "hand",
			Owner: rooms.PlayerID(seat), Count: pl.Mulls, Min: &zero, Candidates: g.handIDs(pl.Hand)})
	}
	return a
}

// priorityActions lists what the priority holder may do.
func (g *Game) priorityActions(seat int) []rooms.Action {
	st := &g.st
	label := "Pass"
	if len(st.Stack) > 0 && st.Passes+1 >= len(g.apnap()) {
		label = "Resolve"
	}
	acts := []rooms.Action{{ID: g.aid("pass"), Type: "pass_priority", Label: label}}
	pl := &st.Players[seat]
	for _, c := range pl.Hand {
		d := g.def(c.ID)
		if is(d, "land") {
			if pl.Lands == 0 && g.canSorcery(seat) {
				acts = append(acts, rooms.Action{ID: g.aid("land", g.cardID(c.N)), Type: "play_land", Label: "Play " + d.Name, Subject: []string{g.cardID(c.N)},
					Destinations: []rooms.Destination{{Type: "zone", ID: "battlefield", Owner: rooms.PlayerID(seat)}}})
			}
			continue
		}
		if a, ok := g.castAction(seat, c, false); ok {
			acts = append(acts, a)
		}
	}
	for _, c := range pl.Command {
		if a, ok := g.castAction(seat, c, true); ok {
			acts = append(acts, a)
		}
	}
	acts = append(acts, g.abilityActions(seat)...)
	acts = append(acts, g.manaActions(seat)...)
	return acts
}

// manaActions lists seat's mana abilities that can be activated now, one
// action per colour each can make.
func (g *Game) manaActions(seat int) []rooms.Action {
	var acts []rooms.Action
	sts := g.statics()
	pool := g.st.Players[seat].Pool
	for i := range g.st.Field {
		p := &g.st.Field[i]
		c := g.charsWith(p, sts)
		if c.ctrl != seat {
			continue
		}
		for _, m := range g.cards.manaOf(c.def, p.Color) {
			if m.cost.Tap && (p.Tapped || (is(c.def, "creature") && p.Sick && c.kw&kwHaste == 0)) {
				continue
			}
			if !canPayFromPool(pool, m.cost) {
				continue
			}
			for k := 0; k < len(m.produce); k++ {
				col := m.produce[k : k+1]
				acts = append(acts, rooms.Action{ID: g.aid("mana", g.pid(p.N), strconv.Itoa(m.idx), col), Type: "activate_ability", ManaAbility: true,
					Label: c.def.Name + ": add " + strings.Repeat("{"+col+"}", m.amount), Subject: []string{g.pid(p.N)}})
			}
		}
	}
	return acts
}

// abilityActions lists seat's activated and loyalty abilities that can be
// activated now, their mana paid from the pool.
func (g *Game) abilityActions(seat int) []rooms.Action {
	var acts []rooms.Action
	sts := g.statics()
	for i := range g.st.Field {
		p := &g.st.Field[i]
		c := g.charsWith(p, sts)
		if c.ctrl != seat || p.Tok != nil {
			continue
		}
		for k := range c.def.Abilities {
			if a, ok := g.abilityAction(seat, p, c, k); ok {
				acts = append(acts, a)
			}
		}
	}
	return acts
}

// abilityAction builds the activate_ability action of p's ability k.
func (g *Game) abilityAction(seat int, p *Perm, c chars, k int) (rooms.Action, bool) {
	ab := &c.def.Abilities[k]
	switch ab.Kind {
	case card.AbilityActivated:
		if ab.SorcerySpeed && !g.canSorcery(seat) {
			return rooms.Action{}, false
		}
		co := g.cards.cost(ab.Cost)
		if co.Tap && (p.Tapped || (is(c.def, "creature") && p.Sick && c.kw&kwHaste == 0)) {
			return rooms.Action{}, false
		}
		if !canPayFromPool(g.st.Players[seat].Pool, co.withX(0)) {
			return rooms.Action{}, false
		}
	case card.AbilityLoyalty:
		if ab.Loyalty == nil || p.Used || !g.canSorcery(seat) || p.Loyalty+*ab.Loyalty < 0 {
			return rooms.Action{}, false
		}
	default:
		return rooms.Action{}, false
	}
	a := rooms.Action{ID: g.aid("act", g.pid(p.N), strconv.Itoa(k)), Type: "activate_ability",
		Label: c.def.Name + ": " + g.abilityLabel(c.def, k), Subject: []string{g.pid(p.N)}}
	it := Item{N: -1, Kind: "activated", Ctrl: seat, ID: p.ID, Ab: k}
	if ab.Mode != nil {
		if !g.aimable(&it, ab.Mode) {
			return rooms.Action{}, false
		}
		for i, t := range ab.Mode.Targets {
			a.Requirements = append(a.Requirements, rooms.Requirement{Slot: "t" + strconv.Itoa(i), Prompt: targetPrompt(t.Kind),
				Optional: t.Optional, Candidates: orEmpty(g.candidates(t.Kind, seat, -1))})
		}
	}
	if ab.Extra != nil {
		ps, ok := g.extraPrompts(seat, ab.Extra, -1, p.N)
		if !ok {
			return rooms.Action{}, false
		}
		for i := range ps {
			ps[i].Prompt = ab.Cost
		}
		a.Prompts = append(a.Prompts, ps...)
	}
	return a, true
}

// abilityLabel is an ability's cost as the card writes it.
func (g *Game) abilityLabel(d *card.Def, k int) string {
	ab := &d.Abilities[k]
	if ab.Kind == card.AbilityLoyalty && ab.Loyalty != nil {
		if *ab.Loyalty > 0 {
			return "+" + strconv.Itoa(*ab.Loyalty)
		}
		return strconv.Itoa(*ab.Loyalty)
	}
	return ab.Cost
}

// find returns the action of acts named id.
func find(acts []rooms.Action, id string) (rooms.Action, bool) {
	for _, a := range acts {
		if a.ID == id {
			return a, true
		}
	}
	return rooms.Action{}, false
}

// checkAnswer checks every answered slot against the action's offer:
// known slots, offered candidates, no id twice, counts within bounds,
// required slots answered.
func checkAnswer(a rooms.Action, ans map[string][]string) error {
	known := map[string]bool{}
	for _, r := range a.Requirements {
		known[r.Slot] = true
		got := ans[r.Slot]
		if len(got) == 0 && !r.Optional {
			return fmt.Errorf("rules: slot %q needs an answer", r.Slot)
		}
		if len(got) > max(r.Count, 1) {
			return fmt.Errorf("rules: too many answers for %q", r.Slot)
		}
		for _, id := range got {
			if !slices.Contains(r.Candidates, id) {
				return fmt.Errorf("rules: %q is not a candidate of %q", id, r.Slot)
			}
		}
	}
	paid := map[string]bool{}
	for _, p := range a.Prompts {
		known[p.Slot] = true
		got := ans[p.Slot]
		switch p.Kind {
		case rooms.PromptOption:
			if len(got) != 1 || !slices.ContainsFunc(p.Options, func(o rooms.Option) bool { return o.ID == got[0] }) {
				return fmt.Errorf("rules: %q needs one offered option", p.Slot)
			}
		case rooms.PromptNumber:
			if len(got) != 1 {
				return fmt.Errorf("rules: %q needs one number", p.Slot)
			}
			v, err := strconv.Atoi(got[0])
			if err != nil || (p.Min != nil && v < *p.Min) || (p.Max != nil && v > *p.Max) {
				return fmt.Errorf("rules: %q is out of range", p.Slot)
			}
			if len(p.Values) > 0 && !slices.ContainsFunc(p.Values, func(nv rooms.NumberValue) bool { return nv.Value == v }) {
				return fmt.Errorf("rules: %d is not an offered value of %q", v, p.Slot)
			}
		case rooms.PromptOrder:
			if len(got) != len(p.Items) {
				return fmt.Errorf("rules: %q needs every item once", p.Slot)
			}
			for _, id := range got {
				if !slices.Contains(p.Items, id) {
					return fmt.Errorf("rules: %q is not an item of %q", id, p.Slot)
				}
			}
		case rooms.PromptPayMana:
			if len(got) > 1 || (len(got) == 0 && p.Min == nil) {
				return fmt.Errorf("rules: %q needs one source", p.Slot)
			}
			for _, id := range got {
				if !slices.ContainsFunc(p.ManaCandidates, func(m rooms.ManaCandidate) bool { return m.ID == id }) {
					return fmt.Errorf("rules: %q is not a candidate of %q", id, p.Slot)
				}
				if paid[id] {
					return fmt.Errorf("rules: %q pays twice", id)
				}
				paid[id] = true
			}
		default: // select_from_zone
			lo := p.Least()
			if len(got) < lo || len(got) > max(p.Count, 1) {
				return fmt.Errorf("rules: %q needs %d to %d answers", p.Slot, lo, p.Count)
			}
			for _, id := range got {
				if !slices.Contains(p.Candidates, id) {
					return fmt.Errorf("rules: %q is not a candidate of %q", id, p.Slot)
				}
			}
		}
		if dupes(got) {
			return fmt.Errorf("rules: an id is named twice in %q", p.Slot)
		}
	}
	for slot := range ans {
		if !known[slot] {
			return fmt.Errorf("rules: unknown slot %q", slot)
		}
	}
	return nil
}

// dupes reports whether list names an id twice.
func dupes(list []string) bool {
	for i := range list {
		for j := i + 1; j < len(list); j++ {
			if list[i] == list[j] {
				return true
			}
		}
	}
	return false
}

// Apply applies seat's answer to one of its current actions and advances
// the game to the next decision. A refused answer changes nothing.
func (g *Game) Apply(seat int, c rooms.Choice) ([]rooms.Event, error) {
	a, ok := find(g.Actions(seat), c.ActionID)
	if !ok {
		return nil, fmt.Errorf("rules: action %q is not offered", c.ActionID)
	}
	ans := c.Targets
	if ans == nil {
		ans = map[string][]string{}
	}
	if err := checkAnswer(a, ans); err != nil {
		return nil, err
	}
	saved := g.st.clone()
	g.events, g.memo = nil, nil
	if err := g.apply(seat, a, ans); err != nil {
		g.st, g.events = saved, nil
		return nil, err
	}
	g.st.Serial++
	g.settle()
	ev := g.events
	g.events = nil
	return ev, nil
}

// apply performs a checked answer.
func (g *Game) apply(seat int, a rooms.Action, ans map[string][]string) error {
	st := &g.st
	parts := strings.Split(a.ID, ".")[1:]
	switch parts[0] {
	case "concede":
		g.eliminate([]int{seat}, "concede")
		return nil
	case "mulligan":
		return g.applyMulligan(seat, ans)
	case "pass":
		st.Dec = Decision{}
		g.pass()
		return nil
	case "land":
		_, n, _ := g.parseID(parts[1])
		c, ok := takeCard(&st.Players[seat].Hand, n)
		if !ok {
			return fmt.Errorf("rules: no such card")
		}
		st.Players[seat].Lands++
		g.enter(seat, seat, c, nil, false)
		g.acted(seat)
		st.Dec = Decision{}
		return nil
	case "cast":
		if err := g.applyCast(seat, parts[1], ans); err != nil {
			return err
		}
		g.acted(seat)
		st.Dec = Decision{}
		return nil
	case "act":
		if err := g.applyActivate(seat, parts[1], parts[2], ans); err != nil {
			return err
		}
		g.acted(seat)
		st.Dec = Decision{}
		return nil
	case "mana":
		return g.applyMana(seat, parts[1], parts[2], parts[3])
	case "aim":
		return g.applyAim(ans)
	case "choice":
		return g.applyChoice(ans)
	case "discard":
		pl := &st.Players[seat]
		for _, id := range ans["discard"] {
			_, n, _ := g.parseID(id)
			if c, ok := takeCard(&pl.Hand, n); ok {
				g.putCard(seat, c, toGrave)
			}
		}
		g.emit("cards_discarded", "player", rooms.PlayerID(seat), "count", len(ans["discard"]))
		st.Dec = Decision{}
		g.cleanup()
		return nil
	case "attack":
		return g.applyAttack(ans)
	case "block":
		return g.applyBlock(seat, ans)
	case "order":
		return g.applyOrder(ans)
	}
	return fmt.Errorf("rules: unknown action %q", a.ID)
}

// applyMulligan keeps (bottoming the chosen cards) or takes a new hand.
func (g *Game) applyMulligan(seat int, ans map[string][]string) error {
	st := &g.st
	pl := &st.Players[seat]
	if ans["decision"][0] == "mulligan" {
		for _, c := range pl.Hand {
			pl.Library = append(pl.Library, c.ID)
		}
		pl.Hand = []Card{}
		pl.Mulls++
		g.shuffle(seat)
		g.draw(seat, OpeningHand, false)
		g.emit("mulligan", "player", rooms.PlayerID(seat))
		return nil
	}
	bottom := ans["bottom"]
	if len(bottom) != pl.Mulls {
		return fmt.Errorf("rules: keeping after %d mulligans bottoms %d cards", pl.Mulls, pl.Mulls)
	}
	for i := len(bottom) - 1; i >= 0; i-- { // the first id ends up deepest
		_, n, _ := g.parseID(bottom[i])
		c, ok := takeCard(&pl.Hand, n)
		if !ok {
			return fmt.Errorf("rules: %q is not in the hand", bottom[i])
		}
		pl.Library = append(pl.Library, c.ID)
	}
	pl.Kept = true
	g.emit("hand_kept", "player", rooms.PlayerID(seat))
	if g.allKept() {
		st.Dec = Decision{}
	}
	return nil
}

// allKept reports whether every seat still playing has kept its hand.
func (g *Game) allKept() bool {
	for i, pl := range g.st.Players {
		if g.alive(i) && !pl.Kept {
			return false
		}
	}
	return true
}

// applyMana activates a mana ability: the mana goes to the pool.
func (g *Game) applyMana(seat int, pid, idx, col string) error {
	_, n, _ := g.parseID(pid)
	p := g.perm(n)
	if p == nil {
		return fmt.Errorf("rules: no such permanent")
	}
	k, _ := strconv.Atoi(idx)
	for _, m := range g.cards.manaOf(g.permDef(p), p.Color) {
		if m.idx != k {
			continue
		}
		pl := &g.st.Players[seat]
		_, pl.Pool = payFromPool(pl.Pool, m.cost)
		if m.cost.Tap {
			p.Tapped = true
		}
		pl.Pool = sortPool(pl.Pool + strings.Repeat(col, m.amount))
		return nil
	}
	return fmt.Errorf("rules: no such mana ability")
}

// sortPool writes a pool in WUBRGC order.
func sortPool(pool string) string {
	b := []byte(pool)
	slices.SortFunc(b, func(x, y byte) int { return strings.IndexByte(colorOrder, x) - strings.IndexByte(colorOrder, y) })
	return string(b)
}

// applyCast casts the card id of seat with the answers.
func (g *Game) applyCast(seat int, id string, ans map[string][]string) error {
	st := &g.st
	pl := &st.Players[seat]
	_, n, _ := g.parseID(id)
	fromCommand := false
	c, ok := takeCard(&pl.Hand, n)
	if !ok {
		if c, ok = takeCard(&pl.Command, n); !ok {
			return fmt.Errorf("rules: no such card")
		}
		fromCommand = true
	}
	d := g.def(c.ID)
	modified := g.spellCost(seat, d, fromCommand)
	if fromCommand {
		// the tax counted the casts before this one
		pl.Casts++
	}
	it := Item{N: g.mint(), Card: c.N, Kind: "spell", Ctrl: seat, Owner: seat, ID: c.ID, Cmdr: c.Cmdr, Aimed: true, Name: d.Name}
	if d.Spell != nil && len(d.Spell.Modes) > 1 {
		for i := range chooseCount(d) {
			k, err := strconv.Atoi(first(ans[modeSlot(i)]))
			if err != nil || k < 0 || k >= len(d.Spell.Modes) || slices.Contains(it.Modes, k) {
				return fmt.Errorf("rules: no such mode, or a mode chosen twice")
			}
			it.Modes = append(it.Modes, k)
		}
		slices.Sort(it.Modes) // modes are performed in printed order (CR 700.2)
		for _, k := range it.Modes {
			for i, t := range d.Spell.Modes[k].Targets {
				got := ans["m"+strconv.Itoa(k)+"t"+strconv.Itoa(i)]
				if len(got) == 0 && !t.Optional {
					return fmt.Errorf("rules: mode %d needs its targets", k)
				}
				it.Targets = append(it.Targets, first(got))
			}
		}
	} else {
		for i, t := range g.itemTargets(&it) {
			got := ans["t"+strconv.Itoa(i)]
			if len(got) == 0 && !t.Optional {
				return fmt.Errorf("rules: target %d missing", i)
			}
			it.Targets = append(it.Targets, first(got))
		}
	}
	if modified.X > 0 {
		it.X, _ = strconv.Atoi(ans["x"][0])
	}
	if err := g.payMana(seat, modified.withX(it.X), ans); err != nil {
		return err
	}
	if d.Spell != nil && d.Spell.AdditionalCost != nil {
		g.payExtra(seat, d.Spell.AdditionalCost, ans)
	}
	st.Stack = append(st.Stack, it)
	g.emit("spell_cast", "player", rooms.PlayerID(seat), "card", logEntity(stackID(it.N), d.Name))
	if !is(d, "creature") {
		for i := range st.Field {
			if p := &st.Field[i]; g.ctrl(p) == seat {
				g.triggerOn(p, "you_cast_noncreature", "")
			}
		}
	}
	return nil
}

// first returns the first id of a slot's answer, or "".
func first(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// payMana pays c for seat: the pool first, then one source per unpaid pip
// from the pay slots, each source once and able to pay its pip.
func (g *Game) payMana(seat int, c cost, ans map[string][]string) error {
	pl := &g.st.Players[seat]
	unpaid, left := payFromPool(pl.Pool, c)
	srcs := g.sources(seat)
	var chosen []source
	for i := 0; ; i++ {
		got := ans["pay"+strconv.Itoa(i)]
		if len(got) == 0 {
			if _, more := ans["pay"+strconv.Itoa(i+1)]; !more {
				break
			}
			continue
		}
		_, n, _ := g.parseID(got[0])
		k := slices.IndexFunc(srcs, func(s source) bool { return s.Perm == n })
		if k < 0 {
			return fmt.Errorf("rules: %s cannot pay", got[0])
		}
		chosen = append(chosen, srcs[k])
	}
	if len(chosen) != len(unpaid) {
		return fmt.Errorf("rules: %d pips to pay, %d sources named", len(unpaid), len(chosen))
	}
	if _, ok := assign(unpaid, chosen); !ok {
		return fmt.Errorf("rules: those sources cannot pay %s", c.String())
	}
	for _, s := range chosen {
		g.perm(s.Perm).Tapped = true
	}
	pl.Pool = left
	return nil
}

// applyActivate activates p's ability k: costs paid, the ability goes on
// the stack (a loyalty ability changes loyalty first).
func (g *Game) applyActivate(seat int, pid, idx string, ans map[string][]string) error {
	st := &g.st
	_, n, _ := g.parseID(pid)
	p := g.perm(n)
	k, _ := strconv.Atoi(idx)
	if p == nil {
		return fmt.Errorf("rules: no such permanent")
	}
	d := g.def(p.ID)
	ab := &d.Abilities[k]
	it := Item{N: g.mint(), Kind: "activated", Ctrl: seat, Owner: p.Owner, ID: p.ID, Source: p.N, Ab: k, Aimed: true, Name: d.Name}
	if ab.Kind == card.AbilityLoyalty {
		p.Loyalty += *ab.Loyalty
		p.Used = true
	} else {
		co := g.cards.cost(ab.Cost)
		pl := &st.Players[seat]
		unpaid, left := payFromPool(pl.Pool, co.withX(0))
		if len(unpaid) > 0 {
			return fmt.Errorf("rules: the pool cannot pay %s", ab.Cost)
		}
		pl.Pool = left
		if co.Tap {
			p.Tapped = true
		}
		if ab.Extra != nil {
			g.payExtra(seat, ab.Extra, ans)
		}
	}
	if ab.Mode != nil {
		for i, t := range ab.Mode.Targets {
			got := ans["t"+strconv.Itoa(i)]
			if len(got) == 0 && !t.Optional {
				return fmt.Errorf("rules: target %d missing", i)
			}
			it.Targets = append(it.Targets, first(got))
		}
	}
	st.Stack = append(st.Stack, it)
	return nil
}

// aimAction is the choose_targets action of the trigger being aimed.
func (g *Game) aimAction() (rooms.Action, bool) {
	i := g.unaimed()
	if i < 0 {
		return rooms.Action{}, false
	}
	it := &g.st.Stack[i]
	a := rooms.Action{ID: g.aid("aim"), Type: "choose_targets", Label: "Choose targets for " + it.Name,
		Subject: []string{stackID(it.N), g.pid(it.Source)}}
	for k, t := range g.itemTargets(it) {
		a.Requirements = append(a.Requirements, rooms.Requirement{Slot: "t" + strconv.Itoa(k), Prompt: targetPrompt(t.Kind),
			Optional: t.Optional, Candidates: orEmpty(g.candidates(t.Kind, it.Ctrl, it.N))})
	}
	return a, true
}

// applyAim locks a trigger's targets.
func (g *Game) applyAim(ans map[string][]string) error {
	i := g.unaimed()
	if i < 0 {
		return fmt.Errorf("rules: nothing to aim")
	}
	it := &g.st.Stack[i]
	it.Targets = nil
	for k := range g.itemTargets(it) {
		it.Targets = append(it.Targets, first(ans["t"+strconv.Itoa(k)]))
	}
	it.Aimed = true
	it.Aim = g.mint() // a graveyard card that arrives later is not what was aimed at
	g.st.Dec = Decision{}
	return nil
}
