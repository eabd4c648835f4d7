package rooms_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// table seats alice (host, seat 0), bob and carol and a fox AI in a
// four-seat Cheat room with undo and a 30 s clock, readies them, and puts
// dave in as a spectator. It returns the room id.
func table(t *testing.T, h *harness) string {
	t.Helper()
	for _, c := range []string{"alice", "bob", "carol", "dave"} {
		h.connect(c)
		h.must(c, rooms.SetName{Name: strings.ToUpper(c[:1]) + c[1:]})
	}
	h.must("alice", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, Name: "Friday table",
		UndoEnabled: true, ActionSeconds: 30}})
	room := h.lobby("alice").Room.RoomID
	if d := h.lobby("dave").Directory; len(d) != 1 || d[0].RoomID != room || d[0].Filled != 1 {
		t.Fatalf("dave's directory = %+v", d)
	}
	h.must("bob", rooms.JoinRoom{RoomID: room})
	h.must("carol", rooms.JoinRoom{RoomID: room})
	h.refused("dave", rooms.SpectateRoom{RoomID: room}, rooms.CodeNotRunning)
	h.refused("bob", rooms.AddAI{Seat: 3, Kind: "fox"}, rooms.CodeNotHost)
	h.must("alice", rooms.AddAI{Seat: 3, Kind: "fox"})
	v := h.lobby("bob")
	if v.Room == nil || len(v.Room.Seats) != 4 || v.Room.Seats[3].AI != "fox" || !v.Room.Seats[3].Ready ||
		v.Room.Seats[1].Name != "Bob" || v.Room.Seats[1].OccupiedBy != v.You {
		t.Fatalf("bob's room view = %+v", v.Room)
	}
	for _, c := range []string{"alice", "bob"} {
		h.must(c, rooms.Ready{Ready: true})
		h.lobby(c)
	}
	h.must("carol", rooms.Ready{Ready: true})
	for i, c := range []string{"alice", "bob", "carol"} {
		g := h.game(c)
		if g.You != rooms.PlayerID(i) || len(g.SeatOrder) != 4 || g.Undo == nil || g.Undo.Limit == 0 {
			t.Fatalf("%s's first game view: you=%q seats=%v undo=%+v", c, g.You, g.SeatOrder, g.Undo)
		}
	}
	h.must("dave", rooms.SpectateRoom{RoomID: room})
	sv := h.spectator("dave")
	if sv.RoomID != room || len(sv.Seats) != 4 || sv.Seats[3].AI != "fox" {
		t.Fatalf("dave's spectator view = %+v", sv)
	}
	return room
}

func seatConn(seat int, bobConn string) string {
	return [...]string{"alice", bobConn, "carol"}[seat]
}

// TestFullGame plays whole Cheat games through the machine: three humans,
// a fox AI, a spectator, a reconnect, an undo, a deadline auto-pass, a
// stale choice and the game's end. It runs once live and once with a save
// and a restore between every input.
func TestFullGame(t *testing.T) {
	tests := []struct {
		name      string
		roundTrip bool
	}{
		{name: "live", roundTrip: false},
		{name: "save-restore-every-input", roundTrip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, rooms.Limits{})
			h.roundTrip = tt.roundTrip
			room := table(t, h)
			bob := "bob"
			r := rng.For("full-game", rng.System("test", 0))
			var sawReconnect, sawUndo, sawTimeout, sawStale, sawAI bool
			for step := 0; step < 20000; step++ {
				if g := h.game("alice"); g.Result != nil {
					break
				}
				switch {
				case step == 4 && !sawReconnect:
					token := h.lobbyToken(t, "bob")
					h.disconnect(bob)
					if h.game("alice").Seats[1].Connected == nil {
						t.Fatal("alice does not see bob disconnected")
					}
					bob = "bob-again"
					h.connect(bob)
					fresh := h.lobby(bob)
					out := h.must(bob, rooms.Hello{Token: token})
					for _, o := range out {
						if o.Conn == bob && o.Kind == rooms.KindLobby {
							t.Fatal("a reclaiming hello into a live game was answered with a lobby view")
						}
					}
					if g := h.game(bob); g.You != "p1" || g.Seats[1].Connected != nil {
						t.Fatalf("bob after reconnect: you=%q connected=%v", g.You, g.Seats[1].Connected)
					}
					if fresh.Session == token {
						t.Fatal("fresh connection was issued the old token")
					}
					sawReconnect = true
					continue
				case step == 8 && !sawUndo:
					before := h.game("carol")
					if before.Undo.Available == 0 {
						break
					}
					h.must("carol", rooms.Undo{})
					after := h.game("carol")
					last := after.Log[len(after.Log)-1]
					if !strings.Contains(string(last.Event), `"undone"`) || after.Undo.Available != before.Undo.Available-1 {
						t.Fatalf("undo: last log %s, available %d -> %d", last.Event, before.Undo.Available, after.Undo.Available)
					}
					if last.Sequence <= before.Log[len(before.Log)-1].Sequence {
						t.Fatal("log sequence went backwards across undo")
					}
					sawUndo = true
					continue
				case step == 12 && !sawTimeout:
					out := h.tick(31_000)
					for _, o := range out {
						if o.Kind == rooms.KindGame && strings.Contains(string(o.Frame), `"auto_passed":true`) {
							sawTimeout = true
						}
					}
					if !sawTimeout || !strings.Contains(string(h.last["alice"].Frame), `"timed_out"`) {
						t.Fatal("a 31 s tick auto-passed nobody")
					}
					continue
				}
				// Every human seat with a decision: pick one at random.
				var seats []int
				for s := 0; s < 3; s++ {
					if len(h.game(seatConn(s, bob)).ValidActions) > 0 {
						seats = append(seats, s)
					}
				}
				if len(seats) == 0 {
					t.Fatalf("step %d: no human has a decision and the game is not over", step)
				}
				conn := seatConn(seats[r.Intn(len(seats))], bob)
				g := h.game(conn)
				ca := answer(g.ValidActions, r, "s:"+string(rune('a'+step%26)))
				h.must(conn, ca)
				if ack := h.game(conn).ActionAck; ack == nil || !ack.Accepted || ack.Submission != ca.Submission {
					t.Fatalf("ack = %+v, want accepted %q", ack, ca.Submission)
				}
				if !sawStale {
					// The same answer again is stale now.
					n := len(h.errs[conn])
					h.send(conn, ca)
					if len(h.errs[conn]) == n+1 {
						g := h.game(conn)
						if !g.ActionRejected || g.ActionAck == nil || g.ActionAck.Accepted {
							t.Fatalf("stale answer: rejected=%v ack=%+v", g.ActionRejected, g.ActionAck)
						}
						sawStale = true
					}
				}
				if strings.Contains(string(h.last["alice"].Frame), `"player":"p3"`) {
					sawAI = true
				}
			}
			g := h.game("alice")
			t.Logf("%d frames, last log sequence %d", len(h.frames), g.Log[len(g.Log)-1].Sequence)
			if g.Result == nil || g.Result.Reason != "emptied_hand" || len(g.ValidActions) != 0 {
				t.Fatalf("no result after the loop: %+v", g.Result)
			}
			if sv := h.spectator("dave"); sv.Result == nil || sv.Result.Winner != g.Result.Winner {
				t.Fatalf("spectator's result = %+v", sv.Result)
			}
			if !sawReconnect || !sawUndo || !sawTimeout || !sawStale || !sawAI {
				t.Fatalf("reconnect=%v undo=%v timeout=%v stale=%v ai=%v", sawReconnect, sawUndo, sawTimeout, sawStale, sawAI)
			}
			// A finished game refuses actions, then everyone leaves.
			h.refused("alice", rooms.ChooseAction{ActionID: "x", Token: "t"}, rooms.CodeGameOver)
			for _, c := range []string{"alice", bob, "carol"} {
				h.must(c, rooms.Leave{})
				if v := h.lobby(c); v.Room != nil {
					t.Fatalf("%s still in a room after leave", c)
				}
			}
			if _, ok := rooms.RoomsOf(h.s)[room]; ok {
				t.Fatal("an empty finished room was kept")
			}
			h.lobby("dave") // the spectator is back in the lobby
		})
	}
}

// lobbyToken finds conn's session token in the earliest lobby view it got.
func (h *harness) lobbyToken(t *testing.T, conn string) string {
	t.Helper()
	for _, o := range h.frames {
		if o.Conn == conn && o.Kind == rooms.KindLobby {
			var v rooms.LobbyView
			if err := json.Unmarshal(o.Frame, &v); err != nil {
				t.Fatal(err)
			}
			return v.Session
		}
	}
	t.Fatalf("%s never got a lobby view", conn)
	return ""
}
