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
