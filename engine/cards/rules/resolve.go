package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Choice kinds of a mid-resolution player choice.
const (
	chDiscard   = "discard"
	chScry      = "scry"
	chSearch    = "search"
	chLook      = "look"
	chLookOrder = "look_order"
	chSacrifice = "sacrifice"
	chMay       = "may"
	chOptional  = "optional" // a "you may" trigger
	chColor     = "color"
	chName      = "name"
	chCommander = "commander"
)

// startResolution begins resolving the item in st.Res: a spell or ability
// whose targets have all become illegal fizzles; a permanent spell enters
// the battlefield; otherwise its effects run from the cursor.
func (g *Game) startResolution() {
	st := &g.st
	it := &st.Res.Item
	if len(it.Targets) > 0 && !g.anyLegal(it) {
		st.Res = nil
		if it.Kind == "spell" {
			g.emit("spell_fizzled", "player", rooms.PlayerID(it.Ctrl), "card", logEntity(stackID(it.N), it.Name))
			g.putCard(it.Owner, it.card(), toGrave)
		}
		return
	}
	if it.Kind == "spell" {
		d := g.def(it.ID)
		if !is(d, "instant") && !is(d, "sorcery") {
			if k := entersChoice(d); k >= 0 {
				kind := chColor
				if d.Abilities[k].Mode.Effects[0].Op == "name_card" {
					kind = chName
				}
				// the permanent waits in no zone until it is answered (CR 614.12)
				g.ask(&Choice{Kind: kind, Seat: it.Ctrl, Owner: it.Ctrl, Min: 1, Max: 1})
				return
			}
			n := g.enter(it.Owner, it.Ctrl, it.card(), nil, false)
			if d.Enchant != "" && len(it.Targets) > 0 {
				_, t, _ := g.parseID(it.Targets[0])
				g.perm(n).Attach = t
			}
			g.emit("spell_resolved", "player", rooms.PlayerID(it.Ctrl), "card", logEntity(stackID(it.N), it.Name))
			st.Res = nil
			return
		}
	}
	if it.Kind == "triggered" {
		ab := g.ability(it)
		if ab != nil && ab.Optional {
			g.ask(&Choice{Kind: chOptional, Seat: it.Ctrl, Pay: ab.Pay, Min: 1, Max: 1})
		}
	}
}

// ability returns the ability an ability item comes from, or nil.
func (g *Game) ability(it *Item) *card.Ability {
	d := g.def(it.ID)
	if it.Kind == "spell" || it.Ab < 0 || it.Ab >= len(d.Abilities) {
		return nil
	}
	return &d.Abilities[it.Ab]
}

// anyLegal reports whether at least one announced target of it is still
// legal.
func (g *Game) anyLegal(it *Item) bool {
	kinds := g.itemTargets(it)
	for i, id := range it.Targets {
		if id != "" && i < len(kinds) && g.legalTarget(id, kinds[i].Kind, it) {
			return true
		}
	}
	return false
}

// ask poses a mid-resolution choice.
func (g *Game) ask(c *Choice) {
	g.st.Dec = Decision{Kind: DecChoice, Seat: c.Seat, Choice: c}
}

// effects returns the effect list at depth d of the cursor.
func (g *Game) effectList(mode *card.Mode, path []int) []card.Effect {
	list := mode.Effects
	for _, i := range path[:len(path)-1] {
		if i >= len(list) {
			return nil
		}
		list = list[i].Then
	}
	return list
}

// resume runs the effects of the resolution in progress from its cursor
// until one poses a choice or the resolution ends.
func (g *Game) resume() {
	st := &g.st
	for st.Res != nil && st.Dec.Kind == "" {
		r := st.Res
		mode := g.itemMode(&r.Item, r.Mode)
		if mode == nil {
			g.finish()
			return
		}
		list := g.effectList(mode, r.Path)
		i := r.Path[len(r.Path)-1]
		if i >= len(list) {
			if len(r.Path) > 1 {
				r.Path = r.Path[:len(r.Path)-1]
				r.Path[len(r.Path)-1]++
				continue
			}
			r.Mode++
			r.Path = []int{0}
			continue
		}
		e := list[i]
		if g.exec(&e) {
			return // a choice was posed; its answer advances the cursor
		}
		if st.Res != nil && st.Dec.Kind == "" {
			r.Path[len(r.Path)-1]++
		}
	}
}

// advance moves the cursor past the current effect after a choice.
func (g *Game) advance() {
	if r := g.st.Res; r != nil {
		r.Path[len(r.Path)-1]++
		r.Seats = nil
	}
}

// finish ends a resolution: a spell goes to its owner's graveyard.
func (g *Game) finish() {
	st := &g.st
	it := st.Res.Item
	st.Res = nil
	if it.Kind == "spell" {
		g.emit("spell_resolved", "player", rooms.PlayerID(it.Ctrl), "card", logEntity(stackID(it.N), it.Name))
		g.putCard(it.Owner, it.card(), toGrave)
	}
}

// targetOffset is the index of the first target slot of the current mode.
func (g *Game) targetOffset() int {
	r := g.st.Res
	off := 0
	for k := 0; k < r.Mode; k++ {
		if m := g.itemMode(&r.Item, k); m != nil {
			off += len(m.Targets)
		}
	}
	return off
}

// recipients resolves an effect's "to" into players and permanents: a
// target that is still legal, or a subject.
func (g *Game) recipients(to string) (players, perms []int, cards []string) {
	st := &g.st
	it := &st.Res.Item
	if to == "" {
		to = "you"
	}
	if strings.HasPrefix(to, "t") {
		k, err := strconv.Atoi(to[1:])
		if err != nil {
			return nil, nil, nil
		}
		idx := g.targetOffset() + k
		if idx >= len(it.Targets) || it.Targets[idx] == "" {
			return nil, nil, nil
		}
		id := it.Targets[idx]
		kinds := g.itemTargets(it)
		if idx >= len(kinds) || !g.legalTarget(id, kinds[idx].Kind, it) {
			return nil, nil, nil
		}
		kind, n, _ := g.parseID(id)
		switch kind {
		case "p":
			return []int{n}, nil, nil
		case "perm":
			return nil, []int{n}, nil
		}
		return nil, nil, []string{id}
	}
	switch to {
	case "you":
		return []int{it.Ctrl}, nil, nil
	case "each_opponent":
		for _, s := range g.apnap() {
			if s != it.Ctrl {
				players = append(players, s)
			}
		}
	case "each_player":
		players = g.apnap()
	case "triggering_player":
		if k, n, ok := g.parseID(it.Event); ok && k == "p" {
			players = []int{n}
		}
	case "each_creature", "each_creature_opponents_control":
		for i := range st.Field {
			p := &st.Field[i]
			if g.creature(p) && (to == "each_creature" || g.ctrl(p) != it.Ctrl) {
				perms = append(perms, p.N)
			}
		}
	case "self":
		if g.perm(it.Source) != nil {
			perms = []int{it.Source}
		}
	case "enchanted", "attached":
		if s := g.perm(it.Source); s != nil && g.perm(s.Attach) != nil {
			perms = []int{s.Attach}
		}
	}
	return players, perms, nil
}

// amount is an effect's count: X when it says so.
func (g *Game) amount(e *card.Effect) int {
	if e.XAmount {
		return g.st.Res.Item.X
	}
	return max(e.Amount, 1)
}

// sourceChars are the characteristics of the resolving item's source
// permanent, if it is still on the battlefield.
func (g *Game) sourceChars() (chars, bool) {
	it := &g.st.Res.Item
	if it.Kind == "spell" {
		return chars{}, false
	}
	if p := g.perm(it.Source); p != nil {
		return g.chars(p), true
	}
	return chars{}, false
}

// exec performs one effect and reports whether it posed a choice.
func (g *Game) exec(e *card.Effect) bool {
	st := &g.st
	it := &st.Res.Item
	players, perms, cards := g.recipients(e.To)
	switch e.Op {
	case "damage":
		amt := g.amount(e)
		src := g.damageSource()
		for _, s := range players {
			g.damagePlayer(src, s, amt, false)
		}
		for _, n := range perms {
			g.damagePerm(src, n, amt)
		}
	case "destroy":
		for _, n := range perms {
			g.leaveField(n, toGrave)
		}
	case "exile":
		for _, n := range perms {
			g.leaveField(n, toExile)
		}
		for _, id := range cards {
			g.moveGraveCard(id, toExile, it.Ctrl)
		}
	case "bounce":
		for _, n := range perms {
			g.leaveField(n, toHand)
		}
	case "draw":
		for _, s := range players {
			if k := g.draw(s, g.amount(e), true); k > 0 {
				g.emit("cards_drawn", "player", rooms.PlayerID(s), "count", k)
			}
		}
	case "discard":
		for _, s := range players {
			if g.discard(e, s) {
				return true
			}
		}
	case "gain_life", "lose_life":
		amt := g.amount(e)
		if e.Op == "lose_life" {
			amt = -amt
		}
		for _, s := range players {
			st.Players[s].Life += amt
			g.emit("life_changed", "player", rooms.PlayerID(s), "amount", amt)
		}
	case "counter":
		for _, id := range cards {
			_, n, _ := g.parseID(id)
			for i, o := range st.Stack {
				if o.N == n {
					st.Stack = append(st.Stack[:i], st.Stack[i+1:]...)
					g.emit("spell_countered", "player", rooms.PlayerID(o.Ctrl), "card", logEntity(stackID(o.N), o.Name))
					if o.Kind == "spell" {
						g.putCard(o.Owner, o.card(), toGrave)
					}
					break
				}
			}
		}
	case "pump":
		for _, n := range perms {
			st.Effects = append(st.Effects, Effect{TS: g.stamp(), Perm: n, Power: e.Power, Tough: e.Toughness,
				Keywords: e.Keywords, EOT: e.Duration == "end_of_turn"})
		}
	case "animate":
		for _, n := range perms {
			st.Effects = append(st.Effects, Effect{TS: g.stamp(), Perm: n, Animate: true, Power: e.Power, Tough: e.Toughness,
				Keywords: e.Keywords, EOT: e.Duration == "end_of_turn"})
		}
	case "add_counters":
		amt := g.amount(e)
		for _, n := range perms {
			p := g.perm(n)
			switch e.Counter {
			case "+1/+1":
				p.Plus += amt
			case "-1/-1":
				p.Minus += amt
			case "loyalty":
				p.Loyalty += amt
			}
		}
		for _, s := range players {
			if e.Counter == "poison" {
				st.Players[s].Poison += amt
			}
		}
	case "create_token":
		if e.Token != nil {
			for _, s := range players {
				for range g.amount(e) {
					tok := *e.Token
					g.enter(s, s, Card{}, &tok, false)
				}
			}
		}
	case "tap", "untap":
		for _, n := range perms {
			p := g.perm(n)
			p.Tapped = e.Op == "tap"
			if e.SkipUntap {
				p.Skip = true
			}
		}
	case "scry", "search", "look_top":
		return g.library(e, it.Ctrl)
	case "mill", "exile_top":
		dest, ev := toGrave, "cards_milled"
		if e.Op == "exile_top" {
			dest, ev = toExile, "cards_exiled"
		}
		for _, s := range players {
			pl := &st.Players[s]
			k := min(g.amount(e), len(pl.Library))
			for _, id := range pl.Library[:k] {
				g.putCard(s, Card{ID: id}, dest)
			}
			pl.Library = pl.Library[k:]
			g.emit(ev, "player", rooms.PlayerID(s), "count", k)
		}
	case "sacrifice":
		if st.Res.Seats == nil {
			st.Res.Seats = append([]int{}, players...)
		}
		for len(st.Res.Seats) > 0 {
			s := st.Res.Seats[0]
			st.Res.Seats = st.Res.Seats[1:]
			if g.sacrifice(e, s) {
				return true
			}
		}
		st.Res.Seats = nil
	case "gain_control":
		for _, n := range perms {
			st.Effects = append(st.Effects, Effect{TS: g.stamp(), Perm: n, Control: it.Ctrl + 1, EOT: e.Duration == "end_of_turn"})
			g.perm(n).Sick = true
		}
	case "return":
		for _, id := range cards {
			dest := e.Dest
			if dest == "" {
				dest = toHand
			}
			g.moveGraveCard(id, dest, it.Ctrl)
		}
	case "emblem":
		if e.Emblem != nil {
			st.Emblems = append(st.Emblems, Emblem{N: g.mint(), Ctrl: it.Ctrl, Static: *e.Emblem})
		}
	case "may":
		c := &Choice{Kind: chMay, Seat: it.Ctrl, Pay: e.Pay, Min: 1, Max: 1}
		if e.Pay != "" && !g.couldPay(it.Ctrl, g.cards.cost(e.Pay)) {
			g.emit("optional_declined", "player", rooms.PlayerID(it.Ctrl))
			return false
		}
		g.ask(c)
		return true
	case "choose_color":
		if g.perm(it.Source) != nil {
			g.ask(&Choice{Kind: chColor, Seat: it.Ctrl, Min: 1, Max: 1})
			return true
		}
	case "name_card":
		if g.perm(it.Source) != nil {
			g.ask(&Choice{Kind: chName, Seat: it.Ctrl, Min: 1, Max: 1})
			return true
		}
	}
	return false
}

// couldPay reports whether seat could pay c from its pool and sources.
func (g *Game) couldPay(seat int, c cost) bool {
	_, ok := g.plan(seat, c)
	return ok
}

// moveGraveCard moves a graveyard card (wire id) to dest: a zone, or the
// battlefield under ctrl.
func (g *Game) moveGraveCard(id, dest string, ctrl int) {
	_, n, _ := g.parseID(id)
	seat, _, ok := g.graveCard(n)
	if !ok {
		return
	}
	c, _ := takeCard(&g.st.Players[seat].Grave, n)
	switch dest {
	case "battlefield", "battlefield_tapped":
		g.enter(seat, ctrl, c, nil, dest == "battlefield_tapped")
	default:
		g.putCard(seat, c, dest)
	}
	if dest == toExile {
		g.emit("cards_exiled", "player", rooms.PlayerID(seat), "count", 1)
	}
}

// discard makes player s discard: with no real choice (a hand no larger
// than the count) the cards go at once; else the chooser is asked.
func (g *Game) discard(e *card.Effect, s int) bool {
	pl := &g.st.Players[s]
	n := min(g.amount(e), len(pl.Hand))
	if n == 0 {
		return false
	}
	chooser := s
	if e.Chooser == "you" {
		chooser = g.st.Res.Item.Ctrl
	}
	if n == len(pl.Hand) && chooser == s {
		for _, c := range pl.Hand {
			g.putCard(s, c, toGrave)
		}
		pl.Hand = []Card{}
		g.emit("cards_discarded", "player", rooms.PlayerID(s), "count", n)
		return false
	}
	g.ask(&Choice{Kind: chDiscard, Seat: chooser, Owner: s, Cards: cardNums(pl.Hand), Min: n, Max: n})
	return true
}

// cardNums lists the object numbers of cards.
func cardNums(cards []Card) []int {
	out := make([]int, len(cards))
	for i, c := range cards {
		out[i] = c.N
	}
	return out
}

// sacrifice asks player s to sacrifice permanents matching the filter;
// with no more candidates than the count they go at once.
func (g *Game) sacrifice(e *card.Effect, s int) bool {
	var cands []int
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if g.ctrl(p) == s && (e.Filter == "" || g.permMatches(p, e.Filter, s)) {
			cands = append(cands, p.N)
		}
	}
	n := min(g.amount(e), len(cands))
	if n == 0 {
		return false
	}
	if n == len(cands) {
		for _, c := range cands {
			g.leaveField(c, toGrave)
		}
		return false
	}
	g.ask(&Choice{Kind: chSacrifice, Seat: s, Owner: s, Cards: cands, Min: n, Max: n})
	return true
}

// library poses a scry, a search or a look at the top of seat's library;
// the cards offered get numbers (revealed only to the chooser).
func (g *Game) library(e *card.Effect, seat int) bool {
	pl := &g.st.Players[seat]
	c := &Choice{Seat: seat, Owner: seat}
	switch e.Op {
	case "scry":
		k := min(g.amount(e), len(pl.Library))
		if k == 0 {
			return false
		}
		c.Kind, c.Min, c.Max = chScry, 0, k
		for i := 0; i < k; i++ {
			c.Lib = append(c.Lib, i)
		}
	case "search":
		c.Kind = chSearch
		for i, id := range pl.Library {
			if cardMatches(g.def(id), e.Filter) {
				c.Lib = append(c.Lib, i)
			}
		}
		c.Max = min(g.amount(e), len(c.Lib))
		g.emit("library_searched", "player", rooms.PlayerID(seat))
		if c.Max == 0 {
			g.shuffle(seat)
			return false
		}
	case "look_top":
		k := min(g.amount(e), len(pl.Library))
		if k == 0 {
			return false
		}
		c.Kind = chLook
		for i := 0; i < k; i++ {
			c.Lib = append(c.Lib, i)
		}
		c.Max = max(e.Take, 0)
	}
	for range c.Lib { // shown cards get their physical numbers now, kept if they leave the library
		c.Cards = append(c.Cards, g.mintCard())
	}
	g.ask(c)
	return true
}

// damageSource describes what deals an effect's damage: the source
// permanent's keywords and controller when it is an ability's.
type damageSrc struct {
	perm int
	kw   kw
	ctrl int
	cmdr bool
}

func (g *Game) damageSource() damageSrc {
	it := &g.st.Res.Item
	src := damageSrc{ctrl: it.Ctrl}
	if c, ok := g.sourceChars(); ok {
		src.perm, src.kw = it.Source, c.kw
	}
	return src
}

// damagePlayer deals amt damage from src to seat s: life loss, lifelink,
// venom poison (combat), commander damage (combat).
func (g *Game) damagePlayer(src damageSrc, s, amt int, combat bool) {
	if amt <= 0 || !g.alive(s) {
		return
	}
	st := &g.st
	st.Players[s].Life -= amt
	g.emit("damage_dealt", "target", map[string]any{"kind": "player", "player": rooms.PlayerID(s)}, "amount", amt)
	if src.kw&kwLifelink != 0 {
		st.Players[src.ctrl].Life += amt
		g.emit("life_changed", "player", rooms.PlayerID(src.ctrl), "amount", amt)
	}
	if combat && src.kw&kwVenom != 0 {
		st.Players[s].Poison += amt
	}
	if combat && src.cmdr && st.Config.Commander {
		if p := g.perm(src.perm); p != nil {
			st.Players[s].CmdrDmg[p.Owner] += amt
		}
	}
}

// damagePerm deals amt damage from src to permanent n: marked on a
// creature, loyalty off a planeswalker.
func (g *Game) damagePerm(src damageSrc, n, amt int) {
	p := g.perm(n)
	if p == nil || amt <= 0 {
		return
	}
	d := g.chars(p).def
	g.emit("damage_dealt", "target", map[string]any{"kind": "permanent", "permanent": logEntity(g.pid(n), d.Name)}, "amount", amt)
	if is(d, "planeswalker") {
		p.Loyalty -= amt
	}
	if is(d, "creature") {
		p.Damage += amt
		if src.kw&kwDeathtouch != 0 {
			p.DTouch = true
		}
	}
	if src.kw&kwLifelink != 0 {
		g.st.Players[src.ctrl].Life += amt
		g.emit("life_changed", "player", rooms.PlayerID(src.ctrl), "amount", amt)
	}
}

// colors are the five colours a colour choice offers.
var colors = [...]string{"W", "U", "B", "R", "G"}

// colorNames name them.
var colorNames = map[string]string{"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}

// choiceAction is the player_choice action of the pending choice.
func (g *Game) choiceAction() rooms.Action {
	c := g.st.Dec.Choice
	a := rooms.Action{ID: g.aid("choice"), Type: "player_choice", Label: "Choose"}
	sel := func(prompt, zone string, ids []string) rooms.Prompt {
		p := rooms.Prompt{Kind: rooms.PromptSelectFromZone, Slot: "choice", Prompt: prompt, Zone: zone,
			Owner: rooms.PlayerID(c.Owner), Count: c.Max, Candidates: ids}
		if c.Min != c.Max {
			lo := c.Min
			p.Min = &lo
		}
		return p
	}
	yesNo := func(prompt, yes string, canYes bool) rooms.Prompt {
		p := rooms.Prompt{Kind: rooms.PromptOption, Slot: "choice", Prompt: prompt}
		if canYes {
			p.Options = append(p.Options, rooms.Option{ID: "accept", Label: yes})
		}
		p.Options = append(p.Options, rooms.Option{ID: "decline", Label: "Decline"})
		return p
	}
	var p rooms.Prompt
	switch c.Kind {
	case chDiscard:
		p = sel("Discard "+plural(c.Max, "card"), "hand", numIDs(c.Cards, g.cardID))
	case chSacrifice:
		p = sel("Sacrifice "+plural(c.Max, "permanent"), "battlefield", numIDs(c.Cards, g.pid))
	case chScry:
		p = sel("Choose the cards to put on the bottom of your library", "library", numIDs(c.Cards, g.cardID))
	case chSearch:
		p = sel("Search your library", "library", numIDs(c.Cards, g.cardID))
	case chLook:
		p = sel("Choose up to "+plural(c.Max, "card")+" to put into your hand", "library", numIDs(c.Cards, g.cardID))
	case chLookOrder:
		p = rooms.Prompt{Kind: rooms.PromptOrder, Slot: "choice", Prompt: "Choose the order these go on the bottom of your library, deepest first", Items: c.Pending}
	case chMay, chOptional:
		label := "Accept"
		if c.Pay != "" {
			label = "Pay " + c.Pay
		}
		p = yesNo("Do you want to? ("+g.st.Res.Item.Name+")", label, c.Pay == "" || canPayFromPool(g.st.Players[c.Seat].Pool, g.cards.cost(c.Pay)))
	case chCommander:
		p = yesNo("Move your commander to the command zone?", "Move it", true)
	case chColor:
		p = rooms.Prompt{Kind: rooms.PromptOption, Slot: "choice", Prompt: "Choose a color" + g.asEnters()}
		for _, col := range colors {
			p.Options = append(p.Options, rooms.Option{ID: col, Label: colorNames[col]})
		}
	case chName:
		p = rooms.Prompt{Kind: rooms.PromptOption, Slot: "choice", Prompt: "Choose a card name" + g.asEnters()}
		for _, id := range g.cards.ids { // the whole catalog: naming reveals no deck
			p.Options = append(p.Options, rooms.Option{ID: id, Label: g.def(id).Name})
		}
	}
	a.Prompts = []rooms.Prompt{p}
	return a
}

// asEnters names the permanent a colour or name is chosen for as it
// enters, for the prompt.
func (g *Game) asEnters() string {
	if r := g.st.Res; r != nil {
		return " as " + r.Item.Name + " enters the battlefield"
	}
	return ""
}

// numIDs maps object numbers to wire ids.
func numIDs(ns []int, id func(int) string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = id(n)
	}
	return out
}

// applyChoice performs the answer to the pending choice and resumes the
// resolution.
func (g *Game) applyChoice(ans map[string][]string) error {
	st := &g.st
	c := st.Dec.Choice
	got := ans["choice"]
	nums := make([]int, 0, len(got))
	for _, id := range got {
		_, n, _ := g.parseID(id)
		nums = append(nums, n)
	}
	st.Dec = Decision{}
	switch c.Kind {
	case chDiscard:
		pl := &st.Players[c.Owner]
		for _, n := range nums {
			if cd, ok := takeCard(&pl.Hand, n); ok {
				g.putCard(c.Owner, cd, toGrave)
			}
		}
		g.emit("cards_discarded", "player", rooms.PlayerID(c.Owner), "count", len(nums))
	case chSacrifice:
		for _, n := range nums {
			g.leaveField(n, toGrave)
		}
		if len(st.Res.Seats) > 0 {
			return nil // the next player is asked when the effect resumes
		}
	case chScry, chSearch, chLook:
		return g.applyLibrary(c, nums)
	case chLookOrder:
		pl := &st.Players[c.Owner]
		for i := len(nums) - 1; i >= 0; i-- { // the first id ends up deepest
			if k := slices.Index(c.Cards, nums[i]); k >= 0 {
				pl.Library = append(pl.Library, c.IDs[k])
			}
		}
	case chMay, chOptional:
		if got[0] != "accept" {
			g.emit("optional_declined", "player", rooms.PlayerID(c.Seat))
			if c.Kind == chOptional {
				g.finish()
				return nil
			}
			break
		}
		if c.Pay != "" {
			pl := &st.Players[c.Seat]
			unpaid, left := payFromPool(pl.Pool, g.cards.cost(c.Pay))
			if len(unpaid) > 0 {
				return fmt.Errorf("rules: the pool cannot pay %s", c.Pay)
			}
			pl.Pool = left
		}
		g.emit("optional_applied", "player", rooms.PlayerID(c.Seat))
		if c.Kind == chMay {
			st.Res.Path = append(st.Res.Path, 0) // run the gated effects
			return nil
		}
		return nil
	case chColor, chName:
		if it := st.Res.Item; it.Kind == "spell" {
			g.enterChosen(it, c.Kind, got[0])
			return nil
		}
		if p := g.perm(st.Res.Item.Source); p != nil {
			if c.Kind == chColor {
				p.Color = got[0]
			} else {
				p.Named = got[0]
			}
		}
	case chCommander:
		return g.applyCommanderReturn(c, got[0] == "accept")
	}
	g.advance()
	return nil
}

// entersChoice returns the index of d's "as it enters, choose a colour"
// or "choose a card name" ability (an enters trigger doing only that), or
// -1.
func entersChoice(d *card.Def) int {
	for k, a := range d.Abilities {
		if a.Kind == card.AbilityTriggered && a.When == "enters" && a.Mode != nil && len(a.Mode.Effects) == 1 && len(a.Mode.Targets) == 0 {
			if op := a.Mode.Effects[0].Op; op == "choose_color" || op == "name_card" {
				return k
			}
		}
	}
	return -1
}

// enterChosen puts a permanent spell that waited for its colour or name
// onto the battlefield with the answer; its choosing ability does not
// trigger again.
func (g *Game) enterChosen(it Item, kind, answer string) {
	st := &g.st
	n := g.enter(it.Owner, it.Ctrl, it.card(), nil, false)
	p := g.perm(n)
	if kind == chColor {
		p.Color = answer
	} else {
		p.Named = answer
	}
	skip := entersChoice(g.def(it.ID))
	q := st.Queue[:0]
	for _, t := range st.Queue {
		if t.Source != n || t.Ab != skip {
			q = append(q, t)
		}
	}
	st.Queue = q
	g.emit("spell_resolved", "player", rooms.PlayerID(it.Ctrl), "card", logEntity(stackID(it.N), it.Name))
	st.Res = nil
}

// applyLibrary finishes a scry, a search or a look with the chosen cards
// (physical card numbers of c.Cards).
func (g *Game) applyLibrary(c *Choice, nums []int) error {
	st := &g.st
	pl := &st.Players[c.Owner]
	e := g.currentEffect()
	chosen := map[int]bool{}
	for _, n := range nums {
		k := slices.Index(c.Cards, n)
		if k < 0 {
			return fmt.Errorf("rules: a card that was not offered")
		}
		chosen[c.Lib[k]] = true
	}
	switch c.Kind {
	case chScry:
		var top, bottom []string
		for i, pos := range c.Lib {
			if !chosen[pos] {
				top = append(top, pl.Library[c.Lib[i]])
			}
		}
		for i := len(nums) - 1; i >= 0; i-- { // the first id ends up deepest
			bottom = append(bottom, pl.Library[c.Lib[slices.Index(c.Cards, nums[i])]])
		}
		rest := pl.Library[len(c.Lib):]
		pl.Library = append(append(append([]string{}, top...), rest...), bottom...)
	case chSearch:
		var keep []string
		var found []Card
		for i, id := range pl.Library {
			if chosen[i] {
				found = append(found, Card{N: c.Cards[slices.Index(c.Lib, i)], ID: id})
			} else {
				keep = append(keep, id)
			}
		}
		pl.Library = keep
		for _, fc := range found {
			g.putFound(c.Owner, fc, e.Dest)
		}
		g.shuffle(c.Owner)
	case chLook:
		looked := append([]string{}, pl.Library[:len(c.Lib)]...)
		pl.Library = pl.Library[len(c.Lib):]
		var rest Choice
		for i, id := range looked {
			if chosen[i] {
				g.putCard(c.Owner, Card{N: c.Cards[i], ID: id}, toHand)
				continue
			}
			rest.Cards = append(rest.Cards, c.Cards[i])
			rest.IDs = append(rest.IDs, id)
		}
		if e.Rest == "graveyard" {
			for i, id := range rest.IDs {
				g.putCard(c.Owner, Card{N: rest.Cards[i], ID: id}, toGrave)
			}
		} else if len(rest.IDs) >= 2 {
			rest.Kind, rest.Seat, rest.Owner = chLookOrder, c.Seat, c.Owner
			rest.Pending = numIDs(rest.Cards, g.cardID)
			g.ask(&rest)
			return nil
		} else {
			pl.Library = append(pl.Library, rest.IDs...)
		}
	}
	g.advance()
	return nil
}

// putFound puts a searched-for card where the effect says.
func (g *Game) putFound(seat int, c Card, dest string) {
	switch dest {
	case "battlefield", "battlefield_tapped":
		g.enter(seat, seat, c, nil, dest == "battlefield_tapped")
	case toTop:
		g.putCard(seat, c, toTop)
	default:
		g.putCard(seat, c, toHand)
	}
}

// currentEffect is the effect under the resolution cursor.
func (g *Game) currentEffect() *card.Effect {
	r := g.st.Res
	mode := g.itemMode(&r.Item, r.Mode)
	if mode == nil {
		return &card.Effect{}
	}
	list := g.effectList(mode, r.Path)
	i := r.Path[len(r.Path)-1]
	if i >= len(list) {
		return &card.Effect{}
	}
	return &list[i]
}
