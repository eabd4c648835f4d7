package cards_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/ai"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// wireDir holds the card game's wire fixtures: frames of seeded games as
// the server sends them, read by the browser client's parity suite
// (web/test/protocol.test.mjs). Regenerate (and drop the frames no game
// gives any more) with
//
//	go test ./engine/cards -run WireFixtures -update
const wireDir = "testdata/wire"

// schemaPaths adds to set every key path of v ("valid_actions[].prompts[].kind"),
// with a prompt's or a target's kind folded in, so a frame showing a new
// kind of prompt counts as new.
func schemaPaths(prefix string, v any, set map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := prefix + "." + k
			if prefix == "" {
				p = k
			}
			if kind, ok := e.(string); ok && k == "kind" && prefix != "" {
				set[p+"="+kind] = true
			}
			set[p] = true
			schemaPaths(p, e, set)
		}
	case []any:
		for _, e := range x {
			schemaPaths(prefix+"[]", e, set)
		}
	}
}

// collector keeps, per frame kind, the frames that show a key path no
// earlier frame of that kind showed: a small set covering every field
// the games sent.
type collector struct {
	seen   map[string]map[string]bool
	frames map[string][][]byte
}

func (c *collector) add(t testing.TB, kind string, frame []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(frame, &v); err != nil {
		t.Fatalf("%s frame: %v", kind, err)
	}
	paths := map[string]bool{}
	schemaPaths("", v, paths)
	for _, k := range []string{kind, "log"} {
		if c.seen[k] == nil {
			c.seen[k] = map[string]bool{}
		}
	}
	fresh := false
	for p := range paths {
		seen := c.seen[kind]
		if strings.HasPrefix(p, "log[]") {
			seen = c.seen["log"] // the log reads the same to players and spectators
		}
		if !seen[p] {
			seen[p], fresh = true, true
		}
	}
	if fresh {
		c.frames[kind] = append(c.frames[kind], frame)
	}
}

// TestWireFixtures plays seeded games in each format (two humans with
// preconstructed decks and random answers, an AI seat in the free-for-all,
// a spectator, a refused deck) and writes or compares the frames that
// together show every key path the server sent.
func TestWireFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("three whole games: the native run checks the fixtures")
	}
	cat, precons := shipped(t)
	reg, err := rooms.NewRegistry(cards.Games(cat, ai.Seats()...)...)
	if err != nil {
		t.Fatal(err)
	}
	col := &collector{seen: map[string]map[string]bool{}, frames: map[string][][]byte{}}
	for _, tc := range []struct {
		format string
		seats  int
		ai     int
	}{{deck.StarterDuel, 2, 0}, {deck.Commander, 2, 0}, {deck.FreeForAll, 3, 1}} {
		f, _ := deck.FormatByID(tc.format)
		decks := deck.For(precons, f, cat)
		w := &table{t: t, s: rooms.New(reg, rooms.Limits{}), restore: reg, ids: &rooms.DerivedIDs{Secret: tc.format},
			now: 1_000_000, col: col, views: map[string]json.RawMessage{}}
		humans := []string{"a", "b", "c", "d"}[:tc.seats-tc.ai]
		for _, c := range append(slices.Clone(humans), "watcher") {
			w.now += 10
			w.feed(w.s.Connect(c, w.now, w.ids))
		}
		w.send("a", rooms.RequestCatalog{})
		w.send("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: tc.seats, GameSetup: tc.format, Name: "Wire", UndoEnabled: true, ActionSeconds: 60}})
		room := w.room
		w.send("a", rooms.SubmitDeck{Cards: []string{"no_such_card"}})
		for _, c := range humans[1:] {
			w.send(c, rooms.JoinRoom{RoomID: room})
		}
		for i := 0; i < tc.ai; i++ {
			d := decks[(len(humans)+i)%len(decks)]
			w.send("a", rooms.AddAI{Seat: len(humans) + i, Kind: ai.Pilot, Cards: d.Cards, Commander: d.Commander})
		}
		for i, c := range humans {
			w.send(c, rooms.SubmitDeck{Cards: decks[i%len(decks)].Cards, Commander: decks[i%len(decks)].Commander})
			w.send(c, rooms.Ready{Ready: true})
		}
		w.send("watcher", rooms.SpectateRoom{RoomID: room})
		h := rng.For(tc.format, rng.System("wire", 0))
		for step := 0; step < 250 && !w.over; step++ {
			moved := false
			for _, c := range humans {
				acts := slices.DeleteFunc(slices.Clone(w.actions(c)), func(a rooms.Action) bool { return a.Type == "concede" })
				if len(acts) == 0 {
					continue
				}
				a := acts[h.Intn(len(acts))]
				w.send(c, rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Targets: randomAnswer(a, h), Submission: fmt.Sprint("s", step)})
				moved = true
				break
			}
			if !moved {
				t.Fatalf("%s step %d: nobody is asked anything", tc.format, step)
			}
		}
		if tc.format == deck.StarterDuel && !w.over {
			a := actionOf(t, w.views["a"], "concede")
			w.send("a", rooms.ChooseAction{ActionID: a.ID, Token: a.Token})
		}
	}
	// A directory of more than one page, browsed past its first.
	w := &table{t: t, s: rooms.New(reg, rooms.Limits{}), ids: &rooms.DerivedIDs{Secret: "pages"},
		now: 1_000_000, col: col, views: map[string]json.RawMessage{}}
	for i := range rooms.DirectoryPageSize + 1 {
		host := fmt.Sprint("host", i)
		w.now += 10
		w.feed(w.s.Connect(host, w.now, w.ids))
		w.send(host, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: deck.StarterDuel}})
	}
	w.now += 10
	w.feed(w.s.Connect("browser", w.now, w.ids))
	w.send("browser", rooms.Browse{Page: 1})
	kinds := make([]string, 0, len(col.frames))
	for k := range col.frames {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var names []string
	for _, k := range kinds {
		for i, f := range col.frames[k] {
			name := fmt.Sprintf("%s-%02d.json", k, i)
			names = append(names, name)
			golden.Check(t, filepath.Join(wireDir, name), append(slices.Clone(f), '\n'))
		}
	}
	golden.Check(t, filepath.Join(wireDir, "index.json"), append(mustJSON(t, names), '\n'))
	entries, err := os.ReadDir(wireDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "index.json" || slices.Contains(names, e.Name()) {
			continue
		}
		if !golden.Updating() {
			t.Fatalf("%s holds %s, which no game gives: -update removes it", wireDir, e.Name())
		}
		if err := os.Remove(filepath.Join(wireDir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// actionOf returns frame's first action of type typ.
func actionOf(t *testing.T, frame []byte, typ string) rooms.Action {
	t.Helper()
	var v struct {
		ValidActions []rooms.Action `json:"valid_actions"`
	}
	if err := json.Unmarshal(frame, &v); err != nil {
		t.Fatal(err)
	}
	for _, a := range v.ValidActions {
		if a.Type == typ {
			return a
		}
	}
	t.Fatalf("no %s action", typ)
	return rooms.Action{}
}
