package ai

import (
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// shipped loads the shipped catalog and preconstructed decks from
// static/cardgame, through its embedded files.
func shipped(t testing.TB) (*card.Catalog, rules.Cards, []deck.Precon) {
	t.Helper()
	cat, decks, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cat, rules.NewCards(cat.Cards()), decks
}

// outcome is how one AI-only game went.
type outcome struct {
	result  *rooms.Result
	inputs  int
	refused int
	turn    int
	state   []byte // the final state's canonical bytes
}

// play plays a game between AI kinds (one per seat) with the given decks
// through the rules API directly: whichever seat has actions answers
// with its kind's choice, drawn from its own agent stream. A refused
// choice is counted and replaced by the seat's timeout default. With
// restore, the game is saved and loaded again before every input.
func play(t testing.TB, cards rules.Cards, cfg rules.Config, seed string, kinds []string, decks []deck.Precon, limit int, restore bool) outcome {
	t.Helper()
	var ps []rooms.Player
	for i, k := range kinds {
		d := decks[i%len(decks)]
		ps = append(ps, rooms.Player{Seat: i, ID: rooms.PlayerID(i), AI: k, Deck: d.Cards, Commander: d.Commander})
	}
	g, err := rules.Setup(cards, cfg, seed, ps)
	if err != nil {
		t.Fatal(err)
	}
	seq := make([]int, len(kinds))
	var o outcome
	for ; o.inputs < limit; o.inputs++ {
		if o.result = g.Result(); o.result != nil {
			break
		}
		if restore {
			saved, err := g.State()
			if err != nil {
				t.Fatal(err)
			}
			if g, err = rules.Load(cards, saved); err != nil {
				t.Fatalf("seed %s input %d: restore: %v", seed, o.inputs, err)
			}
		}
		seat := -1
		var acts []rooms.Action
		for s := range kinds {
			if acts = g.Actions(s); len(acts) > 0 {
				seat = s
				break
			}
		}
		if seat < 0 {
			t.Fatalf("seed %s: nobody is asked anything", seed)
		}
		h := rng.For(seed, rng.Agent(rooms.PlayerID(seat), seq[seat]))
		seq[seat]++
		c := Choose(kinds[seat], g, seat, acts, h)
		if _, err := g.Apply(seat, c); err != nil {
			o.refused++
			t.Logf("seed %s input %d: %s's choice %+v refused: %v", seed, o.inputs, kinds[seat], c, err)
			d, ok := g.Timeout(seat)
			if !ok {
				t.Fatalf("seed %s: no default for seat %d", seed, seat)
			}
			if _, err := g.Apply(seat, d); err != nil {
				t.Fatalf("seed %s: the default was refused: %v", seed, err)
			}
		}
	}
	o.turn = g.Step().Turn
	if o.state, err = g.State(); err != nil {
		t.Fatal(err)
	}
	return o
}

// duel returns the starter decks.
func starters(decks []deck.Precon) []deck.Precon {
	var out []deck.Precon
	for _, d := range decks {
		if d.Format == deck.StarterDuel {
			out = append(out, d)
		}
	}
	return out
}
