package card

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxGeneric is the largest generic symbol a cost may print ({20}).
const MaxGeneric = 20

// Cost is a parsed mana cost: its generic amount, its coloured and
// colourless symbols, and its {X} symbols.
type Cost struct {
	// Generic is the generic amount ({3} is 3).
	Generic int
	// Symbols are the coloured and colourless symbols in printed order:
	// "W", "U", "B", "R", "G", "C".
	Symbols []string
	// X is how many {X} symbols the cost prints.
	X int
}

// ParseCost parses a mana cost in pip notation: "{X}{2}{R}{R}". Symbols
// are {W}{U}{B}{R}{G}{C}, generic {0}…{20} and {X}; {T} is not a mana
// symbol. Any order is accepted; String gives the canonical one.
func ParseCost(s string) (Cost, error) {
	var c Cost
	if s == "" {
		return c, fmt.Errorf("empty mana cost")
	}
	generics := 0
	for rest := s; rest != ""; {
		if rest[0] != '{' {
			return Cost{}, fmt.Errorf("mana cost %q: expected '{' at %q", s, rest)
		}
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return Cost{}, fmt.Errorf("mana cost %q: unclosed symbol %q", s, rest)
		}
		sym := rest[1:end]
		rest = rest[end+1:]
		switch {
		case sym == "X":
			c.X++
		case colorIndex(sym) >= 0 || sym == "C":
			c.Symbols = append(c.Symbols, sym)
		case sym == "T":
			return Cost{}, fmt.Errorf("mana cost %q: {T} is not a mana symbol", s)
		default:
			n, err := strconv.Atoi(sym)
			if err != nil || n < 0 || n > MaxGeneric || strconv.Itoa(n) != sym {
				return Cost{}, fmt.Errorf("mana cost %q: unknown symbol {%s}", s, sym)
			}
			generics++
			c.Generic += n
		}
	}
	if generics > 1 {
		return Cost{}, fmt.Errorf("mana cost %q: more than one generic symbol", s)
	}
	if c.Generic > MaxGeneric {
		return Cost{}, fmt.Errorf("mana cost %q: generic amount above %d", s, MaxGeneric)
	}
	return c, nil
}

// String is the canonical notation: {X} symbols, then the generic
// amount, then the other symbols in printed order; "{0}" for a cost of
// nothing.
func (c Cost) String() string {
	var b strings.Builder
	for range c.X {
		b.WriteString("{X}")
	}
	if c.Generic > 0 || (c.X == 0 && len(c.Symbols) == 0) {
		b.WriteString("{" + strconv.Itoa(c.Generic) + "}")
	}
	for _, s := range c.Symbols {
		b.WriteString("{" + s + "}")
	}
	return b.String()
}

// ManaValue is the cost's mana value with X announced as x (0 anywhere
// but on the stack, CR 202.3e).
func (c Cost) ManaValue(x int) int { return c.Generic + len(c.Symbols) + c.X*x }

// Colors returns the colours of the cost's symbols, once each, in WUBRG
// order.
func (c Cost) Colors() []string { return sortColors(c.Symbols) }

// Pips returns one entry per unit of the cost with X announced as x, as a
// cast pays it one pay_mana slot each: "{1}" per generic unit (X's
// included), then the other symbols in printed order ("{R}").
func (c Cost) Pips(x int) []string {
	var ps []string
	for range c.Generic + c.X*x {
		ps = append(ps, "{1}")
	}
	for _, s := range c.Symbols {
		ps = append(ps, "{"+s+"}")
	}
	return ps
}

// Plus returns the cost changed by n generic mana: more when n is
// positive, less when negative. A reduction takes only generic mana and
// stops at none (CR 601.2f).
func (c Cost) Plus(n int) Cost {
	c.Symbols = append([]string(nil), c.Symbols...)
	c.Generic = max(0, c.Generic+n)
	return c
}

// AbilityCost is a parsed activated or mana ability cost: mana, tapping
// the source, or both ("{2}{B}, {T}").
type AbilityCost struct {
	// Mana is the mana part; nil when the cost has none.
	Mana *Cost
	// Tap is true when the cost includes {T}.
	Tap bool
}

// ParseAbilityCost parses an ability's cost: a mana cost, "{T}", or a mana
// cost then "{T}" separated by ", ".
func ParseAbilityCost(s string) (AbilityCost, error) {
	var a AbilityCost
	if s == "" {
		return a, fmt.Errorf("empty ability cost")
	}
	for i, part := range strings.Split(s, ", ") {
		switch {
		case part == "{T}" && !a.Tap:
			a.Tap = true
		case i == 0:
			c, err := ParseCost(part)
			if err != nil {
				return AbilityCost{}, fmt.Errorf("ability cost %q: %w", s, err)
			}
			a.Mana = &c
		default:
			return AbilityCost{}, fmt.Errorf("ability cost %q: unexpected %q (write mana first, then {T})", s, part)
		}
	}
	return a, nil
}

// String is the canonical notation of the ability cost.
func (a AbilityCost) String() string {
	var parts []string
	if a.Mana != nil {
		parts = append(parts, a.Mana.String())
	}
	if a.Tap {
		parts = append(parts, "{T}")
	}
	return strings.Join(parts, ", ")
}

// sortColors returns the colour letters among cs, once each, in WUBRG
// order; "C" and other words are dropped.
func sortColors(cs []string) []string {
	var seen [5]bool
	for _, c := range cs {
		if i := colorIndex(c); i >= 0 {
			seen[i] = true
		}
	}
	var out []string
	for i, c := range [5]string{"W", "U", "B", "R", "G"} {
		if seen[i] {
			out = append(out, c)
		}
	}
	return out
}
