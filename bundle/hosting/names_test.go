//go:build !js

package hosting

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/displayname"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// nameCases are the names the probe used, each as the policy judges it
// (bundle/displayname's table test covers every class; these go through
// the hosts' wire).
var nameCases = []struct {
	name, in, want, detail string
}{
	{"a plain name", "Mara", "Mara", ""},
	{"fullwidth letters", "Ｍａｒａ", "Mara", ""},
	{"zero-width space", "Ma\u200Bra", "", displayname.ReasonInvisible},
	{"word joiner", "Ma\u2060ra", "", displayname.ReasonInvisible},
	{"soft hyphen", "Ma\u00ADra", "", displayname.ReasonInvisible},
	{"a direction mark", "Mara\u200F", "", displayname.ReasonBidi},
	{"right-to-left override", "\u202EaraM", "", displayname.ReasonBidi},
	{"one letter and 31 combining marks", "a" + strings.Repeat("\u0301", 31), "", displayname.ReasonMarks},
	{"a control character", "Ma\u0007ra", "", displayname.ReasonControl},
}

// TestRoomsNamesFollowThePolicy sends set_name and create_room over HTTP
// with each name: a refused one is invalid_name or invalid_room_name with
// the policy's reason in detail, an accepted one comes back normalized;
// and a frame with invalid UTF-8 is malformed_frame rather than a name
// with U+FFFD in it.
func TestRoomsNamesFollowThePolicy(t *testing.T) {
	e := newEnv(t, &MemStore{}, rooms.DefaultLimits())
	c := dialHTTP(e, "namer")
	for _, tc := range nameCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, cmd := range []struct {
				frame any
				code  string
			}{
				{rooms.SetName{Name: tc.in}, rooms.CodeInvalidName},
				{rooms.CreateRoom{Config: rooms.RoomConfig{GameSetup: cheat.ID, Seats: 2, Name: tc.in}}, rooms.CodeInvalidRoomName},
			} {
				e.clock.advance(time.Second) // under the frame rate limit
				frame := encodeCommand(t, cmd.frame.(rooms.Command))
				status, body := c.post(frame)
				rej := lobbyError(t, body)
				if tc.detail != "" {
					if rej.LobbyError.Code != cmd.code || rej.LobbyError.Detail != tc.detail {
						t.Errorf("%s: %d %s, want %s with detail %s", frame, status, body, cmd.code, tc.detail)
					}
					continue
				}
				if rej.LobbyError.Code != "" {
					t.Errorf("%s: refused %s", frame, body)
				}
				if tc.in != tc.want && strings.Contains(string(body), tc.in) {
					t.Errorf("%s: the view carries the name as sent, not normalized: %.300s", frame, body)
				}
				if !strings.Contains(string(body), fmt.Sprintf("%q", tc.want)) {
					t.Errorf("%s: the view does not carry %q: %.300s", frame, tc.want, body)
				}
				if _, ok := cmd.frame.(rooms.CreateRoom); ok {
					c.post([]byte(`{"type":"leave"}`))
				}
			}
		})
	}
	t.Run("invalid UTF-8", func(t *testing.T) {
		e.clock.advance(time.Second)
		_, body := c.post([]byte("{\"type\":\"set_name\",\"name\":\"Ma\xffra\"}"))
		if rej := lobbyError(t, body); rej.LobbyError.Code != rooms.CodeMalformedFrame {
			t.Errorf("answered %s, want malformed_frame", body)
		}
	})
}

// lobbyError is the rejection among the frames of an HTTP answer, or the
// zero frame.
func lobbyError(t *testing.T, body []byte) rooms.LobbyErrorFrame {
	t.Helper()
	var answer struct {
		Frames []struct {
			Kind  string          `json:"kind"`
			Frame json.RawMessage `json:"frame"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var rej rooms.LobbyErrorFrame
	for _, f := range answer.Frames {
		if f.Kind == rooms.KindError {
			_ = json.Unmarshal(f.Frame, &rej)
		}
	}
	return rej
}

// encodeCommand is a command's frame.
func encodeCommand(t *testing.T, cmd rooms.Command) []byte {
	t.Helper()
	b, err := rooms.EncodeCommand(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFreeportTradingNamesFollowThePolicy claims each name as a Trading
// Name: a refused one is invalid_trading_name naming the policy's reason,
// and an impostor's fullwidth copy of a trader's name normalizes to the
// same name, so the Standing marks the two apart instead of printing the
// impostor's as the original.
func TestFreeportTradingNamesFollowThePolicy(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 0)
	tok := e.Token()
	e.Must(tok, `{"protocolVersion":2,"action":"enroll","commandId":"e"}`)
	for i, tc := range nameCases {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"protocolVersion": 2, "action": "setTradingName", "commandId": fmt.Sprint("n", i), "tradingName": tc.in})
			status, res := e.Post(tok, string(body))
			if status != http.StatusOK {
				t.Fatalf("status %d %s", status, res)
			}
			var env struct {
				OK     bool `json:"ok"`
				Result struct {
					TradingName *string `json:"tradingName"`
				} `json:"result"`
				Error struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(res, &env); err != nil {
				t.Fatal(err)
			}
			if tc.detail != "" {
				if env.OK || env.Error.Code != "invalid_trading_name" || !strings.Contains(env.Error.Message, tc.detail) {
					t.Errorf("answered %s, want invalid_trading_name naming %s", res, tc.detail)
				}
				return
			}
			if !env.OK || env.Result.TradingName == nil || *env.Result.TradingName != tc.want {
				t.Errorf("answered %s, want the name %q", res, tc.want)
			}
		})
	}
	t.Run("an impostor's fullwidth copy is told apart", func(t *testing.T) {
		impostor := e.Token()
		e.Must(impostor, `{"protocolVersion":2,"action":"enroll","commandId":"e"}`)
		e.Must(impostor, `{"protocolVersion":2,"action":"setTradingName","commandId":"n","tradingName":"Ｍａｒａ"}`)
		_, b := e.Post(tok, `{"protocolVersion":2,"action":"readStanding"}`)
		var env struct {
			Result struct {
				Players []struct {
					PlayerName string `json:"playerName"`
				} `json:"players"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatal(err)
		}
		plain := 0
		for _, p := range env.Result.Players {
			if p.PlayerName == "Mara" {
				plain++
			}
		}
		if len(env.Result.Players) != 2 || plain != 0 {
			t.Errorf("standing %s: two claims of Mara must both be marked", b)
		}
	})
}
