//go:build !js

package hosting

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// TestWebSocketChecksHost dials the socket over loopback with the Host and
// Origin headers a DNS-rebinding page would send (both naming the
// attacker's host, so the Origin check alone passes them) and checks it is
// refused 403 before the upgrade, while the loopback names and a host the
// server is configured for connect.
func TestWebSocketChecksHost(t *testing.T) {
	h, err := NewRooms(context.Background(), RoomsConfig{Store: &MemStore{}, Registry: cheattest.Registry(t), Limits: rooms.DefaultLimits(), Clock: newTestClock().now})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/default/ws", h.WebSocketHandler(WSOptions{}))
	mux.Handle("/named/ws", h.WebSocketHandler(WSOptions{Hosts: []string{"play.example"}}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	tests := []struct {
		name, path, host, origin string
		ok                       bool
	}{
		{"a loopback IP", "/default/ws", "127.0.0.1:" + port, "http://127.0.0.1:" + port, true},
		{"localhost", "/default/ws", "localhost:" + port, "http://localhost:" + port, true},
		{"IPv6 loopback", "/default/ws", "[::1]:" + port, "", true},
		{"no Origin (not a browser)", "/default/ws", "127.0.0.1:" + port, "", true},
		{"a rebound name", "/default/ws", "evil.example:" + port, "http://evil.example:" + port, false},
		{"a name ending in localhost", "/default/ws", "localhost.evil.example:" + port, "http://localhost.evil.example:" + port, false},
		{"a configured host", "/named/ws", "PLAY.example:" + port, "http://play.example:" + port, true},
		{"loopback where a host is configured", "/named/ws", "127.0.0.1:" + port, "", false},
		{"a cross-origin page on the right host", "/default/ws", "127.0.0.1:" + port, "http://evil.example", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hdr := http.Header{}
			if tc.origin != "" {
				hdr.Set("Origin", tc.origin)
			}
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+tc.path, &websocket.DialOptions{Host: tc.host, HTTPHeader: hdr})
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				_ = c.CloseNow()
				return
			}
			if err == nil {
				_ = c.CloseNow()
				t.Fatal("connected, want 403")
			}
			if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("err %v resp %v, want 403", err, resp)
			}
		})
	}
}

// TestWebSocketPingsFreeAVanishedPeer connects a client that never reads,
// so it answers no ping, and checks the server closes its socket and
// drops its connection; a client that reads stays.
func TestWebSocketPingsFreeAVanishedPeer(t *testing.T) {
	h, err := NewRooms(context.Background(), RoomsConfig{Store: &MemStore{}, Registry: cheattest.Registry(t), Limits: rooms.DefaultLimits(), Clock: newTestClock().now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.WebSocketHandler(WSOptions{PingInterval: 100 * time.Millisecond}))
	defer srv.Close()
	attached := func() int {
		h.smu.Lock()
		defer h.smu.Unlock()
		return len(h.sinks)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	live, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.CloseNow()
	go func() { // reads, and so answers pings
		for {
			if _, _, err := live.Read(ctx); err != nil {
				return
			}
		}
	}()
	silent, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.CloseNow()
	waitFor(t, "both sockets attached", func() bool { return attached() == 2 })
	waitFor(t, "the silent socket dropped", func() bool { return attached() == 1 })
	if err := live.Ping(ctx); err != nil {
		t.Fatalf("the reading socket was dropped too: %v", err)
	}
}

// waitFor polls cond until it holds, failing after waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", waitLimit, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
