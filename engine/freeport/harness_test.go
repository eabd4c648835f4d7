package freeport

import (
	_ "embed"
	"testing"
)

// testGameJSON is the game the conformance suite plays (freeporttest.Game,
// the same file): deterministic rules that make both causes of unfunded
// reachable.
//
//go:embed freeporttest/game.json
var testGameJSON string

// T0 is the suite's starting clock: 2026-05-28T20:26:40.000Z.
const T0 int64 = 1780000000000

func testGame(t testing.TB) *Game {
	t.Helper()
	g, err := ParseGame([]byte(testGameJSON))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
