package rules

import (
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/rooms"
)

// Timeout returns the default answer for seat's decision (docs/card-game.md
// "Deadline defaults"): a pass; keeping a hand (bottoming the last cards
// drawn); the first candidates of a forced selection; declining an
// optional choice; the first candidate of a target; the suggested payment;
// an empty declaration. ok is false when seat is asked nothing.
func (g *Game) Timeout(seat int) (rooms.Choice, bool) {
	for _, a := range g.Actions(seat) {
		if a.Type == "concede" || a.Type == "activate_ability" || a.Type == "cast_spell" || a.Type == "play_land" {
			continue
		}
		return rooms.Choice{ActionID: a.ID, Targets: defaults(a)}, true
	}
	return rooms.Choice{}, false
}

// defaults fills every mandatory slot of a with its default answer.
func defaults(a rooms.Action) map[string][]string {
	ans := map[string][]string{}
	for _, r := range a.Requirements {
		if !r.Optional && len(r.Candidates) > 0 {
			ans[r.Slot] = r.Candidates[:1]
		}
	}
	keep := false
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptOption:
			pick := p.Options[0].ID
			for _, o := range p.Options {
				if o.ID == "decline" || o.ID == "keep" {
					pick = o.ID
				}
			}
			keep = pick == "keep"
			ans[p.Slot] = []string{pick}
		case rooms.PromptNumber:
			ans[p.Slot] = []string{strconv.Itoa(*p.Min)}
		case rooms.PromptOrder:
			ans[p.Slot] = p.Items
		case rooms.PromptPayMana:
			if p.Min == nil && len(p.ManaCandidates) > 0 {
				ans[p.Slot] = []string{p.ManaCandidates[0].ID}
			}
		default:
			lo := p.Least()
			if p.Slot == "bottom" && keep {
				lo = p.Count
				ans[p.Slot] = p.Candidates[len(p.Candidates)-lo:]
				continue
			}
			if lo > 0 {
				ans[p.Slot] = p.Candidates[:lo]
			}
		}
	}
	return ans
}

// Step reports where the game stands: the turn, the wire phase, the
// active seat and how many steps the game has entered.
func (g *Game) Step() rooms.Step {
	return rooms.Step{Turn: g.st.Turn, Phase: phaseNames[g.st.Step], Active: g.st.Active, Entered: g.st.Entered}
}

// Idle returns the pass a seat holding priority would make when it has
// nothing to do but pass (mana abilities and conceding aside); ok is
// false when seat has a meaningful action or is not asked.
func (g *Game) Idle(seat int) (rooms.Choice, bool) {
	if g.st.Dec.Kind != DecPriority || !g.asked(seat) {
		return rooms.Choice{}, false
	}
	var pass rooms.Action
	for _, a := range g.Actions(seat) {
		switch {
		case a.Type == "pass_priority":
			pass = a
		case a.Type == "concede", strings.HasPrefix(a.ID, g.aid("mana")):
		default:
			return rooms.Choice{}, false
		}
	}
	return rooms.Choice{ActionID: pass.ID}, true
}
