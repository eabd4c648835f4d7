// Package deck holds the card game's formats and their deck rules, deck
// validation with every lobby_error deck class of the SAGE spec, the
// deck-list text players paste ("4 Ember Lash"), and the preconstructed
// decks.
package deck

import (
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Format ids.
const (
	StarterDuel = "starter-1v1"
	FreeForAll  = "standard_ffa"
	Commander   = "commander"
)

// Format is one format of the card game: its seats, its starting life and
// its deck rules.
type Format struct {
	// ID is the game_setup id; Name and Description are display text.
	ID, Name, Description string
	// MinSeats and MaxSeats bound the table.
	MinSeats, MaxSeats int
	// Life is each player's starting life.
	Life int
	// CommanderDamage is the combat damage from one commander that makes
	// a player lose; 0 when the format has no commanders.
	CommanderDamage int
	// MinDeckSize and MaxDeckSize bound the deck (MaxDeckSize 0: no bound).
	MinDeckSize, MaxDeckSize int
	// MaxCopies is the most copies of one card (0: no limit), basic lands
	// exempt when BasicLandExempt.
	MaxCopies       int
	BasicLandExempt bool
	// RequiresCommander: the deck designates a legendary creature of its
	// own as commander; EnforceColorIdentity: every card's colour
	// identity lies within the commander's.
	RequiresCommander, EnforceColorIdentity bool
}

// Formats returns the card game's formats: starter-1v1, standard_ffa and
// commander.
func Formats() []Format {
	return []Format{
		{ID: StarterDuel, Name: "Starter duel", Description: "Two players, 40-card decks, up to four copies of a card, 20 life.",
			MinSeats: 2, MaxSeats: 2, Life: 20, MinDeckSize: 40, MaxCopies: 4, BasicLandExempt: true},
		{ID: FreeForAll, Name: "Free-for-all", Description: "Three or four players, each for themselves; starter deck rules, 20 life.",
			MinSeats: 3, MaxSeats: 4, Life: 20, MinDeckSize: 40, MaxCopies: 4, BasicLandExempt: true},
		{ID: Commander, Name: "Commander", Description: "Two to four players, 40-card singleton decks led by a legendary creature, 30 life.",
			MinSeats: 2, MaxSeats: 4, Life: 30, CommanderDamage: 21, MinDeckSize: 40, MaxDeckSize: 40, MaxCopies: 1,
			BasicLandExempt: true, RequiresCommander: true, EnforceColorIdentity: true},
	}
}

// FormatByID returns the format with game_setup id id.
func FormatByID(id string) (Format, bool) {
	for _, f := range Formats() {
		if f.ID == id {
			return f, true
		}
	}
	return Format{}, false
}

// Rules returns the format's deck rules for the room machine, checking
// decks against c and advertising c's cards.
func (f Format) Rules(c *card.Catalog) *rooms.DeckRules {
	return &rooms.DeckRules{
		MinDeckSize:          f.MinDeckSize,
		MaxDeckSize:          f.MaxDeckSize,
		MaxCopies:            f.MaxCopies,
		BasicLandExempt:      f.BasicLandExempt,
		RequiresCommander:    f.RequiresCommander,
		EnforceColorIdentity: f.EnforceColorIdentity,
		Cards:                c.CatalogCards(),
		Check: func(cards []string, commander string) ([]string, *rooms.Rejection) {
			return f.Check(c, cards, commander)
		},
	}
}
