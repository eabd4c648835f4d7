package e2e

import (
	"context"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest/multiplayer"
	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// roomServer serves the built site with the native room server mounted
// beside it, as `bundle serve` does, on 127.0.0.1, and drives the room
// machine's clock. It returns the site's root URL and a function that
// cuts every open WebSocket, as a network failure would.
func roomServer(t *testing.T, withWebSocket bool) (string, func()) {
	t.Helper()
	reg, err := rooms.NewRegistry(cheat.Game{})
	if err != nil {
		t.Fatal(err)
	}
	return roomServerWith(t, reg, withWebSocket)
}

// roomServerWith is roomServer hosting the games of reg; ids, when
// given, supply the host's ids and game seeds (deterministic games).
func roomServerWith(t *testing.T, reg *rooms.Registry, withWebSocket bool, ids ...rooms.IDSource) (string, func()) {
	t.Helper()
	var idSource rooms.IDSource
	if len(ids) > 0 {
		idSource = ids[0]
	}
	ctx, cancel := context.WithCancel(context.Background())
	h, err := hosting.NewRooms(ctx, hosting.RoomsConfig{
		Store: &hosting.MemStore{}, Registry: reg, IDs: idSource,
		Clock: func() int64 { return time.Now().UnixMilli() },
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	api := h.Handler()
	var (
		smu     sync.Mutex
		sockets []context.CancelFunc
	)
	ws := h.WebSocketHandler(hosting.WSOptions{})
	cut := func() {
		smu.Lock()
		defer smu.Unlock()
		for _, c := range sockets {
			c()
		}
		sockets = nil
	}
	// The room API's exact routes, not "/rooms/": /rooms/ itself is the
	// lobby page of the built site.
	mounts := []site.Mount{
		{Pattern: "POST /rooms/command", Handler: api},
		{Pattern: "GET /rooms/view", Handler: api},
	}
	if withWebSocket {
		mounts = append(mounts, site.Mount{Pattern: "GET /rooms/ws", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithCancel(r.Context())
			smu.Lock()
			sockets = append(sockets, cancel)
			smu.Unlock()
			ws.ServeHTTP(w, r.WithContext(ctx))
		})})
	}
	handler := site.Handler(os.DirFS(suite.dist), mounts...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() { _ = srv.Serve(ln) }()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				_ = h.Tick(ctx)
			}
		}
	}()
	t.Cleanup(func() {
		cancel() // ends the tick loop and every socket's request context
		_ = srv.Close()
		wg.Wait()
	})
	return "http://" + ln.Addr().String() + "/", cut
}

// TestRoomsCheat plays Cheat through the lobby and room pages over the
// WebSocket (multiplayer.PlayCheat): two players meet in a room with an AI
// seat, a third watches over the HTTP fallback, one reloads mid-game, the
// server cuts both players' sockets, and the game is played to its end.
// bundle/edge plays the same scenario against the edge worker.
func TestRoomsCheat(t *testing.T) {
	need(t)
	base, cut := roomServer(t, true)
	multiplayer.PlayCheat(t, suite.b, multiplayer.CheatOptions{Base: base, Transport: "ws", Cut: cut})
}

// TestRoomsHTTPFallback opens the lobby on a server without the WebSocket
// route: the page falls back to the HTTP API by itself, keeps its session
// across a reload (going straight to HTTP this time), and plays the lobby
// over it.
func TestRoomsHTTPFallback(t *testing.T) {
	need(t)
	base, _ := roomServer(t, false)
	// The browser reports the refused WebSocket handshake itself.
	p := multiplayer.NewTab(t, suite.b, "solo", base, multiplayer.WebSocketRefused...)
	p.OpenRooms("rooms/")
	p.Connected("http")
	p.WaitFor(`document.getElementById("c-seats") !== null`, 10*time.Second)
	p.Click(`[data-key="c-create"]`)
	p.WaitFor(`!document.getElementById("room").hidden`, 10*time.Second)
	you := multiplayer.Eval[string](p, `window.storyloomRooms.lobby.you`)
	room := multiplayer.Eval[string](p, `window.storyloomRooms.lobby.room.room_id`)
	// The reload goes straight to HTTP: the tab remembers the host has
	// no WebSocket.
	p.CountSockets()
	p.Do(chromedp.Reload())
	p.WaitFor(`document.documentElement.dataset.storyloom === "ready"`, 30*time.Second)
	p.WaitFor(`window.storyloomRooms.transport === "http" && window.storyloomRooms.lobby?.room != null`, 20*time.Second)
	if got := multiplayer.Eval[string](p, `window.storyloomRooms.lobby.you`); got != you {
		t.Errorf("after a reload the page is %q, want %q", got, you)
	}
	if got := multiplayer.Eval[string](p, `window.storyloomRooms.lobby.room.room_id`); got != room {
		t.Errorf("after a reload the page is in room %q, want %q", got, room)
	}
	if n := p.SocketsTried(); n != 0 {
		t.Errorf("after a reload the page tried %d WebSockets again", n)
	}
	p.Click("#leave")
	p.WaitFor(`document.getElementById("room").hidden`, 10*time.Second)
}
