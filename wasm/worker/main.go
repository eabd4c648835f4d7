//go:build js && wasm

// Command worker is Storyloom's edge worker: the room server (rooms over
// HTTP: POST /rooms/command, GET /rooms/view) and the Freeport endpoint
// (/freeport/{game}/) of bundle/hosting, compiled with GOOS=js GOARCH=wasm
// and served from Cloudflare Workers through github.com/syumai/workers,
// with every record in D1 (d1.go) under optimistic concurrency.
//
// The shim syumai/workers generates starts a fresh Go instance for every
// request, so nothing lives in memory between requests: each request
// loads what it needs from D1, and every commit checks the version
// column, so any number of instances, anywhere on the edge, serve the
// same rooms. The clock is the worker's Date.now(); ids come from
// crypto/rand (crypto.getRandomValues). Build it with
// `bash scripts/worker.sh build`; docs/edge-worker.md says how it is
// configured, run locally and deployed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/cron"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/freeport"
)

const (
	// dbBinding is the D1 binding's name in wrangler.toml.
	dbBinding = "DB"
	// secretVar is an optional Worker secret that signs Freeport bearer
	// tokens; without it the host secret is created once in D1.
	secretVar = "STORYLOOM_SECRET"
	// pollEvery is how often a long-poll (GET /rooms/view?wait=) looks
	// at D1 for a newer frame; the instance that commits it is another
	// one, so there is nothing to wake it but a look.
	pollEvery = 150 * time.Millisecond
	// maxPoll bounds one long-poll, below hosting.MaxPollWait.
	maxPoll = 20 * time.Second
	// snapshotEvery is how many Freeport requests an instance replays at
	// most on load: every request loads, so this is kept small.
	snapshotEvery = 32
)

func main() {
	wk := &worker{}
	cron.ScheduleTaskNonBlock(wk.scheduled)
	workers.Serve(wk)
}

// worker is one request's host: the store, and the room server or the
// Freeport endpoint, built on first use.
type worker struct {
	store lazy[*d1Store]
	rooms lazy[*hosting.Rooms]
	fp    lazy[*hosting.Freeport]
}

// lazy is a value built on first use, with the error building it gave.
type lazy[T any] struct {
	once sync.Once
	v    T
	err  error
}

// get returns the value, building it with build on the first call.
func (l *lazy[T]) get(build func() (T, error)) (T, error) {
	l.once.Do(func() { l.v, l.err = build() })
	return l.v, l.err
}

func (wk *worker) d1() (*d1Store, error) {
	return wk.store.get(func() (*d1Store, error) { return openD1(dbBinding) })
}

// roomServer loads the room server "main" (the native host's name, so the
// record layout is the same) from D1.
func (wk *worker) roomServer(ctx context.Context) (*hosting.Rooms, error) {
	return wk.rooms.get(func() (*hosting.Rooms, error) {
		st, err := wk.d1()
		if err != nil {
			return nil, err
		}
		reg, err := hosting.Games()
		if err != nil {
			return nil, err
		}
		return hosting.NewRooms(ctx, hosting.RoomsConfig{Store: st, Registry: reg, Clock: dateNow})
	})
}

// freeportEndpoint builds the Freeport endpoint for the game file
// embedded in freeport_game.go.
func (wk *worker) freeportEndpoint(ctx context.Context) (*hosting.Freeport, error) {
	return wk.fp.get(func() (*hosting.Freeport, error) {
		st, err := wk.d1()
		if err != nil {
			return nil, err
		}
		g, err := freeport.ParseGame([]byte(freeportGame))
		if err != nil {
			return nil, err
		}
		var secret []byte
		if s := cloudflare.Getenv(secretVar); s != "" {
			secret = []byte(s)
		}
		return hosting.NewFreeport(ctx, hosting.FreeportConfig{Store: st, Clock: dateNow,
			Games: map[string]*freeport.Game{g.ID(): g}, Secret: secret, SnapshotEvery: snapshotEvery, Rate: st})
	})
}

// ServeHTTP routes a request: /rooms/… to the room server, /freeport/…
// to the Freeport endpoint, /healthz to a D1 round trip. The site's files
// never reach it: Workers static assets (wrangler.toml [assets]) answer
// them first. Every response
// allows any origin: requests authenticate with bearer tokens, never
// cookies, so a page served elsewhere (make play, Pages) may call it.
func (wk *worker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	ctx := r.Context()
	switch p := r.URL.Path; {
	case p == "/healthz":
		st, err := wk.d1()
		if err == nil {
			_, err = st.Load(ctx, "health/probe")
		}
		if err != nil {
			fail(w, "store", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "now": dateNow()})
	case p == "/rooms/ws":
		// No WebSocket at the edge: refuse the handshake at once, before
		// loading anything, so the rooms page falls back to the HTTP API
		// without delay (web/site/rooms/connection.js).
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no WebSocket on the edge worker: use POST /rooms/command and GET /rooms/view"})
	case strings.HasPrefix(p, "/rooms/"):
		if wk.rateLimited(w, r) {
			return
		}
		rs, err := wk.roomServer(ctx)
		if err != nil {
			fail(w, "rooms", err)
			return
		}
		wk.serveRooms(w, r, rs)
	case strings.HasPrefix(p, "/freeport/"):
		fp, err := wk.freeportEndpoint(ctx)
		if err != nil {
			fail(w, "freeport", err)
			return
		}
		fp.Handler().ServeHTTP(w, r)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found: no such file of the site, and the worker serves /rooms/ and /freeport/"})
	}
}

// serveRooms runs the room server's HTTP API. Nothing drives the clock
// between requests, so a request first gives every passed deadline its
// timeout default (the cron trigger does it when nobody asks). A
// long-poll is answered by looking at D1 every pollEvery, since the
// commit it waits for happens in another instance.
func (wk *worker) serveRooms(w http.ResponseWriter, r *http.Request, rs *hosting.Rooms) {
	ctx := r.Context()
	tickIfDue(ctx, rs)
	wait, _ := strconv.ParseInt(r.URL.Query().Get("wait"), 10, 64)
	if r.Method != http.MethodGet || r.URL.Path != "/rooms/view" || wait <= 0 {
		rs.Handler().ServeHTTP(w, r)
		return
	}
	q := r.URL.Query()
	q.Set("wait", "0")
	r = r.Clone(ctx)
	r.URL.RawQuery = q.Encode()
	looks := int(min(time.Duration(wait)*time.Millisecond, maxPoll) / pollEvery)
	for i := 0; ; i++ {
		rec := &recorder{header: http.Header{}}
		rs.Handler().ServeHTTP(rec, r)
		if i >= looks || rec.status != http.StatusOK || rec.hasFrames() {
			rec.copyTo(w)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pollEvery):
		}
		// Tick reloads the server when another instance committed, and
		// runs any deadline that passed meanwhile.
		if err := rs.Tick(ctx); err != nil {
			logf("rooms: tick: %v", err)
		}
	}
}

// tickIfDue runs the room server's Tick when a deadline has passed.
func tickIfDue(ctx context.Context, rs *hosting.Rooms) {
	if at, ok := rs.NextWake(); ok && at <= dateNow() {
		if err := rs.Tick(ctx); err != nil {
			logf("rooms: tick: %v", err)
		}
	}
}

// scheduled is the cron trigger (wrangler.toml [triggers]): it runs the
// deadlines of rooms nobody is polling, and drops stale rate counters.
func (wk *worker) scheduled(ctx context.Context) error {
	rs, err := wk.roomServer(ctx)
	if err != nil {
		return err
	}
	tickIfDue(ctx, rs)
	st, _ := wk.d1() // opened by roomServer
	return st.pruneRate(dateNow())
}

// recorder holds a response of the room server's handler so that an
// empty long-poll answer can be dropped and asked again.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rec *recorder) Header() http.Header { return rec.header }

func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
}

func (rec *recorder) Write(b []byte) (int, error) {
	rec.WriteHeader(http.StatusOK)
	return rec.body.Write(b)
}

// hasFrames reports whether the recorded RoomsResponse carries a frame.
func (rec *recorder) hasFrames() bool {
	var resp struct {
		Frames []json.RawMessage `json:"frames"`
	}
	return json.Unmarshal(rec.body.Bytes(), &resp) != nil || len(resp.Frames) > 0
}

func (rec *recorder) copyTo(w http.ResponseWriter) {
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// fail answers 503 for a request the worker could not set up (a missing
// binding, migrations not applied, D1 unreachable) and logs why.
func fail(w http.ResponseWriter, what string, err error) {
	logf("%s: %v", what, err)
	w.Header().Set("Retry-After", "1")
	writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": what + ": " + err.Error()})
}

// logf writes to the Worker's console (wrangler tail, wrangler dev).
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "storyloom worker: "+format+"\n", args...)
}
