package rooms_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
)

// moves returns the moves among out, by connection, checking each closes
// its connection and carries no frame.
func moves(t *testing.T, out []rooms.Outbound) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, o := range out {
		if o.Kind != rooms.KindMove {
			if o.Move != "" {
				t.Fatalf("a %s frame to %s carries move %q", o.Kind, o.Conn, o.Move)
			}
			continue
		}
		if !o.Close || len(o.Frame) != 0 || o.Move == "" {
			t.Fatalf("move to %s: %+v, want a bare move that closes", o.Conn, o)
		}
		m[o.Conn] = o.Move
	}
	return m
}

// roomServer restores the server of room id from the record a lobby
// handed off, as a room's host does, in a harness of its own.
func roomServer(t *testing.T, lobby *harness, id string, rec []byte) *harness {
	t.Helper()
	s, err := rooms.RestoreRecords(nil, nil, map[string][]byte{id: rec}, lobby.reg, rooms.Limits{SessionIdleMillis: 60_000})
	if err != nil {
		t.Fatal(err)
	}
	s.SetRoomHost(id)
	h := newHarness(t, rooms.Limits{})
	h.reg, h.s, h.now = lobby.reg, s, lobby.now
	h.ids = &rooms.DerivedIDs{Secret: "room"}
	return h
}

// report delivers the room server's pending report to the lobby, as the
// hosts do, and acknowledges it.
func report(t *testing.T, room, lobby *harness) rooms.Report {
	t.Helper()
	rep, pending, ok := room.s.Report()
	if !ok || !pending {
		t.Fatalf("no report pending (ok %v, pending %v)", ok, pending)
	}
	lobby.now = max(lobby.now, room.now) + 1
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	lobby.record(lobby.s.Apply(rooms.Input{Kind: rooms.InputReport, Frame: b, Now: lobby.now}, lobby.ids))
	room.record(room.s.Apply(rooms.Input{Kind: rooms.InputAcked, Seq: rep.Seq}, room.ids))
	if _, pending, _ := room.s.Report(); pending {
		t.Fatal("the report is still pending after its ack")
	}
	return rep
}

// TestHandOff plays a game through a lobby in hand-off mode and the
// room's own server: the move to the room, the reclaim there, a spectator
// sent after it, the directory kept up by reports, and the sessions'
// return to the lobby with their names.
func TestHandOff(t *testing.T) {
	lob := lobbyHarness(t, rooms.Limits{})
	lob.s.SetHandOff(true)
	deck := rooms.SubmitDeck{Cards: []string{"heads", "tails"}}
	for _, c := range []string{"a", "b", "c"} {
		lob.connect(c)
	}
	tokA, tokB := lob.lobby("a").Session, lob.lobby("b").Session
	lob.must("a", rooms.SetName{Name: "Ada"})
	lob.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: "duel"}})
	id := lob.lobby("a").Room.RoomID
	lob.must("b", rooms.JoinRoom{RoomID: id})
	lob.must("a", deck)
	lob.must("b", deck)
	lob.must("a", rooms.Ready{Ready: true})
	b, _ := rooms.EncodeCommand(rooms.Ready{Ready: true})
	lob.now += 100
	out, ch := lob.s.Receive("b", b, lob.now, lob.ids)
	lob.record(out, ch)

	// The game started and left: both seats are moved, nobody is sent a
	// game view, and the directory lists the room as playing.
	if got := moves(t, out); len(got) != 2 || got["a"] != rooms.MoveRoom(id) || got["b"] != rooms.MoveRoom(id) {
		t.Fatalf("moves %v, want a and b to %s", got, rooms.MoveRoom(id))
	}
	for _, o := range out {
		if o.Kind == rooms.KindGame {
			t.Fatalf("a game view to %s from the lobby", o.Conn)
		}
	}
	if !slices.Equal(ch.HandOffs, []string{id}) {
		t.Fatalf("hand-offs %v, want [%s]", ch.HandOffs, id)
	}
	if d := lob.lobby("c").Directory; len(d) != 1 || d[0].State != rooms.StateInProgress || d[0].Filled != 2 {
		t.Fatalf("directory %+v, want the room playing with two seats filled", d)
	}
	lob.refused("c", rooms.JoinRoom{RoomID: id}, rooms.CodeGameStarted)
	if lob.s.Away(tokA) != id || lob.s.Away(lob.lobby("c").Session) != "" {
		t.Fatal("Away does not name the room its seated sessions went to, and only them")
	}

	// The hand-off survives the lobby's restart until it is confirmed.
	recs := allRecords(lob.s)
	l, parts, roomRecs := splitRecords(recs)
	again, err := rooms.RestoreRecords(l, parts, roomRecs, lob.reg, rooms.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rec := lob.s.HandOffs()[id]
	if rec == nil || !bytes.Equal(again.HandOffs()[id], rec) {
		t.Fatalf("hand-off after a restore %s, want %s", again.HandOffs()[id], rec)
	}
	lob.record(lob.s.Apply(rooms.Input{Kind: rooms.InputHandedOff, Room: id}, lob.ids))
	if len(lob.s.HandOffs()) != 0 {
		t.Fatal("a confirmed hand-off is still pending")
	}

	// The room's server: a fresh connection's hello reclaims the seat and
	// is answered with the game; lobby commands are not its.
	room := roomServer(t, lob, id, rec)
	for tok, se := range rooms.SessionsOf(room.s) {
		if se.Conn != "" {
			t.Fatalf("session %s arrives connected to the lobby's %s", tok, se.Conn)
		}
	}
	room.connect("a2")
	if v := room.lobby("a2"); !slices.Equal(v.ValidCommands, []string{"hello", "request_catalog", "spectate_room", "browse"}) {
		t.Fatalf("a fresh connection to the room's server may %v", v.ValidCommands)
	}
	room.must("a2", rooms.Hello{Token: tokA})
	g := room.game("a2")
	if len(g.ValidActions) != 1 || g.PlayerNames[g.You] != "Ada" {
		t.Fatalf("reclaimed game view: actions %+v, names %v", g.ValidActions, g.PlayerNames)
	}
	room.connect("x")
	room.refused("x", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: "duel"}}, rooms.CodeWrongServer)

	// In the lobby a seat's hello and a spectator are sent to the room.
	lob.connect("b3")
	if got := moves(t, lob.must("b3", rooms.Hello{Token: tokB})); got["b3"] != rooms.MoveRoom(id) {
		t.Fatalf("b's hello in the lobby moves %v, want b3 to the room", got)
	}
	if got := moves(t, lob.must("c", rooms.SpectateRoom{RoomID: id})); got["c"] != rooms.MoveSpectate(id) {
		t.Fatalf("spectate_room in the lobby moves %v, want c to spectate there", got)
	}
	room.connect("c2")
	room.must("c2", rooms.SpectateRoom{RoomID: id})
	room.spectator("c2")
	room.connect("b2")
	room.must("b2", rooms.Hello{Token: tokB})
	room.game("b2")

	// The directory learns of the spectator from the room's report.
	lob.connect("d")
	report(t, room, lob)
	if d := lob.lobby("d").Directory; len(d) != 1 || d[0].Spectators != 1 {
		t.Fatalf("directory %+v, want the room with one spectator", d)
	}

	// The game ends; Ada leaves and goes back to the lobby, name and all.
	act := room.game("a2").ValidActions[0]
	room.must("a2", rooms.ChooseAction{ActionID: act.ID, Token: act.Token})
	if room.game("b2").Result == nil {
		t.Fatal("the game did not end")
	}
	finished := report(t, room, lob)
	if d := lob.lobby("d").Directory; len(d) != 0 {
		t.Fatalf("directory %+v lists a finished room", d)
	}
	if got := moves(t, room.must("a2", rooms.Leave{})); got["a2"] != rooms.MoveLobby {
		t.Fatalf("leaving the finished game moves %v, want a2 to the lobby", got)
	}
	left := report(t, room, lob)
	if left.Returned[tokA] == nil || left.Returned[tokA].Name != "Ada" {
		t.Fatalf("report %+v does not return Ada's session", left)
	}
	if out, _ := lob.s.UpdateRemote(finished, lob.now); out != nil {
		t.Fatal("an older report was applied")
	}
	lob.connect("a3")
	lob.must("a3", rooms.Hello{Token: tokA})
	if v := lob.lobby("a3"); v.Session != tokA || v.Name != "Ada" || v.Room != nil {
		t.Fatalf("Ada back in the lobby: %+v", v)
	}

	// Bo goes quiet; the room is released once his held seat expires, the
	// spectator is sent back, and the lobby forgets the room.
	room.disconnect("b2")
	if got := moves(t, room.tick(61_000)); got["c2"] != rooms.MoveLobby {
		t.Fatalf("the room's release moves %v, want the spectator to the lobby", got)
	}
	gone := report(t, room, lob)
	if gone.Summary != nil || gone.Returned[tokB] == nil {
		t.Fatalf("last report %+v, want the room gone and Bo returned", gone)
	}
	if len(rooms.RemoteOf(lob.s)) != 0 || len(rooms.RoomsOf(room.s)) != 0 {
		t.Fatal("the room outlived its last report")
	}
	lob.connect("b4")
	lob.must("b4", rooms.Hello{Token: tokB})
	if v := lob.lobby("b4"); v.Session != tokB {
		t.Fatalf("Bo back in the lobby holds %s", v.Session)
	}
}

// TestReportSurvivesRestore checks that a report not yet acknowledged is
// in the room server's records, and that a native server (neither mode)
// makes no reports.
func TestReportSurvivesRestore(t *testing.T) {
	lob := lobbyHarness(t, rooms.Limits{})
	lob.s.SetHandOff(true)
	lob.connect("a")
	lob.connect("b")
	id := lob.start(rooms.RoomConfig{Seats: 2, GameSetup: "cheat"})
	room := roomServer(t, lob, id, lob.s.HandOffs()[id])
	room.connect("c")
	room.must("c", rooms.SpectateRoom{RoomID: id})
	want, pending, _ := room.s.Report()
	if !pending {
		t.Fatal("no report after a spectator joined")
	}
	l, parts, roomRecs := splitRecords(allRecords(room.s))
	again, err := rooms.RestoreRecords(l, parts, roomRecs, room.reg, rooms.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	again.SetRoomHost(id)
	if got, pending, _ := again.Report(); !pending || got.Seq != want.Seq || *got.Summary != *want.Summary {
		t.Fatalf("restored report %+v (pending %v), want %+v", got, pending, want)
	}
	if _, _, ok := rooms.New(room.reg, rooms.Limits{}).Report(); ok {
		t.Fatal("a native server reports")
	}
}

// TestVacantRoomServer: a room's server that holds no room, before the
// hand-off gave it one or once the room is released, answers a new
// connection unknown_room and moves it to the lobby, and keeps nothing
// of it: no session, no connection, no record changed, and nothing more
// to say to it. A lobby, and a room's server holding its room, are not
// vacant.
func TestVacantRoomServer(t *testing.T) {
	lob := lobbyHarness(t, rooms.Limits{})
	lob.s.SetHandOff(true)
	lob.connect("a")
	lob.connect("b")
	id := lob.start(rooms.RoomConfig{Seats: 2, GameSetup: "cheat"})
	if lob.s.Vacant() != nil {
		t.Fatal("the lobby is vacant")
	}
	refused := func(what string, h *harness) {
		t.Helper()
		before, conns := allRecords(h.s), h.s.Connections()
		out := h.connect("x")
		if m := moves(t, out); len(out) != 2 || out[0].Kind != rooms.KindError || m["x"] != rooms.MoveLobby {
			t.Fatalf("%s: a new connection got %+v, want unknown_room and the move to the lobby", what, out)
		}
		if errs := h.errs["x"]; len(errs) != 1 || errs[0].Code != rooms.CodeUnknownRoom || errs[0] != *h.s.Vacant() {
			t.Fatalf("%s: refusals %+v, want its Vacant, unknown_room", what, errs)
		}
		hello, _ := rooms.EncodeCommand(rooms.Hello{Token: "s:old"})
		if out := append(h.raw("x", hello), h.disconnect("x")...); len(out) != 0 {
			t.Fatalf("%s: the refused connection's hello and close got %+v", what, out)
		}
		if !slices.Equal(h.s.Connections(), conns) || !maps.EqualFunc(allRecords(h.s), before, bytes.Equal) {
			t.Fatalf("%s: the refused connection left connections %v or changed a record", what, h.s.Connections())
		}
	}

	// Before the hand-off: an empty room's server.
	empty := newHarness(t, rooms.Limits{})
	empty.reg, empty.s = lob.reg, rooms.New(lob.reg, rooms.Limits{})
	empty.s.SetRoomHost(id)
	refused("before the hand-off", empty)

	// Holding the room, then released: nobody comes to the table.
	room := roomServer(t, lob, id, lob.s.HandOffs()[id])
	if room.s.Vacant() != nil {
		t.Fatal("a room's server holding its room is vacant")
	}
	for range 4 {
		if room.s.Vacant() != nil {
			break
		}
		room.tick(61_000)
	}
	if rep, _, _ := room.s.Report(); rep.Summary != nil || rep.Seq == 0 {
		t.Fatalf("report %+v, want the room released", rep)
	}
	refused("released", room)
}
