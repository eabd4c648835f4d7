package freeport

import (
	"testing"
)

// checkInvariants verifies, on any State: every asset is conserved (all
// inventories, @treasury and @issuance included, sum to zero); each balance
// equals what the Ledger adds up to; the derived reservations equal what the
// open Exchanges commit; no Player has more reserved than it holds; and the
// expiry index holds exactly the open Exchanges.
func checkInvariants(t testing.TB, s *State) {
	t.Helper()
	g := s.game
	n := len(g.assets)
	sum := make([]int64, n)
	ledger := map[int][]int64{}
	bal := func(ref int) []int64 {
		if ledger[ref] == nil {
			ledger[ref] = make([]int64, n)
		}
		return ledger[ref]
	}
	for i := 0; i < s.ledger.Len(); i++ {
		e := s.ledger.Get(i)
		if e.seq != int64(i+1) || e.quantity <= 0 {
			t.Fatalf("ledger entry %d: seq %d quantity %d", i, e.seq, e.quantity)
		}
		bal(e.from)[e.asset] -= e.quantity
		bal(e.to)[e.asset] += e.quantity
	}
	reserved := map[int][]int64{}
	open := 0
	for i := 0; i < s.exchanges.Len(); i++ {
		x := s.exchange(i)
		if x.status != StatusAwaiting {
			continue
		}
		open++
		live := x.live()
		if reserved[live.author] == nil {
			reserved[live.author] = make([]int64, n)
		}
		for _, it := range x.authorSide(live) {
			reserved[live.author][g.assetIdx[it.AssetID]] += it.Quantity
		}
	}
	if c := tcount(s.expiry); c != open {
		t.Fatalf("expiry index holds %d, %d open", c, open)
	}
	for i := 0; i < s.players.Len(); i++ {
		p := s.player(i)
		for a := 0; a < n; a++ {
			sum[a] += p.holdings[a]
			if p.holdings[a] != bal(i)[a] {
				t.Fatalf("player %d holds %d of %s, ledger says %d", i, p.holdings[a], g.assets[a].ID, bal(i)[a])
			}
			var want int64
			if reserved[i] != nil {
				want = reserved[i][a]
			}
			if p.reserved[a] != want || p.reserved[a] < 0 || p.reserved[a] > p.holdings[a] {
				t.Fatalf("player %d: reserved %d of %s, open exchanges commit %d, holds %d", i, p.reserved[a], g.assets[a].ID, want, p.holdings[a])
			}
		}
	}
	for k, ref := range []int{refTreasury, refIssuance} {
		for a := 0; a < n; a++ {
			sum[a] += s.system[k][a]
			if s.system[k][a] != bal(ref)[a] {
				t.Fatalf("system %d: %d of %s, ledger says %d", k, s.system[k][a], g.assets[a].ID, bal(ref)[a])
			}
		}
	}
	for a, v := range sum {
		if v != 0 {
			t.Fatalf("%s is not conserved: sum %d", g.assets[a].ID, v)
		}
	}
}
