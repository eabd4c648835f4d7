package card

import "strings"

// Lang is a language the rules-text generator writes: English, the
// game's and the wire's, and French.
type Lang string

// The generator's languages.
const (
	English Lang = "en"
	French  Lang = "fr"
)

// tongue is l's template set (English for a language it does not know).
func (l Lang) tongue() tongue {
	if l == French {
		return french{}
	}
	return english{}
}

// TextIn is Text in lang: the same lines, worded by lang's templates.
func TextIn(lang Lang, d Def) string { return textIn(lang.tongue(), d) }

// TypeLineIn is TypeLine in lang: "Créature légendaire — Elfe druide".
func TypeLineIn(lang Lang, d Def) string { return typeLineIn(lang.tongue(), d) }

// Phrasebook pairs every English text the game writes from defs (each
// card's rules text, its lines and type line, each ability's text, each
// mode's, the tokens' names, type lines and texts, the emblems'
// abilities) with the same text written in lang, so that a client
// showing the game in lang can say, by the English text it receives,
// what the same generator writes in lang. An English text that is the
// same in lang is left out.
func Phrasebook(lang Lang, defs []Def) map[string]string {
	t := lang.tongue()
	out := map[string]string{}
	add := func(en, other string) {
		if en != "" && other != "" && en != other {
			out[en] = other
		}
	}
	for _, d := range defs {
		en, other := Text(d), textIn(t, d)
		add(en, other)
		if a, b := strings.Split(en, "\n"), strings.Split(other, "\n"); len(a) == len(b) {
			for i := range a {
				add(a[i], b[i])
			}
		}
		add(TypeLine(d), typeLineIn(t, d))
		for _, a := range d.AllAbilities() {
			add(AbilityText(d, a), t.ability(d, a))
		}
		if d.Spell != nil {
			for k := range d.Spell.Modes {
				add(SpellText(d, k), spellTextIn(t, d, k))
			}
		}
		for _, e := range defEffects(d) {
			if tok := e.Token; tok != nil {
				add(tok.Name, frTokenName(lang, *tok))
				add(TokenTypeLine(*tok), tokenTypeLineIn(t, *tok))
				add(TokenText(*tok), textIn(t, Def{Name: tok.Name, Keywords: tok.Keywords}))
			}
			if e.Emblem != nil {
				add(StaticText("", *e.Emblem), t.static("", *e.Emblem))
			}
		}
	}
	return out
}

// frTokenName is a token's name in lang.
func frTokenName(lang Lang, t Token) string {
	if lang == French {
		return FrenchTokenName(t)
	}
	return t.Name
}

// defEffects lists every effect d's spell and abilities hold, those under
// "may" included.
func defEffects(d Def) []Effect {
	var out []Effect
	var walk func(es []Effect)
	walk = func(es []Effect) {
		for _, e := range es {
			out = append(out, e)
			walk(e.Then)
		}
	}
	if d.Spell != nil {
		for _, m := range d.Spell.Modes {
			walk(m.Effects)
		}
	}
	for _, a := range d.AllAbilities() {
		if a.Mode != nil {
			walk(a.Mode.Effects)
		}
	}
	return out
}
