package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strings"
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
	return roomServerMounting(t, reg, withWebSocket, nil, ids...)
}

// roomServerMounting is roomServerWith with more handlers mounted beside
// the room server's (Freeport's, for a test of every online page).
func roomServerMounting(t *testing.T, reg *rooms.Registry, withWebSocket bool, more []site.Mount, ids ...rooms.IDSource) (string, func()) {
	t.Helper()
	base, cut, _ := roomHost(t, reg, withWebSocket, more, ids...)
	return base, cut
}

// roomHost is roomServerMounting that also returns the room host, whose
// state a test may read.
func roomHost(t *testing.T, reg *rooms.Registry, withWebSocket bool, more []site.Mount, ids ...rooms.IDSource) (string, func(), *hosting.Rooms) {
	t.Helper()
	var idSource rooms.IDSource
	if len(ids) > 0 {
		idSource = ids[0]
	}
	return roomHostOf(t, hosting.RoomsConfig{Registry: reg, IDs: idSource}, withWebSocket, more)
}

// roomHostOf is roomHost with the room server configured by cfg, on a
// store of its own and the wall clock.
func roomHostOf(t *testing.T, cfg hosting.RoomsConfig, withWebSocket bool, more []site.Mount) (string, func(), *hosting.Rooms) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Store, cfg.Clock = &hosting.MemStore{}, func() int64 { return time.Now().UnixMilli() }
	h, err := hosting.NewRooms(ctx, cfg)
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
	handler := site.Handler(os.DirFS(suite.dist), append(mounts, more...)...)
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
	return "http://" + ln.Addr().String() + "/", cut, h
}

// TestRoomsCheat plays Cheat through the lobby and room pages over the
// WebSocket (multiplayer.PlayCheat): two players meet in a room with an AI
// seat, a third watches over the HTTP fallback, one reloads mid-game, the
// server cuts both players' sockets, and the game is played to its end.
// bundle/edge plays the same scenario against the edge worker.
func TestRoomsCheat(t *testing.T) {
	t.Parallel()
	need(t)
	base, cut := roomServer(t, true)
	multiplayer.PlayCheat(t, suite.b, multiplayer.CheatOptions{Base: base, Transport: "ws", Cut: cut})
}

// TestRoomsHTTPFallback opens the lobby on a server without the WebSocket
// route: the page falls back to the HTTP API by itself, keeps its session
// across a reload (going straight to HTTP this time), and plays the lobby
// over it.
func TestRoomsHTTPFallback(t *testing.T) {
	t.Parallel()
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

// postRooms posts one command frame to the rooms HTTP API as the session
// bearer (none: a new connection) and returns the session it holds.
func postRooms(t *testing.T, base, bearer, frame string) string {
	t.Helper()
	return postRoomsAnswer(t, base, bearer, frame).Session
}

// postRoomsAnswer is postRooms returning the whole answer.
func postRoomsAnswer(t *testing.T, base, bearer, frame string) hosting.RoomsResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"rooms/command", strings.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r hosting.RoomsResponse
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %v", frame, resp.StatusCode, err)
	}
	return r
}

// TestRoomsDirectoryPages opens the lobby on a server with more public
// rooms than one page of the directory holds: the page shows the first
// page, browses forward and back, and when the rooms of the page it
// shows close it steps back to one that has rooms.
func TestRoomsDirectoryPages(t *testing.T) {
	t.Parallel()
	need(t)
	base, _ := roomServer(t, true)
	n := 2*rooms.DirectoryPageSize + 1
	hosts := make([]string, n)
	for i := range hosts {
		hosts[i] = postRooms(t, base, "", fmt.Sprintf(`{"type":"create_room","config":{"seats":3,"game_setup":"cheat","name":"Table %d"}}`, i+1))
	}
	p := multiplayer.NewTab(t, suite.b, "browser", base)
	p.OpenRooms("rooms/")
	p.Connected("ws")
	rows := `document.querySelectorAll("#directory .dir-room")`
	shows := func(count int, first, page string) string {
		return fmt.Sprintf(`%s.length === %d && %s[0].textContent.includes(%q) && document.getElementById("dir-page").textContent === %q`,
			rows, count, rows, first, page)
	}
	p.WaitFor(shows(rooms.DirectoryPageSize, "Table 1", "Page 1")+` && !document.querySelector('[data-key="dir-later"]').disabled`, 10*time.Second)
	p.Click(`[data-key="dir-later"]`)
	p.WaitFor(shows(rooms.DirectoryPageSize, "Table 21", "Page 2"), 10*time.Second)
	p.Click(`[data-key="dir-later"]`)
	p.WaitFor(shows(1, "Table 41", "Page 3")+` && document.querySelector('[data-key="dir-later"]').disabled`, 10*time.Second)
	// The last page's only room closes: the page steps back to page 2.
	postRooms(t, base, hosts[n-1], `{"type":"leave"}`)
	p.WaitFor(shows(rooms.DirectoryPageSize, "Table 21", "Page 2"), 10*time.Second)
	p.Click(`[data-key="dir-earlier"]`)
	p.WaitFor(shows(rooms.DirectoryPageSize, "Table 1", "Page 1")+` && document.querySelector('[data-key="dir-earlier"]').disabled`, 10*time.Second)
	// A seat taken on the page shown is seen there.
	postRooms(t, base, "", fmt.Sprintf(`{"type":"join_room","room_id":%q}`, multiplayer.Eval[string](p, `window.storyloomRooms.lobby.directory[0].room_id`)))
	p.WaitFor(rows+`[0].textContent.includes("2 of 3 seated")`, 10*time.Second)
}

// TestRoomsLostLongPoll puts a lossy middlebox between the page and a
// server without WebSockets: it swallows the page's first long-poll, which
// then never gets an answer, as a proxy that drops a held request or a
// network that sleeps would. The page must take the poll for lost once it
// is overdue, ask again, and so still show a room that opens meanwhile.
func TestRoomsLostLongPoll(t *testing.T) {
	t.Parallel()
	need(t)
	base, _ := roomServer(t, false)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	forward := httputil.NewSingleHostReverseProxy(target)
	swallowed := make(chan struct{})
	var once sync.Once
	lossy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rooms/view" && r.URL.Query().Get("wait") != "" {
			lost := false
			once.Do(func() { lost = true })
			if lost {
				close(swallowed)
				<-r.Context().Done() // no answer, ever: the page gives up on it
				return
			}
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(lossy.Close)

	p := multiplayer.NewTab(t, suite.b, "solo", lossy.URL+"/", multiplayer.WebSocketRefused...)
	p.OpenRooms("rooms/")
	p.Connected("http")
	select {
	case <-swallowed:
	case <-time.After(time.Minute):
		t.Fatal("the page never long-polled")
	}
	postRooms(t, base, "", `{"type":"create_room","config":{"seats":3,"game_setup":"cheat","name":"Opened meanwhile"}}`)
	// The lost poll is overdue 30 s after it was sent (its 20 s wait and a
	// 10 s grace); the next one brings the room at once.
	p.WaitFor(`document.getElementById("directory").textContent.includes("Opened meanwhile")`, 50*time.Second)
}

// releasedRoom is a lobby that hands its games off, with one game
// running, and the room's server of that game, which the hand-off never
// reaches (as at the edge once the room is released, or before its
// hand-off): it answers unknown_room, no session and the move back to the
// lobby. front serves both, the room's server for ?room=<id>, and logs
// the page's requests to the room API.
type releasedRoom struct {
	front string // the site's root URL
	id    string // the game's room
	mu    sync.Mutex
	seen  []string // the page's requests to the room API, in order
	// While away is set, the lobby answers the page's first look at it
	// (GET view?after=0 with its session) with the move to the game's
	// server, as a lobby answers a seated player whose game it handed off
	// and takes for running.
	away bool
}

// newReleasedRoom starts a releasedRoom.
func newReleasedRoom(t *testing.T) *releasedRoom {
	t.Helper()
	reg, err := rooms.NewRegistry(cheat.Game{})
	if err != nil {
		t.Fatal(err)
	}
	base, _, _ := roomHostOf(t, hosting.RoomsConfig{Registry: reg, HandOff: true}, false, nil)
	ada := postRoomsAnswer(t, base, "", `{"type":"create_room","config":{"seats":2,"game_setup":"cheat","name":"Released"}}`)
	var lv rooms.LobbyView
	if len(ada.Frames) == 0 || json.Unmarshal(ada.Frames[len(ada.Frames)-1].Frame, &lv) != nil || lv.Room == nil {
		t.Fatalf("creating the room answered %+v", ada)
	}
	rr := &releasedRoom{id: lv.Room.RoomID}
	bo := postRooms(t, base, "", fmt.Sprintf(`{"type":"join_room","room_id":%q}`, rr.id))
	postRooms(t, base, ada.Session, `{"type":"ready","ready":true}`)
	postRooms(t, base, bo, `{"type":"ready","ready":true}`)
	// The room's server, which the lobby's hand-off never reaches.
	roomSrv, err := hosting.NewRooms(t.Context(), hosting.RoomsConfig{
		Store: &hosting.MemStore{}, Registry: reg, Room: rr.id, SoleWriter: true,
		Clock: func() int64 { return time.Now().UnixMilli() },
	})
	if err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	lobby := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/rooms/command") || strings.HasPrefix(r.URL.Path, "/rooms/view") {
			q := r.URL.Query()
			at := "lobby"
			if q.Has("room") {
				at = "room"
			}
			req := r.Method + " " + at
			if r.Method == http.MethodGet && !q.Has("wait") {
				req += " held?" // a connection's first look at the server
			}
			rr.mu.Lock()
			rr.seen = append(rr.seen, req)
			away := rr.away
			rr.mu.Unlock()
			switch {
			case at == "room":
				roomSrv.Handler().ServeHTTP(w, r)
				return
			case away && req == "GET lobby held?":
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(hosting.RoomsResponse{Frames: []hosting.MailFrame{}, Move: rooms.MoveRoom(rr.id)})
				return
			}
		}
		lobby.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	rr.front = front.URL
	return rr
}

// requests returns the page's requests to the room API so far.
func (rr *releasedRoom) requests() []string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return append([]string(nil), rr.seen...)
}

// setAway sets whether the lobby sends the page to the game's server.
func (rr *releasedRoom) setAway(away bool) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.away = away
}

// watchConnStates has page p record every state its connection reports
// from now on in window.connStates.
func watchConnStates(p *multiplayer.Tab) {
	multiplayer.Eval[bool](p, `(() => {
		const pill = document.getElementById("conn");
		window.connStates = [];
		new MutationObserver(() => window.connStates.push(pill.dataset.state)).observe(pill, { attributeFilter: ["data-state"] });
		return true;
	})()`)
}

// TestRoomsWatchReleasedRoom watches, over HTTP, a game whose room's
// server no longer holds it (a releasedRoom): the lobby moves the page
// there, and that server moves it back. The page must follow the move
// with exactly one new connection to the lobby, and schedule no
// reconnect besides.
func TestRoomsWatchReleasedRoom(t *testing.T) {
	t.Parallel()
	need(t)
	rr := newReleasedRoom(t)
	id := rr.id

	// Back from the room's server, the page first asks the lobby whether
	// an HTTP connection still holds its session: none does (the lobby let
	// it go when it moved it), and the browser logs that 404 itself.
	p := multiplayer.NewTab(t, suite.b, "watcher", rr.front+"/", "/rooms/view?after=0")
	p.OpenRooms("rooms/?transport=http")
	p.Connected("http")
	watchConnStates(p)
	p.Click(fmt.Sprintf(`[data-key="watch-%s"]`, id))
	p.WaitFor(`window.connStates.length > 0 && window.storyloomRooms.lobby !== null && document.getElementById("conn").dataset.state === "open"`, 20*time.Second)
	// In the lobby again and long-polling there; a second connection would
	// have been due within its first backoff (at most 0.5 s).
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := rr.requests()
		if i := slices.Index(got, "POST room"); i >= 0 && slices.Contains(got[i:], "GET lobby") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never long-polled the lobby after the room's server moved it there: %q", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond)
	got := rr.requests()
	after := got[slices.Index(got, "POST room")+1:]
	if len(after) == 0 || after[0] != "GET lobby held?" || slices.Contains(after[1:], "GET lobby held?") || slices.Contains(after, "POST room") {
		t.Errorf("after the room's server moved it to the lobby the page requested %q, want one connection to the lobby", after)
	}
	if states := multiplayer.Eval[[]string](p, `window.connStates`); slices.Contains(states, "waiting") {
		t.Errorf("the page scheduled a reconnect besides following the move: states %q", states)
	}
}

// TestRoomsBounceBacksOff has the lobby keep sending the page, over HTTP,
// to the game's server of a releasedRoom, which keeps sending it back.
// Each server's first answer to a page with a session (GET view?after=0)
// carries the move, and the page must follow it at once, with no command
// or long-poll there; from the second move in a row straight back to the
// server it came from, it must wait the reconnect backoff, growing, and
// show "waiting". Once the lobby stops, the page must land there.
func TestRoomsBounceBacksOff(t *testing.T) {
	t.Parallel()
	need(t)
	rr := newReleasedRoom(t)
	p := multiplayer.NewTab(t, suite.b, "bounced", rr.front+"/", "/rooms/view?after=0")
	p.OpenRooms("rooms/?transport=http")
	p.Connected("http")
	watchConnStates(p)
	rr.setAway(true)
	start := len(rr.requests())
	p.Click(fmt.Sprintf(`[data-key="watch-%s"]`, rr.id))

	// The first moves: to the room's server to watch (a POST there),
	// back to the lobby at once (a first bounce), which sends the page on
	// to the room's server again after 0.3-0.5 s.
	deadline := time.Now().Add(20 * time.Second)
	for !slices.Contains(rr.requests()[start:], "GET room held?") {
		if time.Now().After(deadline) {
			t.Fatalf("the page never came back to the game's server: %q", rr.requests()[start:])
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Each leg is one request, as each server's first answer moves the
	// page on. At full speed the page would make hundreds in a few
	// seconds; with the backoff growing (0.6-1 s, 1.2-2 s, 2.4-4 s, 4.8-8 s
	// next) one to three come in six seconds.
	mark := len(rr.requests())
	time.Sleep(6 * time.Second)
	all := rr.requests()
	if n := len(all) - mark; n < 1 || n > 3 {
		t.Errorf("%d requests in 6 s while bounced, want 1 to 3 (the backoff); the first: %q", n, all[start:min(len(all), start+12)])
	}
	for _, req := range all[slices.Index(all[start:], "POST room")+start+1:] {
		if req != "GET lobby held?" && req != "GET room held?" {
			t.Errorf("while bounced the page requested %q: only a first look at each server was due (%q)", req, all[start:])
			break
		}
	}
	if states := multiplayer.Eval[[]string](p, `window.connStates`); !slices.Contains(states, "waiting") {
		t.Errorf("the page never showed it was waiting between bounces: states %q", states)
	}

	// The lobby stops: the page lands there and long-polls it.
	rr.setAway(false)
	stop := len(rr.requests())
	p.WaitFor(`window.storyloomRooms.lobby !== null && document.getElementById("conn").dataset.state === "open"`, 60*time.Second)
	deadline = time.Now().Add(60 * time.Second)
	for !slices.Contains(rr.requests()[stop:], "GET lobby") {
		if time.Now().After(deadline) {
			t.Fatalf("the page never long-polled the lobby once it stopped moving it: %q", rr.requests()[stop:])
		}
		time.Sleep(50 * time.Millisecond)
	}
}
