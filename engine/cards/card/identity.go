package card

import "slices"

// ManaCost returns the definition's parsed mana cost and whether it has
// one (lands have none). A definition from a Catalog always parses.
func (d Def) ManaCost() (Cost, bool) {
	if d.Cost == "" {
		return Cost{}, false
	}
	c, err := ParseCost(d.Cost)
	return c, err == nil
}

// Colors returns the card's colours (CR 105.2): those of its mana cost,
// in WUBRG order; none for a land or a colourless card.
func (d Def) Colors() []string {
	c, _ := d.ManaCost()
	return c.Colors()
}

// Is reports whether the card has type t ("creature").
func (d Def) Is(t string) bool { return slices.Contains(d.Types, t) }

// Legendary reports whether the card is legendary.
func (d Def) Legendary() bool { return slices.Contains(d.Supertypes, "legendary") }

// Basic reports whether the card is a basic land.
func (d Def) Basic() bool { return slices.Contains(d.Supertypes, "basic") && d.Is("land") }

// AllAbilities returns the card's abilities as the game uses them: the
// printed ones, and for a land with a basic land type and no mana ability
// of its own, the intrinsic "{T}: Add {G}." of each such type first
// (CR 305.6).
func (d Def) AllAbilities() []Ability {
	if !d.Is("land") || slices.ContainsFunc(d.Abilities, func(a Ability) bool { return a.Kind == AbilityMana }) {
		return d.Abilities
	}
	var out []Ability
	for _, st := range d.Subtypes {
		if c := basicLandColor(st); c != "" {
			out = append(out, Ability{Kind: AbilityMana, Cost: "{T}", Produce: []string{c}})
		}
	}
	return append(out, d.Abilities...)
}

// Identity returns the card's colour identity (CR 903.4): the colours of
// the mana symbols in its cost and in its rules text, in WUBRG order. The
// rules text's symbols are those of ability costs, optional payments and
// the mana its abilities produce, intrinsic basic land abilities included.
func (d Def) Identity() []string {
	var cs []string
	cs = append(cs, d.Colors()...)
	if d.Spell != nil {
		cs = append(cs, costColors(extraPays(d.Spell.Modes...))...)
	}
	for _, a := range d.AllAbilities() {
		cs = append(cs, a.Produce...)
		if ac, err := ParseAbilityCost(a.Cost); err == nil && ac.Mana != nil {
			cs = append(cs, ac.Mana.Colors()...)
		}
		cs = append(cs, costColors([]string{a.Pay})...)
		if a.Mode != nil {
			cs = append(cs, costColors(extraPays(*a.Mode))...)
		}
	}
	return sortColors(cs)
}

// extraPays collects the Pay costs of may effects, nested ones included.
func extraPays(modes ...Mode) []string {
	var out []string
	var walk func([]Effect)
	walk = func(es []Effect) {
		for _, e := range es {
			if e.Pay != "" {
				out = append(out, e.Pay)
			}
			walk(e.Then)
		}
	}
	for _, m := range modes {
		walk(m.Effects)
	}
	return out
}

// costColors returns the colours of the symbols of mana costs; costs that
// do not parse (empty ones) add nothing.
func costColors(costs []string) []string {
	var out []string
	for _, s := range costs {
		if c, err := ParseCost(s); err == nil {
			out = append(out, c.Symbols...)
		}
	}
	return out
}
