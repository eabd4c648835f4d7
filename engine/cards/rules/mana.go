package rules

import (
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
)

// colorOrder is the order pips and pools are written in.
const colorOrder = "WUBRGC"

// cost is a parsed mana cost: generic mana, coloured (and colourless)
// pips in printed order, X count, and the tap symbol of an ability cost.
type cost struct {
	Generic int
	Pips    string // one letter a pip, from WUBRGC
	X       int
	Tap     bool
}

// parseCost reads a mana or ability cost in pip notation ("{2}{R}{R}",
// "{X}{G}", "{T}", "{1}, {T}") through the card package's parser. A
// validated catalog's costs always parse; one that does not costs nothing
// rather than failing a game. The empty string is no cost. The game reads
// costs through Cards.cost, which parsed the catalog's once.
func parseCost(s string) cost {
	if s == "" {
		return cost{}
	}
	a, err := card.ParseAbilityCost(s)
	if err != nil || a.Mana == nil {
		return cost{Tap: a.Tap}
	}
	return cost{Generic: a.Mana.Generic, Pips: strings.Join(a.Mana.Symbols, ""), X: a.Mana.X, Tap: a.Tap}
}

// withX returns the cost with X fixed, as generic mana.
func (c cost) withX(x int) cost {
	c.Generic += c.X * x
	c.X = 0
	return c
}

// String writes the cost's mana in pip notation; nothing is "{0}".
func (c cost) String() string {
	cc := card.Cost{Generic: c.Generic, X: c.X}
	for i := 0; i < len(c.Pips); i++ {
		cc.Symbols = append(cc.Symbols, c.Pips[i:i+1])
	}
	return cc.String()
}

// payFromPool spends pool mana on c: coloured pips from matching mana
// first, then generic from what remains (colourless first, then the
// colours in reverse WUBRG order). It returns the pips still unpaid and
// the pool left.
func payFromPool(pool string, c cost) (unpaid []byte, left string) {
	have := []byte(pool)
	take := func(col byte) bool {
		for i := len(have) - 1; i >= 0; i-- {
			if have[i] == col {
				have = append(have[:i], have[i+1:]...)
				return true
			}
		}
		return false
	}
	for i := 0; i < len(c.Pips); i++ {
		if !take(c.Pips[i]) {
			unpaid = append(unpaid, c.Pips[i])
		}
	}
	for g := 0; g < c.Generic; g++ {
		paid := false
		for k := len(colorOrder) - 1; k >= 0 && !paid; k-- {
			paid = take(colorOrder[k])
		}
		if !paid {
			unpaid = append(unpaid, '1')
		}
	}
	return unpaid, string(have)
}

// canPayFromPool reports whether the pool alone covers c.
func canPayFromPool(pool string, c cost) bool {
	unpaid, _ := payFromPool(pool, c)
	return len(unpaid) == 0
}

// source is a permanent that can pay one pip by tapping: a land or a
// creature with a "{T}: Add …" ability.
type source struct {
	Perm   int    // permanent number
	Colors string // colours it can make
}

// pays reports whether s can pay pip ('1' is generic).
func (s source) pays(pip byte) bool {
	return pip == '1' || strings.IndexByte(s.Colors, pip) >= 0
}

// assign finds a matching of pips to distinct sources, coloured pips
// before generic ones, by augmenting paths. It returns, per pip, the index
// of its source, and whether every pip is matched.
func assign(pips []byte, srcs []source) ([]int, bool) {
	owner := make([]int, len(srcs)) // source -> pip+1
	match := make([]int, len(pips))
	var try func(p int, seen []bool) bool
	try = func(p int, seen []bool) bool {
		for s := range srcs {
			if seen[s] || !srcs[s].pays(pips[p]) {
				continue
			}
			seen[s] = true
			if owner[s] == 0 || try(owner[s]-1, seen) {
				owner[s] = p + 1
				match[p] = s
				return true
			}
		}
		return false
	}
	for p := range pips {
		if !try(p, make([]bool, len(srcs))) {
			return nil, false
		}
	}
	return match, true
}
