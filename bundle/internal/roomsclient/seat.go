package roomsclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// Seat is one client's WebSocket to a room server's /rooms/ws, native or
// at the edge: it keeps its latest view and when it arrived. A game view's
// log sequence is read off its bytes on arrival; the whole view is decoded
// only when asked for, so that clients sharing the machine's cores with
// the server under measurement spend little.
type Seat struct {
	t       testing.TB
	url     string          // the lobby's /rooms/ws
	conn    *websocket.Conn // guarded by mu: a move replaces it
	mu      sync.Mutex
	view    []byte
	v       SeatView // view, decoded on demand
	decoded bool
	seq     int64 // last log sequence of the latest game view
	frames  int   // views received
	at      time.Time
	tok     string
	wake    chan struct{}
}

// SeatView is what a Seat reads of a lobby or game view.
type SeatView struct {
	Session       string          `json:"session"`
	DirectoryPage int             `json:"directory_page"`
	Room          *rooms.RoomView `json:"room"`
	You           string          `json:"you"`
	ValidActions  []rooms.Action  `json:"valid_actions"`
	Result        *rooms.Result   `json:"result"`
}

// lastSequence returns the sequence of the last log entry of a canonical
// game view (0 when it has none). Keys are sorted and strings escaped, so
// the last `"sequence":` key is the last log entry's.
func lastSequence(view []byte) int64 {
	i := bytes.LastIndex(view, []byte(`"sequence":`))
	if i < 0 {
		return 0
	}
	var n int64
	for _, c := range view[i+len(`"sequence":`):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// DialSeat opens a Seat on the WebSocket at url (ws://…/rooms/ws); t is
// failed when the dial or a later send or wait fails.
func DialSeat(t testing.TB, url string) *Seat {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 20) // a card game's view passes the 32 KiB default
	s := &Seat{t: t, url: url, conn: c, wake: make(chan struct{}, 1)}
	go s.read()
	return s
}

// movedCode is the close code of a socket the edge worker moved to
// another Durable Object, its reason saying where (docs/edge-worker.md):
// "room:<id>", "spectate:<id>" or "lobby". The native host never moves
// one.
const movedCode = 4001

func (s *Seat) read() {
	for {
		s.mu.Lock()
		c := s.conn
		s.mu.Unlock()
		_, b, err := c.Read(context.Background())
		if err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) && ce.Code == movedCode && s.follow(ce.Reason) {
				continue
			}
			return
		}
		if bytes.HasPrefix(b, []byte(`{"lobby_error"`)) {
			continue
		}
		at := time.Now()
		s.mu.Lock()
		s.view, s.decoded, s.at = b, false, at
		s.frames++
		if s.tok == "" {
			s.decode()
			s.tok = s.v.Session
		}
		if n := lastSequence(b); n > 0 {
			s.seq = n
		}
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// decode decodes the latest view once; s.mu is held.
func (s *Seat) decode() {
	if !s.decoded {
		s.v = SeatView{}
		_ = json.Unmarshal(s.view, &s.v)
		s.decoded = true
	}
}

// follow reconnects where the worker moved the seat, as the rooms page
// does: to a room's object with a hello that reclaims the seat, to watch
// a room there, or back to the lobby's with a hello. It reports whether
// the new socket opened.
func (s *Seat) follow(where string) bool {
	room, enter := Move(where, s.Token())
	u := s.url
	if room != "" {
		u += "?room=" + url.QueryEscape(room)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		s.t.Errorf("following the move to %s: %v", where, err)
		return false
	}
	c.SetReadLimit(1 << 20)
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	s.Send(enter)
	return true
}

// Close closes the WebSocket at once.
func (s *Seat) Close() {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	_ = c.CloseNow()
}

// Token is the session the first lobby view named: the one to send in a
// Hello after a reconnect.
func (s *Seat) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tok
}

// Send sends one command.
func (s *Seat) Send(cmd rooms.Command) {
	b, _ := rooms.EncodeCommand(cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		s.t.Fatal(err)
	}
}

// Latest returns the latest view decoded, its log sequence and when it
// came.
func (s *Seat) Latest() (SeatView, int64, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.decode()
	return s.v, s.seq, s.at
}

// View returns the latest view's bytes and how many views came so far
// (CardSeat).
func (s *Seat) View() ([]byte, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view, s.frames
}

// Arrived returns the log sequence of the latest view and when it came.
func (s *Seat) Arrived() (int64, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.at
}

// wait waits until done reports true, waking on every view, for at most a
// minute; what names it in the failure.
func (s *Seat) wait(what func() string, done func() bool) {
	deadline := time.After(60 * time.Second)
	for !done() {
		select {
		case <-s.wake:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			s.t.Fatalf("seat: timed out waiting for %s", what())
		}
	}
}

// WaitFor waits until ok accepts the latest view.
func (s *Seat) WaitFor(ok func(v SeatView, seq int64) bool) {
	s.wait(func() string { b, _ := s.View(); return "a view; latest " + string(b[:min(len(b), 300)]) },
		func() bool { v, seq, _ := s.Latest(); return ok(v, seq) })
}

// WaitSeq waits until the latest view's log goes past seq, without
// decoding it.
func (s *Seat) WaitSeq(seq int64) {
	s.wait(func() string { return fmt.Sprintf("log entry %d", seq+1) },
		func() bool { n, _ := s.Arrived(); return n > seq })
}

// WaitRoom waits until the latest view is a lobby view whose room ok
// accepts (CardClient); what names the wait.
func (s *Seat) WaitRoom(what string, ok func(r *rooms.RoomView) bool) {
	s.wait(func() string { b, _ := s.View(); return what + "; latest " + string(b[:min(len(b), 300)]) },
		func() bool { v, _, _ := s.Latest(); return v.Room != nil && ok(v.Room) })
}

// Await waits until more than n views came (CardSeat).
func (s *Seat) Await(n int, what string) {
	s.wait(func() string { return what }, func() bool { _, got := s.View(); return got > n })
}

// Table is four human seats at one Cheat table.
type Table struct {
	Seats [4]*Seat
}

// Start seats the four at a new table and waits for the game.
func (r *Table) Start() {
	host := r.Seats[0]
	host.Send(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID}})
	var id string
	host.WaitFor(func(v SeatView, _ int64) bool {
		if v.Room != nil {
			id = v.Room.RoomID
		}
		return v.Room != nil
	})
	for _, c := range r.Seats[1:] {
		c.Send(rooms.JoinRoom{RoomID: id})
		c.WaitFor(func(v SeatView, _ int64) bool { return v.Room != nil })
	}
	for _, c := range r.Seats {
		c.Send(rooms.Ready{Ready: true})
	}
	for _, c := range r.Seats {
		c.WaitFor(func(v SeatView, _ int64) bool { return v.You != "" && v.Session == "" })
	}
}

// Step has the seat with a decision act, and returns the time from the
// send to the moment the last of the four seats received the view of it.
// A game over is left and a new one started first.
func (r *Table) Step() time.Duration {
	for {
		var actor *Seat
		var act rooms.Action
		var seq int64
		over := false
		for _, c := range r.Seats {
			v, s, _ := c.Latest()
			if v.Result != nil {
				over = true
				break
			}
			if len(v.ValidActions) > 0 {
				actor, act, seq = c, v.ValidActions[len(v.ValidActions)-1], s
				break
			}
		}
		if over {
			for _, c := range r.Seats {
				c.Send(rooms.Leave{})
				c.WaitFor(func(v SeatView, _ int64) bool { return v.Session != "" && v.Room == nil })
			}
			r.Start()
			continue
		}
		if actor == nil {
			time.Sleep(time.Millisecond)
			continue
		}
		t0 := time.Now()
		actor.Send(FirstChoice(act))
		var last time.Time
		for _, c := range r.Seats {
			c.WaitSeq(seq)
			if _, at := c.Arrived(); at.After(last) {
				last = at
			}
		}
		return last.Sub(t0)
	}
}

// FirstChoice answers act with the first candidate of every prompt.
func FirstChoice(act rooms.Action) rooms.ChooseAction {
	cmd := rooms.ChooseAction{ActionID: act.ID, Token: act.Token}
	for _, p := range act.Prompts {
		cmd.Targets = append(cmd.Targets, rooms.TargetChoice{Slot: p.Slot, Chosen: p.Candidates[:1]})
	}
	return cmd
}

// OpenTables opens n Tables of four Seats on the WebSocket at url and
// starts their games. Tables are set up a few at a time: every lobby
// connection on a changed page of the directory is sent a view, so 4n
// clients in the lobby at once would make the set-up quadratic.
func OpenTables(t testing.TB, url string, n int) []*Table {
	ts := make([]*Table, n)
	var wg sync.WaitGroup
	gate := make(chan struct{}, 4)
	for i := range ts {
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-gate }()
			r := &Table{}
			for j := range r.Seats {
				r.Seats[j] = DialSeat(t, url)
				r.Seats[j].WaitFor(func(v SeatView, _ int64) bool { return v.Session != "" })
			}
			r.Start()
			ts[i] = r
		}()
	}
	wg.Wait()
	return ts
}

// StepAll has every table make one move at once (think 0) or after a
// random think time of up to think, and returns each move's latency
// (Table.Step) in the order they came.
func StepAll(tables []*Table, think time.Duration) []time.Duration {
	var mu sync.Mutex
	var wg sync.WaitGroup
	lat := make([]time.Duration, 0, len(tables))
	for _, r := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if think > 0 {
				time.Sleep(rand.N(think))
			}
			d := r.Step()
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return lat
}

// CloseTables closes every seat of tables.
func CloseTables(tables []*Table) {
	for _, r := range tables {
		for _, s := range r.Seats {
			s.Close()
		}
	}
}
