package hosting

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/ai"
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/static/cardgame"
)

// Games returns the registry every Storyloom host serves rooms from:
// Cheat, and the card game's formats over the catalog shipped in
// static/cardgame, with the AI kinds of engine/cards/ai.
func Games() (*rooms.Registry, error) {
	files, err := cardgame.CardFiles()
	if err != nil {
		return nil, fmt.Errorf("hosting: card files: %w", err)
	}
	cat, err := card.NewCatalog(files...)
	if err != nil {
		return nil, fmt.Errorf("hosting: %w", err)
	}
	return rooms.NewRegistry(append([]rooms.Game{cheat.Game{}}, cards.Games(cat, aiSeats()...)...)...)
}

// aiSeats returns every AI kind as the card game's formats seat them.
func aiSeats() []cards.AI {
	var out []cards.AI
	for _, kind := range ai.Kinds() {
		out = append(out, cards.AI{Option: ai.Option(kind), Choose: func(g *rules.Game, seat int, h *rng.Handle) rooms.Choice {
			return ai.Choose(kind, g, seat, g.Actions(seat), h)
		}})
	}
	return out
}
