//go:build !js

package hosting

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// waitLimit bounds every wait of the socket tests.
const waitLimit = 15 * time.Second

// testClock is an injected clock the tests advance by hand.
type testClock struct{ ms atomic.Int64 }

func newTestClock() *testClock {
	c := &testClock{}
	c.ms.Store(1_780_000_000_000)
	return c
}

func (c *testClock) now() int64              { return c.ms.Load() }
func (c *testClock) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// env is one room server on a real socket on 127.0.0.1, with a privacy
// observer that records, for every game and spectator frame the server
// commits, which hidden cards its receiver must not see.
type env struct {
	t     testing.TB
	clock *testClock
	store Store
	h     *Rooms
	srv   *httptest.Server
	// base is srv's URL, read by pollers while a restart replaces srv.
	base atomic.Value

	mu       sync.Mutex
	hidden   map[[32]byte][]string // frame digest → hidden card ids
	public   map[string]bool       // cards a call turned face up
	observed int
}

func newEnv(t testing.TB, store Store, lim rooms.Limits) *env {
	t.Helper()
	e := &env{t: t, clock: newTestClock(), store: store, hidden: map[[32]byte][]string{}, public: map[string]bool{}}
	e.start(lim)
	return e
}

// start opens the room server on e.store and serves it.
func (e *env) start(lim rooms.Limits) {
	e.t.Helper()
	h, err := NewRooms(context.Background(), RoomsConfig{Store: e.store, Registry: cheattest.Registry(e.t), Limits: lim, Clock: e.clock.now})
	if err != nil {
		e.t.Fatal(err)
	}
	h.observe = e.observe
	e.h = h
	mux := http.NewServeMux()
	mux.Handle("/rooms/ws", h.WebSocketHandler(WSOptions{}))
	mux.Handle("/rooms/", h.Handler())
	e.srv = httptest.NewServer(mux)
	e.base.Store(e.srv.URL)
	e.t.Cleanup(e.srv.Close)
}

// url is the running server's base URL.
func (e *env) url() string { return e.base.Load().(string) }

// kill stops serving: every socket is cut, and the Rooms value is dropped
// as a crashed process would drop it.
func (e *env) kill() {
	e.srv.CloseClientConnections()
	e.srv.Close()
	e.h = nil
}

func (e *env) observe(state []byte, outs [][]rooms.Outbound) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := rooms.DecodeState(state)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, out := range outs {
		for _, o := range out {
			if o.Kind != rooms.KindGame && o.Kind != rooms.KindSpectator {
				continue
			}
			c := s.Conns[o.Conn]
			var r *rooms.Room
			seat := -1
			if c != nil && c.Spectating != "" {
				r = s.Rooms[c.Spectating]
			} else if c != nil {
				if se := s.Sessions[c.Session]; se != nil {
					r = s.Rooms[se.Room]
					if r != nil {
						for i, st := range r.Seats {
							if st.Session == c.Session {
								seat = i
							}
						}
					}
				}
			}
			if r == nil || r.Match == nil {
				e.t.Errorf("a %s frame for %s outside a match", o.Kind, o.Conn)
				continue
			}
			_, hidden := cheattest.Read(e.t, r.Match, e.public).Hidden(seat, e.public)
			hidden = append(hidden, r.Match.Seed)
			e.hidden[sha256.Sum256(o.Frame)] = hidden
			e.observed++
		}
	}
}

// scan checks one frame a client received: a game or spectator frame must
// be one the server committed and must carry none of the cards hidden from
// its receiver; no frame may carry game state or a seed.
func (e *env) scan(who, kind string, frame []byte) {
	e.t.Helper()
	if bytes.Contains(frame, []byte(`"hands"`)) || bytes.Contains(frame, []byte(`"pile"`)) {
		e.t.Errorf("frame to %s carries game state: %.300s", who, frame)
	}
	if kind != rooms.KindGame && kind != rooms.KindSpectator {
		return
	}
	if kind == rooms.KindSpectator {
		for _, k := range []string{`"you"`, `"valid_actions"`, `"my_hand"`, `"action_deadline"`} {
			if bytes.Contains(frame, []byte(k)) {
				e.t.Errorf("spectator frame to %s carries %s", who, k)
			}
		}
	}
	e.mu.Lock()
	hidden, ok := e.hidden[sha256.Sum256(frame)]
	e.mu.Unlock()
	if !ok {
		e.t.Errorf("frame to %s was never committed by the server: %.200s", who, frame)
		return
	}
	for _, c := range hidden {
		if bytes.Contains(frame, []byte(`"`+c+`"`)) {
			e.t.Errorf("frame to %s leaks hidden %q: %.300s", who, c, frame)
		}
	}
}

// peer is what a test client knows: its latest view, its rejections and
// its session token.
type peer struct {
	e *env
	// Inbox keeps the latest view, the rejections and the seat's session.
	*roomsclient.Inbox

	mu       sync.Mutex
	closedBy string
}

// newPeer is the peer called name of a client of e, its frames scanned
// for hidden fields.
func newPeer(e *env, name string) *peer {
	p := &peer{e: e}
	p.Inbox = &roomsclient.Inbox{T: e.t, Name: name, Limit: waitLimit,
		Scan: func(kind string, frame []byte) { e.scan(name, kind, frame) }}
	return p
}

// client is a test client over one transport.
type client interface {
	peer() *peer
	// send sends one frame; it returns once the server has it (HTTP:
	// once the response is read).
	send(frame []byte)
	// reconnect drops the transport and reopens it, reclaiming the
	// session with a hello.
	reconnect()
	close()
}

func sendCmd(c client, cmd rooms.Command) {
	b, err := rooms.EncodeCommand(cmd)
	if err != nil {
		panic(err)
	}
	c.send(b)
}

// wsClient is a client on one WebSocket.
type wsClient struct {
	p    *peer
	conn *websocket.Conn
	done chan struct{}
}

func dialWS(e *env, name string) *wsClient {
	c := &wsClient{p: newPeer(e, name)}
	c.open()
	return c
}

func (c *wsClient) open() {
	e := c.p.e
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	url := "ws" + strings.TrimPrefix(e.url(), "http") + "/rooms/ws"
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	conn.SetReadLimit(WSReadLimit)
	c.conn, c.done = conn, make(chan struct{})
	go func(conn *websocket.Conn, done chan struct{}) {
		defer close(done)
		for {
			_, b, err := conn.Read(context.Background())
			if err != nil {
				c.p.mu.Lock()
				c.p.closedBy = websocket.CloseStatus(err).String()
				c.p.mu.Unlock()
				return
			}
			c.p.Record(roomsclient.KindOf(b), b)
		}
	}(conn, c.done)
}

func (c *wsClient) peer() *peer { return c.p }

func (c *wsClient) send(frame []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, frame); err != nil {
		c.p.e.t.Fatalf("%s: write: %v", c.p.Name, err)
	}
}

func (c *wsClient) reconnect() {
	c.close()
	c.open()
	sendCmd(c, rooms.Hello{Token: c.p.Session()})
}

func (c *wsClient) close() {
	_ = c.conn.Close(websocket.StatusNormalClosure, "")
	select {
	case <-c.done:
	case <-time.After(waitLimit):
		c.p.e.t.Fatalf("%s: socket did not close", c.p.Name)
	}
}

// httpClient is a client of the HTTP command/poll API, polling in a
// goroutine with bounded long-polls.
type httpClient struct {
	p     *peer
	token atomic.Value // session bearer
	stop  chan struct{}
	done  chan struct{}
}

func dialHTTP(e *env, name string) *httpClient {
	c := &httpClient{p: newPeer(e, name)}
	c.token.Store("")
	c.send([]byte(`{"type":"hello"}`))
	c.startPoll()
	return c
}

func (c *httpClient) peer() *peer { return c.p }

func (c *httpClient) absorb(status int, body []byte) {
	var r RoomsResponse
	if err := json.Unmarshal(body, &r); err != nil {
		c.p.e.t.Errorf("%s: %d response is not JSON: %s", c.p.Name, status, body)
		return
	}
	if r.Session != "" {
		c.token.Store(r.Session)
	}
	for _, f := range r.Frames {
		if f.Seq > 0 {
			c.p.RecordSeq(f.Seq, f.Kind, f.Frame)
			continue
		}
		c.p.Record(f.Kind, f.Frame)
	}
}

func (c *httpClient) post(frame []byte) (int, []byte) {
	req, _ := http.NewRequest(http.MethodPost, c.p.e.url()+"/rooms/command", bytes.NewReader(frame))
	if tok := c.token.Load().(string); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.p.e.t.Fatalf("%s: post: %v", c.p.Name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func (c *httpClient) send(frame []byte) {
	status, body := c.post(frame)
	c.absorb(status, body)
}

func (c *httpClient) startPoll() {
	c.stop, c.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(c.done)
		deadline := time.Now().Add(5 * time.Minute)
		for i := 0; i < 100_000 && time.Now().Before(deadline); i++ {
			select {
			case <-c.stop:
				return
			default:
			}
			req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/rooms/view?after=%d&wait=500", c.p.e.url(), c.p.Seq()), nil)
			req.Header.Set("Authorization", "Bearer "+c.token.Load().(string))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			c.absorb(resp.StatusCode, body)
		}
	}()
}

func (c *httpClient) reconnect() {
	// An HTTP client has no socket to drop: it forgets its mailbox
	// position and reclaims its seat with a hello from a fresh connection.
	c.close()
	c.p.ForgetSeq()
	tok := c.p.Session()
	c.token.Store("")
	sendCmd(c, rooms.Hello{Token: tok})
	c.startPoll()
}

func (c *httpClient) close() {
	close(c.stop)
	select {
	case <-c.done:
	case <-time.After(waitLimit):
		c.p.e.t.Fatalf("%s: poller did not stop", c.p.Name)
	}
}
