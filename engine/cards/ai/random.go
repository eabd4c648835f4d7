package ai

import (
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// chooseRandom picks any action but conceding uniformly (conceding only
// when it is all there is) and answers its slots at random, legally.
func chooseRandom(g *rules.Game, seat int, acts []rooms.Action, h *rng.Handle) rooms.Choice {
	var pool []rooms.Action
	for _, a := range acts {
		if a.Type != "concede" {
			pool = append(pool, a)
		}
	}
	if len(pool) == 0 {
		pool = acts
	}
	a := pool[h.Intn(len(pool))]
	r := randomizer{g: g, seat: seat, h: h}
	return rooms.Choice{ActionID: a.ID, Targets: r.answer(a)}
}

// randomizer answers one action's slots at random.
type randomizer struct {
	g    *rules.Game
	seat int
	h    *rng.Handle
	view *rules.View
}

// table returns the seat's view, projected once.
func (r *randomizer) table() *rules.View {
	if r.view == nil {
		v, _ := r.g.View(r.seat).(rules.View)
		r.view = &v
	}
	return r.view
}

// shuffled returns a shuffled copy of list.
func (r *randomizer) shuffled(list []string) []string {
	c := append([]string(nil), list...)
	for i := len(c) - 1; i > 0; i-- {
		j := r.h.Intn(i + 1)
		c[i], c[j] = c[j], c[i]
	}
	return c
}

// subset returns between lo and hi distinct ids of list, at random.
func (r *randomizer) subset(list []string, lo, hi int) []string {
	hi = min(hi, len(list))
	if hi < lo {
		return nil
	}
	n := lo + r.h.Intn(hi-lo+1)
	return r.shuffled(list)[:n]
}

// modeTaken reports whether option id of a modal spell's mode slot is
// already the answer of another of its mode slots (each mode is chosen
// at most once).
func (r *randomizer) modeTaken(a rooms.Action, ans map[string][]string, slot, id string) bool {
	if a.Type != "cast_spell" || !strings.HasPrefix(slot, "mode") {
		return false
	}
	for s, got := range ans {
		if s != slot && strings.HasPrefix(s, "mode") && len(got) == 1 && got[0] == id {
			return true
		}
	}
	return false
}

// answer fills a's slots: options first (they decide which slots are
// needed), then numbers, selections, orders, targets, and the payment.
func (r *randomizer) answer(a rooms.Action) map[string][]string {
	ans := map[string][]string{}
	gated := requiredBy(a)
	needed := map[string]bool{}
	for _, p := range a.Prompts {
		if p.Kind != rooms.PromptOption {
			continue
		}
		var ok []rooms.Option
		for _, o := range p.Options {
			if r.satisfiable(a, o) && !r.modeTaken(a, ans, p.Slot, o.ID) {
				ok = append(ok, o)
			}
		}
		if len(ok) == 0 {
			ok = p.Options
		}
		o := ok[r.h.Intn(len(ok))]
		ans[p.Slot] = []string{o.ID}
		for _, s := range o.Requires {
			needed[s] = true
		}
	}
	x := 0
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptNumber:
			if len(p.Values) > 0 {
				x = p.Values[r.h.Intn(len(p.Values))].Value
			} else {
				x = *p.Min + r.h.Intn(*p.Max-*p.Min+1)
			}
			ans[p.Slot] = []string{strconv.Itoa(x)}
		case rooms.PromptOrder:
			ans[p.Slot] = r.shuffled(p.Items)
		case rooms.PromptSelectFromZone:
			lo, hi := selectBounds(p)
			switch {
			case gated[p.Slot] && !needed[p.Slot]:
				continue
			case gated[p.Slot]:
				lo = hi
			}
			if got := r.subset(p.Candidates, lo, hi); len(got) > 0 {
				ans[p.Slot] = got
			}
		}
	}
	r.requirements(a, ans, gated, needed)
	if ps := payPrompts(a); len(ps) > 0 {
		n := len(ps)
		if _, ok := xPrompt(a); ok {
			n = paySlots(a, x, len(r.table().ManaPool))
		}
		pay := matchSources(ps, n, func(_ int, c []string) []string { return r.shuffled(c) })
		for i, s := range pay {
			ans[ps[i].Slot] = s
		}
	}
	return ans
}

// satisfiable reports whether every slot option o requires can be
// answered.
func (r *randomizer) satisfiable(a rooms.Action, o rooms.Option) bool {
	for _, s := range o.Requires {
		for _, q := range a.Requirements {
			if q.Slot == s && len(q.Candidates) == 0 {
				return false
			}
		}
	}
	return true
}

// requirements fills the target slots: attackers with a defender each,
// blockers each used once (two or more on a menace attacker), targets.
func (r *randomizer) requirements(a rooms.Action, ans map[string][]string, gated, needed map[string]bool) {
	used := map[string]bool{}
	for _, i := range r.shuffledIndex(len(a.Requirements)) {
		q := a.Requirements[i]
		switch {
		case len(q.Candidates) == 0, strings.HasPrefix(q.Slot, "defender:"):
		case q.Slot == "attackers":
			ans[q.Slot] = r.subset(q.Candidates, 0, len(q.Candidates))
		case strings.HasPrefix(q.Slot, "block:"):
			var free []string
			for _, c := range q.Candidates {
				if !used[c] {
					free = append(free, c)
				}
			}
			got := r.subset(free, 0, len(free))
			if len(got) == 1 && r.menace(q.Subject) {
				got = nil
			}
			for _, c := range got {
				used[c] = true
			}
			if len(got) > 0 {
				ans[q.Slot] = got
			}
		case gated[q.Slot]:
			if needed[q.Slot] {
				ans[q.Slot] = r.subset(q.Candidates, 1, 1)
			}
		case !q.Optional || r.h.Intn(2) == 0:
			ans[q.Slot] = r.subset(q.Candidates, 1, max(q.Count, 1))
		}
	}
	for _, q := range a.Requirements {
		if strings.HasPrefix(q.Slot, "defender:") && len(q.Candidates) > 0 {
			for _, id := range ans["attackers"] {
				if id == q.Subject {
					ans[q.Slot] = r.subset(q.Candidates, 1, 1)
				}
			}
		}
	}
}

// shuffledIndex returns 0..n-1 in a random order.
func (r *randomizer) shuffledIndex(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.h.Intn(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// menace reports whether permanent id has menace.
func (r *randomizer) menace(id string) bool {
	for _, p := range r.table().Battlefield {
		if p.ID == id {
			for _, k := range p.Card.Keywords {
				if k == "menace" {
					return true
				}
			}
		}
	}
	return false
}
