package rules

import (
	"strconv"
	"testing"
	"unicode/utf8"

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

// FuzzRandomGame plays the first inputs of a game from a fuzzed seed and
// shape with random answers: some seat must always be asked something, its
// timeout default must be accepted, and no view may leak a hidden card.
// Each fuzz input must finish within the fuzzing engine's ten-second limit
// per input on a busy machine, so it is a bounded prefix; whole games to
// their result are TestRandomGamesTerminate's. Fuzz budget: 500 inputs.
func FuzzRandomGame(f *testing.F) {
	for i := range 8 {
		f.Add("fuzz-"+strconv.Itoa(i), uint8(i))
	}
	cards := testLib(f)
	f.Fuzz(func(t *testing.T, seed string, shape uint8) {
		seats, commander := 2+int(shape%3), shape&4 != 0
		g, err := Setup(cards, randomConfig(commander), seed, players(t, cards, seats, commander))
		if !utf8.ValidString(seed) {
			// A save could not keep it (found by this fuzzer: a restored
			// game dealt other cards).
			if err == nil {
				t.Fatalf("Setup took the seed %q, which is not valid UTF-8", seed)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		playInputs(t, g, seed, 300, false)
	})
}
