package freeport

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestStandingPage checks that a page of the Standing is the matching slice
// of readStanding's board with ranks, and that "you" and "named" find
// Players wherever they rank.
func TestStandingPage(t *testing.T) {
	g := testGame(t)
	st := g.NewState("page")
	ids := make([]string, 7)
	for i := range ids {
		var resp []byte
		st, resp = st.Apply(fmt.Sprint("owner-", i), T0, []byte(enrol))
		var env struct {
			Result struct {
				PlayerID string `json:"playerId"`
			} `json:"result"`
		}
		if err := json.Unmarshal(resp, &env); err != nil || env.Result.PlayerID == "" {
			t.Fatalf("enrol %d: %s", i, resp)
		}
		ids[i] = env.Result.PlayerID
	}
	// Spread the wealth: owner-i gives i wood to owner-0, so owner-0 leads
	// and the others fall in order.
	for i := 1; i < len(ids); i++ {
		st, _ = st.Apply(fmt.Sprint("owner-", i), T0, fmt.Appendf(nil,
			`{"protocolVersion":2,"action":"transfer","commandId":"t","toPlayerId":%q,"assetId":"wood","quantity":%d}`, ids[0], i))
	}
	_, resp := st.Apply("visitor", T0, []byte(standing))
	var full struct {
		Result struct {
			StateVersion int64 `json:"stateVersion"`
			Players      []standingEntry
		} `json:"result"`
	}
	if err := json.Unmarshal(resp, &full); err != nil {
		t.Fatal(err)
	}
	board := full.Result.Players
	if len(board) != len(ids) || board[0].PlayerID != ids[0] {
		t.Fatalf("board %+v", board)
	}

	type page struct {
		StateVersion int64 `json:"stateVersion"`
		Total        int   `json:"total"`
		Offset       int   `json:"offset"`
		Players      []rankedEntry
		You          *rankedEntry
		Named        []rankedEntry
	}
	read := func(q StandingQuery) page {
		t.Helper()
		var p page
		if err := json.Unmarshal(st.Board().Page(T0, q), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}

	p := read(StandingQuery{Offset: 2, Limit: 3, Owner: "owner-6", Players: []string{ids[0], "p-unknown", ids[3]}})
	if p.Total != len(ids) || p.Offset != 2 || p.StateVersion != full.Result.StateVersion || len(p.Players) != 3 {
		t.Fatalf("page %+v", p)
	}
	for i, e := range p.Players {
		if e.Rank != 3+i || e.standingEntry != board[2+i] {
			t.Errorf("page entry %d = %+v, want rank %d of %+v", i, e, 3+i, board[2+i])
		}
	}
	rank := func(id string) int {
		for i, e := range board {
			if e.PlayerID == id {
				return i + 1
			}
		}
		return 0
	}
	if p.You == nil || p.You.PlayerID != ids[6] || p.You.Rank != rank(ids[6]) {
		t.Errorf("you = %+v, want %s at rank %d", p.You, ids[6], rank(ids[6]))
	}
	if len(p.Named) != 2 {
		t.Fatalf("named = %+v, want the two known ids", p.Named)
	}
	for _, e := range p.Named {
		if e.Rank != rank(e.PlayerID) {
			t.Errorf("named %s at rank %d, want %d", e.PlayerID, e.Rank, rank(e.PlayerID))
		}
	}

	if p := read(StandingQuery{Offset: 100, Limit: 5}); p.Offset != len(ids) || len(p.Players) != 0 || p.You != nil {
		t.Errorf("past the end: %+v", p)
	}
	if p := read(StandingQuery{Offset: -4, Limit: 0, Owner: "stranger"}); p.Offset != 0 || len(p.Players) != len(ids) || p.You != nil {
		t.Errorf("clamped: %+v", p)
	}
}
