package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// sources lists the permanents seat can tap to pay one pip each: untapped,
// with a "{T}: Add …" ability (or a basic land type), and not a creature
// with summoning sickness.
func (g *Game) sources(seat int) []source {
	var out []source
	sts := g.statics()
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if p.Tapped {
			continue
		}
		c := g.charsWith(p, sts)
		if c.ctrl != seat || (is(c.def, "creature") && p.Sick && c.kw&kwHaste == 0) {
			continue
		}
		cols := ""
		for _, m := range g.cards.manaOf(c.def, p.Color) {
			if m.cost == (cost{Tap: true}) {
				for k := 0; k < len(m.produce); k++ {
					if !strings.Contains(cols, m.produce[k:k+1]) {
						cols += m.produce[k : k+1]
					}
				}
			}
		}
		if cols != "" {
			out = append(out, source{Perm: p.N, Colors: cols})
		}
	}
	return out
}

// manaAb is one mana ability: its index (-1 for a basic land type's), its
// cost, the colours it can make and how much.
type manaAb struct {
	idx     int
	cost    cost
	produce string
	amount  int
}

// basicColors maps the basic land types to their colours.
var basicColors = map[string]byte{"Plains": 'W', "Island": 'U', "Swamp": 'B', "Mountain": 'R', "Forest": 'G'}

// manaAbilities lists d's mana abilities; a land with none has one per
// basic land type it has. "chosen" mana is the colour the permanent chose
// as it entered (chosen), none before it chose.
func manaAbilities(d *card.Def, chosen string) []manaAb {
	var out []manaAb
	for k, a := range d.Abilities {
		if a.Kind != card.AbilityMana {
			continue
		}
		m := manaAb{idx: k, cost: parseCost(a.Cost), amount: max(a.Amount, 1)}
		for _, p := range a.Produce {
			if p == "chosen" {
				p = chosen
			}
			if len(p) == 1 && !strings.Contains(m.produce, p) {
				m.produce += p
			}
		}
		out = append(out, m)
	}
	if len(out) == 0 && is(d, "land") {
		cols := ""
		for _, s := range d.Subtypes {
			if c, ok := basicColors[s]; ok {
				cols += string(c)
			}
		}
		if cols != "" {
			out = append(out, manaAb{idx: -1, cost: cost{Tap: true}, produce: cols, amount: 1})
		}
	}
	return out
}

// spellCost is what casting d costs seat now: the printed cost, plus
// commander tax from the command zone, plus or minus cost changes.
func (g *Game) spellCost(seat int, d *card.Def, fromCommand bool) cost {
	modified := g.cards.cost(d.Cost)
	if fromCommand {
		modified.Generic += 2 * g.st.Players[seat].Casts
	}
	for _, s := range g.statics() {
		switch s.st.Op {
		case "cost_change":
			who := s.st.Affects
			if (who == "you" && s.ctrl != seat) || (who == "opponents" && s.ctrl == seat) {
				continue
			}
			if s.st.Filter != "" && !cardMatches(d, s.st.Filter) {
				continue
			}
			modified.Generic += s.st.Amount
		case "named_cost_more":
			who := s.st.Affects
			if s.src != nil && s.src.Named == d.ID && !((who == "you" && s.ctrl != seat) || (who == "opponents" && s.ctrl == seat)) {
				modified.Generic += s.st.Amount
			}
		}
	}
	if modified.Generic < 0 {
		modified.Generic = 0
	}
	return modified
}

// payPlan is the mana side of a cast: the pips left after the pool, the
// sources that can pay them, and the suggested assignment.
type payPlan struct {
	pips    []byte
	srcs    []source
	suggest []int
}

// plan works out how seat pays c (X fixed) from its pool and sources; ok
// is false when no assignment exists.
func (g *Game) plan(seat int, c cost) (payPlan, bool) {
	unpaid, _ := payFromPool(g.st.Players[seat].Pool, c)
	srcs := g.sources(seat)
	m, ok := assign(unpaid, srcs)
	return payPlan{pips: unpaid, srcs: srcs, suggest: m}, ok
}

// xValues lists the values of X seat can pay for c, with the cost at each.
func (g *Game) xValues(seat int, c cost) []rooms.NumberValue {
	var out []rooms.NumberValue
	limit := len(g.st.Players[seat].Pool) + len(g.sources(seat))
	for x := 0; x*c.X <= limit && x <= 20; x++ {
		if _, ok := g.plan(seat, c.withX(x)); ok {
			out = append(out, rooms.NumberValue{Value: x, Cost: c.withX(x).String()})
		}
	}
	return out
}

// canSorcery reports whether seat may do something at sorcery speed now.
func (g *Game) canSorcery(seat int) bool {
	st := &g.st
	return seat == st.Active && (st.Step == StepMain1 || st.Step == StepMain2) && len(st.Stack) == 0 && st.Res == nil
}

// castAction builds the cast_spell action for card c of seat, from its
// hand or (a commander) the command zone, or reports that it cannot be
// cast now.
func (g *Game) castAction(seat int, c Card, fromCommand bool) (rooms.Action, bool) {
	d := g.def(c.ID)
	if is(d, "land") {
		return rooms.Action{}, false
	}
	instant := is(d, "instant") || kwOf(d.Keywords)&kwFlash != 0
	if !instant && !g.canSorcery(seat) {
		return rooms.Action{}, false
	}
	modified := g.spellCost(seat, d, fromCommand)
	a := rooms.Action{ID: g.aid("cast", g.cardID(c.N)), Type: "cast_spell", Label: "Cast " + d.Name, Subject: []string{g.cardID(c.N)}}
	it := Item{N: -1, Kind: "spell", Ctrl: seat, ID: c.ID}
	// mode: one option prompt per mode chosen ("mode", "mode1", …), each
	// offering every mode whose targets exist
	if d.Spell != nil && len(d.Spell.Modes) > 1 {
		var opts []rooms.Option
		for k, m := range d.Spell.Modes {
			if !g.aimable(&it, &m) {
				continue
			}
			var req []string
			for i, t := range m.Targets {
				slot := "m" + strconv.Itoa(k) + "t" + strconv.Itoa(i)
				req = append(req, slot)
				a.Requirements = append(a.Requirements, rooms.Requirement{Slot: slot, Prompt: targetPrompt(t.Kind), Optional: true,
					Candidates: orEmpty(g.candidates(t.Kind, seat, -1))})
			}
			opts = append(opts, rooms.Option{ID: strconv.Itoa(k), Label: g.modeLabel(d, k), Requires: req})
		}
		n := chooseCount(d)
		if len(opts) < n {
			return rooms.Action{}, false
		}
		for i := range n {
			p := rooms.Prompt{Kind: rooms.PromptOption, Slot: modeSlot(i), Prompt: "Choose one", Options: opts}
			if n > 1 {
				p.Prompt = "Choose " + ordinal(i) + " mode (each mode at most once)"
			}
			a.Prompts = append(a.Prompts, p)
		}
	} else {
		var m *card.Mode
		if d.Spell != nil && len(d.Spell.Modes) == 1 {
			m = &d.Spell.Modes[0]
		} else if d.Enchant != "" {
			m = &card.Mode{Targets: []card.Target{{Kind: d.Enchant}}}
		}
		if m != nil {
			if !g.aimable(&it, m) {
				return rooms.Action{}, false
			}
			for i, t := range m.Targets {
				a.Requirements = append(a.Requirements, rooms.Requirement{Slot: "t" + strconv.Itoa(i), Prompt: targetPrompt(t.Kind),
					Optional: t.Optional, Candidates: orEmpty(g.candidates(t.Kind, seat, -1))})
			}
		}
	}
	// X
	xs := []rooms.NumberValue{{Value: 0}}
	if modified.X > 0 {
		xs = g.xValues(seat, modified)
		if len(xs) == 0 {
			return rooms.Action{}, false
		}
		lo, hi := xs[0].Value, xs[len(xs)-1].Value
		a.Prompts = append(a.Prompts, rooms.Prompt{Kind: rooms.PromptNumber, Slot: "x", Prompt: "Choose a value for X", Min: &lo, Max: &hi, Values: xs})
	}
	// additional costs
	if d.Spell != nil && d.Spell.AdditionalCost != nil {
		ps, ok := g.extraPrompts(seat, d.Spell.AdditionalCost, c.N, -1)
		if !ok {
			return rooms.Action{}, false
		}
		a.Prompts = append(a.Prompts, ps...)
	}
	// mana
	pl, ok := g.plan(seat, modified.withX(xs[0].Value))
	if !ok {
		return rooms.Action{}, false
	}
	maxPips := pl.pips
	if modified.X > 0 {
		top, _ := g.plan(seat, modified.withX(xs[len(xs)-1].Value))
		maxPips = top.pips
	}
	a.Prompts = append(a.Prompts, g.payPrompts(maxPips, len(pl.pips), pl, seat)...)
	a.Cost = &rooms.Cost{Printed: d.Cost, Modified: modified.String()}
	return a, true
}

// payPrompts builds one pay_mana slot per pip; slots past need are
// optional (an X cast's larger values).
func (g *Game) payPrompts(pips []byte, need int, pl payPlan, seat int) []rooms.Prompt {
	top, _ := assign(pips, pl.srcs)
	var out []rooms.Prompt
	for i, pip := range pips {
		sym := "{1}"
		if pip != '1' {
			sym = "{" + string(pip) + "}"
		}
		var cands []rooms.ManaCandidate
		add := func(s source) {
			id := g.pid(s.Perm)
			if !slices.ContainsFunc(cands, func(c rooms.ManaCandidate) bool { return c.ID == id }) {
				cands = append(cands, rooms.ManaCandidate{ID: id, Source: id, Taps: true})
			}
		}
		if top != nil {
			add(pl.srcs[top[i]])
		}
		for _, s := range pl.srcs {
			if s.pays(pip) {
				add(s)
			}
		}
		p := rooms.Prompt{Kind: rooms.PromptPayMana, Slot: "pay" + strconv.Itoa(i), Prompt: "Pay " + sym, Pip: sym,
			ManaCandidates: append([]rooms.ManaCandidate{}, cands...)}
		if i >= need {
			zero := 0
			p.Min = &zero
		}
		out = append(out, p)
	}
	return out
}

// extraPrompts builds the slots of an additional or activation cost: a
// discard from the hand (not the card being cast), a sacrifice, an exile
// from the graveyard. ok is false when the cost cannot be paid.
func (g *Game) extraPrompts(seat int, x *card.ExtraCost, castCard, self int) ([]rooms.Prompt, bool) {
	var out []rooms.Prompt
	pl := &g.st.Players[seat]
	if x.Life > 0 && pl.Life < x.Life {
		return nil, false
	}
	if x.Discard > 0 {
		var cands []string
		for _, c := range pl.Hand {
			if c.N != castCard {
				cands = append(cands, g.cardID(c.N))
			}
		}
		if len(cands) < x.Discard {
			return nil, false
		}
		out = append(out, rooms.Prompt{Kind: rooms.PromptSelectFromZone, Slot: "cost_discard", Prompt: "Discard " + plural(x.Discard, "card"),
			Zone: "hand", Owner: rooms.PlayerID(seat), Count: x.Discard, Candidates: cands})
	}
	if x.Sacrifice != "" {
		var cands []string
		for i := range g.st.Field {
			p := &g.st.Field[i]
			if g.ctrl(p) == seat && p.N != self && g.permMatches(p, x.Sacrifice, seat) {
				cands = append(cands, g.pid(p.N))
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		out = append(out, rooms.Prompt{Kind: rooms.PromptSelectFromZone, Slot: "cost_sacrifice", Prompt: "Sacrifice a " + kindWord(x.Sacrifice),
			Zone: "battlefield", Owner: rooms.PlayerID(seat), Count: 1, Candidates: cands})
	}
	if x.ExileFromGraveyard != "" {
		var cands []string
		for _, c := range pl.Grave {
			if cardMatches(g.def(c.ID), x.ExileFromGraveyard) {
				cands = append(cands, g.cardID(c.N))
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		out = append(out, rooms.Prompt{Kind: rooms.PromptSelectFromZone, Slot: "cost_exile", Prompt: "Exile a card from your graveyard",
			Zone: "graveyard", Owner: rooms.PlayerID(seat), Count: 1, Candidates: cands})
	}
	return out, true
}

// payExtra pays an extra cost with the answers of its slots.
func (g *Game) payExtra(seat int, x *card.ExtraCost, ans map[string][]string) {
	pl := &g.st.Players[seat]
	if x.Life > 0 {
		pl.Life -= x.Life
		g.emit("life_changed", "player", rooms.PlayerID(seat), "amount", -x.Life)
	}
	if ids := ans["cost_discard"]; len(ids) > 0 {
		for _, id := range ids {
			_, n, _ := g.parseID(id)
			if c, ok := takeCard(&pl.Hand, n); ok {
				g.putCard(seat, c, toGrave)
			}
		}
		g.emit("cards_discarded", "player", rooms.PlayerID(seat), "count", len(ids))
	}
	for _, id := range ans["cost_sacrifice"] {
		_, n, _ := g.parseID(id)
		g.leaveField(n, toGrave)
	}
	for _, id := range ans["cost_exile"] {
		_, n, _ := g.parseID(id)
		if c, ok := takeCard(&pl.Grave, n); ok {
			g.putCard(seat, c, toExile)
		}
	}
}

// orEmpty returns list, or an empty non-nil list.
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// plural writes "a card", "2 cards".
func plural(n int, word string) string {
	if n == 1 {
		return "a " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// kindWord is a target kind as words: "creature_you_control" → "creature you control".
func kindWord(kind string) string {
	b := []byte(kind)
	for i := range b {
		if b[i] == '_' {
			b[i] = ' '
		}
	}
	return string(b)
}

// targetPrompt is a target slot's prompt.
func targetPrompt(kind string) string {
	if kind == "any" {
		return "Choose any target"
	}
	return "Choose target " + kindWord(kind)
}

// chooseCount is how many modes a modal spell's caster chooses.
func chooseCount(d *card.Def) int { return max(d.Spell.Choose, 1) }

// modeSlot names the slot of the i-th mode chosen: "mode", then "mode1"….
func modeSlot(i int) string {
	if i == 0 {
		return "mode"
	}
	return "mode" + strconv.Itoa(i)
}

// ordinal names the i-th mode chosen, in the order they are asked.
func ordinal(i int) string {
	if words := [...]string{"a first", "a second", "a third", "a fourth"}; i < len(words) {
		return words[i]
	}
	return "another"
}

// modeLabel is the label of a spell's mode k: its generated sentence.
func (g *Game) modeLabel(d *card.Def, k int) string {
	if t := card.SpellText(*d, k); t != "" {
		return t
	}
	return "Mode " + strconv.Itoa(k+1)
}
