package rooms_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

var seedFrames = []string{
	`{"type":"hello","token":"s:ab12"}`,
	`{"type":"create_room","config":{"seats":4,"game_setup":"cheat","name":"Casual","visibility":"private","undo_enabled":true,"action_seconds":30}}`,
	`{"type":"update_room","config":{"seats":2,"game_setup":"cheat"}}`,
	`{"type":"join_room","room_id":"r:7f3"}`,
	`{"type":"spectate_room","room_id":"r:7f3"}`,
	`{"type":"submit_deck","cards":["forest","verdant_scout"],"commander":"x"}`,
	`{"type":"add_ai","seat":1,"kind":"fox"}`,
	`{"type":"remove_ai","seat":1}`,
	`{"type":"ready","ready":true}`,
	`{"type":"set_name","name":"Alice"}`,
	`{"type":"request_catalog"}`,
	`{"type":"leave"}`,
	`{"type":"choose_action","action_id":"play:1","token":"t00","targets":[{"slot":"cards","chosen":["AS"]}],"submission":"s:1"}`,
	`{"type":"set_stops","stops":["end"],"own_turn":["play"]}`,
	`{"type":"undo"}`,
	`{"type":"ready","ready":"yes"}`,
	`[1,2]`,
	`{"type":7}`,
	``,
}

// FuzzDecodeCommand checks the decoder never panics, refuses with a
// *Rejection, and that what it accepts encodes back to a frame it decodes
// to the same command.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range seedFrames {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		c, err := rooms.DecodeCommand(frame)
		if err != nil {
			var rej *rooms.Rejection
			if !errors.As(err, &rej) || rej.Code == "" {
				t.Fatalf("error %v is not a coded rejection", err)
			}
			return
		}
		enc, err := rooms.EncodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		c2, err := rooms.DecodeCommand(enc)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		enc2, err := rooms.EncodeCommand(c2)
		if err != nil || !bytes.Equal(enc, enc2) || c2.Type() != c.Type() {
			t.Fatalf("round trip changed the command:\n%s\n%s", enc, enc2)
		}
	})
}

// FuzzServer drives a server holding a running three-seat Cheat game (two
// humans, an AI, a spectator, undo and a clock) with arbitrary inputs. Each
// input is one byte choosing a connection and an operation, then a frame up
// to the next newline. The machine must not panic, every frame must be
// JSON, a frame-level refusal must change no room, and the state must
// survive a save and a restore byte for byte.
func FuzzServer(f *testing.F) {
	for i, s := range seedFrames {
		f.Add([]byte(string(rune('P'+i)) + s + "\n" + string(rune('A'+i)) + `{"type":"undo"}`))
	}
	f.Add([]byte("\x00{\"type\":\"leave\"}\n\x05\n\x06\n\x07{\"type\":\"hello\"}"))
	f.Fuzz(func(t *testing.T, script []byte) {
		h := newHarness(t, rooms.Limits{CommandsPerSecond: 1000})
		for _, c := range []string{"a", "b", "s", "x"} {
			h.connect(c)
		}
		room := h.start(rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID, UndoEnabled: true, ActionSeconds: 10}, "fox")
		h.must("s", rooms.SpectateRoom{RoomID: room})
		conns := []string{"a", "b", "s", "x"}
		for n, line := range bytes.Split(script, []byte("\n")) {
			if n > 64 || len(line) == 0 {
				break
			}
			op, frame := line[0], line[1:]
			conn := conns[int(op)%len(conns)]
			before, _ := json.Marshal(rooms.RoomsOf(h.s))
			var out []rooms.Outbound
			switch op / 4 % 8 {
			case 0:
				out = h.tick(int64(op) * 500)
			case 1:
				out = h.disconnect(conn)
			case 2:
				out = h.connect(conn)
			default:
				out = h.raw(conn, frame)
			}
			for _, o := range out {
				if o.Kind == rooms.KindError {
					var e rooms.LobbyErrorFrame
					if err := json.Unmarshal(o.Frame, &e); err != nil {
						t.Fatal(err)
					}
					switch e.LobbyError.Code {
					case rooms.CodeMalformedFrame, rooms.CodeUnknownCommand, rooms.CodeFrameTooLarge:
						if after, _ := json.Marshal(rooms.RoomsOf(h.s)); !bytes.Equal(before, after) {
							t.Fatalf("a %s frame changed the rooms", e.LobbyError.Code)
						}
					case rooms.CodeInternal:
						t.Fatalf("internal error: %s", o.Frame)
					}
				}
			}
			b, err := h.s.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			s2, err := rooms.Restore(b, h.reg)
			if err != nil {
				t.Fatal(err)
			}
			if b2, _ := s2.Marshal(); !bytes.Equal(b, b2) {
				t.Fatal("restore changed the state")
			}
		}
	})
}

// FuzzPromptJSON checks that a Prompt decoded from any JSON re-encodes
// canonically to bytes that decode to the same prompt: the candidates
// member is a list of ids or of mana candidates by kind.
func FuzzPromptJSON(f *testing.F) {
	for _, s := range []string{
		`{"kind":"pay_mana","slot":"pay0","prompt":"Pay {G}","pip":"{G}","candidates":[{"id":"a","source":"perm_1","label":"Add {G}","taps":true}]}`,
		`{"kind":"pay_mana","slot":"pay0","prompt":"","candidates":[]}`,
		`{"kind":"select_from_zone","slot":"s","prompt":"p","zone":"hand","count":2,"min":0,"candidates":["a","b"]}`,
		`{"kind":"option","slot":"mode","prompt":"p","options":[{"id":"k","label":"Keep","requires":["bottom"]}]}`,
		`{"kind":"pay_mana","candidates":["a"]}`,
		`{"kind":"number","candidates":[{"id":"a"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p rooms.Prompt
		if json.Unmarshal(data, &p) != nil {
			return
		}
		enc, err := canon.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var p2 rooms.Prompt
		if err := json.Unmarshal(enc, &p2); err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		enc2, err := canon.Marshal(p2)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("%s re-encodes as %s (%v)", enc, enc2, err)
		}
	})
}
