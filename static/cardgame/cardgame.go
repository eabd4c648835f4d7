// Package cardgame holds the card game's data: the card definitions under
// cards/ (one file per colour group) and the preconstructed decks in
// decks.json. Hosts read them from FS and hand the bytes to the engine
// (card.NewCatalog, deck.LoadPrecons); the engine never reads files.
package cardgame

import (
	"embed"
	"io/fs"
)

// FS holds cards/*.json and decks.json, rooted at this directory.
//
//go:embed cards/*.json decks.json
var FS embed.FS

// CardFiles returns the contents of every cards/*.json file, in name
// order: the arguments card.NewCatalog takes.
func CardFiles() ([][]byte, error) {
	names, err := fs.Glob(FS, "cards/*.json")
	if err != nil {
		return nil, err
	}
	files := make([][]byte, len(names))
	for i, n := range names {
		if files[i], err = fs.ReadFile(FS, n); err != nil {
			return nil, err
		}
	}
	return files, nil
}
