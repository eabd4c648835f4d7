package rooms_test

import (
	"bytes"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// running seats a and b in a two-seat Cheat room with cfg and starts it.
func running(t *testing.T, cfg rooms.RoomConfig) *harness {
	t.Helper()
	h := lobbyHarness(t, rooms.Limits{})
	h.connect("a")
	h.connect("b")
	cfg.Seats, cfg.GameSetup = 2, cheat.ID
	h.start(cfg)
	h.game("a")
	return h
}

// mover returns the connection with a decision and its first action.
func mover(t *testing.T, h *harness) (string, rooms.Action) {
	t.Helper()
	for _, c := range []string{"a", "b"} {
		if g := h.game(c); len(g.ValidActions) > 0 {
			return c, g.ValidActions[0]
		}
	}
	t.Fatal("nobody has a decision")
	return "", rooms.Action{}
}

// TestGamePhaseRejections checks the in-game refusals: each re-sends the
// sender's unchanged view, with action_rejected where an action or an undo
// was refused, and changes no room.
func TestGamePhaseRejections(t *testing.T) {
	tests := []struct {
		name     string
		cfg      rooms.RoomConfig
		frame    func(h *harness) (string, []byte)
		code     string
		rejected bool
	}{
		{name: "undo disabled", frame: func(h *harness) (string, []byte) { return "a", []byte(`{"type":"undo"}`) },
			code: rooms.CodeUndoDisabled, rejected: true},
		{name: "nothing to undo", cfg: rooms.RoomConfig{UndoEnabled: true},
			frame: func(h *harness) (string, []byte) { return "a", []byte(`{"type":"undo"}`) },
			code:  rooms.CodeNothingToUndo, rejected: true},
		{name: "forged token", frame: func(h *harness) (string, []byte) {
			c, a := mover(t, h)
			b, _ := rooms.EncodeCommand(rooms.ChooseAction{ActionID: a.ID, Token: "t0000000000000000"})
			return c, b
		}, code: rooms.CodeStaleAction, rejected: true},
		{name: "not a candidate", frame: func(h *harness) (string, []byte) {
			c, a := mover(t, h)
			b, _ := rooms.EncodeCommand(rooms.ChooseAction{ActionID: a.ID, Token: a.Token,
				Targets: []rooms.TargetChoice{{Slot: cheat.SlotCards, Chosen: []string{"ZZ"}}}})
			return c, b
		}, code: rooms.CodeInvalidChoice, rejected: true},
		{name: "too many cards", frame: func(h *harness) (string, []byte) {
			c, a := mover(t, h)
			b, _ := rooms.EncodeCommand(rooms.ChooseAction{ActionID: a.ID, Token: a.Token,
				Targets: []rooms.TargetChoice{{Slot: cheat.SlotCards, Chosen: a.Prompts[0].Candidates[:5]}}})
			return c, b
		}, code: rooms.CodeInvalidChoice, rejected: true},
		{name: "unknown slot", frame: func(h *harness) (string, []byte) {
			c, a := mover(t, h)
			b, _ := rooms.EncodeCommand(rooms.ChooseAction{ActionID: a.ID, Token: a.Token,
				Targets: []rooms.TargetChoice{{Slot: cheat.SlotCards, Chosen: a.Prompts[0].Candidates[:1]}, {Slot: "x", Chosen: []string{"y"}}}})
			return c, b
		}, code: rooms.CodeInvalidChoice, rejected: true},
		{name: "not my turn", frame: func(h *harness) (string, []byte) {
			c, a := mover(t, h)
			other := map[string]string{"a": "b", "b": "a"}[c]
			b, _ := rooms.EncodeCommand(rooms.ChooseAction{ActionID: a.ID, Token: a.Token,
				Targets: []rooms.TargetChoice{{Slot: cheat.SlotCards, Chosen: a.Prompts[0].Candidates[:1]}}})
			return other, b
		}, code: rooms.CodeStaleAction, rejected: true},
		{name: "lobby command in game", frame: func(h *harness) (string, []byte) { return "a", []byte(`{"type":"ready","ready":false}`) },
			code: rooms.CodeInGame},
		{name: "leave a live game", frame: func(h *harness) (string, []byte) { return "a", []byte(`{"type":"leave"}`) },
			code: rooms.CodeInGame},
		{name: "malformed in game", frame: func(h *harness) (string, []byte) { return "a", []byte(`{"type":"choose_action","targets":7}`) },
			code: rooms.CodeMalformedFrame},
		{name: "bad stops", frame: func(h *harness) (string, []byte) {
			return "a", []byte(`{"type":"set_stops","stops":["End Step!"]}`)
		}, code: rooms.CodeInvalidStops},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := running(t, tt.cfg)
			conn, frame := tt.frame(h)
			before := roomsJSON(t, h)
			n := len(h.errs[conn])
			out := h.raw(conn, frame)
			if got := h.errs[conn][n:]; len(got) != 1 || got[0].Code != tt.code {
				t.Fatalf("rejections %+v, want %q", got, tt.code)
			}
			if len(out) != 2 || out[1].Conn != conn || out[1].Kind != rooms.KindGame {
				t.Fatalf("answer = %+v, want the error and the sender's view", out)
			}
			if g := h.game(conn); g.ActionRejected != tt.rejected {
				t.Fatalf("action_rejected = %v", g.ActionRejected)
			}
			if after := roomsJSON(t, h); !bytes.Equal(before, after) {
				t.Fatal("a refused frame changed the rooms")
			}
		})
	}
}

// TestStopsAndClock checks set_stops is reflected back (a step on both
// lists keeps only the wider claim), and that the deadline counts down
// from an absolute instant that a reconnect does not restart.
func TestStopsAndClock(t *testing.T) {
	h := running(t, rooms.RoomConfig{ActionSeconds: 60})
	h.must("a", rooms.SetStops{Stops: []string{"play"}, OwnTurn: []string{"play", "challenge"}})
	if g := h.game("a"); len(g.Stops) != 1 || len(g.OwnTurnStops) != 1 || g.OwnTurnStops[0] != "challenge" {
		t.Fatalf("stops = %v / %v", g.Stops, g.OwnTurnStops)
	}
	c, _ := mover(t, h)
	if d := h.game(c).ActionDeadline; d == nil || *d != 60 {
		t.Fatalf("deadline = %v", d)
	}
	h.now += 20_000
	tok := h.sessionOf(c)
	h.disconnect(c)
	h.connect(c + "2")
	h.must(c+"2", rooms.Hello{Token: tok})
	if d := h.game(c + "2").ActionDeadline; d == nil || *d != 40 {
		t.Fatalf("deadline after reconnect = %v, want 40", *d)
	}
	if at, ok := h.s.NextWake(); !ok || at != h.now+40_000-20 {
		t.Logf("NextWake = %d (now %d)", at, h.now)
	}
}

// TestFinishedReclaim checks a reclaiming hello into a finished game lands
// in the lobby.
func TestFinishedReclaim(t *testing.T) {
	h := lobbyHarness(t, rooms.Limits{})
	h.connect("a")
	h.connect("b")
	h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: "duel"}})
	h.must("a", rooms.SubmitDeck{Cards: []string{"heads", "tails"}})
	h.must("a", rooms.AddAI{Seat: 1, Kind: "coin", Cards: []string{"tails", "tails"}})
	tok := h.lobbyToken(t, "b")
	h.must("b", rooms.Hello{}) // a bare hello keeps the fresh session
	if h.lobby("b").Session != tok {
		t.Fatal("a bare hello changed the session")
	}
	tokA := h.sessionOf("a")
	h.must("a", rooms.Ready{Ready: true})
	win := h.game("a").ValidActions[0]
	h.must("a", rooms.ChooseAction{ActionID: win.ID, Token: win.Token})
	if g := h.game("a"); g.Result == nil {
		t.Fatalf("a's view = %+v", g)
	}
	h.disconnect("a")
	h.connect("a2")
	h.must("a2", rooms.Hello{Token: tokA})
	if v := h.lobby("a2"); v.Room != nil {
		t.Fatalf("reclaim into a finished game: %+v", v.Room)
	}
}
