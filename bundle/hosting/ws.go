//go:build !js

package hosting

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/engine/rooms"
)

// WebSocket transport limits.
const (
	// WSReadLimit is the largest message the socket reads. Frames between
	// rooms.MaxFrameBytes and this are answered with frame_too_large and
	// the connection goes on; a larger one closes it with 1009.
	WSReadLimit = 1 << 20
	// WSQueue is the most frames waiting for a slow client; past it the
	// connection is closed (it reconnects with its session token).
	WSQueue = 256
	// WSWriteTimeout bounds one frame's write.
	WSWriteTimeout = 10 * time.Second
	// WSPingInterval is how often the server pings a socket; a socket
	// whose pong does not come back within half of it is closed, so a
	// peer that vanished without closing frees its connection.
	WSPingInterval = 30 * time.Second
)

// WSOptions configures ServeWebSocket. The zero value accepts same-origin
// browsers and non-browser clients that reach the server by a loopback
// name.
type WSOptions struct {
	// OriginPatterns lists further origins a browser may connect from
	// (websocket.AcceptOptions.OriginPatterns).
	OriginPatterns []string
	// Hosts lists the names (the Host header without its port, compared
	// case-insensitively) the socket may be reached by; "*" allows any.
	// Empty allows the loopback names only: localhost and loopback IPs.
	// The Origin check alone cannot stop DNS rebinding, since the
	// rebinding page's Origin names the same host as its Host header.
	Hosts []string
	// PingInterval overrides WSPingInterval (tests).
	PingInterval time.Duration
}

// hostAllowed reports whether a request's Host header names a host the
// socket serves (WSOptions.Hosts).
func hostAllowed(hostHeader string, hosts []string) bool {
	name := hostHeader
	if h, _, err := net.SplitHostPort(hostHeader); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if len(hosts) == 0 {
		if strings.EqualFold(name, "localhost") {
			return true
		}
		ip := net.ParseIP(name)
		return ip != nil && ip.IsLoopback()
	}
	for _, h := range hosts {
		if h == "*" || strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// WebSocketHandler returns the WebSocket transport (GET /rooms/ws): one
// connection per socket, JSON text frames both ways; every frame the
// machine addresses to the connection is written to it, views coalescing
// when the client is slow.
func (h *Rooms) WebSocketHandler(opts WSOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, opts.Hosts) {
			http.Error(w, "this server does not answer to the host "+strconv.Quote(r.Host), http.StatusForbidden)
			return
		}
		client := h.cfg.ClientAddr(r)
		if retry, over := h.overSessions(r.Context(), client); over {
			w.Header().Set("Retry-After", strconv.FormatInt(retry, 10))
			http.Error(w, fmt.Sprintf("%s: more than %d new connections a minute from one address", rooms.CodeRateLimited, h.cfg.SessionsPerMinute), http.StatusTooManyRequests)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: opts.OriginPatterns})
		if err != nil {
			return // Accept wrote the HTTP error
		}
		ping := opts.PingInterval
		if ping <= 0 {
			ping = WSPingInterval
		}
		h.serveSocket(r.Context(), c, ping, client)
	})
}

// keepAlive pings c every interval until ctx ends, and closes it when a
// pong does not come back within half the interval. The socket's read
// loop reads the pongs.
func keepAlive(ctx context.Context, c *websocket.Conn, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, interval/2)
		err := c.Ping(pctx)
		cancel()
		if err != nil {
			_ = c.CloseNow()
			return
		}
	}
}

func (h *Rooms) serveSocket(ctx context.Context, c *websocket.Conn, ping time.Duration, client string) {
	c.SetReadLimit(WSReadLimit)
	id := NewConnID(WSConnPrefix)
	q := &sendQueue{wake: make(chan struct{}, 1)}
	h.Attach(id, q.push)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer cancel()
		q.writeLoop(ctx, c)
	}()
	go func() {
		defer wg.Done()
		keepAlive(ctx, c, ping)
	}()
	defer func() {
		cancel()
		h.Detach(id)
		_, _ = h.Do(context.Background(), []rooms.Input{{Kind: rooms.InputDisconnect, Conn: id}})
		q.shut()
		wg.Wait()
		_ = c.CloseNow()
	}()
	if _, err := h.Do(ctx, []rooms.Input{{Kind: rooms.InputConnect, Conn: id, Client: client}}); err != nil {
		_ = c.Close(websocket.StatusTryAgainLater, "the room server could not commit")
		return
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if _, err := h.Do(ctx, []rooms.Input{{Kind: rooms.InputFrame, Conn: id, Frame: data}}); err != nil {
			b, _ := json.Marshal(rooms.LobbyErrorFrame{LobbyError: rooms.Rejection{Code: rooms.CodeInternal,
				Reason: "the room server could not commit; send it again"}})
			q.push(rooms.Outbound{Conn: id, Kind: rooms.KindError, Frame: b})
		}
	}
}

// sendQueue holds one socket's unsent frames. A new view replaces an
// unsent earlier view (a view supersedes every earlier one), so a slow
// client gets the latest state rather than a backlog.
type sendQueue struct {
	mu      sync.Mutex
	pending []rooms.Outbound
	closed  bool
	over    bool
	wake    chan struct{}
}

func isView(kind string) bool {
	return kind == rooms.KindLobby || kind == rooms.KindGame || kind == rooms.KindSpectator
}

func (q *sendQueue) push(o rooms.Outbound) {
	q.mu.Lock()
	if !q.closed {
		if isView(o.Kind) {
			for i, p := range q.pending {
				if isView(p.Kind) && !p.Close {
					q.pending = append(q.pending[:i], q.pending[i+1:]...)
					break
				}
			}
		}
		q.pending = append(q.pending, o)
		if len(q.pending) > WSQueue {
			q.over = true
		}
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *sendQueue) shut() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *sendQueue) writeLoop(ctx context.Context, c *websocket.Conn) {
	for {
		q.mu.Lock()
		batch, over, closed := q.pending, q.over, q.closed
		q.pending = nil
		q.mu.Unlock()
		if over {
			_ = c.Close(websocket.StatusPolicyViolation, "too slow: reconnect with the session token")
			return
		}
		for _, o := range batch {
			wctx, cancel := context.WithTimeout(ctx, WSWriteTimeout)
			err := c.Write(wctx, websocket.MessageText, o.Frame)
			cancel()
			if err != nil {
				return
			}
			if o.Close {
				reason := o.Kind
				var f rooms.LobbyErrorFrame
				if json.Unmarshal(o.Frame, &f) == nil && f.LobbyError.Code != "" {
					reason = f.LobbyError.Code
				}
				_ = c.Close(websocket.StatusPolicyViolation, reason)
				return
			}
		}
		if closed {
			return
		}
		select {
		case <-q.wake:
		case <-ctx.Done():
			return
		}
	}
}
