package ai

import (
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
)

// pilot is one decision of the heuristic player: the seat's view of the
// table and the card pool, indexed.
type pilot struct {
	g     *rules.Game
	cards rules.Cards
	seat  int
	me    string
	v     rules.View
	perms map[string]*rules.PermanentView
	hand  map[string]*rules.CardView
}

// newPilot reads seat's view of g.
func newPilot(g *rules.Game, seat int) *pilot {
	v, _ := g.View(seat).(rules.View)
	p := &pilot{g: g, cards: g.Cards(), seat: seat, me: rooms.PlayerID(seat), v: v,
		perms: map[string]*rules.PermanentView{}, hand: map[string]*rules.CardView{}}
	for i := range p.v.Battlefield {
		p.perms[p.v.Battlefield[i].ID] = &p.v.Battlefield[i]
	}
	for i := range p.v.MyHand {
		p.hand[p.v.MyHand[i].ID] = &p.v.MyHand[i]
	}
	return p
}

// def returns a functional id's definition (an empty one for a token).
func (p *pilot) def(id string) *card.Def {
	if d, ok := p.cards.Def(id); ok {
		return d
	}
	return &card.Def{}
}

// hasType reports whether a card view has card type t.
func hasType(c rules.CardView, t string) bool { return slices.Contains(c.CardTypes, t) }

// creature reports whether pv is a creature.
func creature(pv *rules.PermanentView) bool { return hasType(pv.Card, "creature") }

// hasKW reports whether pv has keyword k now.
func hasKW(pv *rules.PermanentView, k string) bool { return slices.Contains(pv.Card.Keywords, k) }

// power and toughness are pv's current values; left is the damage that
// kills it now.
func power(pv *rules.PermanentView) int {
	n, _ := strconv.Atoi(pv.Card.Power)
	return n
}

func toughness(pv *rules.PermanentView) int {
	n, _ := strconv.Atoi(pv.Card.Toughness)
	return n
}

func left(pv *rules.PermanentView) int { return max(toughness(pv)-pv.Damage, 0) }

// kwValue is what each keyword adds to a creature's worth.
var kwValue = map[string]int{"flying": 2, "deathtouch": 2, "venom": 2, "unblockable": 2, "first_strike": 1,
	"lifelink": 1, "trample": 1, "menace": 1, "vigilance": 1, "reach": 1}

// value is a permanent's worth to its controller.
func value(pv *rules.PermanentView) int {
	if !creature(pv) {
		if hasType(pv.Card, "land") {
			return 2
		}
		if hasType(pv.Card, "planeswalker") {
			return 8
		}
		return manaValue(pv.Card.ManaCost) + 2
	}
	v := 2*max(power(pv), 0) + toughness(pv)
	for _, k := range pv.Card.Keywords {
		v += kwValue[k]
	}
	if pv.IsCommander {
		v += 3
	}
	return v
}

// defValue is a creature card's worth from its printed values.
func defValue(d *card.Def) int {
	if d.Power == nil || d.Toughness == nil {
		return manaValue(d.Cost) + 1
	}
	v := 2*max(*d.Power, 0) + *d.Toughness
	for _, k := range d.Keywords {
		v += kwValue[k]
	}
	return v
}

// mine reports whether pv is controlled by the seat.
func (p *pilot) mine(pv *rules.PermanentView) bool { return pv.Controller == p.me }

// creaturesOf lists player id's creatures.
func (p *pilot) creaturesOf(id string) []*rules.PermanentView {
	var out []*rules.PermanentView
	for i := range p.v.Battlefield {
		if pv := &p.v.Battlefield[i]; pv.Controller == id && creature(pv) {
			out = append(out, pv)
		}
	}
	return out
}

// player is one player's public numbers.
type player struct {
	id                   string
	life, poison, hand   int
	library, board       int
	eliminated, opponent bool
}

// players lists every player as the seat sees them.
func (p *pilot) players() []player {
	var out []player
	counters := func(cs []rules.Counter) int {
		for _, c := range cs {
			if c.Kind == "poison" {
				return c.Count
			}
		}
		return 0
	}
	if me := p.v.Me; me != nil {
		out = append(out, player{id: p.me, life: me.Life, poison: counters(me.Counters), hand: len(p.v.MyHand),
			library: me.LibrarySize, eliminated: me.Eliminated})
	}
	for _, o := range p.v.Opponents {
		out = append(out, player{id: o.PlayerID, life: o.Life, poison: counters(o.Counters), hand: o.HandSize,
			library: o.LibrarySize, eliminated: o.Eliminated, opponent: true})
	}
	for i := range out {
		for _, c := range p.creaturesOf(out[i].id) {
			out[i].board += value(c)
		}
	}
	return out
}

// playerByID returns the player id.
func (p *pilot) playerByID(id string) (player, bool) {
	for _, pl := range p.players() {
		if pl.id == id {
			return pl, true
		}
	}
	return player{}, false
}

// leader returns the opponent closest to winning: the strongest board,
// then the most life; "" when none is left.
func (p *pilot) leader() string {
	best, score := "", -1<<30
	for _, pl := range p.players() {
		if !pl.opponent || pl.eliminated {
			continue
		}
		if s := 3*pl.board + pl.life; s > score {
			best, score = pl.id, s
		}
	}
	return best
}

// weight scales the worth of hurting player id: the leading opponent's
// things count a quarter more.
func (p *pilot) weight(id string, v int) int {
	if id != "" && id == p.leader() {
		return v + v/4 + 1
	}
	return v
}

// colors is the colours a permanent can tap for ("" for none).
func (p *pilot) colors(pv *rules.PermanentView) string {
	d := p.def(pv.Card.FunctionalID)
	out := ""
	for _, a := range d.Abilities {
		if a.Kind == card.AbilityMana && a.Cost == "{T}" {
			for _, c := range a.Produce {
				if c == "chosen" {
					c = pv.ChosenColor
				}
				if len(c) == 1 && !strings.Contains(out, c) {
					out += c
				}
			}
		}
	}
	if out == "" && hasType(pv.Card, "land") {
		for _, s := range d.Subtypes {
			if c, ok := basicColor[s]; ok {
				out += c
			}
		}
	}
	return out
}

// basicColor maps basic land types to their colours.
var basicColor = map[string]string{"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

// sources lists the seat's untapped permanents that can tap for mana now.
func (p *pilot) sources() []*rules.PermanentView {
	var out []*rules.PermanentView
	for i := range p.v.Battlefield {
		pv := &p.v.Battlefield[i]
		if p.mine(pv) && !pv.Tapped && !pv.SummoningSick && p.colors(pv) != "" {
			out = append(out, pv)
		}
	}
	return out
}

// landCount counts the seat's lands on the battlefield.
func (p *pilot) landCount() int {
	n := 0
	for i := range p.v.Battlefield {
		if pv := &p.v.Battlefield[i]; p.mine(pv) && hasType(pv.Card, "land") {
			n++
		}
	}
	return n
}

// need counts the coloured pips of the seat's hand (but skip) that its
// lands cannot make yet, and every pip: what a land or a payment should
// keep available.
func (p *pilot) need(skip string) map[byte]int {
	have := ""
	for i := range p.v.Battlefield {
		if pv := &p.v.Battlefield[i]; p.mine(pv) {
			have += p.colors(pv)
		}
	}
	out := map[byte]int{}
	add := func(cost string) {
		c, err := card.ParseCost(cost)
		if err != nil {
			return
		}
		for _, s := range c.Symbols {
			out[s[0]]++
			if !strings.Contains(have, s) {
				out[s[0]] += 3
			}
		}
	}
	for _, c := range p.v.MyHand {
		if c.ID != skip {
			add(c.ManaCost)
		}
	}
	for _, pile := range p.v.Command {
		if pile.PlayerID == p.me {
			for _, c := range pile.Cards {
				add(c.ManaCost)
			}
		}
	}
	return out
}

// phase helpers.
func (p *pilot) myTurn() bool { return p.v.ActivePlayer == p.me }

func (p *pilot) mainPhase() bool {
	return p.myTurn() && (p.v.Phase == "precombat_main" || p.v.Phase == "postcombat_main") && len(p.v.Stack) == 0
}
