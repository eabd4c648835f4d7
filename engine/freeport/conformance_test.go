package freeport_test

import (
	"testing"

	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/freeport/freeporttest"
)

// TestConformance runs the conformance suite straight through the
// reducer's byte interface, checking the State's invariants (conservation,
// balances against the Ledger, derived reservations, the expiry index)
// after every request.
func TestConformance(t *testing.T) {
	freeporttest.Run(t, freeporttest.Reducer(func(t *testing.T, s *freeport.State) {
		freeport.CheckInvariants(t, s)
	}))
}

// TestConformanceGameIsTheTestGame keeps the package's own test game and
// the suite's game file one and the same.
func TestConformanceGameIsTheTestGame(t *testing.T) {
	if string(freeporttest.Game()) != freeport.TestGameJSON {
		t.Fatal("freeporttest.Game() and the package's testGameJSON differ")
	}
}
