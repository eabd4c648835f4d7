//go:build !js

package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// handOffHost is a room server with a sink on every connection, collecting
// its frames.
type handOffHost struct {
	t     *testing.T
	h     *Rooms
	clock *testClock
	got   map[string][]rooms.Outbound
}

func newHandOffHost(t *testing.T, store Store, cfg RoomsConfig) *handOffHost {
	t.Helper()
	clock := newTestClock()
	cfg.Store, cfg.Registry, cfg.Clock = store, cheattest.Registry(t), clock.now
	cfg.IDs = &rooms.DerivedIDs{Secret: cfg.Name + cfg.Room}
	h, err := NewRooms(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &handOffHost{t: t, h: h, clock: clock, got: map[string][]rooms.Outbound{}}
}

func (x *handOffHost) do(in rooms.Input) {
	x.t.Helper()
	if in.Kind == rooms.InputConnect {
		x.h.Attach(in.Conn, func(o rooms.Outbound) { x.got[in.Conn] = append(x.got[in.Conn], o) })
	}
	if _, err := x.h.Do(context.Background(), []rooms.Input{in}); err != nil {
		x.t.Fatal(err)
	}
}

func (x *handOffHost) send(conn string, c rooms.Command) {
	x.t.Helper()
	b, err := rooms.EncodeCommand(c)
	if err != nil {
		x.t.Fatal(err)
	}
	x.do(rooms.Input{Kind: rooms.InputFrame, Conn: conn, Frame: b})
}

// last returns conn's last frame.
func (x *handOffHost) last(conn string) rooms.Outbound {
	x.t.Helper()
	fs := x.got[conn]
	if len(fs) == 0 {
		x.t.Fatalf("%s got no frame", conn)
	}
	return fs[len(fs)-1]
}

// startHandedOff starts a two-seat game (w:a and w:b seated, w:c in the
// lobby) in a lobby in hand-off mode, and returns the lobby, the room's id
// and the seated tokens.
func startHandedOff(t *testing.T) (*handOffHost, string, [2]string) {
	t.Helper()
	lobby := newHandOffHost(t, &MemStore{}, RoomsConfig{HandOff: true})
	var toks [2]string
	var lv rooms.LobbyView
	for i, c := range []string{"w:a", "w:b", "w:c"} {
		lobby.do(rooms.Input{Kind: rooms.InputConnect, Conn: c})
		if i < len(toks) {
			_ = json.Unmarshal(lobby.last(c).Frame, &lv)
			toks[i] = lv.Session
		}
	}
	lobby.send("w:a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
	_ = json.Unmarshal(lobby.last("w:a").Frame, &lv)
	id := lv.Room.RoomID
	lobby.send("w:b", rooms.JoinRoom{RoomID: id})
	lobby.send("w:a", rooms.Ready{Ready: true})
	lobby.send("w:b", rooms.Ready{Ready: true})
	if o := lobby.last("w:a"); o.Kind != rooms.KindMove || o.Move != rooms.MoveRoom(id) {
		t.Fatalf("a's last frame from the lobby: %+v, want a move to the room", o)
	}
	return lobby, id, toks
}

// wantWake fails unless x's next wake is at (none when !ok).
func (x *handOffHost) wantWake(what string, at int64, ok bool) {
	x.t.Helper()
	if got, gotOK := x.h.NextWake(); got != at || gotOK != ok {
		x.t.Fatalf("%s: next wake %d (%v), want %d (%v)", what, got, gotOK, at, ok)
	}
}

// TestRoomsHandOff runs a lobby and a room's server as the edge worker's
// objects do, each on a store of its own: the lobby's hand-off is adopted
// (once, however often it is delivered), the room's server survives a
// restart with the game, and its report reaches the lobby's directory.
func TestRoomsHandOff(t *testing.T) {
	ctx := context.Background()
	lobby, id, toks := startHandedOff(t)
	tokA := toks[0]
	var lv rooms.LobbyView

	// Over HTTP, a hello with a token seated in the room is answered with
	// the move.
	hello, _ := rooms.EncodeCommand(rooms.Hello{Token: tokA})
	req := httptest.NewRequest(http.MethodPost, "/rooms/command", bytes.NewReader(hello))
	req.Header.Set("Authorization", "Bearer "+tokA)
	w := httptest.NewRecorder()
	lobby.h.Handler().ServeHTTP(w, req)
	var resp RoomsResponse
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || w.Code != http.StatusOK || resp.Move != rooms.MoveRoom(id) {
		t.Fatalf("HTTP hello in the lobby: %d %s, want a move to the room", w.Code, w.Body)
	}
	req = httptest.NewRequest(http.MethodGet, "/rooms/view?after=0", nil)
	req.Header.Set("Authorization", "Bearer "+tokA)
	w = httptest.NewRecorder()
	lobby.h.Handler().ServeHTTP(w, req)
	resp = RoomsResponse{}
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || w.Code != http.StatusOK || resp.Move != rooms.MoveRoom(id) {
		t.Fatalf("HTTP view in the lobby: %d %s, want a move to the room", w.Code, w.Body)
	}

	roomStore := &MemStore{}
	cfg := RoomsConfig{Name: "room:" + id, Room: id, SoleWriter: true}
	room := newHandOffHost(t, roomStore, cfg)
	rec := lobby.h.HandOffs()[id]
	if rec == nil {
		t.Fatal("no hand-off pending")
	}
	for range 2 { // delivered twice: adopted once
		if err := room.h.Adopt(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	lobby.do(rooms.Input{Kind: rooms.InputHandedOff, Room: id})
	if len(lobby.h.HandOffs()) != 0 {
		t.Fatal("the confirmed hand-off is still pending")
	}
	room.do(rooms.Input{Kind: rooms.InputConnect, Conn: "w:a2"})
	room.send("w:a2", rooms.Hello{Token: tokA})
	if o := room.last("w:a2"); o.Kind != rooms.KindGame {
		t.Fatalf("the hello at the room's server is answered %s", o.Kind)
	}
	commits := roomStore.Commits
	if err := room.h.Adopt(ctx, rec); err != nil || roomStore.Commits != commits {
		t.Fatalf("a hand-off delivered again once the game went on: err %v, %d commits", err, roomStore.Commits-commits)
	}

	// A restart of the room's server keeps the game (its socket is gone:
	// the seat is held), and a spectator's report reaches the lobby.
	room = newHandOffHost(t, roomStore, cfg)
	room.do(rooms.Input{Kind: rooms.InputConnect, Conn: "w:a3"})
	room.send("w:a3", rooms.Hello{Token: tokA})
	if o := room.last("w:a3"); o.Kind != rooms.KindGame {
		t.Fatalf("after a restart the hello is answered %s", o.Kind)
	}
	room.do(rooms.Input{Kind: rooms.InputConnect, Conn: "w:c2"})
	room.send("w:c2", rooms.SpectateRoom{RoomID: id})
	rep, pending := room.h.Report()
	if !pending || rep.Summary == nil || rep.Summary.Spectators != 1 {
		t.Fatalf("report %+v (pending %v), want one spectator", rep, pending)
	}
	b, _ := json.Marshal(rep)
	lobby.do(rooms.Input{Kind: rooms.InputReport, Frame: b})
	room.do(rooms.Input{Kind: rooms.InputAcked, Seq: rep.Seq})
	if _, pending := room.h.Report(); pending {
		t.Fatal("the report is pending after its ack")
	}
	_ = json.Unmarshal(lobby.last("w:c").Frame, &lv)
	if len(lv.Directory) != 1 || lv.Directory[0].Spectators != 1 {
		t.Fatalf("the lobby's directory %+v, want the room with its spectator", lv.Directory)
	}
}

// TestRoomsDeliveryRetry: a hand-off, and a room's report, that wait for
// their delivery keep the server's next wake at their retry, a second
// after they began to wait and a second after each Tick that found them
// due (the host delivers after the Tick), or as long as the server's
// RoomsConfig.DeliveryRetryMillis says, and no longer once delivered.
func TestRoomsDeliveryRetry(t *testing.T) {
	ctx := context.Background()
	lobby, id, _ := startHandedOff(t)
	lobby.wantWake("a hand-off pending", lobby.clock.now()+DeliveryRetryMillis, true)
	lobby.clock.advance(DeliveryRetryMillis * time.Millisecond)
	if err := lobby.h.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	lobby.wantWake("a hand-off still pending after its retry's Tick", lobby.clock.now()+DeliveryRetryMillis, true)

	// The room's server waits as long as its configuration says.
	const retry = 15_000
	room := newHandOffHost(t, &MemStore{}, RoomsConfig{Name: "room:" + id, Room: id, SoleWriter: true, DeliveryRetryMillis: retry})
	if err := room.h.Adopt(ctx, lobby.h.HandOffs()[id]); err != nil {
		t.Fatal(err)
	}
	lobby.do(rooms.Input{Kind: rooms.InputHandedOff, Room: id})
	lobby.wantWake("the hand-off confirmed", 0, false)

	// A spectator comes: the report that counts it waits too.
	room.do(rooms.Input{Kind: rooms.InputConnect, Conn: "w:c2"})
	at, ok := room.h.NextWake() // the game's clock
	room.send("w:c2", rooms.SpectateRoom{RoomID: id})
	rep, pending := room.h.Report()
	if !pending {
		t.Fatal("no report pending after a spectator came")
	}
	if due := room.clock.now() + retry; !ok || due < at {
		at, ok = due, true
	}
	room.wantWake("a report pending", at, ok)
	b, _ := json.Marshal(rep)
	lobby.do(rooms.Input{Kind: rooms.InputReport, Frame: b})
	room.do(rooms.Input{Kind: rooms.InputAcked, Seq: rep.Seq})
	if at, ok := room.h.NextWake(); ok && at == room.clock.now()+retry {
		t.Fatalf("the acknowledged report still wakes the room's server at %d", at)
	}
}

// TestRoomsVacate: once its room is released (here an abandoned table)
// and the lobby took the report that says so, a room's server deletes
// every record it kept, and stays empty; the lobby has the sessions back.
func TestRoomsVacate(t *testing.T) {
	ctx := context.Background()
	lobby, id, toks := startHandedOff(t)
	store := &MemStore{}
	room := newHandOffHost(t, store, RoomsConfig{Name: "room:" + id, Room: id, SoleWriter: true})
	if err := room.h.Adopt(ctx, lobby.h.HandOffs()[id]); err != nil {
		t.Fatal(err)
	}
	lobby.do(rooms.Input{Kind: rooms.InputHandedOff, Room: id})
	if done, err := room.h.Vacate(ctx); done || err != nil {
		t.Fatalf("Vacate with the game running: %v %v", done, err)
	}
	// Nobody comes to the table: it is abandoned, and released.
	for range 4 {
		if rep, _ := room.h.Report(); rep.Seq > 0 && rep.Summary == nil {
			break
		}
		room.clock.advance(time.Duration(rooms.DefaultLimits().SessionIdleMillis) * time.Millisecond)
		if err := room.h.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rep, pending := room.h.Report()
	if !pending || rep.Summary != nil {
		t.Fatalf("report %+v (pending %v), want the room released", rep, pending)
	}
	if done, err := room.h.Vacate(ctx); done || err != nil {
		t.Fatalf("Vacate before the lobby took the report: %v %v", done, err)
	}
	b, _ := json.Marshal(rep)
	lobby.do(rooms.Input{Kind: rooms.InputReport, Frame: b})
	room.do(rooms.Input{Kind: rooms.InputAcked, Seq: rep.Seq})
	if done, err := room.h.Vacate(ctx); !done || err != nil {
		t.Fatalf("Vacate once released and reported: %v %v", done, err)
	}
	if recs, _ := store.List(ctx, ""); len(recs) != 0 {
		t.Fatalf("%d records left after Vacate, first %s", len(recs), recs[0].Key)
	}
	room.do(rooms.Input{Kind: rooms.InputDisconnect, Conn: "w:a2"}) // a socket's close that comes late
	if err := room.h.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if recs, _ := store.List(ctx, ""); len(recs) != 0 {
		t.Fatalf("%d records written after Vacate, first %s", len(recs), recs[0].Key)
	}
	room.wantWake("vacated", 0, false)
	room.wantStraysRefused(store, toks[0])
	lobby.do(rooms.Input{Kind: rooms.InputConnect, Conn: "w:a9"})
	lobby.send("w:a9", rooms.Hello{Token: toks[0]})
	var lv rooms.LobbyView
	if err := json.Unmarshal(lobby.last("w:a9").Frame, &lv); err != nil || lv.Session != toks[0] || len(lv.Directory) != 0 {
		t.Fatalf("the lobby after the release: %s", lobby.last("w:a9").Frame)
	}
}

// TestRoomsVacantRefuses: a room's server that holds no room, here before
// any hand-off (TestRoomsVacate checks the same once its room is
// released and vacated), answers every stray as a lobby answers a room it
// does not have, unknown_room, sends it to the lobby, and writes nothing.
func TestRoomsVacantRefuses(t *testing.T) {
	store := &MemStore{}
	room := newHandOffHost(t, store, RoomsConfig{Name: "room:r:gone", Room: "r:gone", SoleWriter: true})
	room.wantStraysRefused(store, "s:old")
}

// wantStraysRefused checks that x, a room's server that holds no room,
// answers a new WebSocket connection and HTTP requests with or without
// the old session token tok with unknown_room and the move to the lobby
// (a poll with the token with the move alone: its player's own leave
// may have released the room), keeps no connection or session, and
// leaves store empty.
func (x *handOffHost) wantStraysRefused(store *MemStore, tok string) {
	t := x.t
	t.Helper()
	ctx := context.Background()
	isRefusal := func(kind string, frame []byte) bool {
		var f rooms.LobbyErrorFrame
		return kind == rooms.KindError && json.Unmarshal(frame, &f) == nil && f.LobbyError.Code == rooms.CodeUnknownRoom
	}
	x.do(rooms.Input{Kind: rooms.InputConnect, Conn: "w:stray"})
	if got := x.got["w:stray"]; len(got) != 2 || !isRefusal(got[0].Kind, got[0].Frame) ||
		got[1].Kind != rooms.KindMove || got[1].Move != rooms.MoveLobby || !got[1].Close {
		t.Fatalf("a new WebSocket connection got %+v, want unknown_room and the move to the lobby", got)
	}
	x.do(rooms.Input{Kind: rooms.InputDisconnect, Conn: "w:stray"})
	catalog, _ := rooms.EncodeCommand(rooms.RequestCatalog{})
	for _, r := range []struct {
		name, method, path, bearer string
		body                       []byte
		refused                    bool
	}{
		{"a command without a session", http.MethodPost, "/rooms/command", "", catalog, true},
		{"a command with the old session", http.MethodPost, "/rooms/command", tok, catalog, true},
		{"a poll with the old session", http.MethodGet, "/rooms/view?after=0", tok, nil, false},
		{"a poll without a session", http.MethodGet, "/rooms/view?after=0", "", nil, true},
	} {
		req := httptest.NewRequest(r.method, r.path, bytes.NewReader(r.body))
		if r.bearer != "" {
			req.Header.Set("Authorization", "Bearer "+r.bearer)
		}
		w := httptest.NewRecorder()
		x.h.Handler().ServeHTTP(w, req)
		var resp RoomsResponse
		err := json.Unmarshal(w.Body.Bytes(), &resp)
		refused := len(resp.Frames) == 1 && isRefusal(resp.Frames[0].Kind, resp.Frames[0].Frame)
		if err != nil || w.Code != http.StatusOK || resp.Move != rooms.MoveLobby || resp.Session != "" ||
			refused != r.refused || !refused && len(resp.Frames) != 0 {
			t.Fatalf("%s: %d %s, want no session and the move to the lobby, unknown_room %v", r.name, w.Code, w.Body, r.refused)
		}
	}
	if err := x.h.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if c := x.h.Connections(); len(c) != 0 {
		t.Fatalf("the strays left connections %v", c)
	}
	if recs, _ := store.List(ctx, ""); len(recs) != 0 {
		t.Fatalf("the strays left %d records, first %s", len(recs), recs[0].Key)
	}
	x.wantWake("after the strays", 0, false)
}
