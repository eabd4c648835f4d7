//go:build !js

package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// TestRoomsDecodeOnce checks that a host call decodes no frame and, when
// another process committed since, decodes each record once to reload.
func TestRoomsDecodeOnce(t *testing.T) {
	ctx := context.Background()
	store, clock := &MemStore{}, newTestClock()
	open := func() *Rooms {
		h, err := NewRooms(ctx, RoomsConfig{Store: store, Registry: cheattest.Registry(t), Clock: clock.now})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h1, h2 := open(), open()
	var decoded []string
	h1.decoded = func(key string) { decoded = append(decoded, key) }
	do := func(h *Rooms, conn, frame string) {
		t.Helper()
		in := rooms.Input{Kind: rooms.InputConnect, Conn: conn}
		if frame != "" {
			in = rooms.Input{Kind: rooms.InputFrame, Conn: conn, Frame: []byte(frame)}
		}
		if _, err := h.Do(ctx, []rooms.Input{in}); err != nil {
			t.Fatal(err)
		}
	}
	do(h1, "h:a", "")
	do(h1, "h:b", "")
	do(h1, "h:a", `{"type":"create_room","config":{"seats":2,"game_setup":"`+cheat.ID+`"}}`)
	do(h1, "h:a", `{"type":"add_ai","seat":1,"kind":"fox"}`)
	do(h1, "h:a", `{"type":"ready","ready":true}`)
	do(h1, "h:b", `{"type":"set_name","name":"Bo"}`)
	if len(decoded) != 0 {
		t.Fatalf("calls on a current state decoded %v", decoded)
	}
	do(h2, "h:c", "") // another process commits: h1 is stale
	do(h1, "h:b", `{"type":"hello"}`)
	recs, err := store.List(ctx, h1.prefix)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range recs {
		if key := strings.TrimPrefix(r.Key, h1.prefix); key != keyHead {
			want = append(want, key)
		}
	}
	slices.Sort(decoded)
	if !slices.Equal(decoded, want) || !slices.ContainsFunc(want, func(k string) bool { return strings.HasPrefix(k, keyRoom) }) {
		t.Fatalf("the reload decoded %v, want each record once: %v", decoded, want)
	}
}

// TestRoomsLobbyPartsFromAnOldLobbyRecord loads a store whose lobby
// record still holds the connections and sessions itself (as before the
// lobby parts): the server restores them, and its first batch moves them
// into their parts, leaving the lobby record small, with the same state.
func TestRoomsLobbyPartsFromAnOldLobbyRecord(t *testing.T) {
	ctx := context.Background()
	clock := newTestClock()
	old := &MemStore{}
	h, err := NewRooms(ctx, RoomsConfig{Store: old, Registry: cheattest.Registry(t), Clock: clock.now, KeepWebSockets: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"h:a", "h:b", "h:c"} {
		if _, err := h.Do(ctx, []rooms.Input{{Kind: rooms.InputConnect, Conn: c}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Do(ctx, []rooms.Input{{Kind: rooms.InputFrame, Conn: "h:b", Frame: []byte(`{"type":"set_name","name":"Bo"}`)}}); err != nil {
		t.Fatal(err)
	}
	want, _ := h.Snapshot()
	// The same state as one lobby record of the old layout.
	st, err := rooms.DecodeState(want)
	if err != nil {
		t.Fatal(err)
	}
	st.Now = 0
	whole, _ := json.Marshal(st)
	store := &MemStore{}
	if err := store.Commit(ctx, []Write{{Key: "rooms/main/lobby", Data: whole}, {Key: "rooms/main/head", Data: []byte(`{"seq":1}`)}}); err != nil {
		t.Fatal(err)
	}
	h2, err := NewRooms(ctx, RoomsConfig{Store: store, Registry: cheattest.Registry(t), Clock: clock.now, KeepWebSockets: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := h2.Tick(ctx); err != nil { // a batch with nothing to do but the move
		t.Fatal(err)
	}
	recs, _ := store.List(ctx, "rooms/main/")
	parts := 0
	for _, r := range recs {
		switch {
		case r.Key == "rooms/main/lobby" && strings.Contains(string(r.Data), "h:a"):
			t.Fatalf("the lobby record still holds the connections: %s", r.Data)
		case strings.HasPrefix(r.Key, "rooms/main/lobby/"):
			parts++
		}
	}
	if parts == 0 {
		t.Fatal("no lobby part was written")
	}
	h3, err := NewRooms(ctx, RoomsConfig{Store: store, Registry: cheattest.Registry(t), Clock: clock.now, KeepWebSockets: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := h3.Snapshot()
	a, _ := rooms.DurableState(want)
	b, _ := rooms.DurableState(got)
	if !bytes.Equal(a, b) {
		t.Fatalf("restored from the parts:\n%s\nwant\n%s", b, a)
	}
}

// loadCounter is a Store that counts its Loads.
type loadCounter struct {
	*MemStore
	loads int
}

func (s *loadCounter) Load(ctx context.Context, key string) (Record, error) {
	s.loads++
	return s.MemStore.Load(ctx, key)
}

// TestRoomsSoleWriterReadsNoHead checks that a server whose store has no
// other writer applies its batches without reading the head record
// first, as one whose store is shared does before each, and commits the
// same records.
func TestRoomsSoleWriterReadsNoHead(t *testing.T) {
	ctx := context.Background()
	stored := map[bool][]Record{}
	for _, sole := range []bool{false, true} {
		store, clock := &loadCounter{MemStore: &MemStore{}}, newTestClock()
		h, err := NewRooms(ctx, RoomsConfig{Store: store, Registry: cheattest.Registry(t), Clock: clock.now,
			IDs: &rooms.DerivedIDs{Secret: "sole"}, SoleWriter: sole})
		if err != nil {
			t.Fatal(err)
		}
		inputs := []rooms.Input{
			{Kind: rooms.InputConnect, Conn: "h:a"},
			{Kind: rooms.InputFrame, Conn: "h:a", Frame: []byte(`{"type":"set_name","name":"Ada"}`)},
			{Kind: rooms.InputFrame, Conn: "h:a", Frame: []byte(`{"type":"create_room","config":{"seats":2,"game_setup":"` + cheat.ID + `"}}`)},
		}
		store.loads = 0
		for _, in := range inputs {
			if _, err := h.Do(ctx, []rooms.Input{in}); err != nil {
				t.Fatal(err)
			}
		}
		if want := map[bool]int{false: len(inputs), true: 0}[sole]; store.loads != want {
			t.Errorf("sole writer %v: %d loads for %d batches, want %d", sole, store.loads, len(inputs), want)
		}
		if stored[sole], err = store.List(ctx, ""); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(stored[false], stored[true], func(a, b Record) bool {
		return a.Key == b.Key && a.Version == b.Version && bytes.Equal(a.Data, b.Data)
	}) || len(stored[true]) == 0 {
		t.Errorf("a sole writer stored %d records unlike a shared one's %d", len(stored[true]), len(stored[false]))
	}
}
