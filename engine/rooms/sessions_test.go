package rooms_test

import (
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// TestSeatlessSessionsCannotCrowdOutNewPlayers plays the exhaustion the
// probe found (open, set_name, close, again and again) against a small
// session limit: a newcomer evicts the oldest seatless session instead of
// being refused, a seated session is never evicted, and a seatless
// session is released after SeatlessIdleMillis while a seated one is
// kept for SessionIdleMillis.
func TestSeatlessSessionsCannotCrowdOutNewPlayers(t *testing.T) {
	h := lobbyHarness(t, rooms.Limits{MaxSessions: 3})
	h.connect("seated")
	h.must("seated", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
	h.disconnect("seated")
	seatedToken := ""
	for tok, se := range rooms.SessionsOf(h.s) {
		if se.Room != "" {
			seatedToken = tok
		}
	}
	for i := range 20 {
		conn := fmt.Sprint("flood-", i)
		h.connect(conn)
		if h.closed[conn] {
			t.Fatalf("cycle %d: refused %+v with %d sessions", i, h.errs[conn], len(rooms.SessionsOf(h.s)))
		}
		h.must(conn, rooms.SetName{Name: "Flood"})
		h.disconnect(conn)
	}
	sessions := rooms.SessionsOf(h.s)
	if len(sessions) > 3 || sessions[seatedToken] == nil {
		t.Fatalf("%d sessions, seated kept %v: the flood evicted a seat or overflowed", len(sessions), sessions[seatedToken] != nil)
	}
	h.connect("newcomer")
	if h.closed["newcomer"] {
		t.Fatalf("a newcomer was refused: %+v", h.errs["newcomer"])
	}

	t.Run("every session connected or seated: refused", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{MaxSessions: 2})
		h.connect("a")
		h.connect("b")
		h.connect("c")
		if !h.closed["c"] || h.errs["c"][0].Code != rooms.CodeTooManyConnections {
			t.Fatalf("c: closed=%v errs=%+v", h.closed["c"], h.errs["c"])
		}
	})

	t.Run("seatless sessions expire sooner", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{})
		h.connect("named")
		h.must("named", rooms.SetName{Name: "Named"})
		h.disconnect("named")
		h.connect("seated")
		h.must("seated", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
		h.disconnect("seated")
		if at, ok := h.s.NextWake(); !ok || at > h.now+rooms.SeatlessIdleMillis {
			t.Errorf("NextWake %d %v, want the seatless session's release within %d ms", at, ok, rooms.SeatlessIdleMillis)
		}
		h.tick(rooms.SeatlessIdleMillis + 1)
		left := rooms.SessionsOf(h.s)
		if len(left) != 1 {
			t.Fatalf("%d sessions after the seatless idle limit, want the seated one", len(left))
		}
		for _, se := range left {
			if se.Room == "" {
				t.Fatal("the seatless session was kept")
			}
		}
	})
}

// BenchmarkConnectAtTheSessionLimit is one connection to a server whose
// 5,000 sessions are all seatless and disconnected: the newcomer evicts
// the oldest (a scan of the session table) instead of being refused.
func BenchmarkConnectAtTheSessionLimit(b *testing.B) {
	const full = 5000
	h := lobbyHarness(b, rooms.Limits{MaxSessions: full, MaxConnections: 2 * full})
	setName := []byte(`{"type":"set_name","name":"Flood"}`)
	for i := range full { // straight to the server: the harness's checks are per call
		conn := fmt.Sprint("c", i)
		h.now += 10
		h.s.Connect(conn, h.now, h.ids)
		h.s.Receive(conn, setName, h.now, h.ids)
		h.s.Disconnect(conn, h.now)
	}
	if n := len(rooms.SessionsOf(h.s)); n != full {
		b.Fatalf("%d sessions after the set-up, want %d", n, full)
	}
	b.ResetTimer()
	for i := range b.N {
		conn := fmt.Sprint("n", i)
		out, _ := h.s.Connect(conn, h.now, h.ids)
		if len(out) == 0 || out[0].Close {
			b.Fatalf("refused at the limit: %+v", out)
		}
		h.s.Disconnect(conn, h.now)
	}
}
