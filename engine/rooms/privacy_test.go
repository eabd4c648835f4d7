package rooms_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

type randomOpts struct {
	seats, humans int
	undo          bool
	clock         int
	roundTrip     bool
	maxSteps      int
}

// playRandom plays one random Cheat game: opts.humans human seats acting at
// random (with undos, clock expiries and reconnects thrown in), the rest
// fox and random AIs, and a spectator. check, if set, sees every input's
// frames.
func playRandom(t testing.TB, seed string, o randomOpts, check func(h *harness, room string, out []rooms.Outbound)) (*harness, string) {
	t.Helper()
	h := newHarness(t, rooms.Limits{})
	h.ids.Secret = seed
	h.roundTrip = o.roundTrip
	r := rng.For(seed, rng.System("test", 0))
	conns := make([]string, o.humans)
	for i := range conns {
		conns[i] = fmt.Sprintf("h%d", i)
		h.connect(conns[i])
		if r.Intn(2) == 0 {
			h.must(conns[i], rooms.SetName{Name: fmt.Sprintf("Player %d", i)})
		}
	}
	h.connect("spec")
	h.must(conns[0], rooms.CreateRoom{Config: rooms.RoomConfig{Seats: o.seats, GameSetup: cheat.ID,
		UndoEnabled: o.undo, ActionSeconds: o.clock}})
	room := h.lobby(conns[0]).Room.RoomID
	for _, c := range conns[1:] {
		h.must(c, rooms.JoinRoom{RoomID: room})
	}
	for s := o.humans; s < o.seats; s++ {
		h.must(conns[0], rooms.AddAI{Seat: s, Kind: [...]string{"fox", "random"}[s%2]})
	}
	var room0 string
	h.onFrames = func(out []rooms.Outbound) {
		if check != nil && room0 != "" {
			check(h, room0, out)
		}
	}
	for _, c := range conns {
		h.must(c, rooms.Ready{Ready: true})
	}
	room0 = room
	h.must("spec", rooms.SpectateRoom{RoomID: room})
	steps := o.maxSteps
	if steps == 0 {
		steps = 4000
	}
	for step := 0; step < steps; step++ {
		if rooms.RoomsOf(h.s)[room].Match.Result != nil {
			break
		}
		switch p := r.NextPercent(); {
		case o.undo && p < 3:
			h.send(conns[r.Intn(len(conns))], rooms.Undo{})
			continue
		case o.clock > 0 && p < 6:
			h.tick(int64(o.clock)*1000 + 1)
			continue
		case p < 8:
			i := r.Intn(len(conns))
			tok := h.sessionOf(conns[i])
			h.disconnect(conns[i])
			conns[i] += "'"
			h.connect(conns[i])
			h.must(conns[i], rooms.Hello{Token: tok})
			continue
		}
		var ready []string
		for _, c := range conns {
			if o, ok := h.last[c]; ok && o.Kind == rooms.KindGame && len(h.game(c).ValidActions) > 0 {
				ready = append(ready, c)
			}
		}
		if len(ready) == 0 {
			t.Fatalf("step %d: no human has a decision and the game is not over", step)
		}
		c := ready[r.Intn(len(ready))]
		h.must(c, answer(h.game(c).ValidActions, r, ""))
	}
	return h, room
}

// sessionOf returns the token of conn's session, read from the state.
func (h *harness) sessionOf(conn string) string {
	return rooms.ConnsOf(h.s)[conn].Session
}

func cardName(id string) string {
	sym := map[byte]string{'S': "♠", 'H': "♥", 'D': "♦", 'C': "♣"}[id[len(id)-1]]
	return id[:len(id)-1] + sym
}

// TestPrivacy plays many random full games at every table size and scans
// every frame for another seat's cards: a card in a hand is never in any
// other seat's or a spectator's frame, a card in the pile in nobody's,
// unless a call turned it face up.
func TestPrivacy(t *testing.T) {
	games := 3
	if testing.Short() || runtime.GOOS == "js" {
		games = 1
	}
	for seats := 2; seats <= 8; seats++ {
		for g := 0; g < games; g++ {
			o := randomOpts{seats: seats, humans: 1 + g%seats, undo: g%2 == 0, clock: 30 * (g % 3)}
			t.Run(fmt.Sprintf("seats=%d/humans=%d/game=%d", seats, o.humans, g), func(t *testing.T) {
				public := map[string]bool{}
				scanned, own := 0, 0
				check := func(h *harness, room string, out []rooms.Outbound) {
					r := rooms.RoomsOf(h.s)[room]
					if r == nil || r.Match == nil {
						return
					}
					table := cheattest.Read(t, r.Match, public)
					for _, o := range out {
						seat := -1
						switch o.Kind {
						case rooms.KindGame:
							var v struct{ You string }
							if err := json.Unmarshal(o.Frame, &v); err != nil {
								t.Fatal(err)
							}
							if _, err := fmt.Sscanf(v.You, "p%d", &seat); err != nil || seat >= len(table.Hands) {
								t.Fatalf("a game view for seat %q", v.You)
							}
						case rooms.KindSpectator:
							for _, k := range []string{`"you"`, `"valid_actions"`, `"my_hand"`, `"action_deadline"`, `"action_ack"`} {
								if bytes.Contains(o.Frame, []byte(k)) {
									t.Fatalf("spectator frame carries %s", k)
								}
							}
						default:
							if bytes.Contains(o.Frame, []byte(`"hands"`)) || bytes.Contains(o.Frame, []byte(`"seed"`)) {
								t.Fatalf("%s frame carries game state: %s", o.Kind, o.Frame)
							}
							continue
						}
						mine, hidden := table.Hidden(seat, public)
						for _, c := range mine {
							if !bytes.Contains(o.Frame, []byte(`"`+c+`"`)) {
								t.Fatalf("seat %d's own card %s is missing from its view", seat, c)
							}
							own++
						}
						for _, c := range hidden {
							if bytes.Contains(o.Frame, []byte(`"`+c+`"`)) || bytes.Contains(o.Frame, []byte(`"`+cardName(c)+`"`)) {
								t.Fatalf("frame to %s (seat %d) leaks hidden card %s: %.400s", o.Conn, seat, c, o.Frame)
							}
						}
						if bytes.Contains(o.Frame, []byte(r.Match.Seed)) {
							t.Fatalf("frame to %s leaks the seed", o.Conn)
						}
						scanned++
					}
				}
				seed := fmt.Sprintf("privacy-%d-%d", seats, g)
				h, room := playRandom(t, seed, o, check)
				if scanned == 0 || own == 0 {
					t.Fatal("scanned nothing")
				}
				if rooms.RoomsOf(h.s)[room].Match.Result == nil {
					t.Logf("game unfinished after the step bound (%d frames scanned)", scanned)
				}
				for _, c := range []string{"h0"} {
					if strings.Contains(string(h.last[c].Frame), "session") && h.last[c].Kind == rooms.KindGame {
						t.Fatal("a game view carries a session token")
					}
				}
			})
		}
	}
}

// TestDeterminism plays the same random game three times, twice live and
// once with a save and a restore between every input: every frame and the
// final state are byte-identical.
func TestDeterminism(t *testing.T) {
	tests := []struct {
		name string
		o    randomOpts
	}{
		{name: "4 seats, 3 humans, undo, clock", o: randomOpts{seats: 4, humans: 3, undo: true, clock: 20, maxSteps: 300}},
		{name: "8 seats, 2 humans", o: randomOpts{seats: 8, humans: 2, maxSteps: 300}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(roundTrip bool) ([]rooms.Outbound, []byte) {
				o := tt.o
				o.roundTrip = roundTrip
				h, _ := playRandom(t, "determinism", o, nil)
				b, err := h.s.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				return h.frames, b
			}
			f1, s1 := run(false)
			f2, s2 := run(false)
			f3, s3 := run(true)
			if !bytes.Equal(s1, s2) || !bytes.Equal(s1, s3) {
				t.Fatal("final states differ")
			}
			for _, f := range [][]rooms.Outbound{f2, f3} {
				if len(f) != len(f1) {
					t.Fatalf("%d frames vs %d", len(f), len(f1))
				}
				for i := range f {
					if f[i].Conn != f1[i].Conn || !bytes.Equal(f[i].Frame, f1[i].Frame) {
						t.Fatalf("frame %d differs:\n%s\n%s", i, f1[i].Frame, f[i].Frame)
					}
				}
			}
		})
	}
}
