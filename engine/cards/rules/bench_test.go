package rules

import (
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// midgame plays a four-seat game with the shipped decks (commander decks
// in a commander game, else starter decks in a free-for-all) and random
// answers until the battlefield holds want permanents, and returns it; a
// game that ends first, or reaches turn 80, is dealt again from another
// seed.
func midgame(tb testing.TB, want int, commander bool) *Game {
	key := fmt.Sprint(want, commander)
	if b, ok := midgames[key]; ok { // each benchmark count asks again
		cards, _ := shipped(tb)
		g, err := Load(cards, b)
		if err != nil {
			tb.Fatal(err)
		}
		return g
	}
	g := playMidgame(tb, want, commander)
	b, _ := g.State()
	midgames[key] = b
	return g
}

// midgames keeps the states midgame played, by size and format, for the
// process: a benchmark runs once per count.
var midgames = map[string][]byte{}

// playMidgame plays the game midgame returns.
func playMidgame(tb testing.TB, want int, commander bool) *Game {
	cards, decks := shipped(tb)
	cfg := Config{Format: "standard_ffa", Life: 20}
	if commander {
		cfg = Config{Format: "commander", Life: 30, Commander: true}
	}
	var pool []deck.Precon
	for _, d := range decks {
		if (d.Commander != "") == commander {
			pool = append(pool, d)
		}
	}
	var ps []rooms.Player
	for s := 0; s < 4; s++ {
		d := pool[s%len(pool)]
		ps = append(ps, rooms.Player{Seat: s, ID: rooms.PlayerID(s), Deck: d.Cards, Commander: d.Commander})
	}
	for k := 0; ; k++ {
		seed := "midgame-" + string(rune('a'+k))
		g, err := Setup(cards, cfg, seed, ps)
		if err != nil {
			tb.Fatal(err)
		}
		h := rng.For(seed, rng.System("bench", 0))
		for g.Result() == nil && len(g.st.Field) < want && g.st.Turn < 80 {
			if _, _, _, err := randomInput(g, h); err != nil {
				tb.Fatal(err)
			}
		}
		if g.Result() == nil && len(g.st.Field) >= want {
			return g
		}
	}
}

// TestMidgameStateIsCompact keeps a four-seat midgame's state small.
func TestMidgameStateIsCompact(t *testing.T) {
	g := midgame(t, 40, false)
	b, err := g.State()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("four seats, turn %d, %d permanents: %d bytes", g.st.Turn, len(g.st.Field), len(b))
	if len(b) > 16<<10 {
		t.Fatalf("state of %d bytes", len(b))
	}
}

// BenchmarkCommand is one command as the room machine runs it in a
// four-seat midgame (commander with 60 permanents, the figure, and
// a free-for-all with 40), on the position the machine keeps between
// commands: apply the asked seat's default (the game settles to its next
// decision), list every seat's actions, encode every seat's and a
// spectator's view, encode the state. The position is loaded from the
// same midgame state before each op, untimed (BenchmarkLoad times that),
// and given what the machine's previous broadcast derived from it (every
// seat's actions and views, which Apply reads the answered action from).
func BenchmarkCommand(b *testing.B) {
	for _, tc := range positions {
		b.Run(tc.name, func(b *testing.B) {
			g := midgame(b, tc.perms, tc.commander)
			state, _ := g.State()
			cards := g.cards
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				g, err := Load(cards, state)
				if err != nil {
					b.Fatal(err)
				}
				broadcast(g)
				b.StartTimer()
				for s := range g.st.Players {
					if c, ok := g.Timeout(s); ok {
						if _, err := g.Apply(s, c); err != nil {
							b.Fatal(err)
						}
						break
					}
				}
				broadcast(g)
				if _, err := g.State(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// broadcast derives what the machine sends after a command: every seat's
// actions and encoded view, and the spectator's view. As the machine
// does, the views are encoded into one buffer in turn (the machine copies
// each into its frame before encoding the next; cards.BenchmarkCommand
// times the frames).
func broadcast(g *Game) {
	var buf []byte
	for s := range g.st.Players {
		g.Actions(s)
		buf, _ = g.View(s).(View).AppendCanonical(buf[:0])
	}
	g.View(rooms.Spectator).(View).AppendCanonical(buf[:0])
}

// BenchmarkLoad decodes a midgame state, as the machine does when it holds
// no decoded position for a room (after a restore or an undo).
func BenchmarkLoad(b *testing.B) {
	for _, tc := range positions {
		b.Run(tc.name, func(b *testing.B) {
			g := midgame(b, tc.perms, tc.commander)
			state, _ := g.State()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := Load(g.cards, state); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// positions are the midgames BenchmarkCommand and BenchmarkLoad run in.
var positions = []struct {
	name      string
	perms     int
	commander bool
}{{"commander/4seats/60perms", 60, true}, {"ffa/4seats/40perms", 40, false}}
