package rules

import (
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// shipped loads the shipped catalog and preconstructed decks.
func shipped(t testing.TB) (Cards, []deck.Precon) {
	t.Helper()
	cat, decks, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	return NewCards(cat.Cards()), decks
}

// TestShippedDecksPlay plays random games with the shipped catalog's
// decks: 1v1, four-player free-for-all and commander, every game to a
// result, each also restored between every input (playInputs), every
// sixth checked for privacy after every input.
func TestShippedDecksPlay(t *testing.T) {
	cards, decks := shipped(t)
	var starter, cmdr []deck.Precon
	for _, d := range decks {
		if d.Commander != "" {
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
			ps = append(ps, rooms.Player{Seat: s, ID: rooms.PlayerID(s), Deck: d.Cards, Commander: d.Commander})
		}
		seed := "shipped-" + strconv.Itoa(i)
		g, n := playSeats(t, cards, cfg, seed, ps, i%6 == 0)
		t.Logf("%s: %d seats, %d inputs, turn %d, %+v", seed, seats, n, g.st.Turn, g.Result())
	}
}
