package nativehost

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/hostingdb"
	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/rooms"
)

// TickEvery is how often the native host drives the room machine's clock.
const TickEvery = 250 * time.Millisecond

// GCPercent is the garbage collector's target (debug.SetGCPercent) a
// process serving the native host runs with, unless GOGC says otherwise.
// A room server's live heap is small (about 80 KB a room) and every
// command allocates its views and records, so collecting when the heap
// has grown fourfold rather than doubled takes about a sixth off the
// server's CPU per command (200 rooms of four: about 210 to 170 µs in a
// burst) for a few tens of megabytes more (docs/hosting.md).
const GCPercent = 400

// TuneGC sets the process's garbage collector target to GCPercent, unless
// the GOGC environment variable sets one. `bundle serve` calls it.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
}

// Config configures the native host.
type Config struct {
	// Path is the SQLite file.
	Path string
	// FreeportGame is the Freeport game file (static/freeport/freeport.json);
	// empty or missing serves no Freeport instance.
	FreeportGame string
	// FreeportClosed closes the Freeport game to new enrolments
	// (hosting.FreeportConfig.Closed).
	FreeportClosed bool
	// Clock is the host clock; nil means the system clock.
	Clock hosting.Clock
	// Limits bounds the room server; zero fields take the defaults.
	Limits rooms.Limits
	// Hosts are the names the WebSocket may be reached by
	// (hosting.WSOptions.Hosts); empty means loopback names only.
	Hosts []string
	// SessionsPerMinute bounds the new room connections one client
	// address opens a minute (hosting.RoomsConfig.SessionsPerMinute: 0
	// the default, negative none).
	SessionsPerMinute int
}

// Host is the native host: the room server and the Freeport endpoint on
// one SQLite store, with a ticker driving the rooms' deadlines.
type Host struct {
	Store    *hostingdb.Store
	Rooms    *hosting.Rooms
	Freeport *hosting.Freeport // nil when no game file was found

	hosts  []string
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Open opens the store at cfg.Path, restores every room and Freeport
// instance from it, and starts the deadline ticker.
func Open(ctx context.Context, cfg Config) (*Host, error) {
	if cfg.Clock == nil {
		cfg.Clock = func() int64 { return time.Now().UnixMilli() }
	}
	st, err := hostingdb.Open(cfg.Path)
	if err != nil {
		return nil, err
	}
	reg, err := hosting.Games()
	if err != nil {
		st.Close()
		return nil, err
	}
	h := &Host{Store: st, hosts: cfg.Hosts}
	if h.Rooms, err = hosting.NewRooms(ctx, hosting.RoomsConfig{Store: st, Registry: reg, Clock: cfg.Clock, Limits: cfg.Limits,
		SessionsPerMinute: cfg.SessionsPerMinute}); err != nil {
		st.Close()
		return nil, err
	}
	if cfg.FreeportGame != "" {
		b, err := os.ReadFile(cfg.FreeportGame)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			st.Close()
			return nil, err
		default:
			g, err := freeport.ParseGame(b)
			if err != nil {
				st.Close()
				return nil, fmt.Errorf("nativehost: %s: %w", cfg.FreeportGame, err)
			}
			if h.Freeport, err = hosting.NewFreeport(ctx, hosting.FreeportConfig{Store: st, Clock: cfg.Clock,
				Games: map[string]*freeport.Game{g.ID(): g}, Closed: map[string]bool{g.ID(): cfg.FreeportClosed},
				TokensPerMinute: hosting.DefaultTokensPerMinute, Logf: log.Printf}); err != nil {
				st.Close()
				return nil, err
			}
		}
	}
	tctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(TickEvery)
		defer t.Stop()
		for {
			select {
			case <-tctx.Done():
				return
			case <-t.C:
				_ = h.Rooms.Tick(tctx)
			}
		}
	}()
	return h, nil
}

// Handlers returns the host's handlers by http.ServeMux pattern: the
// WebSocket at GET /rooms/ws, the rooms HTTP API at POST /rooms/command and
// GET /rooms/view, and the Freeport endpoint for POSTs under /freeport/
// and its paged Standing at GET /freeport/{game}/standing.
// The patterns name their methods so that the pages under /rooms/ and
// /freeport/ are still served by the site.
func (h *Host) Handlers() map[string]http.Handler {
	api := h.Rooms.Handler()
	m := map[string]http.Handler{
		"GET /rooms/ws":       h.Rooms.WebSocketHandler(hosting.WSOptions{Hosts: h.hosts}),
		"POST /rooms/command": api,
		"GET /rooms/view":     api,
	}
	if h.Freeport != nil {
		fp := h.Freeport.Handler()
		m["POST /freeport/"] = fp
		m["GET /freeport/{game}/standing"] = fp
	}
	return m
}

// Close stops the ticker and closes the store.
func (h *Host) Close() error {
	h.cancel()
	h.wg.Wait()
	return h.Store.Close()
}
