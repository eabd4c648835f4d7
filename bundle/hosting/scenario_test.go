//go:build !js

package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// table is one scenario's cast.
type table struct {
	e                   *env
	alice, bob, carol   client
	dave                client // spectator
	room                string
	humans              []client
	undone, autoPassed  bool
	reconnected, forged bool
}

// seatUp seats alice, bob and carol and a fox AI at a 4-seat Cheat table
// with undo and a 30-second decision clock, starts the game and has dave
// spectate it.
func seatUp(t *testing.T, e *env, dial func(name string) client) *table {
	tb := &table{e: e, alice: dial("alice"), bob: dial("bob"), carol: dial("carol"), dave: dial("dave")}
	tb.humans = []client{tb.alice, tb.bob, tb.carol}
	for _, c := range append(tb.humans, tb.dave) {
		c.peer().Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	sendCmd(tb.alice, rooms.SetName{Name: "Alice"})
	sendCmd(tb.alice, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, UndoEnabled: true, ActionSeconds: 30}})
	v := tb.alice.peer().Wait("a room", func(k string, b []byte) bool {
		var lv rooms.LobbyView
		return k == rooms.KindLobby && json.Unmarshal(b, &lv) == nil && lv.Room != nil
	})
	var lv rooms.LobbyView
	_ = json.Unmarshal(v, &lv)
	tb.room = lv.Room.RoomID
	for _, c := range []client{tb.bob, tb.carol} {
		sendCmd(c, rooms.JoinRoom{RoomID: tb.room})
		c.peer().Wait("a seat", func(k string, b []byte) bool {
			var lv rooms.LobbyView
			return json.Unmarshal(b, &lv) == nil && lv.Room != nil
		})
	}
	sendCmd(tb.alice, rooms.AddAI{Seat: 3, Kind: "fox"})
	for _, c := range tb.humans {
		sendCmd(c, rooms.Ready{Ready: true})
	}
	for _, c := range tb.humans {
		c.peer().Wait("the game", roomsclient.IsGame)
	}
	sendCmd(tb.dave, rooms.SpectateRoom{RoomID: tb.room})
	tb.dave.peer().Wait("the spectator view", func(k string, _ []byte) bool { return k == rooms.KindSpectator })
	return tb
}

// sync waits until every human and the spectator has seen log sequence seq.
func (tb *table) sync(seq int64) {
	for _, c := range append(tb.humans, tb.dave) {
		c.peer().Wait(fmt.Sprintf("log sequence %d", seq), func(k string, b []byte) bool {
			var v roomsclient.GameView
			_ = json.Unmarshal(b, &v)
			return (k == rooms.KindGame || k == rooms.KindSpectator) && (v.LastSeq() >= seq || v.Result != nil)
		})
	}
}

// actor returns the human with a decision, its view and its first action.
func (tb *table) actor() (client, roomsclient.GameView) {
	for _, c := range tb.humans {
		k, b := c.peer().Latest()
		if k != rooms.KindGame {
			continue
		}
		if v := roomsclient.DecodeGame(b); len(v.ValidActions) > 0 {
			return c, v
		}
	}
	return nil, roomsclient.GameView{}
}

// play plays the game to its end, exercising undo, a reconnect, forged
// and spectator actions and a deadline auto-pass on the way.
func (tb *table) play(t *testing.T, restart func()) {
	e := tb.e
	for step := 0; step < 600; step++ {
		actor, v := tb.actor()
		if actor == nil {
			k, b := tb.alice.peer().Latest()
			if k == rooms.KindGame && roomsclient.DecodeGame(b).Result != nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
			continue
		}
		seq := v.LastSeq()
		e.clock.advance(100 * time.Millisecond) // a human's pace: within the rate limit
		switch step {
		case 3: // undo: alice takes the last transition back
			n := tb.alice.peer().ErrCount()
			sendCmd(tb.alice, rooms.Undo{})
			tb.alice.peer().Wait("undone", func(k string, b []byte) bool {
				return k == rooms.KindGame && roomsclient.DecodeGame(b).LoggedAfter("undone", -1) || tb.alice.peer().ErrCount() > n
			})
			if tb.alice.peer().ErrCount() > n {
				t.Fatalf("undo refused: %+v", tb.alice.peer().LastErr())
			}
			_, b := tb.alice.peer().Latest()
			tb.sync(roomsclient.DecodeGame(b).LastSeq())
			tb.undone = true
			continue
		case 6: // bob's connection drops; he reconnects into his seat
			tb.bob.reconnect()
			tb.bob.peer().Wait("the game after reconnect", roomsclient.IsGame)
			tb.reconnected = true
			continue
		case 9: // forged and spectator actions change nothing
			a := v.ValidActions[0]
			var other client
			for _, c := range tb.humans {
				if c != actor {
					other = c
					break
				}
			}
			n := other.peer().ErrCount()
			sendCmd(other, roomsclient.Answer(a, "forged"))
			other.peer().Wait("a rejection", func(string, []byte) bool { return other.peer().ErrCount() > n })
			sendCmd(tb.dave, roomsclient.Answer(a, "spectator"))
			sendCmd(tb.dave, rooms.Undo{})
			time.Sleep(50 * time.Millisecond)
			if errs := tb.dave.peer().ErrCount(); errs != 0 {
				t.Fatalf("the spectator was answered %d rejections; its frames must be ignored", errs)
			}
			if _, b := actor.peer().Latest(); roomsclient.DecodeGame(b).LastSeq() != seq {
				t.Fatal("a forged or spectator action changed the game")
			}
			tb.forged = true
		case 12: // nobody acts: the clock runs out and the seat auto-passes
			e.clock.advance(31 * time.Second)
			if err := e.h.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			actor.peer().Wait("a timed_out event", func(k string, b []byte) bool {
				return k == rooms.KindGame && roomsclient.DecodeGame(b).LoggedAfter("timed_out", -1)
			})
			_, b := actor.peer().Latest()
			tb.sync(roomsclient.DecodeGame(b).LastSeq())
			tb.autoPassed = true
			continue
		case 15:
			if restart != nil {
				restart()
				continue
			}
		}
		sub := fmt.Sprintf("s%d", step)
		n := actor.peer().ErrCount()
		sendCmd(actor, roomsclient.Answer(roomsclient.Pick(v), sub))
		b := actor.peer().Wait("ack "+sub, func(k string, b []byte) bool {
			v := roomsclient.DecodeGame(b)
			return k == rooms.KindGame && (v.ActionAck != nil && v.ActionAck.Submission == sub || v.Result != nil) ||
				actor.peer().ErrCount() > n
		})
		if actor.peer().ErrCount() > n {
			t.Fatalf("step %d refused: %+v", step, actor.peer().LastErr())
		}
		if ack := roomsclient.DecodeGame(b).ActionAck; ack != nil && ack.Submission == sub && !ack.Accepted {
			t.Fatalf("step %d refused: %+v", step, actor.peer().LastErr())
		}
		tb.sync(roomsclient.DecodeGame(b).LastSeq())
	}
	for _, c := range append(tb.humans, tb.dave) {
		c.peer().Wait("the result", func(k string, b []byte) bool { return roomsclient.DecodeGame(b).Result != nil })
	}
	if !tb.undone || !tb.reconnected || !tb.forged || !tb.autoPassed {
		t.Fatalf("the game ended before the scenario ran: undo %v reconnect %v forged %v auto-pass %v",
			tb.undone, tb.reconnected, tb.forged, tb.autoPassed)
	}
	if e.observed == 0 {
		t.Fatal("no frame observed")
	}
}

// TestFullGame plays the reference game to its end over each transport:
// three humans, a fox AI, a spectator, an undo, a reconnect, forged and
// spectator actions, and a deadline auto-pass on the injected clock.
func TestFullGame(t *testing.T) {
	for _, tc := range []struct {
		name string
		dial func(e *env) func(string) client
	}{
		{name: "websocket", dial: func(e *env) func(string) client {
			return func(n string) client { return dialWS(e, n) }
		}},
		{name: "http", dial: func(e *env) func(string) client {
			return func(n string) client { return dialHTTP(e, n) }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, &MemStore{}, rooms.Limits{})
			tb := seatUp(t, e, tc.dial(e))
			tb.play(t, nil)
			if err := e.checkPersisted(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// checkPersisted reloads the server from the store and compares it with
// the one in memory (clock and rate counters aside).
func (e *env) checkPersisted() error {
	mem, err := e.h.Snapshot()
	if err != nil {
		return err
	}
	h2, err := NewRooms(context.Background(), RoomsConfig{Store: e.store, Registry: cheattest.Registry(e.t), Clock: e.clock.now, KeepWebSockets: true})
	if err != nil {
		return err
	}
	disk, _ := h2.Snapshot()
	if a, b := normalize(e.t, mem), normalize(e.t, disk); !bytes.Equal(a, b) {
		return fmt.Errorf("the store holds a different server:\nmemory %.600s\nstore  %.600s", a, b)
	}
	return nil
}

// normalize drops what a restart may change: the clock and the rate
// counters.
func normalize(t testing.TB, state []byte) []byte {
	return normalizeState(t, state, false)
}

// normalizeState re-encodes a state without its clock and rate counters,
// and without last-seen times when lastSeen.
func normalizeState(t testing.TB, state []byte, lastSeen bool) []byte {
	t.Helper()
	if lastSeen {
		st, err := rooms.DecodeState(state)
		if err != nil {
			t.Fatal(err)
		}
		for _, se := range st.Sessions {
			se.LastSeen = 0
		}
		if state, err = canon.Marshal(st); err != nil {
			t.Fatal(err)
		}
	}
	b, err := rooms.DurableState(state)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRestartMidGame kills the server in the middle of the game (every
// socket cut, the process's memory gone) and starts a new one on the same
// store: the room, its seats and its game resume, WebSocket clients
// reconnect with their session tokens straight into their seats, HTTP
// clients go on polling their persisted mailboxes, and the game is played
// to its end.
func TestRestartMidGame(t *testing.T) {
	for _, tc := range []struct {
		name string
		ws   bool
	}{
		{name: "websocket", ws: true},
		{name: "http", ws: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, &MemStore{}, rooms.Limits{})
			dial := func(n string) client {
				if tc.ws {
					return dialWS(e, n)
				}
				return dialHTTP(e, n)
			}
			tb := seatUp(t, e, dial)
			restarted := false
			tb.play(t, func() {
				_, before := tb.alice.peer().Latest()
				e.kill()
				e.start(rooms.Limits{})
				if tc.ws {
					for _, c := range append(tb.humans, tb.dave) {
						c.reconnect()
					}
					for _, c := range tb.humans {
						c.peer().Wait("the game after the restart", roomsclient.IsGame)
					}
					sendCmd(tb.dave, rooms.SpectateRoom{RoomID: tb.room})
				}
				tb.dave.peer().Wait("the spectator view", func(k string, _ []byte) bool { return k == rooms.KindSpectator })
				_, after := tb.alice.peer().Latest()
				if roomsclient.DecodeGame(after).LastSeq() != roomsclient.DecodeGame(before).LastSeq() {
					t.Fatalf("the game moved across the restart: %d → %d", roomsclient.DecodeGame(before).LastSeq(), roomsclient.DecodeGame(after).LastSeq())
				}
				restarted = true
			})
			if !restarted {
				t.Fatal("the game ended before the restart")
			}
		})
	}
}
