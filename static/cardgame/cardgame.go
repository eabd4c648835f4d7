// Package cardgame holds the card game's data: the card definitions under
// cards/ (one file per colour group) and the preconstructed decks in
// decks.json. Hosts read them from FS and hand the bytes to the engine
// (card.NewCatalog, deck.LoadPrecons); the engine never reads files.
package cardgame

import "embed"

// FS holds cards/*.json and decks.json, rooted at this directory.
//
//go:embed cards/*.json decks.json
var FS embed.FS
