package ai

import (
	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// AI kinds.
const (
	// Random plays any legal action but conceding, uniformly.
	Random = "random"
	// Pilot plays by heuristics: curve, colours, race arithmetic, trades.
	Pilot = "pilot"
)

// Kinds returns the AI kinds, the strongest first.
func Kinds() []string { return []string{Pilot, Random} }

// Choose returns the choice the AI kind makes for seat in game g, where
// acts are g.Actions(seat). Its only randomness is h. An unknown kind
// plays as Pilot; with no actions the choice is empty.
func Choose(kind string, g *rules.Game, seat int, acts []rooms.Action, h *rng.Handle) rooms.Choice {
	if len(acts) == 0 {
		return rooms.Choice{}
	}
	if kind == Random {
		return chooseRandom(g, seat, acts, h)
	}
	// nothing to do but pass (or tap mana, which the pilot only does for
	// an ability in its second main phase): no need to read the table
	if st := g.Step(); st.Phase != "postcombat_main" || st.Active != seat {
		if c, ok := g.Idle(seat); ok {
			return c
		}
	}
	return newPilot(g, seat).choose(acts)
}

// Option returns kind's entry in the catalog's AI opponents.
func Option(kind string) rooms.AIOption {
	if kind == Random {
		return rooms.AIOption{ID: Random, Name: "Random", Description: "Plays any legal move at random: a sparring partner that never concedes."}
	}
	return rooms.AIOption{ID: Pilot, Name: "Pilot", Description: "Curves out, races and trades sensibly, blocks lethal and aims removal at the biggest threat."}
}

// Seats returns every AI kind as the card game's formats seat them
// (cards.Games takes them): each chooses among the rules' actions for its
// seat.
func Seats() []cards.AI {
	var out []cards.AI
	for _, kind := range Kinds() {
		out = append(out, cards.AI{Option: Option(kind), Choose: func(g *rules.Game, seat int, h *rng.Handle) rooms.Choice {
			return Choose(kind, g, seat, g.Actions(seat), h)
		}})
	}
	return out
}
