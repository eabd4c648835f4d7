//go:build !js

package hosting

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// TestLimits sends what a server must refuse, over each transport, and
// checks the rejection code and that the connection and its room go on.
func TestLimits(t *testing.T) {
	big := []byte(`{"type":"set_name","name":"` + strings.Repeat("x", rooms.MaxFrameBytes) + `"}`)
	cases := []struct {
		name string
		ws   bool
		lim  rooms.Limits
		run  func(t *testing.T, e *env, c client)
		code string
	}{
		{name: "oversized frame over WebSocket", ws: true, code: rooms.CodeFrameTooLarge,
			run: func(t *testing.T, e *env, c client) { c.send(big) }},
		{name: "oversized frame over HTTP", code: rooms.CodeFrameTooLarge,
			run: func(t *testing.T, e *env, c client) {
				status, body := c.(*httpClient).post(big)
				if status != http.StatusRequestEntityTooLarge {
					t.Fatalf("status %d, want 413", status)
				}
				c.(*httpClient).absorb(status, body)
			}},
		{name: "malformed frame", ws: true, code: rooms.CodeMalformedFrame,
			run: func(t *testing.T, e *env, c client) { c.send([]byte(`{"type":`)) }},
		{name: "malformed frame over HTTP", code: rooms.CodeMalformedFrame,
			run: func(t *testing.T, e *env, c client) { c.send([]byte(`[1,2,3]`)) }},
		{name: "unknown command", ws: true, code: rooms.CodeUnknownCommand,
			run: func(t *testing.T, e *env, c client) { c.send([]byte(`{"type":"mint_gold"}`)) }},
		{name: "flood over WebSocket", ws: true, lim: rooms.Limits{CommandsPerSecond: 5}, code: rooms.CodeRateLimited,
			run: func(t *testing.T, e *env, c client) {
				for range 8 {
					c.send([]byte(`{"type":"hello"}`))
				}
			}},
		{name: "flood over HTTP", lim: rooms.Limits{CommandsPerSecond: 5}, code: rooms.CodeRateLimited,
			run: func(t *testing.T, e *env, c client) {
				last := 0
				for range 8 {
					status, body := c.(*httpClient).post([]byte(`{"type":"hello"}`))
					c.(*httpClient).absorb(status, body)
					last = status
				}
				if last != http.StatusTooManyRequests {
					t.Fatalf("status %d, want 429", last)
				}
			}},
		{name: "too many rooms", ws: true, lim: rooms.Limits{MaxRooms: 1}, code: rooms.CodeTooManyRooms,
			run: func(t *testing.T, e *env, c client) {
				other := dialWS(e, "other")
				other.p.Wait("a lobby", func(k string, _ []byte) bool { return k == rooms.KindLobby })
				sendCmd(other, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
				other.p.Wait("its room", func(_ string, b []byte) bool { return bytes.Contains(b, []byte(`"room"`)) })
				sendCmd(c, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, &MemStore{}, tc.lim)
			var c client
			if tc.ws {
				c = dialWS(e, "client")
			} else {
				c = dialHTTP(e, "client")
			}
			p := c.peer()
			p.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
			before, _ := e.h.Snapshot()
			n := p.ErrCount()
			tc.run(t, e, c)
			deadline := time.Now().Add(waitLimit)
			for p.ErrCount() == n && time.Now().Before(deadline) {
				time.Sleep(2 * time.Millisecond)
			}
			found := false
			errs := p.ErrsSince(n)
			for _, r := range errs {
				found = found || r.Code == tc.code
			}
			if !found {
				t.Fatalf("rejections %+v, want %s", errs, tc.code)
			}
			if tc.name != "too many rooms" {
				after, _ := e.h.Snapshot()
				if !bytes.Equal(normalize(t, before), normalize(t, after)) {
					t.Fatal("a refused frame changed the server")
				}
			}
			// The connection goes on: a second later it is answered again.
			e.clock.advance(time.Second)
			m := p.Frames()
			sendCmd(c, rooms.SetName{Name: "Still here"})
			p.Wait("the name", func(k string, b []byte) bool {
				var v rooms.LobbyView
				return k == rooms.KindLobby && json.Unmarshal(b, &v) == nil && v.Name == "Still here"
			})
			if p.Frames() <= m {
				t.Fatal("no frame after the refusal")
			}
		})
	}
}

// TestTooManyConnections fills the server: the next WebSocket is refused
// with too_many_connections and closed, the next HTTP client gets 503,
// and the connections already open go on.
func TestTooManyConnections(t *testing.T) {
	e := newEnv(t, &MemStore{}, rooms.Limits{MaxConnections: 2})
	a, b := dialWS(e, "a"), dialHTTP(e, "b")
	for _, c := range []client{a, b} {
		c.peer().Wait("a lobby", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	c := dialWS(e, "c")
	c.p.WaitErr(0, rooms.CodeTooManyConnections)
	select {
	case <-c.done:
	case <-time.After(waitLimit):
		t.Fatal("the refused socket stayed open")
	}
	d := &httpClient{p: newPeer(e, "d")}
	d.token.Store("")
	if status, body := d.post([]byte(`{"type":"hello"}`)); status != http.StatusServiceUnavailable ||
		!bytes.Contains(body, []byte(rooms.CodeTooManyConnections)) {
		t.Fatalf("status %d %s, want 503 too_many_connections", status, body)
	}
	sendCmd(a, rooms.SetName{Name: "Ana"})
	a.p.Wait("the name", func(_ string, v []byte) bool { return bytes.Contains(v, []byte(`"Ana"`)) })
}
