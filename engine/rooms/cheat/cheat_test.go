package cheat

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

func players(n int) []rooms.Player {
	ps := make([]rooms.Player, n)
	for i := range ps {
		ps[i] = rooms.Player{Seat: i, ID: rooms.PlayerID(i)}
	}
	return ps
}

// fixed returns a two-seat position with the given hands, seat 0 to play
// Aces.
func fixed(h0, h1 []string) *state {
	st := &state{Hands: [][]string{h0, h1}, Pile: []string{}, Phase: PhasePlay, Play: 1, Winner: -1}
	// Fill the pile with the rest of the deck so Load's invariant holds.
	in := map[string]bool{}
	for _, c := range append(append([]string{}, h0...), h1...) {
		in[c] = true
	}
	for _, s := range suitList() {
		for _, r := range rankNames() {
			if !in[r+s.letter] {
				st.Pile = append(st.Pile, r+s.letter)
			}
		}
	}
	return st
}

func TestSetupDealsTheDeck(t *testing.T) {
	for n := 2; n <= 8; n++ {
		pos, err := Game{}.Setup("seed", players(n))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := pos.State()
		if _, err := (Game{}).Load(b); err != nil {
			t.Fatalf("%d seats: dealt state does not load: %v", n, err)
		}
		st := pos.(*state)
		for i, h := range st.Hands {
			if want := 52/n + map[bool]int{true: 1}[i < 52%n]; len(h) != want {
				t.Fatalf("%d seats: seat %d holds %d, want %d", n, i, len(h), want)
			}
		}
		again, _ := Game{}.Setup("seed", players(n))
		b2, _ := again.State()
		if !bytes.Equal(b, b2) {
			t.Fatal("setup is not deterministic")
		}
	}
	if _, err := (Game{}).Setup("seed", players(9)); err == nil {
		t.Fatal("9 seats accepted")
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name            string
		h0, h1          []string
		play            []string
		call            bool
		wantHand0       int
		wantHand1       int
		wantPhase       string
		wantTruthful    bool
		wantResultOwner string
	}{
		{name: "truthful play stands", h0: []string{"AS", "AH", "5C"}, h1: []string{"KD"}, play: []string{"AS", "AH"},
			wantHand0: 1, wantHand1: 1, wantPhase: PhasePlay},
		{name: "lie is caught", h0: []string{"AS", "5C"}, h1: []string{"KD"}, play: []string{"5C"}, call: true,
			wantHand0: 1 + 50, wantHand1: 1, wantPhase: PhasePlay},
		{name: "wrong call costs the caller", h0: []string{"AS", "5C"}, h1: []string{"KD"}, play: []string{"AS"}, call: true,
			wantHand0: 1, wantHand1: 1 + 50, wantPhase: PhasePlay, wantTruthful: true},
		{name: "last cards standing win", h0: []string{"AS"}, h1: []string{"KD"}, play: []string{"AS"},
			wantHand0: 0, wantHand1: 1, wantPhase: PhaseOver, wantResultOwner: "p0"},
		{name: "last cards called truthfully win", h0: []string{"AS"}, h1: []string{"KD"}, play: []string{"AS"}, call: true,
			wantHand0: 0, wantHand1: 1 + 1 + 50, wantPhase: PhaseOver, wantResultOwner: "p0", wantTruthful: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := fixed(tt.h0, tt.h1)
			if _, err := st.Apply(0, playChoice(st, tt.play...)); err != nil {
				t.Fatal(err)
			}
			if len(st.Actions(0)) != 0 || len(st.Actions(1)) != 2 {
				t.Fatalf("challenge window: %v / %v", st.Actions(0), st.Actions(1))
			}
			id := st.passID()
			if tt.call {
				id = st.callID()
			}
			evs, err := st.Apply(1, rooms.Choice{ActionID: id})
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Hands[0]) != tt.wantHand0 || len(st.Hands[1]) != tt.wantHand1 || st.Phase != tt.wantPhase {
				t.Fatalf("hands %d/%d phase %s, want %d/%d %s", len(st.Hands[0]), len(st.Hands[1]), st.Phase,
					tt.wantHand0, tt.wantHand1, tt.wantPhase)
			}
			if tt.call && (st.LastCall == nil || st.LastCall.Truthful != tt.wantTruthful || evs[0]["type"] != "called") {
				t.Fatalf("last call = %+v, events %v", st.LastCall, evs)
			}
			if r := st.Result(); (r == nil) != (tt.wantResultOwner == "") || (r != nil && r.Winner != tt.wantResultOwner) {
				t.Fatalf("result = %+v", r)
			}
			if st.Phase == PhasePlay && (st.Turn != 1 || st.Rank != 1 || st.Play != 2) {
				t.Fatalf("next turn: seat %d rank %d play %d", st.Turn, st.Rank, st.Play)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	st := fixed([]string{"AS", "AH", "AD", "AC", "2S"}, []string{"KD"})
	for _, c := range []rooms.Choice{
		playChoice(st),
		playChoice(st, "AS", "AH", "AD", "AC", "2S"),
		playChoice(st, "KD"),
		playChoice(st, "AS", "AS"),
		{ActionID: "play:9", Targets: map[string][]string{SlotCards: {"AS"}}},
		{ActionID: st.passID()},
	} {
		before, _ := st.State()
		if _, err := st.Apply(0, c); err == nil {
			t.Fatalf("accepted %+v", c)
		}
		if after, _ := st.State(); !bytes.Equal(before, after) {
			t.Fatalf("a refused %+v changed the state", c)
		}
	}
	if _, err := st.Apply(1, playChoice(st, "KD")); err == nil {
		t.Fatal("seat 1 played out of turn")
	}
}

func TestViewRedacts(t *testing.T) {
	st := fixed([]string{"AS", "5C"}, []string{"KD"})
	for _, tt := range []struct {
		name   string
		seat   int
		hidden []string
	}{
		{name: "seat 0", seat: 0, hidden: []string{"KD"}},
		{name: "seat 1", seat: 1, hidden: []string{"AS", "5C"}},
		{name: "spectator", seat: rooms.Spectator, hidden: []string{"AS", "5C", "KD"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(st.View(tt.seat))
			for _, c := range append(tt.hidden, st.Pile...) {
				if bytes.Contains(b, []byte(`"`+c+`"`)) {
					t.Fatalf("view leaks %s: %s", c, b)
				}
			}
		})
	}
}

func TestTimeoutAndAI(t *testing.T) {
	st := fixed([]string{"2S", "AH", "9C"}, []string{"KD", "KS"})
	c, ok := st.Timeout(0)
	if !ok || len(c.Targets[SlotCards]) != 1 || c.Targets[SlotCards][0] != "AH" {
		t.Fatalf("timeout play = %+v", c)
	}
	if _, ok := st.Timeout(1); ok {
		t.Fatal("a seat with nothing to decide has a timeout")
	}
	for _, kind := range []string{"fox", "random"} {
		for i := 0; i < 200; i++ {
			s := fixed([]string{"2S", "AH", "9C", "AD", "7S", "QH"}, []string{"KD", "KS"})
			h := rng.For("ai", rng.Agent(kind, i))
			if _, err := s.Apply(0, s.AI(kind, 0, h)); err != nil {
				t.Fatalf("%s play refused: %v", kind, err)
			}
			if _, err := s.Apply(1, s.AI(kind, 1, h)); err != nil {
				t.Fatalf("%s answer refused: %v", kind, err)
			}
		}
	}
	// The fox always calls a claim it knows is false.
	s := fixed([]string{"2S", "KH"}, []string{"AS", "AH", "AD", "KD"})
	if _, err := s.Apply(0, playChoice(s, "2S")); err != nil {
		t.Fatal(err)
	}
	if c := s.AI("fox", 1, rng.For("x", rng.Agent("fox", 0))); !strings.HasPrefix(c.ActionID, "call:") {
		t.Fatalf("fox holding three Aces let a claimed Ace stand: %+v", c)
	}
}

func TestLoadRefusesBrokenStates(t *testing.T) {
	for _, s := range []string{`{}`, `[]`, `{"hands":[["AS"],["AS"]],"pile":[]}`, `{"hands":[[],[]],"pile":[],"phase":"dance"}`} {
		if _, err := (Game{}).Load([]byte(s)); err == nil {
			t.Fatalf("loaded %s", s)
		}
	}
}

// TestParse checks the card parser against the rank and suit names, and
// refuses near misses.
func TestParse(t *testing.T) {
	for si, s := range suitList() {
		for ri, r := range rankNames() {
			if gr, gs, ok := parse(r + s.letter); !ok || gr != ri || gs != si {
				t.Errorf("parse(%q) = %d, %d, %v", r+s.letter, gr, gs, ok)
			}
		}
	}
	for _, bad := range []string{"", "A", "1S", "0H", "11D", "AX", "aS", "10", "100C", "KSS", "♠A"} {
		if _, _, ok := parse(bad); ok {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
}
