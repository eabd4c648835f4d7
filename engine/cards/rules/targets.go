package rules

import (
	"slices"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// permMatches reports whether permanent p fits target kind (or filter)
// kind from the point of view of seat.
func (g *Game) permMatches(p *Perm, kind string, seat int) bool {
	d := g.chars(p).def // its types after type-changing effects
	cr := is(d, "creature")
	switch kind {
	case "any":
		return cr || is(d, "planeswalker")
	case "creature":
		return cr
	case "creature_you_control":
		return cr && g.ctrl(p) == seat
	case "creature_opponent_controls":
		return cr && g.ctrl(p) != seat
	case "tapped_creature":
		return cr && p.Tapped
	case "attacking_creature":
		return cr && p.Attack != ""
	case "flying_creature":
		return cr && g.chars(p).kw&kwFlying != 0
	case "planeswalker":
		return is(d, "planeswalker")
	case "permanent":
		return true
	case "nonland_permanent":
		return !is(d, "land")
	case "artifact_or_enchantment":
		return is(d, "artifact") || is(d, "enchantment")
	case "land":
		return is(d, "land")
	case "nonbasic_land":
		return is(d, "land") && !slices.Contains(d.Supertypes, "basic")
	}
	return false
}

// cardMatches reports whether a card definition fits a filter kind for
// cards in a library, a hand or a graveyard ("" matches every card).
func cardMatches(d *card.Def, kind string) bool {
	switch kind {
	case "", "card", "card_in_a_graveyard", "spell":
		return true
	case "creature", "creature_card_in_your_graveyard", "creature_spell":
		return is(d, "creature")
	case "land":
		return is(d, "land")
	case "basic_land":
		return is(d, "land") && slices.Contains(d.Supertypes, "basic")
	case "nonland", "nonland_permanent":
		return !is(d, "land")
	case "noncreature_spell":
		return !is(d, "creature") && !is(d, "land")
	case "artifact_or_enchantment":
		return is(d, "artifact") || is(d, "enchantment")
	case "instant_or_sorcery":
		return is(d, "instant") || is(d, "sorcery")
	case "planeswalker":
		return is(d, "planeswalker")
	}
	return is(d, kind)
}

// candidates lists every legal target of kind for an object controlled by
// seat, in a stable order: players, permanents, stack objects, graveyard
// cards. self is the object's own stack number (never its own target).
func (g *Game) candidates(kind string, seat, self int) []string {
	st := &g.st
	var out []string
	switch kind {
	case "any", "player", "opponent":
		for _, s := range g.apnap() {
			if kind != "opponent" || s != seat {
				out = append(out, rooms.PlayerID(s))
			}
		}
		if kind != "any" {
			return out
		}
	case "spell", "creature_spell", "noncreature_spell":
		for _, it := range st.Stack {
			if it.Kind == "spell" && it.N != self && cardMatches(g.def(it.ID), kind) {
				out = append(out, stackID(it.N))
			}
		}
		return out
	case "creature_card_in_your_graveyard":
		for _, c := range st.Players[seat].Grave {
			if cardMatches(g.def(c.ID), kind) {
				out = append(out, g.cardID(c.N))
			}
		}
		return out
	case "card_in_a_graveyard":
		for _, s := range g.apnap() {
			for _, c := range st.Players[s].Grave {
				out = append(out, g.cardID(c.N))
			}
		}
		return out
	}
	for i := range st.Field {
		if p := &st.Field[i]; g.permMatches(p, kind, seat) {
			out = append(out, g.pid(p.N))
		}
	}
	return out
}

// legalTarget reports whether id is still a legal target of kind for
// stack item it. A card in a graveyard must have been there since the
// target was chosen: one that left and came back is a new object (CR
// 400.7), though it is the same physical card with the same id.
func (g *Game) legalTarget(id, kind string, it *Item) bool {
	k, n, ok := g.parseID(id)
	if !ok {
		return false
	}
	seat, self := it.Ctrl, it.N
	switch k {
	case "card":
		if s, i, ok := g.graveCard(n); ok && g.st.Players[s].Grave[i].Since >= max(it.N, it.Aim) {
			return false
		}
	case "p":
		return n < len(g.st.Players) && g.alive(n) && (kind == "any" || kind == "player" || (kind == "opponent" && n != seat))
	case "perm":
		p := g.perm(n)
		return p != nil && g.permMatches(p, kind, seat)
	}
	return slices.Contains(g.candidates(kind, seat, self), id)
}

// graveCard finds the card numbered n in any graveyard: its seat and
// index.
func (g *Game) graveCard(n int) (seat, idx int, ok bool) {
	for s := range g.st.Players {
		for i, c := range g.st.Players[s].Grave {
			if c.N == n {
				return s, i, true
			}
		}
	}
	return 0, 0, false
}

// itemMode returns mode k of a stack item (for a modal spell, the k-th
// chosen mode), or nil.
func (g *Game) itemMode(it *Item, k int) *card.Mode {
	d := g.def(it.ID)
	switch it.Kind {
	case "spell":
		if d.Spell == nil {
			if d.Enchant != "" && k == 0 {
				return &card.Mode{Targets: []card.Target{{Kind: d.Enchant}}}
			}
			return nil
		}
		idx := 0
		if len(it.Modes) > 0 {
			if k >= len(it.Modes) {
				return nil
			}
			idx = it.Modes[k]
		} else if k > 0 {
			return nil
		}
		if idx < 0 || idx >= len(d.Spell.Modes) {
			return nil
		}
		return &d.Spell.Modes[idx]
	default:
		if k > 0 || it.Ab < 0 || it.Ab >= len(d.Abilities) {
			return nil
		}
		return d.Abilities[it.Ab].Mode
	}
}

// itemTargets returns the target kinds of every chosen mode of an item,
// in slot order.
func (g *Game) itemTargets(it *Item) []card.Target {
	var out []card.Target
	for k := 0; ; k++ {
		m := g.itemMode(it, k)
		if m == nil {
			return out
		}
		out = append(out, m.Targets...)
	}
}

// aimable reports whether every mandatory target slot of mode m has a
// legal candidate for item it.
func (g *Game) aimable(it *Item, m *card.Mode) bool {
	for _, t := range m.Targets {
		if !t.Optional && len(g.candidates(t.Kind, it.Ctrl, it.N)) == 0 {
			return false
		}
	}
	return true
}
