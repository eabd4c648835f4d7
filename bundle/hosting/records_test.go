//go:build !js

package hosting

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// TestRoomsDecodeOnce checks that a host call decodes no frame and, when
// another process committed since, decodes each record once to reload.
func TestRoomsDecodeOnce(t *testing.T) {
	ctx := context.Background()
	store, clock := &MemStore{}, newTestClock()
	open := func() *Rooms {
		h, err := NewRooms(ctx, RoomsConfig{Store: store, Registry: registry(t), Clock: clock.now})
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
