//go:build !js

package hosting

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// sessionsServer serves h's WebSocket at /rooms/ws and its HTTP API on
// 127.0.0.1.
func sessionsServer(t *testing.T, h *Rooms) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET /rooms/ws", h.WebSocketHandler(WSOptions{}))
	mux.Handle("/", h.Handler())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestSessionsPerAddressAreRateLimited opens connections from one address
// over real sockets past RoomsConfig.SessionsPerMinute: the next
// WebSocket is refused 429 before its upgrade and the next HTTP
// connection 429 rate_limited, both with Retry-After, until the minute
// turns.
func TestSessionsPerAddressAreRateLimited(t *testing.T) {
	clock := newTestClock()
	h, err := NewRooms(context.Background(), RoomsConfig{Store: &MemStore{}, Registry: cheattest.Registry(t), Clock: clock.now, SessionsPerMinute: 3})
	if err != nil {
		t.Fatal(err)
	}
	srv := sessionsServer(t, h)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/rooms/ws"
	dial := func() (*websocket.Conn, *http.Response, error) {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		return websocket.Dial(ctx, wsURL, nil)
	}
	for i := range 3 {
		c, _, err := dial()
		if err != nil {
			t.Fatalf("connection %d refused: %v", i, err)
		}
		c.CloseNow()
	}
	_, resp, err := dial()
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a fourth WebSocket in the minute: %v %+v, want 429 with Retry-After", err, resp)
	}
	post, err := http.Post(srv.URL+"/rooms/command", "application/json", strings.NewReader(`{"type":"hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	var r RoomsResponse
	_ = json.NewDecoder(post.Body).Decode(&r)
	post.Body.Close()
	if post.StatusCode != http.StatusTooManyRequests || len(r.Frames) != 1 || !strings.Contains(string(r.Frames[0].Frame), rooms.CodeRateLimited) {
		t.Fatalf("a new HTTP connection over the limit: %d %+v, want 429 rate_limited", post.StatusCode, r)
	}
	clock.advance(time.Minute)
	c, _, err := dial()
	if err != nil {
		t.Fatalf("refused in the next minute: %v", err)
	}
	c.CloseNow()
}

// TestSeatlessSessionsPerAddressOverSockets plays the probe's exhaustion
// over real WebSockets from 127.0.0.1 (open, set_name, close, again):
// the server keeps at most rooms.SeatlessPerClient of that address's
// seatless sessions, the newest, and a newcomer still connects.
func TestSeatlessSessionsPerAddressOverSockets(t *testing.T) {
	clock := newTestClock()
	h, err := NewRooms(context.Background(), RoomsConfig{Store: &MemStore{}, Registry: cheattest.Registry(t), Clock: clock.now, SessionsPerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := sessionsServer(t, h)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/rooms/ws"
	seatless := func() map[string]bool {
		b, err := h.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		st, err := rooms.DecodeState(b)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, se := range st.Sessions {
			if se.Client == "127.0.0.1" && se.Conn == "" && se.Room == "" {
				names[se.Name] = true
			}
		}
		return names
	}
	const cycles = 3 * rooms.SeatlessPerClient
	for i := range cycles {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		c, _, err := websocket.Dial(ctx, wsURL, nil)
		if err != nil {
			cancel()
			t.Fatalf("cycle %d refused: %v", i, err)
		}
		if _, _, err := c.Read(ctx); err != nil { // the fresh session's lobby view
			t.Fatal(err)
		}
		name := fmt.Sprint("Flood ", i)
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"set_name","name":"`+name+`"}`)); err != nil {
			t.Fatal(err)
		}
		for { // until the view carries the name
			_, b, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("cycle %d: %v", i, err)
			}
			if strings.Contains(string(b), `"name":"`+name+`"`) {
				break
			}
		}
		// The clock moves before the close, so each session's disconnect
		// is stamped a second after the previous one's: advanced after
		// it, a disconnect the server handles late shares its stamp with
		// the next session's and the tie falls to the random token.
		clock.advance(time.Second)
		c.Close(websocket.StatusNormalClosure, "")
		cancel()
		deadline := time.Now().Add(waitLimit)
		for !seatless()[name] {
			if time.Now().After(deadline) {
				t.Fatalf("cycle %d: the closed session was never released to the held ones", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	kept := seatless()
	if len(kept) != rooms.SeatlessPerClient {
		t.Fatalf("127.0.0.1 keeps %d seatless sessions %v, want %d", len(kept), kept, rooms.SeatlessPerClient)
	}
	for i := cycles - rooms.SeatlessPerClient; i < cycles; i++ {
		if !kept[fmt.Sprint("Flood ", i)] {
			t.Fatalf("kept %v, not the newest", kept)
		}
	}
}
