package edge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/rooms"
)

// wsPeer is one WebSocket client of the room server's Durable Object: a
// reader keeps its frames in an Inbox.
type wsPeer struct {
	*roomsclient.Inbox
	base  string
	mu    sync.Mutex
	c     *websocket.Conn // a move replaces it
	moves []string        // where the worker moved it, in order
	done  chan struct{}

	held chan struct{} // while paused, closed by resume
}

// movedCode is the close code of a socket the worker moved to another
// object, its reason saying where (docs/edge-worker.md).
const movedCode = 4001

func dialWS(t testing.TB, base, name string) *wsPeer {
	t.Helper()
	return dialWSRoom(t, base, name, "")
}

// dialWSRoom connects a WebSocket client to room's object ("" for the
// lobby's), as a page does after a move.
func dialWSRoom(t testing.TB, base, name, room string) *wsPeer {
	t.Helper()
	return dialWSScan(t, base, name, room, nil)
}

// dialWSScan is dialWSRoom with scan (when not nil) called on every frame
// the client receives, before it is recorded (roomsclient.Inbox.Scan).
func dialWSScan(t testing.TB, base, name, room string, scan func(kind string, frame []byte)) *wsPeer {
	t.Helper()
	p := &wsPeer{Inbox: &roomsclient.Inbox{T: t, Name: name, Limit: waitLimit, Scan: scan}, base: base, done: make(chan struct{})}
	p.c = p.dial(room)
	go func() {
		defer close(p.done)
		for {
			p.mu.Lock()
			held := p.held
			p.mu.Unlock()
			if held != nil {
				<-held
			}
			p.mu.Lock()
			c := p.c
			p.mu.Unlock()
			_, b, err := c.Read(context.Background())
			var ce websocket.CloseError
			if errors.As(err, &ce) && ce.Code == movedCode {
				p.follow(ce.Reason)
				continue
			}
			if err != nil {
				return
			}
			p.Record(roomsclient.KindOf(b), b)
		}
	}()
	t.Cleanup(p.close)
	return p
}

// dial opens a WebSocket to the lobby's object, or to room's.
func (p *wsPeer) dial(room string) *websocket.Conn {
	// The first event constructs the object (a Go instance of the whole
	// module, a load of its records), which on a loaded machine may take
	// as long as the worker's start: the dial is bounded as that is.
	ctx, cancel := context.WithTimeout(context.Background(), startLimit)
	defer cancel()
	u := "ws" + strings.TrimPrefix(p.base, "http") + "/rooms/ws"
	if room != "" {
		u += "?room=" + url.QueryEscape(room)
	}
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		p.T.Fatalf("%s: dial: %v", p.Name, err)
	}
	c.SetReadLimit(1 << 20)
	return c
}

// follow reconnects where the worker moved the peer, as the rooms page
// does: to a room's object with a hello that reclaims the seat, to watch
// a room there, or back to the lobby's with a hello.
func (p *wsPeer) follow(where string) {
	room, enter := roomsclient.Move(where, p.Session())
	c := p.dial(room)
	p.mu.Lock()
	p.c = c
	p.moves = append(p.moves, where)
	p.mu.Unlock()
	p.send(enter)
}

// pause stops the peer reading once it has read the frame it waits for
// now: what comes meanwhile, a close included, stays unread (and a close
// unanswered) until resume.
func (p *wsPeer) pause() {
	p.mu.Lock()
	p.held = make(chan struct{})
	p.mu.Unlock()
}

// resume ends a pause.
func (p *wsPeer) resume() {
	p.mu.Lock()
	close(p.held)
	p.held = nil
	p.mu.Unlock()
}

// Moves returns where the worker moved the peer so far, in order.
func (p *wsPeer) Moves() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.moves)
}

func (p *wsPeer) send(c rooms.Command) {
	b, err := rooms.EncodeCommand(c)
	if err != nil {
		p.T.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestLimit)
	defer cancel()
	p.mu.Lock()
	conn := p.c
	p.mu.Unlock()
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		p.T.Errorf("%s: write: %v", p.Name, err)
	}
}

func (p *wsPeer) close() {
	p.mu.Lock()
	c := p.c
	p.mu.Unlock()
	_ = c.Close(websocket.StatusNormalClosure, "")
	<-p.done
}

// dialLobbies connects n WebSocket clients at once, named prefix0,
// prefix1, …, and waits until each has its lobby view.
func dialLobbies(t testing.TB, base, prefix string, n int) []*wsPeer {
	t.Helper()
	return dialLobbiesScan(t, base, prefix, n, nil)
}

// dialLobbiesScan is dialLobbies with scan called on every frame of every
// client (dialWSScan).
func dialLobbiesScan(t testing.TB, base, prefix string, n int, scan func(kind string, frame []byte)) []*wsPeer {
	t.Helper()
	ps := make([]*wsPeer, n)
	var wg sync.WaitGroup
	for i := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ps[i] = dialWSScan(t, base, fmt.Sprintf("%s%d", prefix, i), "", scan)
			ps[i].Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
		}()
	}
	wg.Wait()
	return ps
}

// setName sends set_name and waits for the lobby view that carries the
// name or for a refusal; it returns the refusal's code, "" when the
// name was applied.
func (p *wsPeer) setName(name string) string {
	errs := p.ErrCount()
	p.send(rooms.SetName{Name: name})
	p.Wait(name, func(k string, b []byte) bool {
		got, ok := lobbyName(k, b)
		return ok && got == name || p.ErrCount() > errs
	})
	if p.ErrCount() == errs {
		return ""
	}
	return p.LastErr().Code
}

// lobbyName is the name a lobby view shows for its receiver ("" for none).
func lobbyName(kind string, b []byte) (string, bool) {
	if kind != rooms.KindLobby {
		return "", false
	}
	var v rooms.LobbyView
	_ = json.Unmarshal(b, &v)
	return v.Name, true
}

// TestWorkerRestartResumes stops the dev server mid-game and starts it
// again over the same local state: the room's object comes back from its
// storage with the table as it was, every player reclaims their seat with
// a hello, and the game goes on.
func TestWorkerRestartResumes(t *testing.T) {
	w := worker(t)
	tb := seatUp(t, w.base)
	for range 2 {
		p, v := tb.actor()
		if p == nil {
			break
		}
		seq := v.LastSeq()
		p.sendCmd(roomsclient.Answer(roomsclient.Pick(v), "before"))
		tb.sync(seq + 1)
	}
	_, b := tb.alice.Latest()
	before := roomsclient.DecodeGame(b).LastSeq()
	all := append(append([]*peer(nil), tb.humans...), tb.dave)
	for _, p := range all {
		p.close()
	}
	w.restart(t)
	for _, p := range all {
		p.base = w.base
		p.reconnect()
	}
	tb.dave.sendCmd(rooms.SpectateRoom{RoomID: tb.room}) // watching is the connection's, not the session's
	tb.sync(before)
	for _, p := range tb.humans {
		if k, b := p.Latest(); k != rooms.KindGame || roomsclient.DecodeGame(b).LastSeq() < before {
			t.Fatalf("%s after the restart: %s %.300s", p.Name, k, b)
		}
	}
	// The game goes on: someone acts and everyone sees it.
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) && !tb.finished() {
		if p, v := tb.actor(); p != nil {
			seq := v.LastSeq()
			p.sendCmd(roomsclient.Answer(roomsclient.Pick(v), "after"))
			tb.sync(seq + 1)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !tb.finished() {
		t.Fatal("nobody could act after the restart")
	}
}
