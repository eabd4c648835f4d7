package freeport

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkApplyCommands measures Commands per second through the reducer's
// byte interface: a steady cycle of proposal, counter, approval and
// transfer rotating over eight Players, so the State keeps growing (Ledger,
// Exchanges, idempotency records) as in a real game. Every Command must
// succeed. The protocol's target is at least 20,000 commands/s.
func BenchmarkApplyCommands(b *testing.B) {
	g := testGame(b)
	st := g.NewState("bench")
	owners := make([]string, 8)
	ids := make([]string, 8)
	for i := range owners {
		owners[i] = fmt.Sprint("owner-", i)
		st, _ = st.Apply(owners[i], T0, []byte(enrol))
		ids[i] = st.player(i).id // enrolled in order: ordinal i is owner i
	}
	b.ReportAllocs()
	b.ResetTimer()
	now := T0
	for i := 0; i < b.N; i++ {
		cycle := i / 4
		a, c := cycle%8, (cycle+1)%8
		now += 10
		var who int
		var body string
		switch i % 4 {
		case 0:
			who, body = a, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"p%d","counterpartyPlayerId":%q,"offered":[{"assetId":"wood","quantity":1}],"requested":[{"assetId":"credits","quantity":1}]}`, i, ids[c])
		case 1, 2:
			x := st.exchange(st.exchanges.Len() - 1)
			who = x.answering()
			if i%4 == 1 {
				body = fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":"r%d","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"offered":[{"assetId":"wood","quantity":1}],"requested":[{"assetId":"credits","quantity":2}]}`,
					i, x.id, x.version, x.live().hash)
			} else {
				body = fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"r%d","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"decision":"approve"}`,
					i, x.id, x.version, x.live().hash)
			}
		default:
			who, body = c, fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"t%d","toPlayerId":%q,"assetId":"wood","quantity":1}`, i, ids[a])
		}
		var resp []byte
		st, resp = st.Apply(owners[who], now, []byte(body))
		if !bytes.HasPrefix(resp, []byte(`{"ok":true`)) {
			b.Fatalf("%s → %s", body, resp)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}

// BenchmarkReadStanding measures the public board with 200 Players.
func BenchmarkReadStanding(b *testing.B) {
	g := testGame(b)
	st := g.NewState("bench")
	for i := 0; i < 200; i++ {
		st, _ = st.Apply(fmt.Sprint("owner-", i), T0, []byte(enrol))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, resp := st.Apply("visitor", T0, []byte(standing))
		if !bytes.HasPrefix(resp, []byte(`{"ok":true`)) {
			b.Fatal(string(resp))
		}
	}
}

// BenchmarkStandingPage measures the paged Standing on a board of 8,000
// Players: ranking the board once per State (Board) and one page of it (25
// Players, the reader's own place and two named), which a host answers
// from the ranked board while the State does not change.
func BenchmarkStandingPage(b *testing.B) {
	g := testGame(b)
	st := g.NewState("bench")
	for i := 0; i < 8000; i++ {
		st, _ = st.Apply(fmt.Sprint("owner-", i), T0, []byte(enrol))
	}
	b.Run("board", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			st.Board()
		}
	})
	board := st.Board()
	q := StandingQuery{Offset: 4000, Limit: 25, Owner: "owner-7", Players: []string{"p-x", "p-y"}}
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if p := board.Page(T0, q); !bytes.Contains(p, []byte(`"total":8000`)) {
				b.Fatal(string(p))
			}
		}
	})
}
