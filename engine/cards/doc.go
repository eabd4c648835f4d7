// Package cards is the card game as the room machine hosts it: Games
// returns one rooms.Game per format (starter-1v1, standard_ffa,
// commander), each dealing and loading engine/cards/rules games over one
// catalog and checking decks with engine/cards/deck. docs/card-game.md
// describes the game; a host builds the catalog from static/cardgame's
// files and registers Games(catalog) beside cheat.Game{}.
package cards
