//go:build js && wasm

// Command worker is Storyloom's edge worker: the room server of
// bundle/hosting (GET /rooms/ws, POST /rooms/command, GET /rooms/view) and
// the Freeport endpoint (/freeport/{game}/), each in Durable Objects
// (object.go, freeport.go), compiled with GOOS=js GOARCH=wasm and served
// from Cloudflare Workers through github.com/syumai/workers.
//
// The module runs in two roles. As the worker, the shim syumai/workers
// generates starts a fresh Go instance for every request that reaches it:
// the health check (a D1 round trip) and the cron handler, which prunes
// Freeport's rate counters in D1 (d1.go, rate.go). As a Durable Object
// (scripts/worker-entry.mjs defines the classes), one instance lives as
// long as the object and holds its machine in memory: the room server in
// one object, each Freeport game in its own. The clock is the worker's
// Date.now(); ids come from crypto/rand (crypto.getRandomValues). Build it
// with `bash scripts/worker.sh build`; docs/edge-worker.md says how it is
// configured, run locally and deployed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare/cron"
)

const (
	// dbBinding is the D1 binding's name in wrangler.toml.
	dbBinding = "DB"
	// secretVar is an optional Worker secret that signs Freeport bearer
	// tokens; without it the host secret is created once in D1.
	secretVar = "STORYLOOM_SECRET"
	// testIDSecretVar, a Worker variable for tests only, has the room
	// server derive its ids (session tokens, room and player ids, game
	// seeds) from this secret and a counter (rooms.DerivedIDs), as the
	// native host's browser tests do, so that a test replays the same
	// seeded game at the edge. It makes session tokens predictable: never
	// set it in a deployment.
	testIDSecretVar = "STORYLOOM_TEST_ID_SECRET"
	// perAddressVar set to "off" turns off the limits counted per client
	// address (new room connections and Freeport tokens a minute, seatless
	// sessions kept): for a deployment whose clients all reach it through
	// one address, and for benchmarks that play many clients from one.
	perAddressVar = "STORYLOOM_PER_ADDRESS_LIMITS"
	// traceVar set to "on" has the room server's object log every event
	// it is handed (a request, a socket's open, message or close, the
	// alarm) when it starts and when it is answered, every frame it
	// sends and every socket it moves: an event that never ends shows as
	// a start with no end. It also logs each start of an object's Go
	// instance (its first event, or the first after an eviction). The
	// tests turn it on; it costs a console line per event.
	traceVar = "STORYLOOM_TRACE"
	// testHoldReportsVar, a Worker variable for tests only, is a number
	// of milliseconds: a room's object then never delivers a report that
	// returns sessions (players who left) and was made while its Go
	// instance runs (the delivery fails, as when the lobby is out of
	// reach, so the sockets it moved stay held), and retries a pending
	// delivery after that many milliseconds instead of
	// hosting.DeliveryRetryMillis. Idle meanwhile, the object is
	// evicted (workerd: after 10 s), and the instance its alarm then
	// starts delivers the report it finds pending: the edge test of an
	// eviction between a room's release of sessions and the lobby's
	// acknowledgement (docs/edge-worker.md). Never set it in a
	// deployment: its players would wait for evictions.
	testHoldReportsVar = "STORYLOOM_TEST_HOLD_REPORTS"
)

func main() {
	if ctx := js.Global().Get("context"); ctx.Get("object").Truthy() {
		serveObject(ctx)
		return
	}
	wk := &worker{}
	cron.ScheduleTaskNonBlock(wk.scheduled)
	workers.Serve(wk)
}

// worker is one request's host: its D1 store, opened on first use.
type worker struct {
	store lazy[*d1Store]
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

// ServeHTTP routes a request: /healthz to a D1 round trip, a CORS
// preflight of the room server's or Freeport's API to its answer. Their
// other requests never reach it (the entry module sends them to their
// Durable Objects), nor do the site's files: Workers static assets
// (wrangler.toml [assets]) answer them first. Every response allows any
// origin: requests authenticate with bearer tokens, never cookies, so a
// page served elsewhere (make play, Pages) may call it.
func (wk *worker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	switch r.URL.Path {
	case "/healthz":
		st, err := wk.d1()
		if err == nil {
			_, err = st.Load(r.Context(), "health/probe")
		}
		if err != nil {
			fail(w, "store", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "now": dateNow()})
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found: no such file of the site, and the worker serves /rooms/ and /freeport/"})
	}
}

// scheduled is the cron trigger (wrangler.toml [triggers]): it drops
// stale rate counters. (The rooms' deadlines are the object's alarm.)
func (wk *worker) scheduled(context.Context) error {
	st, err := wk.d1()
	if err != nil {
		return err
	}
	return st.pruneRate(dateNow())
}

// recorder holds a response of an object's handler, for the object to
// hand back to JavaScript.
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
