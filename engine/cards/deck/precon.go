package deck

import (
	"fmt"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Precon is a preconstructed deck, tagged for a catalog's JSON: its
// cards are functional ids, as submit_deck takes them.
type Precon struct {
	// ID, Name and Description identify and present the deck.
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Format is the format the deck was built for.
	Format string `json:"format"`
	// Commander is the commander's functional id, if any.
	Commander string `json:"commander,omitempty"`
	// Cards are the deck's functional ids, one per copy.
	Cards []string `json:"cards"`
}

// preconFile is decks.json as authors write it.
type preconFile struct {
	Decks []struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		Format      string   `json:"format"`
		Description string   `json:"description"`
		Commander   string   `json:"commander,omitempty"`
		Cards       []string `json:"cards"`
	} `json:"decks"`
}

// LoadPrecons decodes decks.json strictly, reads each deck's list against
// c, and validates it against its format; the error names the deck and
// what is wrong.
func LoadPrecons(data []byte, c *card.Catalog) ([]Precon, error) {
	var f preconFile
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("deck: decks file: %w", err)
	}
	var out []Precon
	seen := map[string]bool{}
	for i, d := range f.Decks {
		if d.ID == "" || seen[d.ID] {
			return nil, fmt.Errorf("deck: decks[%d]: id %q is empty or used twice", i, d.ID)
		}
		seen[d.ID] = true
		fm, ok := FormatByID(d.Format)
		if !ok {
			return nil, fmt.Errorf("deck: deck %q: unknown format %q", d.ID, d.Format)
		}
		l, err := ParseList(strings.Join(d.Cards, "\n"), c)
		if err != nil {
			return nil, fmt.Errorf("deck: deck %q: %w", d.ID, err)
		}
		p := Precon{ID: d.ID, Name: d.Name, Description: d.Description, Format: d.Format, Cards: l.Cards}
		if d.Commander != "" {
			cmd, ok := c.ByName(d.Commander)
			if !ok {
				return nil, fmt.Errorf("deck: deck %q: no card is named %q", d.ID, d.Commander)
			}
			p.Commander = cmd.ID
		}
		if _, rej := fm.Check(c, p.Cards, p.Commander); rej != nil {
			return nil, fmt.Errorf("deck: deck %q: %s: %s", d.ID, rej.Code, rej.Reason)
		}
		out = append(out, p)
	}
	return out, nil
}

// For returns the decks among ps that are legal in format f: those built
// for it, and any other that passes its check (a starter-1v1 deck is
// legal in standard_ffa).
func For(ps []Precon, f Format, c *card.Catalog) []Precon {
	var out []Precon
	for _, p := range ps {
		if _, rej := f.Check(c, p.Cards, p.Commander); rej == nil {
			out = append(out, p)
		}
	}
	return out
}
