package rules

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// shipped loads the shipped catalog and preconstructed decks from
// static/cardgame, through its embedded files.
func shipped(t testing.TB) (Cards, []precon) {
	t.Helper()
	files, err := cardgame.CardFiles()
	if err != nil || len(files) == 0 {
		t.Fatalf("catalog files: %v", err)
	}
	cat, err := card.NewCatalog(files...)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := cardgame.FS.ReadFile("decks.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Decks []struct {
			ID, Format, Commander string
			Cards                 []string
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []precon
	for _, d := range doc.Decks {
		p := precon{id: d.ID, format: d.Format}
		if d.Commander != "" {
			c, ok := cat.ByName(d.Commander)
			if !ok {
				c, ok = cat.Card(d.Commander)
			}
			if !ok {
				t.Fatalf("deck %s: unknown commander %q", d.ID, d.Commander)
			}
			p.commander = c.ID
		}
		for _, line := range d.Cards {
			n, name, _ := strings.Cut(line, " ")
			k, err := strconv.Atoi(n)
			c, ok := cat.ByName(name)
			if err != nil || !ok {
				t.Fatalf("deck %s: bad line %q", d.ID, line)
			}
			for range k {
				p.cards = append(p.cards, c.ID)
			}
		}
		out = append(out, p)
	}
	return NewCards(cat.Cards()), out
}

// precon is one preconstructed deck.
type precon struct {
	id, format, commander string
	cards                 []string
}

// TestShippedDecksPlay plays random games with the shipped catalog's
// decks: 1v1, four-player free-for-all and commander, every game to a
// result, with a restore between inputs in some of them.
func TestShippedDecksPlay(t *testing.T) {
	cards, decks := shipped(t)
	var starter, cmdr []precon
	for _, d := range decks {
		if d.commander != "" {
			cmdr = append(cmdr, d)
		} else {
			starter = append(starter, d)
		}
	}
	games := 12
	if testing.Short() {
		games = 6
	}
	for i := 0; i < games; i++ {
		seats := []int{2, 4, 2}[i%3]
		commander := i%3 == 2 && len(cmdr) > 0
		pool := starter
		cfg := Config{Format: "starter-1v1", Life: 20}
		if commander {
			pool, cfg = cmdr, Config{Format: "commander", Life: 30, Commander: true}
		}
		var ps []rooms.Player
		for s := 0; s < seats; s++ {
			d := pool[(i+s)%len(pool)]
			deck := d.cards
			if commander {
				deck = append(append([]string{}, d.cards...), d.commander)
			}
			ps = append(ps, rooms.Player{Seat: s, ID: rooms.PlayerID(s), Deck: deck, Commander: d.commander})
		}
		seed := "shipped-" + strconv.Itoa(i)
		g, n := playSeats(t, cards, cfg, seed, ps, i%6 == 0)
		t.Logf("%s: %d seats, %d inputs, turn %d, %+v", seed, seats, n, g.st.Turn, g.Result())
	}
}
