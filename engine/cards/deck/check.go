package deck

import (
	"fmt"
	"slices"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// CodeCommanderNotAllowed refuses a commander designated in a format that
// has none (a Storyloom class beside the spec's deck classes; a client
// treats it as a generic refusal).
const CodeCommanderNotAllowed = "commander_not_allowed"

// Check validates a deck (functional ids, one per copy) and its
// designated commander against the format, and returns the deck's colour
// identity in WUBRG order. Checks run in this order, and the first
// failure is returned: unknown_card, the commander classes
// (missing_commander, commander_not_in_deck,
// commander_not_legendary_creature), below_minimum, above_maximum,
// copy_limit, out_of_identity.
func (f Format) Check(c *card.Catalog, cards []string, commander string) ([]string, *rooms.Rejection) {
	counts := map[string]int{}
	var order []string
	for _, id := range cards {
		if _, ok := c.Card(id); !ok {
			return nil, reject(rooms.CodeUnknownCard, id, "%q is not a card of the catalog", id)
		}
		if counts[id] == 0 {
			order = append(order, id)
		}
		counts[id]++
	}
	var identity []string
	switch {
	case !f.RequiresCommander && commander != "":
		return nil, reject(CodeCommanderNotAllowed, commander, "%s decks have no commander", f.Name)
	case f.RequiresCommander && commander == "":
		return nil, reject(rooms.CodeMissingCommander, "", "a %s deck needs a commander", f.Name)
	case f.RequiresCommander:
		cmd, ok := c.Card(commander)
		switch {
		case !ok:
			return nil, reject(rooms.CodeUnknownCard, commander, "commander %q is not a card of the catalog", commander)
		case counts[commander] == 0:
			return nil, reject(rooms.CodeCommanderNotInDeck, commander, "%s is not in the deck", cmd.Name)
		case !cmd.Legendary() || !cmd.Is("creature"):
			return nil, reject(rooms.CodeCommanderNotLegendaryCreature, commander, "%s is not a legendary creature", cmd.Name)
		}
		identity = cmd.Identity()
	}
	if len(cards) < f.MinDeckSize {
		return nil, reject(rooms.CodeBelowMinimum, "", "the deck has %d cards, below the minimum of %d", len(cards), f.MinDeckSize)
	}
	if f.MaxDeckSize > 0 && len(cards) > f.MaxDeckSize {
		return nil, reject(rooms.CodeAboveMaximum, "", "the deck has %d cards, above the maximum of %d", len(cards), f.MaxDeckSize)
	}
	var colors []string
	for _, id := range order {
		d, _ := c.Card(id)
		if n := counts[id]; f.MaxCopies > 0 && n > f.MaxCopies && !(f.BasicLandExempt && d.Basic()) {
			return nil, reject(rooms.CodeCopyLimit, id, "%s appears %d times, above the %s limit", d.Name, n, copies(f.MaxCopies))
		}
		if f.EnforceColorIdentity {
			for _, col := range d.Identity() {
				if !slices.Contains(identity, col) {
					return nil, reject(rooms.CodeOutOfIdentity, id, "%s is outside the commander's colour identity", d.Name)
				}
			}
		}
		colors = append(colors, d.Identity()...)
	}
	return wubrg(colors), nil
}

func copies(n int) string {
	if n == 1 {
		return "one-copy"
	}
	return fmt.Sprintf("%d-copy", n)
}

func reject(code, cardID, format string, args ...any) *rooms.Rejection {
	return &rooms.Rejection{Code: code, Reason: fmt.Sprintf(format, args...), Card: cardID}
}

// wubrg returns the colour letters among cs once each, in WUBRG order.
func wubrg(cs []string) []string {
	var out []string
	for _, col := range []string{"W", "U", "B", "R", "G"} {
		if slices.Contains(cs, col) {
			out = append(out, col)
		}
	}
	return out
}
