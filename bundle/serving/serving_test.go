package serving

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// patience bounds every wait on the server: generous, since the machine
// may be busy; nothing asserts how fast a deadline fires.
const patience = 30 * time.Second

// serve starts a server over real loopback sockets with short timeouts: a
// /body route that reads its whole body under a short read deadline, a
// /ws echo WebSocket without deadlines, and a / route.
func serve(t *testing.T, header, idle time.Duration, perAddr int) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("POST /body", WithDeadlines(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "slow body", http.StatusRequestTimeout)
			return
		}
		io.WriteString(w, "read")
	}), Deadlines{Read: 200 * time.Millisecond, Write: patience}))
	mux.Handle("/ws", WithDeadlines(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			typ, data, err := c.Read(r.Context())
			if err != nil {
				return
			}
			if c.Write(r.Context(), typ, data) != nil {
				return
			}
		}
	}), SocketDeadlines))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Server(WithDeadlines(mux, PageDeadlines), header, idle)
	go srv.Serve(LimitPerAddr(ln, perAddr))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// dial opens a raw TCP connection to addr.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitClosed reads c until the server closes it, failing after patience.
func waitClosed(t *testing.T, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(patience))
	_, err := io.Copy(io.Discard, c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server still holds the connection after %v", patience)
	}
}

// get sends a GET on c and reads the response.
func get(t *testing.T, c net.Conn, r *bufio.Reader) *http.Response {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(patience))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	resp.Body = io.NopCloser(strings.NewReader(string(body)))
	return resp
}

// TestTimeoutsFreeSlowAndIdleConnections holds connections open the ways
// the probe did (a body that never finishes, nothing sent at all, a
// keep-alive connection left idle) and checks the server closes each,
// while a WebSocket opened before them and idle all along still echoes.
func TestTimeoutsFreeSlowAndIdleConnections(t *testing.T) {
	addr := serve(t, 300*time.Millisecond, 300*time.Millisecond, 100)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()

	t.Run("a body that never finishes", func(t *testing.T) {
		c := dial(t, addr)
		io.WriteString(c, "POST /body HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n0123456789")
		waitClosed(t, c)
	})
	t.Run("headers that never come", func(t *testing.T) {
		c := dial(t, addr)
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: te")
		waitClosed(t, c)
	})
	t.Run("nothing sent at all", func(t *testing.T) {
		waitClosed(t, dial(t, addr))
	})
	t.Run("a keep-alive connection left idle", func(t *testing.T) {
		c := dial(t, addr)
		if resp := get(t, c, bufio.NewReader(c)); resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		waitClosed(t, c)
	})
	t.Run("the WebSocket is still open", func(t *testing.T) {
		if err := ws.Write(ctx, websocket.MessageText, []byte("still here")); err != nil {
			t.Fatal(err)
		}
		_, data, err := ws.Read(ctx)
		if err != nil || string(data) != "still here" {
			t.Fatalf("echo %q, %v", data, err)
		}
	})
}

// TestConnectionsPerAddressAreCapped holds the cap's worth of connections
// from 127.0.0.1, checks one more is answered 503 and closed, and that a
// connection is taken again once one of them closes.
func TestConnectionsPerAddressAreCapped(t *testing.T) {
	const limit = 4
	addr := serve(t, time.Minute, time.Minute, limit)
	var held []net.Conn
	for range limit {
		c := dial(t, addr)
		if resp := get(t, c, bufio.NewReader(c)); resp.StatusCode != 200 {
			t.Fatalf("connection %d: status %d", len(held)+1, resp.StatusCode)
		}
		held = append(held, c)
	}
	over := dial(t, addr)
	_ = over.SetReadDeadline(time.Now().Add(patience))
	resp, err := http.ReadResponse(bufio.NewReader(over), nil)
	if err != nil {
		t.Fatalf("the connection over the cap: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || err != nil || !strings.Contains(string(body), "too many connections") {
		t.Fatalf("over the cap: %d %q %v", resp.StatusCode, body, err)
	}
	waitClosed(t, over)

	held[0].Close()
	deadline := time.Now().Add(patience)
	for {
		c := dial(t, addr)
		resp := get(t, c, bufio.NewReader(c))
		if resp.StatusCode == 200 {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no connection taken after one of %d closed: %d", limit, resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond) // the server has not yet seen the close
	}
}
