package rules

import (
	"slices"

	"github.com/storyloom/storyloom/engine/cards/card"
)

// kw is a set of keywords, one bit each in keywordNames order.
type kw uint16

// Keyword bits.
const (
	kwFlying kw = 1 << iota
	kwReach
	kwVigilance
	kwHaste
	kwTrample
	kwFirstStrike
	kwDeathtouch
	kwLifelink
	kwMenace
	kwDefender
	kwUnblockable
	kwFlash
	kwVenom
)

// keywordNames are the keyword words, in bit order.
var keywordNames = [...]string{"flying", "reach", "vigilance", "haste", "trample",
	"first_strike", "deathtouch", "lifelink", "menace", "defender", "unblockable", "flash", "venom"}

// keywordLabels are the display words granted_keywords carries.
var keywordLabels = [...]string{"Flying", "Reach", "Vigilance", "Haste", "Trample",
	"First strike", "Deathtouch", "Lifelink", "Menace", "Defender", "Unblockable", "Flash", "Venom"}

// kwOf returns the set of the named keywords; unknown words are ignored.
func kwOf(words []string) kw {
	var k kw
	for _, w := range words {
		if i := slices.Index(keywordNames[:], w); i >= 0 {
			k |= 1 << i
		}
	}
	return k
}

// words lists the set's keywords as words (labels when label is set).
func (k kw) words(label bool) []string {
	var out []string
	for i := range keywordNames {
		if k&(1<<i) != 0 {
			if label {
				out = append(out, keywordLabels[i])
			} else {
				out = append(out, keywordNames[i])
			}
		}
	}
	return out
}

// named reports whether list is k's keyword names in words' order, as
// slices.Equal(k.words(false), list) would, without building the words.
func (k kw) named(list []string) bool {
	j := 0
	for i := range keywordNames {
		if k&(1<<i) != 0 {
			if j >= len(list) || list[j] != keywordNames[i] {
				return false
			}
			j++
		}
	}
	return j == len(list)
}

// chars are a permanent's current characteristics (layers 2, 4, 6 and
// 7).
type chars struct {
	def          *card.Def // printed, or a copy with the types and base power and toughness an effect gave it
	typed        bool      // def is such a copy
	ctrl         int
	power, tough int
	kw           kw // every keyword it has
	granted      kw // keywords it has but does not print
	cantFight    bool
	noUntap      bool
}

// is reports whether d has card type t.
func is(d *card.Def, t string) bool { return slices.Contains(d.Types, t) }

// staticSrc is one static ability in force: its source permanent (nil for
// an emblem), controller and effect.
type staticSrc struct {
	src  *Perm
	ctrl int
	st   *card.Static
}

// statics lists the static abilities in force, in timestamp order.
//
// Between two answers (while the game has a memo, which only the read
// entry points make and Apply drops before it changes anything) the list
// is made once.
func (g *Game) statics() []staticSrc {
	if m := g.memo; m != nil && m.statics != nil {
		return m.statics
	}
	out := make([]staticSrc, 0, 8)
	for i := range g.st.Field {
		p := &g.st.Field[i]
		if p.Tok != nil {
			continue
		}
		d := g.def(p.ID)
		for k := range d.Abilities {
			if a := &d.Abilities[k]; a.Kind == card.AbilityStatic && a.Static != nil {
				out = append(out, staticSrc{src: p, ctrl: g.control(p), st: a.Static})
			}
		}
	}
	for i := range g.st.Emblems {
		e := &g.st.Emblems[i]
		out = append(out, staticSrc{ctrl: e.Ctrl, st: &e.Static})
	}
	if g.memo != nil {
		g.memo.statics = out
	}
	return out
}

// ctrl is a permanent's controller after control-changing effects (layer
// 2): resolved effects and "control enchanted" auras, latest last.
func (g *Game) ctrl(p *Perm) int {
	if g.memo != nil {
		return g.charsWith(p, g.statics()).ctrl
	}
	return g.control(p)
}

// control computes ctrl.
func (g *Game) control(p *Perm) int {
	c := p.Ctrl
	best := -1
	for _, e := range g.st.Effects {
		if e.Perm == p.N && e.Control > 0 && e.TS > best {
			c, best = e.Control-1, e.TS
		}
	}
	for i := range g.st.Field {
		a := &g.st.Field[i]
		if a.Attach != p.N || a.Tok != nil || a.TS < best {
			continue
		}
		for _, ab := range g.def(a.ID).Abilities {
			if ab.Kind == card.AbilityStatic && ab.Static != nil && ab.Static.Op == "control" && ab.Static.Affects == "enchanted" {
				c, best = a.Ctrl, a.TS
			}
		}
	}
	return c
}

// affects reports whether static s applies to permanent p controlled by
// ctrl.
func (g *Game) affects(s staticSrc, p *Perm, ctrl int, creature bool) bool {
	switch s.st.Affects {
	case "creatures_you_control":
		return creature && ctrl == s.ctrl
	case "other_creatures_you_control":
		return creature && ctrl == s.ctrl && p != s.src
	case "enchanted":
		return s.src != nil && s.src.Attach == p.N
	case "self":
		return s.src == p
	}
	return false
}

// charsWith computes p's characteristics given the statics in force (the
// game's, g.statics()). Between two answers (see statics) each
// permanent's are computed once.
func (g *Game) charsWith(p *Perm, sts []staticSrc) chars {
	m := g.memo
	if m == nil {
		return g.compute(p, sts)
	}
	i := g.fieldIndex(p.N)
	if i < 0 { // not on the battlefield
		return g.compute(p, sts)
	}
	if m.chars == nil {
		m.chars = make([]memoChars, len(g.st.Field))
	}
	if i < len(m.chars) && m.chars[i].n == p.N && m.chars[i].c.def != nil {
		return m.chars[i].c
	}
	c := g.compute(p, sts)
	if i < len(m.chars) {
		m.chars[i] = memoChars{n: p.N, c: c}
	}
	return c
}

// fieldIndex returns the position on the battlefield of the permanent
// numbered n, or -1. Permanents enter at the end with fresh, increasing
// numbers and leave without reordering the rest, so the battlefield is
// in number order and searched by halves; a position found is checked.
func (g *Game) fieldIndex(n int) int {
	f := g.st.Field
	lo, hi := 0, len(f)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f[mid].N < n {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(f) && f[lo].N == n {
		return lo
	}
	return -1
}

// memoChars is a permanent's memoized characteristics, with its number
// (a slot not filled yet has no definition).
type memoChars struct {
	n int
	c chars
}

// compute derives charsWith.
func (g *Game) compute(p *Perm, sts []staticSrc) chars {
	printedDef := g.permDef(p)
	d := animated(printedDef, p.N, g.st.Effects)
	c := chars{def: d, typed: d != printedDef, ctrl: g.control(p)}
	printed := kwOf(d.Keywords)
	c.kw = printed
	if d.Power != nil {
		c.power = *d.Power
	}
	if d.Toughness != nil {
		c.tough = *d.Toughness
	}
	creature := is(d, "creature")
	for _, s := range sts {
		if !g.affects(s, p, c.ctrl, creature) {
			continue
		}
		switch s.st.Op {
		case "anthem":
			c.power += s.st.Power
			c.tough += s.st.Toughness
			c.kw |= kwOf(s.st.Keywords)
		case "cant_attack_or_block":
			c.cantFight = true
		case "doesnt_untap":
			c.noUntap = true
		}
	}
	for _, e := range g.st.Effects {
		if e.Perm == p.N && e.Animate {
			c.kw |= kwOf(e.Keywords)
		} else if e.Perm == p.N {
			c.power += e.Power
			c.tough += e.Tough
			c.kw |= kwOf(e.Keywords)
		}
	}
	c.power += p.Plus - p.Minus
	c.tough += p.Plus - p.Minus
	c.granted = c.kw &^ printed
	return c
}

// animated returns d as the permanent numbered n has it after the
// type-changing effects on it (layer 4): printed, or, under an animate
// effect, a copy that is also a creature, its base power and toughness
// the latest such effect's (layer 7b, before every modification).
func animated(d *card.Def, n int, effects []Effect) *card.Def {
	var last *Effect
	for i := range effects {
		if e := &effects[i]; e.Perm == n && e.Animate && (last == nil || e.TS > last.TS) {
			last = e
		}
	}
	if last == nil {
		return d
	}
	a := *d
	if !is(d, "creature") {
		a.Types = append(slices.Clone(d.Types), "creature")
	}
	pw, tg := last.Power, last.Tough
	a.Power, a.Toughness = &pw, &tg
	return &a
}

// chars computes one permanent's characteristics.
func (g *Game) chars(p *Perm) chars { return g.charsWith(p, g.statics()) }

// creature reports whether p is a creature (after type-changing effects).
func (g *Game) creature(p *Perm) bool { return is(g.chars(p).def, "creature") }
