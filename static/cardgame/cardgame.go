// Package cardgame holds the card game's data: the card definitions under
// cards/ (one file per colour group) and the preconstructed decks in
// decks.json. Hosts and tests read them through Load, which hands the
// bytes to the engine (card.NewCatalog, deck.LoadPrecons); the engine
// never reads files.
package cardgame

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
)

// FS holds cards/*.json and decks.json, rooted at this directory.
//
//go:embed cards/*.json decks.json
var FS embed.FS

// Phrasebooks are the shipped catalog's rules text in every language the
// generator writes besides English, by language: card.Phrasebook's pairs
// as one JSON object, {"<English text>": "<the same in that language>"}.
func Phrasebooks() (map[string][]byte, error) {
	cat, _, err := Load()
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, lang := range []card.Lang{card.French} {
		if out[string(lang)], err = json.Marshal(card.Phrasebook(lang, cat.Cards())); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Load decodes the shipped data: the catalog of every cards/*.json file
// (in name order) and the preconstructed decks of decks.json, each
// checked against its format.
func Load() (*card.Catalog, []deck.Precon, error) {
	names, err := fs.Glob(FS, "cards/*.json")
	if err != nil {
		return nil, nil, err
	}
	files := make([][]byte, len(names))
	for i, n := range names {
		if files[i], err = fs.ReadFile(FS, n); err != nil {
			return nil, nil, err
		}
	}
	cat, err := card.NewCatalog(files...)
	if err != nil {
		return nil, nil, fmt.Errorf("cardgame: %w", err)
	}
	raw, err := fs.ReadFile(FS, "decks.json")
	if err != nil {
		return nil, nil, err
	}
	precons, err := deck.LoadPrecons(raw, cat)
	if err != nil {
		return nil, nil, fmt.Errorf("cardgame: %w", err)
	}
	return cat, precons, nil
}
