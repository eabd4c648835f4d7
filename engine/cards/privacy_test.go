package cards_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// wireCard is a card of a frame: its id and name.
type wireCard struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// TestPrivacyOverSeededGames plays seeded games through the room machine
// (two-seat starter duels, three- and four-seat free-for-alls and
// commander games of two to four seats, every seat a human connection
// answering at random, with undo asked now and then, and a spectator) and
// scans every frame of every input: no frame carries the game's seed, no
// frame carries the id of a card in another seat's hand unless that card
// is revealed to its receiver, and no seat's frame names a card hidden
// from it (in another seat's hand, not revealed to it, not in its own
// hand) unless the spectator's frame of the same input names it too (a
// card of that name public, or named aloud; the valid actions are left
// out of this check, as naming a card offers every name). Hands are read
// from their owners' own frames. 500 games, each played to its result
// or 40 inputs, every tenth to 200 (12 of up to 150 with -short), each
// input also sent to a server restored from the machine's saved bytes,
// which must send the same frames.
func TestPrivacyOverSeededGames(t *testing.T) {
	games, short, long := 500, 40, 200 // every tenth game long
	if testing.Short() {
		games, short, long = 12, 150, 150
	}
	cat, precons := shipped(t)
	reg, err := rooms.NewRegistry(cards.Games(cat)...)
	if err != nil {
		t.Fatal(err)
	}
	setups := []struct {
		format string
		seats  int
	}{{deck.StarterDuel, 2}, {deck.FreeForAll, 3}, {deck.Commander, 4}, {deck.FreeForAll, 4}, {deck.Commander, 2}, {deck.Commander, 3}}
	scanned, reveals, undos := 0, 0, 0
	for g := range games {
		setup := setups[g%len(setups)]
		seed := fmt.Sprint("privacy-", g)
		f, _ := deck.FormatByID(setup.format)
		decks := deck.For(precons, f, cat)
		humans := []string{"a", "b", "c", "d"}[:setup.seats]
		tb := &table{t: t, s: rooms.New(reg, rooms.Limits{CommandsPerSecond: 1 << 30}), restore: reg, ids: &rooms.DerivedIDs{Secret: seed},
			now: 1_000_000, views: map[string]json.RawMessage{}}
		var matchSeed string
		hands := map[string][]wireCard{} // each human's hand, from its latest frame
		spectator := ""                  // the spectator's latest game frame
		tb.scan = func(out []rooms.Outbound, games []*gameFrame) {
			shown := map[string][]wireCard{} // each receiver's revealed cards in this batch
			for i, o := range out {
				if o.Kind == rooms.KindSpectator {
					spectator = string(o.Frame)
				}
				v := games[i]
				if v == nil {
					continue
				}
				hands[o.Conn], shown[o.Conn] = v.MyHand, v.Revealed
				if len(v.Revealed) > 0 {
					reveals++
				}
			}
			for _, o := range out {
				scanned++
				frame := string(o.Frame)
				if matchSeed != "" && strings.Contains(frame, matchSeed) {
					t.Fatalf("%s: %s's %s frame carries the game's seed", seed, o.Conn, o.Kind)
				}
				ids := cardIDsIn(frame)
				for _, owner := range humans {
					if owner == o.Conn {
						continue
					}
					for _, c := range hands[owner] {
						if slices.Contains(shown[o.Conn], c) {
							continue
						}
						if ids[c.ID] {
							t.Fatalf("%s: %s's frame carries %s (%s), in %s's hand:\n%s", seed, o.Conn, c.ID, c.Name, owner, frame)
						}
						if o.Kind == rooms.KindGame && strings.Contains(frame, c.Name) && !strings.Contains(spectator, c.Name) &&
							!slices.ContainsFunc(hands[o.Conn], func(m wireCard) bool { return m.Name == c.Name }) &&
							!slices.ContainsFunc(shown[o.Conn], func(m wireCard) bool { return m.Name == c.Name }) &&
							strings.Contains(withoutMember(t, o.Frame, "valid_actions"), c.Name) {
							t.Fatalf("%s: %s's frame names %s, hidden in %s's hand:\n%s", seed, o.Conn, c.Name, owner, frame)
						}
					}
				}
			}
		}
		for _, c := range append(slices.Clone(humans), "watcher") {
			tb.now += 10
			tb.feed(tb.s.Connect(c, tb.now, tb.ids))
		}
		tb.send("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: setup.seats, GameSetup: setup.format, UndoEnabled: true}})
		for _, c := range humans[1:] {
			tb.send(c, rooms.JoinRoom{RoomID: tb.room})
		}
		for i, c := range humans {
			d := decks[(g+i)%len(decks)]
			tb.send(c, rooms.SubmitDeck{Cards: d.Cards, Commander: d.Commander})
		}
		for _, c := range humans {
			tb.send(c, rooms.Ready{Ready: true})
		}
		tb.send("watcher", rooms.SpectateRoom{RoomID: tb.room}) // a game under way
		if spectator == "" {
			t.Fatalf("%s: the spectator has no view", seed)
		}
		saved, err := tb.s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		st, err := rooms.DecodeState(saved)
		if err != nil {
			t.Fatal(err)
		}
		r := st.Rooms[tb.room]
		if r == nil || r.Match == nil || len(r.Match.Seed) < 16 {
			t.Fatalf("%s: no match with a seed in room %q", seed, tb.room)
		}
		matchSeed = r.Match.Seed
		h := rng.For(seed, rng.System("test", 0))
		inputs := short
		if g%10 == 9 {
			inputs = long
		}
		for step := 0; step < inputs && !tb.over; step++ {
			moved := false
			for _, c := range humans {
				acts := slices.DeleteFunc(slices.Clone(tb.actions(c)), func(a rooms.Action) bool { return a.Type == "concede" })
				if len(acts) == 0 {
					continue
				}
				a := acts[h.Intn(len(acts))]
				tb.send(c, rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Targets: randomAnswer(a, h)})
				if h.Intn(12) == 0 {
					tb.send(c, rooms.Undo{})
					undos++
				}
				moved = true
				break
			}
			if !moved {
				t.Fatalf("%s: step %d: nobody is asked anything and the game is not over", seed, step)
			}
		}
	}
	t.Logf("%d games, %d frames scanned, %d frames revealing cards, %d undos asked", games, scanned, reveals, undos)
	if reveals == 0 {
		t.Fatal("no frame revealed a card: the scan never saw a look at a hand or a library")
	}
}

// withoutMember returns the JSON object frame without its member key.
func withoutMember(t *testing.T, frame []byte, key string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(frame, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, key)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cardIDsIn returns the card ids ("card_" and digits, quoted) in frame.
func cardIDsIn(frame string) map[string]bool {
	ids := map[string]bool{}
	for rest := frame; ; {
		i := strings.Index(rest, `"card_`)
		if i < 0 {
			return ids
		}
		rest = rest[i+1:]
		if j := strings.IndexByte(rest, '"'); j >= 0 {
			ids[rest[:j]] = true
			rest = rest[j:]
		}
	}
}
