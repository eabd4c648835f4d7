package cards_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/ai"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// midgame is a four-seat commander room of four human connections and a
// spectator, played with random answers until the battlefield holds at
// least perms permanents: the position the per-command figure is
// measured in.
type midgame struct {
	*table
	humans []string
	h      *rng.Handle
	reg    *rooms.Registry
}

// commanderMidgame seats four humans and a spectator in a commander room
// (undo on, as a host offers it) and puts in it a game played with the
// shipped commander decks and random answers until it holds perms
// permanents (played on the rules directly, which is much faster than
// through the room, and dealt again from another seed when it ends
// first); each human then sets its stops, which sends it its view.
func commanderMidgame(tb testing.TB, perms int) *midgame {
	cat, precons := shipped(tb)
	reg, err := rooms.NewRegistry(cards.Games(cat, ai.Seats()...)...)
	if err != nil {
		tb.Fatal(err)
	}
	f, _ := deck.FormatByID(deck.Commander)
	decks := deck.For(precons, f, cat)
	humans := []string{"a", "b", "c", "d"}
	m := &midgame{table: &table{t: tb, s: rooms.New(reg, rooms.Limits{CommandsPerSecond: 1 << 30}), ids: &rooms.DerivedIDs{Secret: "midgame"},
		now: 1_000_000, views: map[string]json.RawMessage{}}, humans: humans, h: rng.For("midgame", rng.System("bench", 0)), reg: reg}
	for _, c := range append(slices.Clone(humans), "watcher") {
		m.now += 10
		m.feed(m.s.Connect(c, m.now, m.ids))
	}
	m.send("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: deck.Commander, UndoEnabled: true}})
	for _, c := range humans[1:] {
		m.send(c, rooms.JoinRoom{RoomID: m.room})
	}
	var players []rooms.Player
	for i, c := range humans {
		d := decks[i%len(decks)]
		m.send(c, rooms.SubmitDeck{Cards: d.Cards, Commander: d.Commander})
		m.send(c, rooms.Ready{Ready: true})
		players = append(players, rooms.Player{Seat: i, ID: rooms.PlayerID(i), Deck: d.Cards, Commander: d.Commander})
	}
	m.send("watcher", rooms.SpectateRoom{RoomID: m.room})
	state := playTo(tb, rules.NewCards(cat.Cards()), players, perms)
	saved, err := m.s.Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	st, err := rooms.DecodeState(saved)
	if err != nil {
		tb.Fatal(err)
	}
	st.Rooms[m.room].Match.State = state
	if saved, err = json.Marshal(st); err != nil {
		tb.Fatal(err)
	}
	if m.s, err = rooms.Restore(saved, reg); err != nil {
		tb.Fatal(err)
	}
	for _, c := range humans {
		m.send(c, rooms.SetStops{OwnTurn: []string{"precombat_main", "postcombat_main"}})
	}
	if got := m.permanents(); got < perms {
		tb.Fatalf("the room shows %d permanents", got)
	}
	return m
}

// playTo plays four-seat commander games of players with random answers
// until one holds perms permanents, and returns its state.
func playTo(tb testing.TB, cs rules.Cards, players []rooms.Player, perms int) []byte {
	for k := 0; k < 50; k++ {
		seed := fmt.Sprint("midgame-", k)
		g, err := rules.Setup(cs, rules.Config{Format: deck.Commander, Life: 30, Commander: true}, seed, players)
		if err != nil {
			tb.Fatal(err)
		}
		h := rng.For(seed, rng.System("bench", 0))
		for g.Result() == nil && g.Step().Turn < 80 {
			if len(g.View(rooms.Spectator).(rules.View).Battlefield) >= perms {
				b, err := g.State()
				if err != nil {
					tb.Fatal(err)
				}
				return b
			}
			moved := false
			for seat := range players {
				acts := g.Actions(seat)
				if len(acts) == 0 {
					continue
				}
				a := acts[h.Intn(len(acts))]
				if a.Type == "concede" {
					a = acts[0]
				}
				c := rooms.Choice{ActionID: a.ID, Targets: map[string][]string{}}
				for _, tc := range randomAnswer(a, h) {
					c.Targets[tc.Slot] = tc.Chosen
				}
				if _, err := g.Apply(seat, c); err != nil {
					c, _ := g.Timeout(seat)
					if _, err := g.Apply(seat, c); err != nil {
						tb.Fatal(err)
					}
				}
				moved = true
				break
			}
			if !moved {
				tb.Fatal("nobody is asked anything")
			}
		}
	}
	tb.Fatalf("no commander game reached %d permanents", perms)
	return nil
}

// permanents counts the battlefield of the first human's latest view.
func (m *midgame) permanents() int {
	var v struct {
		Battlefield []json.RawMessage `json:"battlefield"`
	}
	_ = json.Unmarshal(m.views["a"], &v)
	return len(v.Battlefield)
}

// next returns the command the first asked human answers with: a random
// action other than conceding, with random answers.
func (m *midgame) next() (string, []byte) {
	for _, c := range m.humans {
		var v struct {
			ValidActions []rooms.Action `json:"valid_actions"`
		}
		_ = json.Unmarshal(m.views[c], &v)
		acts := slices.DeleteFunc(v.ValidActions, func(a rooms.Action) bool { return a.Type == "concede" })
		if len(acts) == 0 {
			continue
		}
		a := acts[m.h.Intn(len(acts))]
		f, err := rooms.EncodeCommand(rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Targets: randomAnswer(a, m.h)})
		if err != nil {
			m.t.Fatal(err)
		}
		return c, f
	}
	m.t.Fatal("nobody is asked anything")
	return "", nil
}

// move sends one human's random command.
func (m *midgame) move() {
	conn, f := m.next()
	m.now += 50
	m.feed(m.s.Receive(conn, f, m.now, m.ids))
}

// TestCommanderMidgameIsCompact keeps the room record of a four-seat
// commander midgame with 60 permanents (its canonical game state, its
// log and its undo checkpoints, after enough commands to fill them) under
// 64 KB.
func TestCommanderMidgameIsCompact(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a four-seat game to 60 permanents")
	}
	m := commanderMidgame(t, 60)
	for range 32 { // fill the undo checkpoints
		m.move()
	}
	rec, ok := m.s.AppendRoomRecord(nil, m.room)
	if !ok {
		t.Fatal("no room record")
	}
	var r struct{ Room rooms.Room }
	if err := json.Unmarshal(rec, &r); err != nil {
		t.Fatal(err)
	}
	log, _ := json.Marshal(r.Room.Match.Log)
	t.Logf("%d permanents: state %d bytes, log %d bytes, %d checkpoints, room record %d bytes",
		m.permanents(), len(r.Room.Match.State), len(log), len(r.Room.Match.Checkpoints), len(rec))
	if len(rec) > 64<<10 {
		t.Fatalf("room record of %d bytes", len(rec))
	}
}

// BenchmarkCommand is one choose_action as a host delivers it to the room
// machine in a four-seat commander midgame with 60 permanents and four
// human seats: apply, settle (idle seats are passed), every seat's legal
// actions, and every seat's and a spectator's view encoded as frames, the
// state and an undo checkpoint committed. The answers are random legal
// ones; every 64 commands (and when a game ends) the room is restored to
// the midgame, untimed. record-B is the room's record (its canonical state,
// log and undo checkpoints) after 32 commands from the midgame.
func BenchmarkCommand(b *testing.B) {
	m := commanderMidgame(b, 60)
	start, err := m.s.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	views := map[string]json.RawMessage{}
	for k, v := range m.views {
		views[k] = v
	}
	for range 32 { // enough commands to fill the undo checkpoints
		m.move()
	}
	rec, _ := m.s.AppendRoomRecord(nil, m.room)
	b.Run("commander/4seats/60perms", func(b *testing.B) {
		b.ReportMetric(float64(len(rec)), "record-B")
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			if i%64 == 0 || m.over {
				if m.s, err = rooms.Restore(start, m.reg); err != nil {
					b.Fatal(err)
				}
				m.views, m.over = map[string]json.RawMessage{}, false
				for k, v := range views {
					m.views[k] = v
				}
			}
			conn, f := m.next()
			m.now += 50
			b.StartTimer()
			out, ch := m.s.Receive(conn, f, m.now, m.ids)
			b.StopTimer()
			m.feed(out, ch)
			b.StartTimer()
		}
	})
}
