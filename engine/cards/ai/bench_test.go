package ai

import (
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
)

// BenchmarkPilotDuel plays whole pilot-against-pilot starter duels.
func BenchmarkPilotDuel(b *testing.B) {
	_, cards, decks := shipped(b)
	duel := starters(decks)
	inputs := 0
	for i := 0; i < b.N; i++ {
		pair := []deck.Precon{duel[i%len(duel)], duel[(i+2)%len(duel)]}
		o := play(b, cards, rules.Config{Format: deck.StarterDuel, Life: 20}, "bench-"+strconv.Itoa(i), []string{Pilot, Pilot}, pair, 20000, false)
		if o.result == nil {
			b.Fatalf("game %d did not end", i)
		}
		inputs += o.inputs
	}
	b.ReportMetric(float64(inputs)/float64(b.N), "inputs/game")
}
