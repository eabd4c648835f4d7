//go:build !js

package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// FuzzRoomsCommand posts arbitrary bodies to POST /rooms/command as a
// seated player: every answer is a RoomsResponse with a known status, and
// a body refused as malformed, unknown or too large changes nothing.
func FuzzRoomsCommand(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello"}`, `{"type":"set_name","name":"Zed"}`, `{"type":"ready","ready":true}`,
		`{"type":"create_room","config":{"seats":2,"game_setup":"cheat"}}`, `{"type":"leave"}`,
		`{"type":"choose_action","action_id":"play:1","token":"x"}`, `{"type":"undo"}`,
		`{"type":`, `[]`, `null`, `{"type":7}`, `{"type":"mint"}`, "\xff\xfe", `{"type":"join_room","room_id":{}}`,
	} {
		f.Add([]byte(s))
	}
	clock := newTestClock()
	h, err := NewRooms(context.Background(), RoomsConfig{Store: &MemStore{}, Registry: cheattest.Registry(f), Clock: clock.now,
		Limits: rooms.Limits{CommandsPerSecond: 1 << 30}})
	if err != nil {
		f.Fatal(err)
	}
	handler := h.Handler()
	post := func(tok string, body []byte) (int, RoomsResponse) {
		req := httptest.NewRequest(http.MethodPost, "/rooms/command", bytes.NewReader(body))
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		var r RoomsResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
			f.Fatalf("status %d body is not a RoomsResponse: %q", rec.Code, rec.Body.Bytes())
		}
		return rec.Code, r
	}
	_, r := post("", []byte(`{"type":"hello"}`))
	tok := r.Session
	cfg, _ := rooms.EncodeCommand(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID}})
	post(tok, cfg)
	f.Fuzz(func(t *testing.T, body []byte) {
		clock.advance(1)
		before, _ := h.Snapshot()
		status, r := post(tok, body)
		switch status {
		case http.StatusOK, http.StatusRequestEntityTooLarge, http.StatusBadRequest:
		default:
			t.Fatalf("status %d for %q", status, body)
		}
		refused := false
		for _, fr := range r.Frames {
			if fr.Kind == rooms.KindError {
				var e rooms.LobbyErrorFrame
				if err := json.Unmarshal(fr.Frame, &e); err != nil {
					t.Fatalf("error frame %q", fr.Frame)
				}
				switch e.LobbyError.Code {
				case rooms.CodeMalformedFrame, rooms.CodeUnknownCommand, rooms.CodeFrameTooLarge:
					refused = true
				}
			} else if !json.Valid(fr.Frame) {
				t.Fatalf("invalid frame %q", fr.Frame)
			}
		}
		if refused {
			after, _ := h.Snapshot()
			if a, b := normalizeState(t, before, true), normalizeState(t, after, true); !bytes.Equal(a, b) {
				t.Fatalf("a refused %q changed the server", body)
			}
		}
		if r.Session != tok {
			// A hello may move this client to another session; follow it.
			tok = r.Session
		}
	})
}

// FuzzFreeportRequest posts arbitrary bodies to the Freeport endpoint as
// an enrolled player: every answer is a v2 envelope, and a refusal moves
// no State Version.
func FuzzFreeportRequest(f *testing.F) {
	for _, s := range []string{
		`{"protocolVersion":2,"action":"readInventory"}`, `{"protocolVersion":2,"action":"enroll","commandId":"e"}`,
		`{"protocolVersion":2,"action":"transfer","commandId":"t","toPlayerId":"p-x","assetId":"credits","quantity":1}`,
		`{"protocolVersion":2,"action":"setTradingName","commandId":"n","tradingName":null}`,
		`{"protocolVersion":1}`, `{`, `[]`, `"x"`, `{"protocolVersion":2,"action":"readInventory","x":1}`,
	} {
		f.Add([]byte(s))
	}
	clock := newTestClock()
	fp, err := NewFreeport(context.Background(), FreeportConfig{Store: &MemStore{}, Clock: clock.now,
		Games: map[string]*freeport.Game{"g": loadGame(f)}, CommandsPerSecond: 1 << 30})
	if err != nil {
		f.Fatal(err)
	}
	handler := fp.Handler()
	tok := fp.IssueToken()
	do := func(body []byte) (int, []byte) {
		req := httptest.NewRequest(http.MethodPost, "/freeport/g/", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes()
	}
	do([]byte(`{"protocolVersion":2,"action":"enroll","commandId":"e"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		v := fp.inst["g"].version.Load()
		status, b := do(body)
		var env struct {
			ProtocolVersion int                    `json:"protocolVersion"`
			OK              *bool                  `json:"ok"`
			StateVersion    *int64                 `json:"stateVersion"`
			Error           *struct{ Code string } `json:"error"`
		}
		if err := json.Unmarshal(b, &env); err != nil || env.ProtocolVersion != 2 || env.OK == nil || env.StateVersion == nil {
			t.Fatalf("status %d: not an envelope: %q", status, b)
		}
		if !*env.OK {
			if env.Error == nil || !strings.Contains(strings.Join(freeport.ErrorCodes(), " "), env.Error.Code) {
				t.Fatalf("refusal outside the closed set: %s", b)
			}
			if fp.inst["g"].version.Load() != v {
				t.Fatalf("a refused %q moved the State Version", body)
			}
		}
	})
}
