package rules

import (
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
)

// FuzzLoad feeds arbitrary bytes to Load; a state it accepts must answer
// every seat's actions, views and timeout defaults without panicking, and
// its default answers must be accepted.
func FuzzLoad(f *testing.F) {
	cards := testLib(f)
	g, err := Setup(cards, Config{Format: "test", Life: 20}, "fuzz", players(f, cards, 2, false))
	if err != nil {
		f.Fatal(err)
	}
	b, _ := g.State()
	f.Add(b)
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Load(cards, data)
		if err != nil {
			return
		}
		for s := range g.st.Players {
			g.Actions(s)
			g.View(s)
			g.View(rooms.Spectator)
			if c, ok := g.Timeout(s); ok {
				g.Apply(s, c) // may be refused on a nonsense state; must not panic
			}
		}
	})
}

// FuzzRandomGame plays a game from a fuzzed seed with random answers; it
// must reach a result without a refused default (playSeats fails the test
// otherwise). Each input is a whole game. Fuzz budget: 200 inputs.
func FuzzRandomGame(f *testing.F) {
	for i := range 4 {
		f.Add("fuzz-"+strconv.Itoa(i), uint8(i))
	}
	cards := testLib(f)
	f.Fuzz(func(t *testing.T, seed string, shape uint8) {
		seats := 2 + int(shape%3)
		playRandom(t, cards, seed, seats, shape&4 != 0, false)
	})
}
