package rules

import (
	"github.com/storyloom/storyloom/engine/rooms"
)

// askCommander asks the owner of the first commander waiting in a
// graveyard or exile whether to move it to the command zone; one that has
// left that zone meanwhile is forgotten.
func (g *Game) askCommander() {
	st := &g.st
	n := st.Ask[0]
	for s := range st.Players {
		pl := &st.Players[s]
		for _, zone := range []*[]Card{&pl.Grave, &pl.Exile} {
			for _, c := range *zone {
				if c.N == n && g.alive(s) {
					g.ask(&Choice{Kind: chCommander, Seat: s, Owner: s, Cards: []int{n}, Min: 1, Max: 1})
					return
				}
			}
		}
	}
	st.Ask = st.Ask[1:]
}

// applyCommanderReturn moves the commander asked about to the command zone
// when the owner accepts.
func (g *Game) applyCommanderReturn(c *Choice, accept bool) error {
	st := &g.st
	st.Ask = st.Ask[1:]
	if !accept {
		return nil
	}
	pl := &st.Players[c.Owner]
	n := c.Cards[0]
	card, ok := takeCard(&pl.Grave, n)
	if !ok {
		card, ok = takeCard(&pl.Exile, n)
	}
	if !ok {
		return nil
	}
	nn := g.putCard(c.Owner, card, toCommand)
	g.emit("commander_returned_to_command_zone", "player", rooms.PlayerID(c.Owner), "card", logEntity(g.cardID(nn), g.def(card.ID).Name))
	return nil
}
