package nativehost_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/bundle/nativehost"
	"github.com/storyloom/storyloom/engine/rooms"
)

// TestRestartFromFile plays rooms and Freeport against a SQLite file,
// closes everything, opens the file in a new host, and continues: the
// reclaimed seat is in the same game, the Freeport state and a retried
// Command's bytes are unchanged.
func TestRestartFromFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "host.db")
	var now atomic.Int64 // the host's ticker reads it from its own goroutine
	now.Store(1_780_000_000_000)
	clock := func() int64 { return now.Load() }
	game := filepath.Join("..", "..", "static", "freeport", "freeport.json")
	open := func() (*nativehost.Host, *httptest.Server) {
		h, err := nativehost.Open(ctx, nativehost.Config{Path: path, FreeportGame: game, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		for p, hd := range h.Handlers() {
			mux.Handle(p, hd)
		}
		return h, httptest.NewServer(mux)
	}
	host, srv := open()
	url := func(s *httptest.Server) string { return "ws" + strings.TrimPrefix(s.URL, "http") + "/rooms/ws" }

	// A room: two humans and an AI, a few moves.
	a, b := roomsclient.DialSeat(t, url(srv)), roomsclient.DialSeat(t, url(srv))
	for _, c := range []*roomsclient.Seat{a, b} {
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.Session != "" })
	}
	a.Send(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 3, GameSetup: "cheat"}})
	var id string
	a.WaitFor(func(v roomsclient.SeatView, _ int64) bool {
		if v.Room != nil {
			id = v.Room.RoomID
		}
		return v.Room != nil
	})
	b.Send(rooms.JoinRoom{RoomID: id})
	b.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.Room != nil })
	a.Send(rooms.AddAI{Seat: 2, Kind: "fox"})
	for _, c := range []*roomsclient.Seat{a, b} {
		now.Add(100)
		c.Send(rooms.Ready{Ready: true})
	}
	for _, c := range []*roomsclient.Seat{a, b} {
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.You != "" && v.Session == "" })
	}
	r := &roomsclient.Table{}
	for i := 0; i < 4; i++ {
		now.Add(200)
		playTwo(t, r, a, b)
	}
	// The AI answers after a human's move lands: wait until the game is
	// still, so the restart is compared with a settled state.
	nextLog := func() int64 {
		snap, err := host.Rooms.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		var state struct {
			Rooms map[string]struct {
				Match struct {
					NextLog int64 `json:"next_log"`
				} `json:"match"`
			} `json:"rooms"`
		}
		if err := json.Unmarshal(snap, &state); err != nil {
			t.Fatal(err)
		}
		return state.Rooms[id].Match.NextLog
	}
	seqBefore := nextLog()
	for settled := false; !settled; {
		for _, c := range []*roomsclient.Seat{a, b} {
			c.WaitFor(func(_ roomsclient.SeatView, s int64) bool { return s >= seqBefore })
		}
		time.Sleep(50 * time.Millisecond)
		n := nextLog()
		settled, seqBefore = n == seqBefore, n
	}

	// Freeport: enrol and pay.
	tok := postFP(t, srv, "", "token", "")
	tok = tok[strings.Index(tok, `"token":"`)+9 : strings.LastIndex(tok, `"`)]
	postFP(t, srv, tok, "", `{"protocolVersion":2,"action":"enroll","commandId":"e"}`)
	tok2 := postFP(t, srv, "", "token", "")
	tok2 = tok2[strings.Index(tok2, `"token":"`)+9 : strings.LastIndex(tok2, `"`)]
	enr := postFP(t, srv, tok2, "", `{"protocolVersion":2,"action":"enroll","commandId":"e"}`)
	pid := enr[strings.Index(enr, `"playerId":"`)+12:]
	pid = pid[:strings.Index(pid, `"`)]
	pay := fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"p","toPlayerId":%q,"assetId":"credits","quantity":9}`, pid)
	first := postFP(t, srv, tok, "", pay)
	inv := postFP(t, srv, tok2, "", `{"protocolVersion":2,"action":"readInventory"}`)

	// Kill: sockets cut, host closed; then a new host on the same file.
	srv.CloseClientConnections()
	srv.Close()
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	host, srv = open()
	defer srv.Close()
	defer host.Close()

	a2, b2 := roomsclient.DialSeat(t, url(srv)), roomsclient.DialSeat(t, url(srv))
	for i, c := range []*roomsclient.Seat{a2, b2} {
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.Session != "" })
		c.Send(rooms.Hello{Token: []*roomsclient.Seat{a, b}[i].Token()})
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.You != "" && v.Session == "" })
	}
	if _, seq, _ := a2.Latest(); seq != seqBefore {
		view, _ := a2.View()
		t.Fatalf("the game is at log sequence %d after the restart, %d before: %s", seq, seqBefore, view)
	}
	now.Add(200)
	playTwo(t, r, a2, b2)
	a2.WaitFor(func(_ roomsclient.SeatView, s int64) bool { return s > seqBefore }) // the game goes on
	if got := postFP(t, srv, tok, "", pay); got != first {
		t.Fatalf("a retry after the restart answered\n%s\nnot\n%s", got, first)
	}
	if got := postFP(t, srv, tok2, "", `{"protocolVersion":2,"action":"readInventory"}`); got != inv {
		t.Fatalf("inventory after the restart\n%s\nnot\n%s", got, inv)
	}
}

// playTwo makes one move for whichever of a and b has a decision.
func playTwo(t *testing.T, r *roomsclient.Table, a, b *roomsclient.Seat) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, c := range []*roomsclient.Seat{a, b} {
			v, seq, _ := c.Latest()
			if v.Result != nil {
				return
			}
			if len(v.ValidActions) == 0 {
				continue
			}
			act := v.ValidActions[len(v.ValidActions)-1]
			c.Send(roomsclient.FirstChoice(act))
			c.WaitFor(func(_ roomsclient.SeatView, s int64) bool { return s > seq })
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("nobody had a decision")
}

// postFP posts to the Freeport instance "freeport": path "token" asks for
// a token, "" sends body with bearer tok.
func postFP(t *testing.T, srv *httptest.Server, tok, path, body string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/freeport/freeport/"+path, strings.NewReader(body))
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}
