package cards_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
)

// curatedDir holds hand-written frames, listed in its index.json: for
// each view kind a maximal frame, with every member the typed structs
// declare present, and a minimal one, with only the members the server
// always sends. Unlike the recorded frames of testdata/wire they are
// written by hand, so that a member no seeded game happens to send is
// still pinned on both sides (web/test/protocol.test.mjs reads them too).
const curatedDir = "testdata/wire-curated"

// member is one JSON member of a Go struct type: the type's name and the
// member's key.
type member struct{ typ, key string }

// field is a struct's JSON member: its key, type and whether it may be
// omitted.
type field struct {
	key string
	typ reflect.Type
	opt bool
}

// fields lists t's JSON members. A Prompt's candidates member holds ids,
// or for pay_mana ManaCandidate records; a member tagged "-" is not on
// the wire.
func fields(t reflect.Type) []field {
	var out []field
	if t == reflect.TypeOf(rooms.Prompt{}) {
		out = append(out, field{"candidates", reflect.TypeOf([]rooms.ManaCandidate{}), true})
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		out = append(out, field{name, f.Type, strings.Contains(opts, "omitempty")})
	}
	return out
}

// elem is the struct type a JSON value of type t holds records of (a
// pointer's, a list's), or nil for a value without members of its own:
// a string, a number, a map, a json.RawMessage, any.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || (t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8) {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		return t
	}
	return nil
}

// declared adds every member of the struct types reachable from t.
func declared(t reflect.Type, out map[member]field) {
	if t = elem(t); t == nil {
		return
	}
	for _, f := range fields(t) {
		m := member{t.Name(), f.key}
		if _, ok := out[m]; ok {
			continue
		}
		out[m] = f
		declared(f.typ, out)
	}
}

// present adds every member a decoded JSON value v shows, reading it as
// type t; a key t does not declare is an error.
func present(t reflect.Type, v any, out map[member]field) error {
	st := elem(t)
	if st == nil {
		return nil
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if err := present(st, e, out); err != nil {
				return err
			}
		}
	case map[string]any:
		fs := fields(st)
		for k, e := range x {
			i := slices.IndexFunc(fs, func(f field) bool { return f.key == k })
			if i < 0 {
				return fmt.Errorf("%s has no member %q", st.Name(), k)
			}
			f := fs[i]
			if k == "candidates" && st == reflect.TypeOf(rooms.Prompt{}) {
				if list, ok := e.([]any); ok && len(list) > 0 {
					if _, ids := list[0].(string); ids {
						f.typ = reflect.TypeOf([]string{})
					}
				}
			}
			out[member{st.Name(), k}] = f
			if err := present(f.typ, e, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// frameType is the machine's struct of a frame kind and, for a game or
// spectator view (view set), the members of the game's projection that
// kind never carries.
func frameType(t *testing.T, kind string) (machine reflect.Type, view bool, never []string) {
	switch kind {
	case "game":
		return reflect.TypeOf(rooms.GameView{}), true, []string{"players"}
	case "spectator":
		return reflect.TypeOf(rooms.SpectatorView{}), true, []string{"my_hand", "revealed", "me", "opponents", "mana_pool"}
	case "lobby":
		return reflect.TypeOf(rooms.LobbyView{}), false, nil
	case "catalog":
		return reflect.TypeOf(rooms.CatalogView{}), false, nil
	case "lobby_error":
		return reflect.TypeOf(rooms.LobbyErrorFrame{}), false, nil
	}
	t.Fatalf("no frame type for %s", kind)
	return nil, false, nil
}

// alwaysSent are the members of the game's projection the server sends
// to every seat although their type may omit them: a seat's own record
// and its opponents.
var alwaysSent = []string{"me", "opponents"}

// TestCuratedWireFixtures decodes every hand-written frame strictly into
// its typed structs and re-encodes it byte for byte (as the recorded
// frames are). A maximal frame must show every member of every record
// type the kind carries, somewhere (a member's value of no record type of
// its own, such as a log event or maximum_hand_size, counts as shown by
// its key); a minimal frame none that may be omitted, but the members the
// server always sends.
func TestCuratedWireFixtures(t *testing.T) {
	names := fixtureNames(t, curatedDir)
	entries, err := os.ReadDir(curatedDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "index.json" && !slices.Contains(names, e.Name()) {
			t.Errorf("%s is not listed in %s/index.json", e.Name(), curatedDir)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			frame := readFixture(t, curatedDir, name)
			kind, size, ok := strings.Cut(strings.TrimSuffix(name, ".json"), "-")
			if !ok || (size != "maximal" && size != "minimal") {
				t.Fatalf("%s: want <kind>-maximal.json or <kind>-minimal.json", name)
			}
			if again := retypeFrame(t, kind, frame); !bytes.Equal(again, frame) {
				t.Fatalf("re-encoded as\n%s\nnot as\n%s", again, frame)
			}
			machine, views, never := frameType(t, kind)
			want := map[member]field{}
			declared(machine, want)
			var members map[string]any
			if err := json.Unmarshal(frame, &members); err != nil {
				t.Fatal(err)
			}
			got := map[member]field{}
			view := reflect.TypeOf(rules.View{})
			for _, f := range fields(view) {
				if views && !slices.Contains(never, f.key) {
					want[member{view.Name(), f.key}] = f
					declared(f.typ, want)
				}
			}
			for k, v := range members {
				top := machine
				if views && !slices.ContainsFunc(fields(machine), func(f field) bool { return f.key == k }) {
					top = view
				}
				if err := present(top, map[string]any{k: v}, got); err != nil {
					t.Fatal(err)
				}
			}
			var wrong []string
			if size == "maximal" {
				for m := range want {
					if _, ok := got[m]; !ok {
						wrong = append(wrong, m.typ+"."+m.key)
					}
				}
			} else {
				for m, f := range got {
					if f.opt && !(m.typ == view.Name() && slices.Contains(alwaysSent, m.key)) {
						wrong = append(wrong, m.typ+"."+m.key)
					}
				}
				for m, f := range want {
					if _, ok := got[m]; !f.opt && (m.typ == machine.Name() || m.typ == view.Name()) && !ok {
						wrong = append(wrong, "missing "+m.typ+"."+m.key)
					}
				}
			}
			sort.Strings(wrong)
			if len(wrong) > 0 {
				t.Fatalf("%s frame: %v", size, wrong)
			}
		})
	}
}

// retypeFrame decodes a frame strictly into its kind's typed structs
// (for a game or spectator view, the machine's and the game's
// projection's) and encodes it again.
func retypeFrame(t *testing.T, kind string, frame []byte) []byte {
	t.Helper()
	switch kind {
	case "game":
		var v rooms.GameView
		if err := json.Unmarshal(frame, &v); err != nil {
			t.Fatal(err)
		}
		v.Game = retypeMembers(t, v.Game)
		return encode(t, v)
	case "spectator":
		var v rooms.SpectatorView
		if err := json.Unmarshal(frame, &v); err != nil {
			t.Fatal(err)
		}
		v.Game = retypeMembers(t, v.Game)
		return encode(t, v)
	case "catalog":
		return retype[rooms.CatalogView](t, frame)
	case "lobby":
		return retype[rooms.LobbyView](t, frame)
	case "lobby_error":
		return retype[rooms.LobbyErrorFrame](t, frame)
	}
	t.Fatalf("no frame type for %s", kind)
	return nil
}
