package ai

import (
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// payPrompts returns the pay_mana prompts of a, in slot order.
func payPrompts(a rooms.Action) []rooms.Prompt {
	var out []rooms.Prompt
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptPayMana {
			out = append(out, p)
		}
	}
	return out
}

// xPrompt returns a's X prompt, if it has one.
func xPrompt(a rooms.Action) (rooms.Prompt, bool) {
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptNumber && p.Slot == "x" {
			return p, true
		}
	}
	return rooms.Prompt{}, false
}

// manaValue reads the mana value of a cost in pip notation; "" is 0.
func manaValue(cost string) int {
	if cost == "" {
		return 0
	}
	c, err := card.ParseCost(cost)
	if err != nil {
		return 0
	}
	return c.ManaValue(0)
}

// paySlots returns how many pay slots a cast with X = x must answer: the
// mandatory ones, plus the generic mana the larger X adds beyond what the
// floating pool (pool units) still covers.
func paySlots(a rooms.Action, x int, pool int) int {
	ps := payPrompts(a)
	need := 0
	for _, p := range ps {
		if p.Min == nil {
			need++
		}
	}
	xp, ok := xPrompt(a)
	if !ok || len(xp.Values) == 0 {
		return need
	}
	base := xp.Values[0]
	var at rooms.NumberValue
	for _, v := range xp.Values {
		if v.Value == x {
			at = v
		}
	}
	mv0, mvx := manaValue(base.Cost), manaValue(at.Cost)
	left := pool - (mv0 - need) // pool units the smallest X leaves
	return min(len(ps), need+max(0, mvx-mv0-max(left, 0)))
}

// matchSources assigns one distinct source to each of the first n pay
// prompts, trying candidates in the order rank gives (nil: as offered).
// It returns nil when no assignment exists.
func matchSources(ps []rooms.Prompt, n int, rank func(slot int, cands []string) []string) [][]string {
	cands := make([][]string, n)
	for i := 0; i < n; i++ {
		for _, m := range ps[i].ManaCandidates {
			cands[i] = append(cands[i], m.ID)
		}
		if rank != nil {
			cands[i] = rank(i, cands[i])
		}
	}
	owner := map[string]int{} // source -> slot+1
	pick := make([]string, n)
	var try func(i int, seen map[string]bool) bool
	try = func(i int, seen map[string]bool) bool {
		for _, s := range cands[i] {
			if seen[s] {
				continue
			}
			seen[s] = true
			if owner[s] == 0 || try(owner[s]-1, seen) {
				owner[s] = i + 1
				pick[i] = s
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		if !try(i, map[string]bool{}) {
			return nil
		}
	}
	out := make([][]string, n)
	for i, s := range pick {
		out[i] = []string{s}
	}
	return out
}

// selectBounds returns the fewest and most answers of a select prompt.
func selectBounds(p rooms.Prompt) (lo, hi int) {
	lo, hi = p.Least(), max(p.Count, 1)
	return min(lo, len(p.Candidates)), min(hi, len(p.Candidates))
}

// requiredBy returns the slots some option of a's option prompts
// requires, and which option requires each.
func requiredBy(a rooms.Action) map[string]bool {
	out := map[string]bool{}
	for _, p := range a.Prompts {
		for _, o := range p.Options {
			for _, s := range o.Requires {
				out[s] = true
			}
		}
	}
	return out
}
