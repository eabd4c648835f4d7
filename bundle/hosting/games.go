package hosting

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/ai"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/static/cardgame"
)

// Games returns the registry every Storyloom host serves rooms from:
// Cheat, and the card game's formats over the catalog shipped in
// static/cardgame, with the AI kinds of engine/cards/ai.
func Games() (*rooms.Registry, error) {
	cat, _, err := cardgame.Load()
	if err != nil {
		return nil, fmt.Errorf("hosting: %w", err)
	}
	return rooms.NewRegistry(append([]rooms.Game{cheat.Game{}}, cards.Games(cat, ai.Seats()...)...)...)
}
