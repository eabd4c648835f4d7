package rules

import (
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// midgame plays a four-seat free-for-all with the shipped decks until the
// battlefield holds about want permanents (or turn 20), and returns it.
func midgame(tb testing.TB, want int) *Game {
	cards, decks := shipped(tb)
	var ps []rooms.Player
	for s := 0; s < 4; s++ {
		d := decks[s%len(decks)]
		if d.commander != "" {
			d = decks[0]
		}
		ps = append(ps, rooms.Player{Seat: s, ID: rooms.PlayerID(s), Deck: d.cards})
	}
	for k := 0; ; k++ {
		seed := "midgame-" + string(rune('a'+k))
		g, err := Setup(cards, Config{Format: "standard_ffa", Life: 20}, seed, ps)
		if err != nil {
			tb.Fatal(err)
		}
		h := rng.For(seed, rng.System("bench", 0))
		for g.Result() == nil && len(g.st.Field) < want && g.st.Turn < 40 {
			if _, err := randomInput(g, h); err != nil {
				tb.Fatal(err)
			}
		}
		if g.Result() == nil {
			return g
		}
	}
}

// TestMidgameStateIsCompact keeps a four-seat midgame's state small.
func TestMidgameStateIsCompact(t *testing.T) {
	g := midgame(t, 40)
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
// four-seat midgame: load the state, apply the asked seat's default,
// list every seat's actions, project every seat's and a spectator's view,
// encode the state.
func BenchmarkCommand(b *testing.B) {
	g := midgame(b, 40)
	state, _ := g.State()
	cards := g.cards
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		g, err := Load(cards, state)
		if err != nil {
			b.Fatal(err)
		}
		for s := range g.st.Players {
			if c, ok := g.Timeout(s); ok {
				if _, err := g.Apply(s, c); err != nil {
					b.Fatal(err)
				}
				break
			}
		}
		for s := range g.st.Players {
			g.Actions(s)
			g.View(s)
		}
		g.View(rooms.Spectator)
		if _, err := g.State(); err != nil {
			b.Fatal(err)
		}
	}
}
