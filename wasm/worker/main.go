//go:build js && wasm

// Command worker is Storyloom's edge worker: the room server of
// bundle/hosting (GET /rooms/ws, POST /rooms/command, GET /rooms/view) in
// a Durable Object, and the Freeport endpoint (/freeport/{game}/) with its
// records in D1 (d1.go) under optimistic concurrency, compiled with
// GOOS=js GOARCH=wasm and served from Cloudflare Workers through
// github.com/syumai/workers.
//
// The module runs in two roles. As the worker, the shim syumai/workers
// generates starts a fresh Go instance for every request, so nothing
// lives in memory between requests: Freeport loads what it needs from D1
// and every commit checks the version column. As the room server's
// Durable Object (object.go; scripts/worker-entry.mjs defines the class),
// one instance lives as long as the object and holds the room machine.
// The clock is the worker's Date.now(); ids come from crypto/rand
// (crypto.getRandomValues). Build it with `bash scripts/worker.sh build`;
// docs/edge-worker.md says how it is configured, run locally and
// deployed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall/js"

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
	// snapshotEvery is how many Freeport requests an instance replays at
	// most on load: every request loads, so this is kept small.
	snapshotEvery = 32
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

// worker is one request's host: the store and the Freeport endpoint,
// built on first use.
type worker struct {
	store lazy[*d1Store]
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

// ServeHTTP routes a request: /freeport/… to the Freeport endpoint,
// /healthz to a D1 round trip, a CORS preflight of the room server's API
// to its answer. The room server's requests never reach it (the entry
// module sends them to the Durable Object), nor do the site's files:
// Workers static assets (wrangler.toml [assets]) answer them first. Every
// response allows any origin: requests authenticate with bearer tokens,
// never cookies, so a page served elsewhere (make play, Pages) may call it.
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

// scheduled is the cron trigger (wrangler.toml [triggers]): it drops
// stale rate counters. (The rooms' deadlines are the object's alarm.)
func (wk *worker) scheduled(context.Context) error {
	st, err := wk.d1()
	if err != nil {
		return err
	}
	return st.pruneRate(dateNow())
}

// recorder holds a response of the room server's handler, for the
// object to hand back to JavaScript.
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
