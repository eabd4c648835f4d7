package rooms_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// duel is a two-seat stub format with a deck, to exercise deck submission
// and format seat ranges: seat 0 claims the win.
type duel struct{}

type duelPos struct {
	Done bool `json:"done"`
}

func (duel) Format() rooms.Format {
	return rooms.Format{ID: "duel", Name: "Duel", MinSeats: 2, MaxSeats: 2,
		AI: []rooms.AIOption{{ID: "coin", Name: "Coin"}},
		Deck: &rooms.DeckRules{MinDeckSize: 2, MaxDeckSize: 4, MaxCopies: 2,
			Check: func(cards []string, commander string) ([]string, *rooms.Rejection) {
				count := map[string]int{}
				for _, c := range cards {
					if c != "heads" && c != "tails" {
						return nil, &rooms.Rejection{Code: rooms.CodeUnknownCard, Reason: "unknown card", Card: c}
					}
					if count[c]++; count[c] > 2 {
						return nil, &rooms.Rejection{Code: rooms.CodeCopyLimit, Reason: "more than 2 copies", Card: c}
					}
				}
				switch {
				case len(cards) < 2:
					return nil, &rooms.Rejection{Code: rooms.CodeBelowMinimum, Reason: "fewer than 2 cards"}
				case len(cards) > 4:
					return nil, &rooms.Rejection{Code: rooms.CodeAboveMaximum, Reason: "more than 4 cards"}
				}
				return []string{"W"}, nil
			}}}
}
func (duel) Setup(string, []rooms.Player) (rooms.Position, error) { return &duelPos{}, nil }
func (duel) Load(b []byte) (rooms.Position, error) {
	var p duelPos
	return &p, json.Unmarshal(b, &p)
}
func (p *duelPos) State() ([]byte, error) { return json.Marshal(p) }
func (p *duelPos) View(int) any           { return p }
func (p *duelPos) Actions(seat int) []rooms.Action {
	if p.Done || seat != 0 {
		return nil
	}
	return []rooms.Action{{ID: "win", Type: "win", Label: "Win"}}
}
func (p *duelPos) Apply(int, rooms.Choice) ([]rooms.Event, error) {
	p.Done = true
	return []rooms.Event{{"type": "won"}}, nil
}
func (p *duelPos) Timeout(int) (rooms.Choice, bool)         { return rooms.Choice{}, false }
func (p *duelPos) AI(string, int, *rng.Handle) rooms.Choice { return rooms.Choice{ActionID: "win"} }
func (p *duelPos) Result() *rooms.Result {
	if !p.Done {
		return nil
	}
	return &rooms.Result{Winner: "p0", Losers: []string{"p1"}, Reason: "claimed"}
}

func lobbyHarness(t testing.TB, lim rooms.Limits) *harness {
	h := newHarness(t, lim)
	reg, err := rooms.NewRegistry(cheat.Game{}, duel{})
	if err != nil {
		t.Fatal(err)
	}
	h.reg = reg
	h.s = rooms.New(reg, lim)
	return h
}

func roomsJSON(t *testing.T, h *harness) []byte {
	b, err := json.Marshal(rooms.RoomsOf(h.s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLobbyRejections sends every refusable lobby frame and checks its
// code, and that a refusal changes no room.
func TestLobbyRejections(t *testing.T) {
	cfg := func(seats int, setup string) rooms.RoomConfig {
		return rooms.RoomConfig{Seats: seats, GameSetup: setup}
	}
	raw := func(s string) []byte { return []byte(s) }
	tests := []struct {
		name  string
		conn  string // "host" (seated in a cheat room, seat 0), "guest" (seat 1) or "free"
		cmd   rooms.Command
		frame []byte
		code  string
	}{
		{name: "too few seats", conn: "free", cmd: rooms.CreateRoom{Config: cfg(1, cheat.ID)}, code: rooms.CodeInvalidSeatCount},
		{name: "too many seats", conn: "free", cmd: rooms.CreateRoom{Config: cfg(9, cheat.ID)}, code: rooms.CodeInvalidSeatCount},
		{name: "unknown format", conn: "free", cmd: rooms.CreateRoom{Config: cfg(2, "chess")}, code: rooms.CodeUnknownFormat},
		{name: "seats outside format", conn: "free", cmd: rooms.CreateRoom{Config: cfg(3, "duel")}, code: rooms.CodeSeatCountForFormat},
		{name: "long table name", conn: "free", cmd: rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID, Name: strings.Repeat("x", 33)}}, code: rooms.CodeInvalidRoomName},
		{name: "bad visibility", conn: "free", cmd: rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID, Visibility: "secret"}}, code: rooms.CodeInvalidVisibility},
		{name: "bad clock", conn: "free", cmd: rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID, ActionSeconds: 2}}, code: rooms.CodeInvalidClock},
		{name: "create while seated", conn: "host", cmd: rooms.CreateRoom{Config: cfg(2, cheat.ID)}, code: rooms.CodeAlreadyInRoom},
		{name: "join unknown room", conn: "free", cmd: rooms.JoinRoom{RoomID: "r:nope"}, code: rooms.CodeUnknownRoom},
		{name: "spectate unknown room", conn: "free", cmd: rooms.SpectateRoom{RoomID: "r:nope"}, code: rooms.CodeUnknownRoom},
		{name: "ready outside a room", conn: "free", cmd: rooms.Ready{Ready: true}, code: rooms.CodeNotInRoom},
		{name: "leave outside a room", conn: "free", cmd: rooms.Leave{}, code: rooms.CodeNotInRoom},
		{name: "deck for a deckless format", conn: "guest", cmd: rooms.SubmitDeck{Cards: []string{"AS"}}, code: rooms.CodeNoDeckNeeded},
		{name: "update by a guest", conn: "guest", cmd: rooms.UpdateRoom{Config: cfg(4, cheat.ID)}, code: rooms.CodeNotHost},
		{name: "shrink below occupancy", conn: "host", cmd: rooms.UpdateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}}, code: rooms.CodeSeatsBelowOccupancy},
		{name: "add ai by a guest", conn: "guest", cmd: rooms.AddAI{Seat: 2, Kind: "fox"}, code: rooms.CodeNotHost},
		{name: "add ai on an occupied seat", conn: "host", cmd: rooms.AddAI{Seat: 1, Kind: "fox"}, code: rooms.CodeSeatOccupied},
		{name: "add ai on no seat", conn: "host", cmd: rooms.AddAI{Seat: 7, Kind: "fox"}, code: rooms.CodeInvalidSeat},
		{name: "add unknown ai", conn: "host", cmd: rooms.AddAI{Seat: 2, Kind: "oracle"}, code: rooms.CodeUnknownAI},
		{name: "add ai with a deck", conn: "host", cmd: rooms.AddAI{Seat: 2, Kind: "fox", Cards: []string{"AS"}}, code: rooms.CodeNoDeckNeeded},
		{name: "remove a human", conn: "host", cmd: rooms.RemoveAI{Seat: 1}, code: rooms.CodeNotAISeat},
		{name: "empty name", conn: "free", cmd: rooms.SetName{Name: "   "}, code: rooms.CodeInvalidName},
		{name: "long name", conn: "free", cmd: rooms.SetName{Name: strings.Repeat("é", 33)}, code: rooms.CodeInvalidName},
		{name: "control in name", conn: "free", cmd: rooms.SetName{Name: "a\x07b"}, code: rooms.CodeInvalidName},
		{name: "game command in the lobby", conn: "host", cmd: rooms.ChooseAction{ActionID: "a", Token: "t"}, code: rooms.CodeNotInGame},
		{name: "undo in the lobby", conn: "free", cmd: rooms.Undo{}, code: rooms.CodeNotInGame},
		{name: "unknown session", conn: "free", cmd: rooms.Hello{Token: "s:forged"}, code: rooms.CodeUnknownSession},
		{name: "not JSON", conn: "free", frame: raw(`{"type":`), code: rooms.CodeMalformedFrame},
		{name: "not an object", conn: "free", frame: raw(`["hello"]`), code: rooms.CodeMalformedFrame},
		{name: "null", conn: "free", frame: raw(`null`), code: rooms.CodeMalformedFrame},
		{name: "no type", conn: "free", frame: raw(`{"token":"x"}`), code: rooms.CodeMalformedFrame},
		{name: "wrong field type", conn: "host", frame: raw(`{"type":"ready","ready":"yes"}`), code: rooms.CodeMalformedFrame},
		{name: "unknown type", conn: "free", frame: raw(`{"type":"dance"}`), code: rooms.CodeUnknownCommand},
		{name: "too large", conn: "free", frame: append(append([]byte(`{"type":"set_name","name":"`), bytes.Repeat([]byte("x"), rooms.MaxFrameBytes)...), `"}`...), code: rooms.CodeFrameTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := lobbyHarness(t, rooms.Limits{})
			for _, c := range []string{"host", "guest", "free"} {
				h.connect(c)
			}
			h.must("host", rooms.CreateRoom{Config: cfg(4, cheat.ID)})
			h.must("guest", rooms.JoinRoom{RoomID: h.lobby("host").Room.RoomID})
			h.must("host", rooms.AddAI{Seat: 3, Kind: "random"})
			before := roomsJSON(t, h)
			frame := tt.frame
			if frame == nil {
				var err error
				if frame, err = rooms.EncodeCommand(tt.cmd); err != nil {
					t.Fatal(err)
				}
			}
			n := len(h.errs[tt.conn])
			h.raw(tt.conn, frame)
			if got := h.errs[tt.conn][n:]; len(got) != 1 || got[0].Code != tt.code {
				t.Fatalf("rejections %+v, want %q", got, tt.code)
			}
			if after := roomsJSON(t, h); !bytes.Equal(before, after) {
				t.Fatalf("a refused frame changed the rooms:\n%s\n%s", before, after)
			}
		})
	}
}

// TestDecks submits decks to a deck format: each deck-legality class is
// named with the sender's own card, an accepted deck shows only its colours
// and the ready gate waits for it.
func TestDecks(t *testing.T) {
	h := lobbyHarness(t, rooms.Limits{})
	h.connect("a")
	h.connect("b")
	h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: "duel"}})
	room := h.lobby("a").Room.RoomID
	h.must("b", rooms.JoinRoom{RoomID: room})
	h.refused("a", rooms.Ready{Ready: true}, rooms.CodeDeckRequired)
	tests := []struct {
		name, code, card string
		cards            []string
	}{
		{name: "unknown card", cards: []string{"heads", "edge"}, code: rooms.CodeUnknownCard, card: "edge"},
		{name: "copy limit", cards: []string{"heads", "heads", "heads"}, code: rooms.CodeCopyLimit, card: "heads"},
		{name: "below minimum", cards: []string{"tails"}, code: rooms.CodeBelowMinimum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(h.errs["a"])
			h.send("a", rooms.SubmitDeck{Cards: tt.cards})
			if got := h.errs["a"][n:]; len(got) != 1 || got[0].Code != tt.code || got[0].Card != tt.card {
				t.Fatalf("rejections %+v, want %q card %q", got, tt.code, tt.card)
			}
		})
	}
	h.must("a", rooms.SubmitDeck{Cards: []string{"heads", "tails"}})
	if v := h.lobby("b"); !v.Room.Seats[0].Decked || len(v.Room.Seats[0].Colors) != 1 ||
		strings.Contains(string(h.last["b"].Frame), "heads") {
		t.Fatalf("b's view of a's deck: %s", h.last["b"].Frame)
	}
	h.must("a", rooms.Ready{Ready: true})
	h.must("b", rooms.SubmitDeck{Cards: []string{"tails", "tails"}})
	h.must("b", rooms.Ready{Ready: true})
	if g := h.game("a"); len(g.ValidActions) != 1 {
		t.Fatalf("a's game view: %+v", g)
	}
	a := h.game("a").ValidActions[0]
	h.must("a", rooms.ChooseAction{ActionID: a.ID, Token: a.Token})
	if g := h.game("b"); g.Result == nil || g.Result.Reason != "claimed" {
		t.Fatalf("b's result = %+v", g.Result)
	}
}

// TestUpdateRoom checks update_room's rules: growing appends seats,
// shrinking drops only empty seats, a seat-count change clears readiness
// and a name-only edit does not, a format change clears decks and AI seats.
func TestUpdateRoom(t *testing.T) {
	h := lobbyHarness(t, rooms.Limits{})
	h.connect("a")
	h.connect("b")
	h.connect("c")
	h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID}})
	room := h.lobby("a").Room.RoomID
	h.must("b", rooms.JoinRoom{RoomID: room})
	h.must("a", rooms.AddAI{Seat: 2, Kind: "random"})
	h.must("a", rooms.UpdateRoom{Config: rooms.RoomConfig{Seats: 5, GameSetup: cheat.ID}})
	h.must("b", rooms.Ready{Ready: true})
	h.must("a", rooms.UpdateRoom{Config: rooms.RoomConfig{Seats: 5, GameSetup: cheat.ID, Name: "  Night  ", Visibility: "private"}})
	v := h.lobby("b").Room
	if v.Config.Name != "Night" || !v.Seats[1].Ready || len(v.Seats) != 5 {
		t.Fatalf("after a name edit: %+v", v)
	}
	if d := h.lobby("c").Directory; len(d) != 0 {
		t.Fatalf("a private room is listed: %+v", d)
	}
	h.must("a", rooms.UpdateRoom{Config: rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID, UndoEnabled: true}})
	v = h.lobby("b").Room
	if len(v.Seats) != 3 || v.Seats[1].Ready || v.Seats[2].AI != "random" || !v.Config.UndoEnabled {
		t.Fatalf("after shrinking: %+v", v)
	}
	h.must("a", rooms.UpdateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: "duel"}})
	v = h.lobby("b").Room
	if len(v.Seats) != 2 || v.Seats[1].Decked || v.Seats[1].OccupiedBy == "" {
		t.Fatalf("after the format change: %+v", v)
	}
	// The private room is joinable by id, and full now.
	h.refused("c", rooms.JoinRoom{RoomID: room}, rooms.CodeRoomFull)
	h.must("a", rooms.Leave{})
	if v := h.lobby("b").Room; v.Seats[0].OccupiedBy == "" {
		t.Fatalf("the host's seat did not pass on: %+v", v)
	}
	h.must("c", rooms.JoinRoom{RoomID: room})
}

// TestLimits exercises the server's limits: rooms, connections, the frame
// rate, spectators, a taken session and idle expiry.
func TestLimits(t *testing.T) {
	t.Run("rooms", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{MaxRooms: 1})
		h.connect("a")
		h.connect("b")
		h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
		h.refused("b", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}}, rooms.CodeTooManyRooms)
	})
	t.Run("connections", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{MaxConnections: 2})
		h.connect("a")
		h.connect("b")
		h.connect("c")
		if !h.closed["c"] || h.errs["c"][0].Code != rooms.CodeTooManyConnections {
			t.Fatalf("third connection: closed=%v errs=%+v", h.closed["c"], h.errs["c"])
		}
		if _, ok := rooms.ConnsOf(h.s)["c"]; ok {
			t.Fatal("a refused connection was kept")
		}
	})
	t.Run("rate", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{CommandsPerSecond: 5})
		h.connect("a")
		frame := []byte(`{"type":"request_catalog"}`)
		var codes []string
		for i := 0; i < 7; i++ {
			out, _ := h.s.Receive("a", frame, 5_000_000, h.ids)
			for _, o := range out {
				if o.Kind == rooms.KindError {
					var f rooms.LobbyErrorFrame
					_ = json.Unmarshal(o.Frame, &f)
					codes = append(codes, f.LobbyError.Code)
				}
			}
		}
		if len(codes) != 2 || codes[0] != rooms.CodeRateLimited {
			t.Fatalf("codes = %v, want two rate_limited", codes)
		}
		if out, _ := h.s.Receive("a", frame, 5_001_000, h.ids); len(out) != 1 || out[0].Kind != rooms.KindCatalog {
			t.Fatalf("next second: %+v", out)
		}
	})
	t.Run("session taken", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{})
		h.connect("a")
		h.must("a", rooms.SetName{Name: "Ann"})
		tok := h.lobby("a").Session
		h.connect("a2")
		h.must("a2", rooms.Hello{Token: tok})
		if !h.closed["a"] || h.errs["a"][0].Code != rooms.CodeSessionTaken {
			t.Fatalf("old connection: closed=%v errs=%+v", h.closed["a"], h.errs["a"])
		}
		if v := h.lobby("a2"); v.Session != tok || v.Name != "Ann" {
			t.Fatalf("a2 = %+v", v)
		}
		h.disconnect("a") // the host closing the socket is harmless
	})
	t.Run("idle expiry", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{SessionIdleMillis: 60_000})
		h.connect("a")
		h.connect("b")
		h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
		h.must("b", rooms.JoinRoom{RoomID: h.lobby("a").Room.RoomID})
		h.disconnect("b")
		if v := h.lobby("a").Room.Seats[1]; v.Connected == nil || *v.Connected {
			t.Fatalf("b's held seat = %+v", v)
		}
		if at, ok := h.s.NextWake(); !ok || at != h.now+60_000 {
			t.Fatalf("NextWake = %d, %v", at, ok)
		}
		h.tick(60_001)
		if v := h.lobby("a").Room.Seats[1]; v.OccupiedBy != "" {
			t.Fatalf("b's seat after expiry = %+v", v)
		}
	})
	t.Run("spectators", func(t *testing.T) {
		h := lobbyHarness(t, rooms.Limits{MaxSpectators: 1})
		for _, c := range []string{"a", "s1", "s2"} {
			h.connect(c)
		}
		h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID}})
		room := h.lobby("a").Room.RoomID
		h.must("a", rooms.AddAI{Seat: 1, Kind: "fox"})
		h.must("a", rooms.Ready{Ready: true})
		h.must("s1", rooms.SpectateRoom{RoomID: room})
		h.refused("s2", rooms.SpectateRoom{RoomID: room}, rooms.CodeTooManySpectators)
		if d := h.lobby("s2").Directory; len(d) != 1 || d[0].Spectators != 1 || d[0].State != rooms.StateInProgress {
			t.Fatalf("directory = %+v", d)
		}
		// A spectator's frames are ignored: nothing comes back.
		if out, _ := h.s.Receive("s1", []byte(`{"type":"leave"}`), h.now+1, h.ids); len(out) != 0 {
			t.Fatalf("a spectator frame was answered: %+v", out)
		}
	})
}

// TestCatalog checks request_catalog lists the formats, their seat ranges,
// their AI kinds, and that Cheat needs no deck.
func TestCatalog(t *testing.T) {
	h := lobbyHarness(t, rooms.Limits{})
	h.connect("a")
	out := h.must("a", rooms.RequestCatalog{})
	if len(out) != 1 || out[0].Kind != rooms.KindCatalog {
		t.Fatalf("catalog answer = %+v", out)
	}
	var cv rooms.CatalogView
	if err := json.Unmarshal(out[0].Frame, &cv); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%d", cv.CatalogVersion)
	for _, f := range cv.Formats {
		got += fmt.Sprintf(" %s:%d..%d:deckless=%v:ai=%v", f.GameSetup, f.MinSeats, f.MaxSeats, f.Deckless, f.AI)
	}
	if want := "1 cheat:2..8:deckless=true:ai=[fox random] duel:2..2:deckless=false:ai=[coin]"; got != want {
		t.Fatalf("catalog = %q, want %q", got, want)
	}
}
