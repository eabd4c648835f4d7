package rooms_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// viewsTo returns the connections out sends a lobby view to, sorted.
func viewsTo(out []rooms.Outbound) []string {
	var got []string
	for _, o := range out {
		if o.Kind == rooms.KindLobby {
			got = append(got, o.Conn)
		}
	}
	slices.Sort(got)
	return got
}

// TestDirectoryPages checks the paged directory: each lobby connection is
// sent the page it browses, a seated one none, and a change reaches only
// the connections whose page it changed (a room filling a seat, a room
// created at the end, a room removed before every page), with a save and
// a restore between every input and without.
func TestDirectoryPages(t *testing.T) {
	for _, restore := range []bool{false, true} {
		t.Run(fmt.Sprintf("restore=%v", restore), func(t *testing.T) { directoryPages(t, restore) })
	}
}

func directoryPages(t *testing.T, restore bool) {
	h := newHarness(t, rooms.Limits{})
	h.roundTrip = restore
	const n = 2*rooms.DirectoryPageSize + 5 // three pages: 20, 20, 5
	var ids []string
	for i := range n {
		host := fmt.Sprint("host", i)
		h.connect(host)
		h.must(host, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID}})
		ids = append(ids, h.lobby(host).Room.RoomID)
	}
	for _, c := range []string{"p0", "p1", "p2", "joiner"} {
		h.connect(c)
	}
	h.must("p1", rooms.Browse{Page: 1})
	h.must("p2", rooms.Browse{Page: 99}) // past the last page: the last
	page := func(conn string, want int, more bool, first, last string) {
		t.Helper()
		v := h.lobby(conn)
		if v.DirectoryPage != want || v.DirectoryMore != more || len(v.Directory) == 0 ||
			v.Directory[0].RoomID != first || v.Directory[len(v.Directory)-1].RoomID != last {
			t.Fatalf("%s: page %d more %v, %d rooms; want page %d more %v from %s to %s", conn,
				v.DirectoryPage, v.DirectoryMore, len(v.Directory), want, more, first, last)
		}
	}
	page("p0", 0, true, ids[0], ids[19])
	page("p1", 1, true, ids[20], ids[39])
	page("p2", 2, false, ids[40], ids[44])
	h.refused("p0", rooms.Browse{Page: -1}, rooms.CodeInvalidPage)

	// A seat filled on page 2 reaches p2 (and the room's host), no one else.
	out := h.must("joiner", rooms.JoinRoom{RoomID: ids[42]})
	if got, want := viewsTo(out), []string{"host42", "joiner", "p2"}; !slices.Equal(got, want) {
		t.Fatalf("a join on page 2 sent lobby views to %v, want %v", got, want)
	}
	if v := h.lobby("p2"); v.Directory[2].Filled != 2 {
		t.Fatalf("p2 sees room 42 with %d seats filled, want 2", v.Directory[2].Filled)
	}
	// Seated, a connection is shown its room and no directory.
	if v := h.lobby("joiner"); v.Room == nil || v.Directory != nil || slices.Contains(v.ValidCommands, rooms.CmdBrowse) {
		t.Fatalf("seated, the joiner's view has room %v, %d directory entries, commands %v", v.Room != nil, len(v.Directory), v.ValidCommands)
	}
	h.refused("joiner", rooms.Browse{Page: 0}, rooms.CodeAlreadyInRoom)
	// A name change reaches only its sender.
	if got := viewsTo(h.must("p1", rooms.SetName{Name: "Pat"})); !slices.Equal(got, []string{"p1"}) {
		t.Fatalf("set_name sent lobby views to %v", got)
	}
	// A room created at the end of the directory: page 2 only.
	h.connect("late")
	out = h.must("late", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
	if got, want := viewsTo(out), []string{"late", "p2"}; !slices.Equal(got, want) {
		t.Fatalf("a room at the end sent lobby views to %v, want %v", got, want)
	}
	// A room removed from page 0 shifts every page.
	out = h.must("host0", rooms.Leave{})
	for _, c := range []string{"p0", "p1", "p2"} {
		if !slices.Contains(viewsTo(out), c) {
			t.Fatalf("removing the first room sent no view to %s (%v)", c, viewsTo(out))
		}
	}
	page("p0", 0, true, ids[1], ids[20])
	page("p1", 1, true, ids[21], ids[40])
	// A private room is never listed, and creating one changes no page.
	h.connect("private")
	out = h.must("private", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID, Visibility: rooms.VisibilityPrivate}})
	if got := viewsTo(out); !slices.Equal(got, []string{"private"}) {
		t.Fatalf("a private room sent lobby views to %v", got)
	}
	// Seated in a game: browse is refused as a lobby command.
	h.connect("a")
	h.connect("b")
	h.start(rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID})
	h.refused("a", rooms.Browse{Page: 1}, rooms.CodeInGame)
}

// TestSeatlessSessionsPerClient plays the exhaustion from one client
// address: however many sessions it opens, names and drops, it keeps at
// most SeatlessPerClient of them, the oldest going first, while another
// client's and a seated session of its own are untouched; live and with
// a restore between every input.
func TestSeatlessSessionsPerClient(t *testing.T) {
	for _, restore := range []bool{false, true} {
		t.Run(fmt.Sprintf("restore=%v", restore), func(t *testing.T) { seatlessPerClient(t, restore) })
	}
}

func seatlessPerClient(t *testing.T, restore bool) {
	h := newHarness(t, rooms.Limits{})
	h.roundTrip = restore
	connectFrom := func(conn, client string) {
		h.now += 10
		h.record(h.s.ConnectFrom(conn, client, h.now, h.ids))
	}
	connectFrom("other", "b")
	h.must("other", rooms.SetName{Name: "Other"})
	h.disconnect("other")
	connectFrom("seated", "a")
	h.must("seated", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
	h.disconnect("seated")
	var names []string
	for i := range 3 * rooms.SeatlessPerClient {
		conn := fmt.Sprint("flood", i)
		connectFrom(conn, "a")
		name := fmt.Sprint("Flood ", i)
		names = append(names, name)
		h.must(conn, rooms.SetName{Name: name})
		h.disconnect(conn)
	}
	kept := map[string]bool{}
	seated := false
	for _, se := range rooms.SessionsOf(h.s) {
		switch {
		case se.Client == "a" && se.Room != "":
			seated = true
		case se.Client == "a":
			kept[se.Name] = true
		}
	}
	if !seated {
		t.Fatal("client a's seated session was released")
	}
	want := names[len(names)-rooms.SeatlessPerClient:]
	if len(kept) != len(want) {
		t.Fatalf("client a keeps %d seatless sessions %v, want the newest %d", len(kept), kept, len(want))
	}
	for _, n := range want {
		if !kept[n] {
			t.Fatalf("client a keeps %v, not the newest %v", kept, want)
		}
	}
	other := false
	for _, se := range rooms.SessionsOf(h.s) {
		other = other || se.Client == "b"
	}
	if !other {
		t.Fatal("client b's session was released by client a's flood")
	}
}

// BenchmarkLobbyPaged is one lobby command (a join and a leave, on a
// random page) on a server with 1,000 public rooms and 2,000 lobby
// connections spread over the directory's pages: the machine's share of
// the target.
func BenchmarkLobbyPaged(b *testing.B) {
	const nRooms, nLobby = 1000, 2000
	h := newHarness(b, rooms.Limits{MaxRooms: nRooms + 10})
	s := h.s
	var ids []string
	for i := range nRooms {
		host := fmt.Sprint("host", i)
		s.Connect(host, h.now, h.ids)
		f, _ := rooms.EncodeCommand(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID}})
		s.Receive(host, f, h.now, h.ids)
		ids = append(ids, rooms.SessionsOf(s)[rooms.ConnsOf(s)[host].Session].Room)
	}
	pages := nRooms / rooms.DirectoryPageSize
	for i := range nLobby {
		c := fmt.Sprint("lobby", i)
		s.Connect(c, h.now, h.ids)
		f, _ := rooms.EncodeCommand(rooms.Browse{Page: i % pages})
		s.Receive(c, f, h.now, h.ids)
	}
	b.ReportAllocs()
	b.ResetTimer()
	frames := 0
	for i := range b.N {
		h.now += 1000
		c := fmt.Sprint("lobby", i%nLobby)
		f, _ := rooms.EncodeCommand(rooms.JoinRoom{RoomID: ids[(i*7919)%nRooms]})
		out, _ := s.Receive(c, f, h.now, h.ids)
		frames += len(out)
		f, _ = rooms.EncodeCommand(rooms.Leave{})
		out, _ = s.Receive(c, f, h.now, h.ids)
		frames += len(out)
	}
	b.ReportMetric(float64(frames)/float64(2*b.N), "frames/cmd")
}
