package serving

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Deadlines are one route's bounds on a request: Read on reading its body,
// Write on writing its response, both counted from when the handler starts.
// Zero values clear the deadline: a WebSocket keeps its connection open and
// guards it with its own pings.
type Deadlines struct {
	Read, Write time.Duration
}

// Route deadlines of the native host.
var (
	// PageDeadlines are for the site's files: no body, up to a 6 MB module
	// on a slow link.
	PageDeadlines = Deadlines{Read: 15 * time.Second, Write: 2 * time.Minute}
	// CommandDeadlines are for a command (rooms, Freeport): a body of at
	// most 64 KiB, a response after one group commit.
	CommandDeadlines = Deadlines{Read: 10 * time.Second, Write: 30 * time.Second}
	// PollDeadlines are for the rooms' long poll, which may wait 25 s
	// before it answers.
	PollDeadlines = Deadlines{Read: 10 * time.Second, Write: 45 * time.Second}
	// SocketDeadlines are for a WebSocket: none (hosting.WSPingInterval).
	SocketDeadlines = Deadlines{}
)

// Server-wide timeouts and caps of the native host.
const (
	// ReadHeaderTimeout bounds reading a request's headers, the first
	// request's included: a connection that sends nothing is closed.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout closes a keep-alive connection with no request.
	IdleTimeout = 60 * time.Second
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes = 64 << 10
	// ConnsPerAddr is the most connections one client IP may hold open at
	// once; more are answered 503 and closed. A browser holds six HTTP/1.1
	// connections and one WebSocket per tab.
	ConnsPerAddr = 256
)

// WithDeadlines sets d on every request h serves, through
// http.ResponseController, overriding whatever an outer handler set.
func WithDeadlines(h http.Handler, d Deadlines) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(deadline(d.Read))
		_ = rc.SetWriteDeadline(deadline(d.Write))
		h.ServeHTTP(w, r)
	})
}

// deadline is now plus d, or no deadline for 0.
func deadline(d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return time.Now().Add(d)
}

// Server returns an http.Server for h with the header and idle timeouts
// and the header cap. Read and write deadlines are per route
// (WithDeadlines), since a long poll and a WebSocket need longer than a
// page file.
func Server(h http.Handler, readHeader, idle time.Duration) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: readHeader, IdleTimeout: idle, MaxHeaderBytes: MaxHeaderBytes}
}

// LimitPerAddr wraps ln so that one client IP holds at most max open
// connections: a connection over the cap is answered
// "503 Service Unavailable" (with Retry-After) and closed, without
// reaching the server.
func LimitPerAddr(ln net.Listener, max int) net.Listener {
	return &limitListener{Listener: ln, max: max, open: map[string]int{}}
}

// limitListener is LimitPerAddr's listener.
type limitListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

// overCap is what a connection over the cap reads before it is closed.
const overCap = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Retry-After: 1\r\nConnection: close\r\nContent-Length: 51\r\n\r\n" +
	"too many connections from one address; retry later\n"

// Accept implements net.Listener.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := hostOf(c.RemoteAddr())
		l.mu.Lock()
		ok := l.open[addr] < l.max
		if ok {
			l.open[addr]++
		}
		l.mu.Unlock()
		if ok {
			return &countedConn{Conn: c, release: func() { l.release(addr) }}, nil
		}
		go refuse(c)
	}
}

// release counts one of addr's connections closed.
func (l *limitListener) release(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[addr]--; l.open[addr] <= 0 {
		delete(l.open, addr)
	}
}

// refuse answers a connection over the cap and closes it, giving a slow
// reader a second.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write([]byte(overCap))
	_ = c.Close()
}

// hostOf is a remote address's IP, or the whole address when it has no
// port.
func hostOf(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// countedConn releases its count once, on its first Close.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close implements net.Conn.
func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
