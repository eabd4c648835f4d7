package ai

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
)

func TestRandomGamesAreLegal(t *testing.T) {
	_, cards, decks := shipped(t)
	duel := starters(decks)
	n := 20
	if testing.Short() {
		n = 6
	}
	for i := 0; i < n; i++ {
		seed := "random-" + strconv.Itoa(i)
		pair := []deck.Precon{duel[i%len(duel)], duel[(i+1)%len(duel)]}
		o := play(t, cards, rules.Config{Format: deck.StarterDuel, Life: 20}, seed, []string{Random, Random}, pair, 20000, false)
		if o.refused > 0 {
			t.Errorf("%s: %d random choices refused", seed, o.refused)
		}
		if o.result == nil {
			t.Errorf("%s: no result after %d inputs", seed, o.inputs)
		}
	}
}

func TestPilotBeatsRandom(t *testing.T) {
	_, cards, decks := shipped(t)
	duel := starters(decks)
	games := 200 // a few seconds: run in -short too
	wins, refused := 0, 0
	for i := 0; i < games; i++ {
		seed := "strength-" + strconv.Itoa(i)
		kinds := []string{Pilot, Random}
		pilot := "p0"
		if i%2 == 1 {
			kinds, pilot = []string{Random, Pilot}, "p1"
		}
		pair := []deck.Precon{duel[i%len(duel)], duel[(i/len(duel)+i+1)%len(duel)]}
		o := play(t, cards, rules.Config{Format: deck.StarterDuel, Life: 20}, seed, kinds, pair, 20000, false)
		refused += o.refused
		if o.result == nil {
			t.Errorf("%s: no result", seed)
			continue
		}
		if o.result.Winner == pilot {
			wins++
		} else {
			t.Logf("%s: pilot lost: %+v on turn %d", seed, *o.result, o.turn)
		}
	}
	t.Logf("pilot won %d of %d games against random (%.1f%%)", wins, games, 100*float64(wins)/float64(games))
	if refused > 0 {
		t.Errorf("%d choices refused", refused)
	}
	if wins*10 < games*9 {
		t.Errorf("pilot won %d of %d, want at least 90%%", wins, games)
	}
}

func TestCommanderFourSeatsFinish(t *testing.T) {
	_, cards, decks := shipped(t)
	var cmdr []deck.Precon
	for _, d := range decks {
		if d.Format == deck.Commander {
			cmdr = append(cmdr, d)
		}
	}
	games := 6
	if testing.Short() {
		games = 2
	}
	for i := 0; i < games; i++ {
		seed := "commander-" + strconv.Itoa(i)
		kinds := []string{Pilot, Pilot, Pilot, Pilot}
		if i%2 == 1 {
			kinds = []string{Pilot, Random, Pilot, Random}
		}
		o := play(t, cards, rules.Config{Format: deck.Commander, Life: 30, Commander: true}, seed, kinds, cmdr, 40000, false)
		if o.result == nil {
			t.Errorf("%s: no result after %d inputs (turn %d)", seed, o.inputs, o.turn)
			continue
		}
		if o.refused > 0 {
			t.Errorf("%s: %d choices refused", seed, o.refused)
		}
		t.Logf("%s: %+v after %d inputs, turn %d", seed, *o.result, o.inputs, o.turn)
	}
}

// TestGamesAreDeterministic plays one seed twice for each pairing, and a
// third time with a save and a restore between every input: all three
// end in the same state after the same inputs.
func TestGamesAreDeterministic(t *testing.T) {
	_, cards, decks := shipped(t)
	duel := starters(decks)
	for _, kinds := range [][]string{{Pilot, Random}, {Random, Random}, {Pilot, Pilot}} {
		a := play(t, cards, rules.Config{Format: deck.StarterDuel, Life: 20}, "same", kinds, duel[:2], 20000, false)
		b := play(t, cards, rules.Config{Format: deck.StarterDuel, Life: 20}, "same", kinds, duel[:2], 20000, false)
		if !bytes.Equal(a.state, b.state) || a.inputs != b.inputs {
			t.Fatalf("%v: two plays of one seed differ", kinds)
		}
		r := play(t, cards, rules.Config{Format: deck.StarterDuel, Life: 20}, "same", kinds, duel[:2], 20000, true)
		if !bytes.Equal(a.state, r.state) || a.inputs != r.inputs {
			t.Fatalf("%v: the play restored between every input differs", kinds)
		}
	}
}
