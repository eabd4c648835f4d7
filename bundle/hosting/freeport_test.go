//go:build !js

package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/internal/freeportclient"
	"github.com/storyloom/storyloom/engine/freeport"
)

// loadGame parses the shipped game file, static/freeport/freeport.json.
func loadGame(t testing.TB) *freeport.Game {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "static", "freeport", "freeport.json"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := freeport.ParseGame(b)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// fpEnv is one Freeport endpoint on a real socket on 127.0.0.1.
type fpEnv struct {
	t     testing.TB
	clock *testClock
	store Store
	f     *Freeport
	srv   *httptest.Server
	game  *freeport.Game
	lim   int
	// Client speaks to srv's game "harbour" (Token, Post, Must).
	freeportclient.Client
}

func newFPEnv(t testing.TB, store Store, rate int) *fpEnv {
	e := &fpEnv{t: t, clock: newTestClock(), store: store, game: loadGame(t), lim: rate}
	e.start()
	return e
}

func (e *fpEnv) start() {
	e.t.Helper()
	f, err := NewFreeport(context.Background(), FreeportConfig{Store: e.store, Clock: e.clock.now,
		Games: map[string]*freeport.Game{"harbour": e.game}, CommandsPerSecond: e.lim, SnapshotEvery: 16})
	if err != nil {
		e.t.Fatal(err)
	}
	e.f = f
	e.srv = httptest.NewServer(f.Handler())
	e.t.Cleanup(e.srv.Close)
	e.Client = freeportclient.Client{T: e.t, Base: e.srv.URL, Game: "harbour"}
}

func (e *fpEnv) restart() {
	e.srv.Close()
	e.start()
}

// TestFreeportThreePlayersTrade plays the trade scenario
// (freeportclient.ThreePlayerTrade) over HTTP on a fresh endpoint, where
// the three are the whole Standing; no response carries an Owner ID or a
// token.
func TestFreeportThreePlayersTrade(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 0)
	tr := e.ThreePlayerTrade()
	if len(tr.Before) != 3 {
		t.Fatalf("standing lists %d players", len(tr.Before))
	}
	for n, tok := range tr.Tokens {
		owner := e.f.Owner(tok)
		for _, r := range tr.Responses {
			if bytes.Contains(r, []byte(owner)) || bytes.Contains(r, []byte(strings.TrimPrefix(owner, "o:"))) || bytes.Contains(r, []byte(tok)) {
				t.Fatalf("a response exposes %s's Owner ID or token: %s", n, r)
			}
		}
	}
}

// TestFreeportHTTPMatchesReducer is the conformance suite's bridge: a long
// random game of every action, valid and invalid, with and without
// authentication, and with the clock jumping past deadlines, is played
// through the HTTP endpoint and straight through the reducer (which
// engine/freeport's conformance table checks), and every response must be
// byte-identical. A restart in the middle (a new endpoint on the same
// store, replaying snapshot and log) must not change a byte either.
func TestFreeportHTTPMatchesReducer(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 1000)
	ref := e.game.NewState(e.f.inst["harbour"].seed)
	r := rand.New(rand.NewPCG(7, 11))
	names := []string{"a", "b", "c", "d"}
	toks := map[string]string{}
	for _, n := range names {
		toks[n] = e.Token()
	}
	players := map[string]string{}
	type xinfo struct {
		id, hash string
		ver      float64
	}
	var xs []xinfo
	assets := []string{"credits", "timber", "salt", "rum", "spice", "silk", "renown", "gold"}
	pid := func() string {
		if len(players) == 0 || r.IntN(10) == 0 {
			return "p-nobody"
		}
		return players[names[r.IntN(len(names))]]
	}
	items := func() string {
		return fmt.Sprintf(`[{"assetId":%q,"quantity":%d}]`, assets[r.IntN(len(assets))], r.IntN(8))
	}
	steps := 400
	if testing.Short() {
		steps = 150
	}
	codes := map[string]int{}
	for i := 0; i < steps; i++ {
		who := names[r.IntN(len(names))]
		cid := fmt.Sprintf("c%d", r.IntN(steps))
		var x xinfo
		if len(xs) > 0 {
			x = xs[r.IntN(len(xs))]
			if r.IntN(8) == 0 {
				x.ver--
			}
		}
		var body string
		switch r.IntN(16) {
		case 0, 1:
			body = `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`
		case 2:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"setTradingName","commandId":%q,"tradingName":%q}`, cid, []string{"Marlow", "", "x\u0007"}[r.IntN(3)])
		case 3:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":%q,"toPlayerId":%q,"assetId":%q,"quantity":%d}`, cid, pid(), assets[r.IntN(len(assets))], r.IntN(30))
		case 4, 5:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":%q,"counterpartyPlayerId":%q,"offered":%s,"requested":%s}`, cid, pid(), items(), items())
		case 6:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":%q,"exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"offered":%s,"requested":%s}`, cid, x.id, x.ver, x.hash, items(), items())
		case 7, 8:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":%q,"exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":%q}`, cid, x.id, x.ver, x.hash, []string{"approve", "decline"}[r.IntN(2)])
		case 9:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"cancelExchange","commandId":%q,"exchangeId":%q,"exchangeVersion":%v}`, cid, x.id, x.ver)
		case 10:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, x.id)
		case 11:
			body = `{"protocolVersion":2,"action":"listExchanges","limit":5}`
		case 12:
			body = `{"protocolVersion":2,"action":"readStatement","limit":20}`
		case 13:
			body = `{"protocolVersion":2,"action":"readStanding"}`
		case 14:
			body = []string{`{"protocolVersion":2,`, `[]`, `{"protocolVersion":1,"action":"readInventory"}`, `{"protocolVersion":2,"action":"readInventory","ownerId":"x"}`}[r.IntN(4)]
		default:
			body = `{"protocolVersion":2,"action":"readInventory"}`
		}
		tok := toks[who]
		if r.IntN(20) == 0 {
			tok = ""
		}
		if r.IntN(10) == 0 {
			e.clock.advance(time.Duration(r.IntN(7200)) * time.Second)
		} else {
			e.clock.advance(time.Millisecond)
		}
		if i == steps/2 {
			e.restart()
		}
		_, got := e.Post(tok, body)
		var want []byte
		ref, want = ref.Apply(e.f.Owner(tok), e.clock.now(), []byte(body))
		if !bytes.Equal(got, want) {
			t.Fatalf("step %d: %s\nHTTP    %s\nreducer %s", i, body, got, want)
		}
		codes[freeportclient.CodeOf(got)]++
		var env struct {
			OK     bool           `json:"ok"`
			Result map[string]any `json:"result"`
		}
		_ = json.Unmarshal(got, &env)
		if env.OK {
			if p, ok := env.Result["playerId"].(string); ok && strings.Contains(body, "enroll") {
				players[who] = p
			}
			if id, ok := env.Result["exchangeId"].(string); ok {
				h, _ := env.Result["termsHash"].(string)
				v, _ := env.Result["exchangeVersion"].(float64)
				xs = append(xs, xinfo{id: id, hash: h, ver: v})
			}
		}
	}
	if len(codes) < 8 {
		t.Errorf("the game reached only %d outcomes: %v", len(codes), codes)
	}
	t.Logf("outcomes: %v", codes)
	in := e.f.inst["harbour"]
	in.b.lock()
	got, _ := in.st.Marshal()
	in.b.unlock()
	want, _ := ref.Marshal()
	if !bytes.Equal(got, want) {
		t.Fatal("the endpoint's state differs from the reducer's")
	}
}

// TestFreeportLimits: a body over 64 KiB is 413 with a malformed_request
// envelope, a flood from one token is 429, an unknown game 404; none of
// them changes the state.
func TestFreeportLimits(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 5)
	tok := e.Token()
	e.Must(tok, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)
	cases := []struct {
		name   string
		send   func() (int, []byte)
		status int
	}{
		{name: "oversized body", status: http.StatusRequestEntityTooLarge, send: func() (int, []byte) {
			return e.Post(tok, `{"protocolVersion":2,"action":"setTradingName","commandId":"n","tradingName":"`+strings.Repeat("x", MaxRequestBytes)+`"}`)
		}},
		{name: "flood", status: http.StatusTooManyRequests, send: func() (int, []byte) {
			var status int
			var b []byte
			for range 8 {
				status, b = e.Post(tok, `{"protocolVersion":2,"action":"readInventory"}`)
			}
			return status, b
		}},
		{name: "unknown game", status: http.StatusNotFound, send: func() (int, []byte) {
			resp, err := http.Post(e.srv.URL+"/freeport/atlantis/", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, b
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := e.f.inst["harbour"].version.Load()
			status, b := tc.send()
			if status != tc.status {
				t.Fatalf("status %d %s, want %d", status, b, tc.status)
			}
			if tc.status == http.StatusRequestEntityTooLarge && freeportclient.CodeOf(b) != freeport.CodeMalformedRequest {
				t.Fatalf("body %s", b)
			}
			if e.f.inst["harbour"].version.Load() != v {
				t.Fatal("a refused request changed the state")
			}
			e.clock.advance(time.Second)
		})
	}
}

// TestFreeportConcurrentExchange plays the concurrency scenario
// (freeportclient.ConcurrentExchange) against the native host: every
// version of a haggled Exchange is won by exactly one Command, losers are
// refused stale_exchange_version (some must be) or not_your_turn, and of
// concurrent approvals that together overspend, only what the funds cover
// settles, with holdings conserved.
func TestFreeportConcurrentExchange(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 1_000_000)
	e.ConcurrentExchange(freeportclient.Race{PerParty: 8, Tries: 25, RequireStale: true})
}

// TestFreeportIdempotentRetry: a Command whose response is lost (the
// connection dies before the body is read) is retried with the same
// commandId and answered with the original bytes, moving nothing twice,
// across a restart too.
func TestFreeportIdempotentRetry(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 0)
	ta, tb := e.Token(), e.Token()
	e.Must(ta, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)
	pb := e.Must(tb, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	pay := fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"pay-01","toPlayerId":%q,"assetId":"credits","quantity":7}`, pb)

	// Lose the first response: close the connection without reading it.
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/freeport/harbour/", strings.NewReader(pay))
	req.Header.Set("Authorization", "Bearer "+ta)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	_, first := e.Post(ta, pay)
	e.clock.advance(time.Minute)
	_, second := e.Post(ta, pay)
	e.restart()
	_, third := e.Post(ta, pay)
	if !bytes.Equal(first, second) || !bytes.Equal(first, third) {
		t.Fatalf("retries differ:\n%s\n%s\n%s", first, second, third)
	}
	if q := freeportclient.Holdings(e.Must(tb, `{"protocolVersion":2,"action":"readInventory"}`))["credits"]; q != 207 {
		t.Fatalf("b holds %d credits, want 207 (one transfer)", q)
	}
	_, b := e.Post(ta, strings.Replace(pay, `"quantity":7`, `"quantity":8`, 1))
	if freeportclient.CodeOf(b) != freeport.CodeCommandIDReuse {
		t.Fatalf("changed content under the same commandId: %s", b)
	}
}

// TestFreeportConflictRetry: two endpoints on one store (two processes)
// take turns; each one's cached state goes stale, its commit conflicts,
// and it reloads and applies again instead of overwriting.
func TestFreeportConflictRetry(t *testing.T) {
	store := &MemStore{}
	e1 := newFPEnv(t, store, 0)
	e2 := &fpEnv{t: t, clock: e1.clock, store: store, game: e1.game}
	e2.start()
	ta := e1.Token() // the secret is shared through the store
	pa := e1.Must(ta, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	tb := e2.Token()
	e2.Must(tb, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)
	for i := range 6 {
		e := []*fpEnv{e1, e2}[i%2]
		e.Must(tb, fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"t%d","toPlayerId":%q,"assetId":"credits","quantity":1}`, i, pa))
	}
	res := e1.Must(ta, `{"protocolVersion":2,"action":"readStanding"}`)
	if n := len(res["players"].([]any)); n != 2 {
		t.Fatalf("%d players: an endpoint overwrote the other's enrolment", n)
	}
	if q := freeportclient.Holdings(e2.Must(ta, `{"protocolVersion":2,"action":"readInventory"}`))["credits"]; q != 206 {
		t.Fatalf("a holds %d credits, want 206", q)
	}
}

// brokenStore is a MemStore whose Commit fails while broken is set.
type brokenStore struct {
	MemStore
	broken atomic.Bool
}

func (s *brokenStore) Commit(ctx context.Context, writes []Write) error {
	if s.broken.Load() {
		return errors.New("disk unplugged")
	}
	return s.MemStore.Commit(ctx, writes)
}

// TestFreeportStoreFailureIs503AndLogged: a request the store cannot
// commit is answered 503 with Retry-After, the cause goes to the host's
// log (not to the client), and the same command succeeds once the store
// is back, having changed nothing meanwhile.
func TestFreeportStoreFailureIs503AndLogged(t *testing.T) {
	store := &brokenStore{}
	var logged []string
	var mu sync.Mutex
	f, err := NewFreeport(context.Background(), FreeportConfig{Store: store, Clock: newTestClock().now,
		Games: map[string]*freeport.Game{"harbour": loadGame(t)},
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, args...))
		}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(f.Handler())
	t.Cleanup(srv.Close)
	c := freeportclient.Client{T: t, Base: srv.URL, Game: "harbour"}
	tok := c.Token()
	enroll := `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`
	store.broken.Store(true)
	status, body := c.Post(tok, enroll)
	if status != http.StatusServiceUnavailable || strings.Contains(string(body), "unplugged") {
		t.Fatalf("status %d %s, want 503 without the cause", status, body)
	}
	mu.Lock()
	if len(logged) != 1 || !strings.Contains(logged[0], "harbour") || !strings.Contains(logged[0], "disk unplugged") {
		t.Errorf("logged %q, want the game and the cause", logged)
	}
	mu.Unlock()
	store.broken.Store(false)
	c.Must(tok, enroll)
	if n := len(c.Must(tok, `{"protocolVersion":2,"action":"readStanding"}`)["players"].([]any)); n != 1 {
		t.Fatalf("%d players after the retried enrolment, want 1", n)
	}
}
