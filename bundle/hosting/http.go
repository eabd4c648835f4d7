package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/storyloom/storyloom/engine/rooms"
)

// MaxPollWait is the longest a GET /rooms/view long-poll waits for a frame.
const MaxPollWait = 25 * time.Second

// RoomsResponse is the body of every rooms HTTP response: the session
// token the connection holds now (keep it; it is the bearer for every
// later request), the number of the newest frame in its mailbox, and the
// frames the request produced or that are newer than ?after.
type RoomsResponse struct {
	Session string      `json:"session,omitempty"`
	Seq     int64       `json:"seq"`
	Frames  []MailFrame `json:"frames"`
	// Move, when set, says the connection was moved (rooms.KindMove): to
	// a room's server at the edge (room:<id>, spectate:<id>) or back to
	// the lobby's. The native host never moves one.
	Move string `json:"move,omitempty"`
}

// Handler returns the rooms HTTP API (docs/hosting.md):
//
//	POST /rooms/command   one command frame; Authorization: Bearer <session>
//	GET  /rooms/view      ?after=<seq>&wait=<ms>; Authorization: Bearer <session>
//
// It runs on any platform; the native host serves the WebSocket transport
// (ServeWebSocket) beside it.
func (h *Rooms) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /rooms/command", h.serveCommand)
	mux.HandleFunc("GET /rooms/view", h.serveView)
	return mux
}

// Bearer returns the request's Authorization bearer token, or "": the
// session or Freeport token, never a cookie. The edge worker reads its
// rate limits' keys with it too.
func Bearer(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // frames pass through byte for byte
	if err := enc.Encode(v); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	b := buf.Bytes()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// rejectionFrame returns a lobby_error frame the host itself refuses with.
func rejectionFrame(code, reason string) MailFrame {
	b, _ := json.Marshal(rooms.LobbyErrorFrame{LobbyError: rooms.Rejection{Code: code, Reason: reason}})
	return MailFrame{Kind: rooms.KindError, Frame: b}
}

func (h *Rooms) serveCommand(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, rooms.MaxFrameBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, RoomsResponse{Frames: []MailFrame{
				rejectionFrame(rooms.CodeFrameTooLarge, "a frame is at most 65536 bytes")}})
			return
		}
		writeJSON(w, http.StatusBadRequest, RoomsResponse{Frames: []MailFrame{
			rejectionFrame(rooms.CodeMalformedFrame, "the request body could not be read")}})
		return
	}
	tok := Bearer(r)
	conn := ""
	if tok != "" {
		conn = h.connOf(tok)
	}
	var inputs []rooms.Input
	var prev int64
	if conn == "" {
		client := h.cfg.ClientAddr(r)
		if retry, over := h.overSessions(r.Context(), client); over {
			w.Header().Set("Retry-After", strconv.FormatInt(retry, 10))
			writeJSON(w, http.StatusTooManyRequests, RoomsResponse{Frames: []MailFrame{rejectionFrame(rooms.CodeRateLimited,
				fmt.Sprintf("more than %d new connections a minute from one address", h.cfg.SessionsPerMinute))}})
			return
		}
		conn = NewConnID(HTTPConnPrefix)
		inputs = append(inputs, rooms.Input{Kind: rooms.InputConnect, Conn: conn, Client: client})
		if tok != "" {
			hello, _ := rooms.EncodeCommand(rooms.Hello{Token: tok})
			inputs = append(inputs, rooms.Input{Kind: rooms.InputFrame, Conn: conn, Frame: hello})
		}
	} else if mb, _ := h.mailboxOf(conn); mb != nil {
		prev = mb.Seq
	}
	inputs = append(inputs, rooms.Input{Kind: rooms.InputFrame, Conn: conn, Frame: body})
	outs, err := h.Do(r.Context(), inputs)
	if err != nil {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, RoomsResponse{Frames: []MailFrame{
			rejectionFrame(rooms.CodeInternal, "the room server could not commit; retry")}})
		return
	}
	status := http.StatusOK
	var frames []MailFrame
	for _, o := range outs {
		if o.Conn != conn {
			continue
		}
		if o.Kind == rooms.KindError {
			var f rooms.LobbyErrorFrame
			_ = json.Unmarshal(o.Frame, &f)
			switch f.LobbyError.Code {
			case rooms.CodeRateLimited:
				status = http.StatusTooManyRequests
			case rooms.CodeTooManyConnections:
				status = http.StatusServiceUnavailable
			}
		}
	}
	resp := RoomsResponse{Session: h.sessionOf(conn)}
	if mb, _ := h.mailboxOf(conn); mb != nil {
		resp.Seq, resp.Move = mb.Seq, mb.Move
		frames = mb.since(prev)
	} else {
		// The machine did not keep the connection this request opened (a
		// full server, a vacant room's server): its frames went to no
		// mailbox, and are this answer's alone.
		for _, o := range outs {
			switch {
			case o.Conn != conn:
			case o.Kind == rooms.KindMove:
				resp.Move = o.Move
			default:
				frames = append(frames, MailFrame{Kind: o.Kind, Frame: o.Frame})
			}
		}
	}
	if frames == nil {
		frames = []MailFrame{}
	}
	resp.Frames = frames
	if status != http.StatusOK {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, status, resp)
}

func (h *Rooms) serveView(w http.ResponseWriter, r *http.Request) {
	tok := Bearer(r)
	conn := ""
	if tok != "" {
		conn = h.connOf(tok)
	}
	if rej := h.vacant(); rej != nil && conn == "" {
		// A room's server that holds no room (at the edge, a game released
		// or never handed off) sends the poll to the lobby, as it does a
		// new connection: a poll without a session with unknown_room. A
		// poll with one is a player's whose session was here, such as the
		// poll still in flight when the player's leave released the room:
		// it is told only where to go, as the leave's own answer does.
		resp := RoomsResponse{Frames: []MailFrame{}, Move: rooms.MoveLobby}
		if tok == "" {
			resp.Frames = append(resp.Frames, rejectionFrame(rej.Code, rej.Reason))
		}
		writeJSON(w, http.StatusOK, resp)
		return
	}
	if tok == "" {
		w.Header().Set("WWW-Authenticate", "Bearer")
		writeJSON(w, http.StatusUnauthorized, RoomsResponse{Frames: []MailFrame{
			rejectionFrame(rooms.CodeUnknownSession, "send the session token as Authorization: Bearer <token>")}})
		return
	}
	if room := h.awayIn(tok); conn == "" && room != "" {
		// Its game went to a server of its own (the edge's hand-off).
		writeJSON(w, http.StatusOK, RoomsResponse{Frames: []MailFrame{}, Move: rooms.MoveRoom(room)})
		return
	}
	if conn == "" {
		writeJSON(w, http.StatusNotFound, RoomsResponse{Frames: []MailFrame{
			rejectionFrame(rooms.CodeUnknownSession, "no HTTP connection holds this session; POST a hello to /rooms/command with it")}})
		return
	}
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	waitMS, _ := strconv.ParseInt(r.URL.Query().Get("wait"), 10, 64)
	wait := min(time.Duration(max(waitMS, 0))*time.Millisecond, MaxPollWait)
	h.touch(conn)
	var timer <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	}
	for {
		mb, changed := h.mailboxOf(conn)
		resp := RoomsResponse{Session: tok, Frames: []MailFrame{}}
		if mb != nil {
			resp.Seq, resp.Move = mb.Seq, mb.Move
			if f := mb.since(after); len(f) > 0 {
				resp.Frames = f
			}
		}
		if len(resp.Frames) > 0 || resp.Move != "" || timer == nil {
			writeJSON(w, http.StatusOK, resp)
			return
		}
		select {
		case <-changed:
		case <-timer:
			timer = nil
		case <-r.Context().Done():
			return
		}
	}
}

// overSessions counts one new connection for client and reports whether
// that is over SessionsPerMinute, with the seconds to the next minute. A
// count that fails, and a client with no known address, are let through.
func (h *Rooms) overSessions(ctx context.Context, client string) (retry int64, over bool) {
	if h.cfg.SessionsPerMinute < 0 || client == "" {
		return 0, false
	}
	sec := h.cfg.Clock() / 1000
	minute := sec - sec%60
	n, err := h.cfg.SessionRate.Count(ctx, "rooms-session/"+h.cfg.Name+"/"+client, minute)
	return minute + 60 - sec, err == nil && n > int64(h.cfg.SessionsPerMinute)
}

// touch records a request on HTTP connection conn, keeping it from idling
// out.
func (h *Rooms) touch(conn string) {
	h.b.lock()
	if h.seen != nil {
		if _, ok := h.seen[conn]; ok {
			h.seen[conn] = h.cfg.Clock()
		}
	}
	h.b.unlock()
}
