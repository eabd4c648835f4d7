package rooms_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// partKey is the key allRecords files lobby part p under.
func partKey(p int) string { return fmt.Sprintf("part/%d", p) }

// allParts lists every lobby part.
func allParts() []int {
	ps := make([]int, rooms.LobbyParts)
	for i := range ps {
		ps[i] = i
	}
	return ps
}

// allRecords returns every record of s: the lobby's under "", each lobby
// part's under partKey, each room's under its id.
func allRecords(s *rooms.Server) map[string][]byte {
	recs := map[string][]byte{"": s.AppendLobbyRecord(nil)}
	for p, b := range s.AppendLobbyParts(allParts()) {
		if b != nil {
			recs[partKey(p)] = b
		}
	}
	for id := range rooms.RoomsOf(s) {
		recs[id], _ = s.AppendRoomRecord(nil, id)
	}
	for id := range rooms.RemoteOf(s) {
		recs[id], _ = s.AppendRoomRecord(nil, id)
	}
	return recs
}

// splitRecords returns records (as allRecords gave them) as
// RestoreRecords takes them.
func splitRecords(records map[string][]byte) (lobby []byte, parts [][]byte, roomRecs map[string][]byte) {
	roomRecs = map[string][]byte{}
	for id, b := range records {
		switch {
		case id == "":
			lobby = b
		case strings.HasPrefix(id, "part/"):
			parts = append(parts, b)
		default:
			roomRecs[id] = b
		}
	}
	return lobby, parts, roomRecs
}

// checkChanges fails t when a record of s differs from before (as
// allRecords gave it; nil: not known) and ch does not name it, and
// returns the records now.
func checkChanges(t testing.TB, before map[string][]byte, s *rooms.Server, ch rooms.Changes) map[string][]byte {
	t.Helper()
	now := allRecords(s)
	if before == nil {
		return now
	}
	if !slices.IsSorted(ch.Rooms) {
		t.Fatalf("changed rooms %v are not sorted", ch.Rooms)
	}
	if !bytes.Equal(before[""], now[""]) && !ch.Lobby {
		t.Fatalf("the lobby record changed unreported:\nbefore %s\nafter  %s", before[""], now[""])
	}
	if !slices.IsSorted(ch.LobbyParts) {
		t.Fatalf("changed lobby parts %v are not sorted", ch.LobbyParts)
	}
	for id := range before {
		if p, ok := strings.CutPrefix(id, "part/"); ok && now[id] == nil {
			n, _ := strconv.Atoi(p)
			if !slices.Contains(ch.LobbyParts, n) {
				t.Fatalf("lobby part %d emptied unreported (changes %+v)", n, ch)
			}
		}
	}
	for id, b := range now {
		if p, ok := strings.CutPrefix(id, "part/"); ok {
			n, _ := strconv.Atoi(p)
			if !bytes.Equal(before[id], b) && !slices.Contains(ch.LobbyParts, n) {
				t.Fatalf("lobby part %d changed unreported (changes %+v):\nbefore %s\nafter  %s", n, ch, before[id], b)
			}
			continue
		}
		if id != "" && !bytes.Equal(before[id], b) && !slices.Contains(ch.Rooms, id) {
			t.Fatalf("room %s's record changed unreported (changes %+v):\nbefore %s\nafter  %s", id, ch, before[id], b)
		}
	}
	for id := range before {
		if _, ok := now[id]; !ok && !strings.HasPrefix(id, "part/") && !slices.Contains(ch.Rooms, id) {
			t.Fatalf("room %s was deleted unreported (changes %+v)", id, ch)
		}
	}
	return now
}

// checkRecordsRestore fails t unless the server RestoreRecords puts
// together from records (as allRecords gave them) is the state Marshal
// gave as whole, the clock and the rate counters aside.
func checkRecordsRestore(t testing.TB, reg *rooms.Registry, whole []byte, records map[string][]byte) {
	t.Helper()
	lobby, parts, roomRecs := splitRecords(records)
	s, err := rooms.RestoreRecords(lobby, parts, roomRecs, reg, rooms.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Marshal()
	if a, b := durable(t, whole), durable(t, got); !bytes.Equal(a, b) {
		t.Fatalf("the records restore another state:\nwhole   %.400s\nrecords %.400s", a, b)
	}
}

// durable re-encodes a state without what the records leave out.
func durable(t testing.TB, state []byte) []byte {
	t.Helper()
	b, err := rooms.DurableState(state)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRestoreRecordsRefuses(t *testing.T) {
	reg := cheattest.Registry(t)
	h := newHarness(t, rooms.Limits{})
	h.connect("a")
	h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
	room := h.lobby("a").Room.RoomID
	rec, _ := h.s.AppendRoomRecord(nil, room)
	lobby, parts, _ := splitRecords(allRecords(h.s))
	twice := append(append([][]byte(nil), parts...), parts...)
	tests := []struct {
		name  string
		lobby []byte
		parts [][]byte
		rooms map[string][]byte
	}{
		{"lobby not JSON", []byte("{"), nil, nil},
		{"lobby of another schema", []byte(`{"schema":2}`), nil, nil},
		{"lobby part not JSON", lobby, [][]byte{[]byte("[")}, nil},
		{"connection held twice", lobby, twice, map[string][]byte{room: rec}},
		{"room not JSON", lobby, parts, map[string][]byte{room: []byte("[")}},
		{"room under another id", lobby, parts, map[string][]byte{"r:other": rec}},
		{"connection seated in a missing room", lobby, parts, nil},
		{"session held twice", lobby, parts, map[string][]byte{room: rec, "r:copy": bytes.ReplaceAll(rec, []byte(room), []byte("r:copy"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := rooms.RestoreRecords(tt.lobby, tt.parts, tt.rooms, reg, rooms.Limits{}); err == nil {
				t.Fatal("restored")
			}
		})
	}
	if _, err := rooms.RestoreRecords(lobby, parts, map[string][]byte{room: rec}, reg, rooms.Limits{}); err != nil {
		t.Fatal(err)
	}
}
