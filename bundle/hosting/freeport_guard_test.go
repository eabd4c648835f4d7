//go:build !js

package hosting

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/internal/freeportclient"
	"github.com/storyloom/storyloom/engine/freeport"
)

// postToken asks srv for a token as client address addr and returns the
// status, the Retry-After header and the body.
func postToken(t *testing.T, srv *httptest.Server, addr string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/freeport/harbour/token", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Test-Addr", addr)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), body
}

// TestFreeportTokensAreLimitedPerAddress asks for tokens over HTTP as two
// client addresses: one gets TokensPerMinute and is then refused 429 with
// Retry-After until the next minute of the host clock, while the other is
// not held back by it, nor a request with no known address.
func TestFreeportTokensAreLimitedPerAddress(t *testing.T) {
	clock := newTestClock()
	f, err := NewFreeport(context.Background(), FreeportConfig{Store: &MemStore{}, Clock: clock.now,
		Games: map[string]*freeport.Game{"harbour": loadGame(t)}, TokensPerMinute: 3,
		ClientAddr: func(r *http.Request) string { return r.Header.Get("X-Test-Addr") }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	for i := range 3 {
		if status, _, body := postToken(t, srv, "203.0.113.7"); status != http.StatusCreated {
			t.Fatalf("token %d: %d %s", i+1, status, body)
		}
	}
	status, retry, body := postToken(t, srv, "203.0.113.7")
	var he HostError
	_ = json.Unmarshal(body, &he)
	if status != http.StatusTooManyRequests || he.Error.Code != "rate_limited" || retry == "" {
		t.Fatalf("the fourth token: %d Retry-After %q %s, want 429 rate_limited", status, retry, body)
	}
	if status, _, body := postToken(t, srv, "198.51.100.2"); status != http.StatusCreated {
		t.Fatalf("another address: %d %s", status, body)
	}
	// A request whose address is unknown (no header here; at the edge, no
	// CF-Connecting-IP) is not counted under one shared empty address.
	for i := range 5 {
		if status, _, body := postToken(t, srv, ""); status != http.StatusCreated {
			t.Fatalf("token %d with no address: %d %s", i+1, status, body)
		}
	}
	clock.advance(time.Minute)
	if status, _, body := postToken(t, srv, "203.0.113.7"); status != http.StatusCreated {
		t.Fatalf("a minute later: %d %s", status, body)
	}
}

// TestFreeportClosedToEnrolment closes a game that already has a Player:
// the Player plays on, a new Owner may read the Standing but its enroll is
// refused 403 enrolment_closed, and nothing of the refused enrolment is
// stored (it is not in the Standing after a restart).
func TestFreeportClosedToEnrolment(t *testing.T) {
	store := &MemStore{}
	clock := newTestClock()
	game := loadGame(t)
	open := func(closed bool) (*httptest.Server, freeportclient.Client) {
		f, err := NewFreeport(context.Background(), FreeportConfig{Store: store, Clock: clock.now,
			Games: map[string]*freeport.Game{"harbour": game}, Closed: map[string]bool{"harbour": closed}})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(f.Handler())
		t.Cleanup(srv.Close)
		return srv, freeportclient.Client{T: t, Base: srv.URL, Game: "harbour"}
	}
	srv, c := open(false)
	player := c.Token()
	c.Must(player, `{"protocolVersion":2,"action":"enroll","commandId":"e"}`)
	srv.Close()

	_, c = open(true)
	c.Must(player, `{"protocolVersion":2,"action":"readInventory"}`)
	c.Must(player, `{"protocolVersion":2,"action":"setTradingName","commandId":"n","tradingName":"Mara"}`)
	if res := c.Must(player, `{"protocolVersion":2,"action":"enroll","commandId":"e2"}`); res["playerId"] == nil {
		t.Errorf("an enrolled Player's enroll answered %v", res)
	}
	visitor := c.Token()
	c.Must(visitor, `{"protocolVersion":2,"action":"readStanding"}`)
	status, body := c.Post(visitor, `{"protocolVersion":2,"action":"enroll","commandId":"e"}`)
	var he HostError
	_ = json.Unmarshal(body, &he)
	if status != http.StatusForbidden || he.Error.Code != "enrolment_closed" {
		t.Fatalf("a new enrolment: %d %s, want 403 enrolment_closed", status, body)
	}
	_, c = open(false)
	standing := c.Must(visitor, `{"protocolVersion":2,"action":"readStanding"}`)
	if players, _ := standing["players"].([]any); len(players) != 1 {
		t.Errorf("after a restart the Standing lists %d players, want the one enrolled before closing", len(players))
	}
}
