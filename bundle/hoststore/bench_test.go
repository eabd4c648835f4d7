package hoststore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/hoststore"
	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// benchClient is one seat's WebSocket: it keeps its latest view and when
// it arrived.
type benchClient struct {
	conn *websocket.Conn
	mu   sync.Mutex
	view []byte
	v    benchView // view, decoded once on arrival
	seq  int64     // last log sequence of the latest game view
	at   time.Time
	tok  string
	wake chan struct{}
}

type benchView struct {
	Session      string          `json:"session"`
	Room         *rooms.RoomView `json:"room"`
	You          string          `json:"you"`
	ValidActions []rooms.Action  `json:"valid_actions"`
	Result       *rooms.Result   `json:"result"`
	Log          []struct {
		Sequence int64 `json:"sequence"`
	} `json:"log"`
}

func dialBench(tb testing.TB, url string) *benchClient {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	bc := &benchClient{conn: c, wake: make(chan struct{}, 1)}
	go func() {
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var v benchView
			_ = json.Unmarshal(b, &v)
			bc.mu.Lock()
			if bytes.Contains(b, []byte(`"lobby_error"`)) {
				bc.mu.Unlock()
				continue
			}
			bc.view, bc.v, bc.at = b, v, time.Now()
			if bc.tok == "" && v.Session != "" {
				bc.tok = v.Session
			}
			if n := len(v.Log); n > 0 {
				bc.seq = v.Log[n-1].Sequence
			}
			bc.mu.Unlock()
			select {
			case bc.wake <- struct{}{}:
			default:
			}
		}
	}()
	return bc
}

func (c *benchClient) send(tb testing.TB, cmd rooms.Command) {
	b, _ := rooms.EncodeCommand(cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
		tb.Fatal(err)
	}
}

func (c *benchClient) latest() (benchView, int64, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.v, c.seq, c.at
}

// waitFor waits until ok accepts the latest view.
func (c *benchClient) waitFor(tb testing.TB, ok func(v benchView, seq int64) bool) {
	deadline := time.After(60 * time.Second)
	for {
		v, seq, _ := c.latest()
		if ok(v, seq) {
			return
		}
		select {
		case <-c.wake:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			tb.Fatalf("bench client: timed out; latest %.300s", c.view)
		}
	}
}

// benchRoom is four human seats at one Cheat table.
type benchRoom struct {
	seats [4]*benchClient
}

// start seats the four at a new table and waits for the game.
func (r *benchRoom) start(tb testing.TB) {
	host := r.seats[0]
	host.send(tb, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID}})
	var id string
	host.waitFor(tb, func(v benchView, _ int64) bool {
		if v.Room != nil {
			id = v.Room.RoomID
		}
		return v.Room != nil
	})
	for _, c := range r.seats[1:] {
		c.send(tb, rooms.JoinRoom{RoomID: id})
		c.waitFor(tb, func(v benchView, _ int64) bool { return v.Room != nil })
	}
	for _, c := range r.seats {
		c.send(tb, rooms.Ready{Ready: true})
	}
	for _, c := range r.seats {
		c.waitFor(tb, func(v benchView, _ int64) bool { return v.You != "" && v.Session == "" })
	}
}

// step has the seat with a decision act, and returns the time from the
// send to the moment the last of the four seats received the view of it.
func (r *benchRoom) step(tb testing.TB) time.Duration {
	for {
		var actor *benchClient
		var act rooms.Action
		var seq int64
		over := false
		for _, c := range r.seats {
			v, s, _ := c.latest()
			if v.Result != nil {
				over = true
			}
			if len(v.ValidActions) > 0 && actor == nil {
				actor, act, seq = c, v.ValidActions[len(v.ValidActions)-1], s
			}
		}
		if over {
			for _, c := range r.seats {
				c.send(tb, rooms.Leave{})
				c.waitFor(tb, func(v benchView, _ int64) bool { return v.Session != "" && v.Room == nil })
			}
			r.start(tb)
			continue
		}
		if actor == nil {
			time.Sleep(time.Millisecond)
			continue
		}
		cmd := rooms.ChooseAction{ActionID: act.ID, Token: act.Token}
		for _, p := range act.Prompts {
			cmd.Targets = append(cmd.Targets, rooms.TargetChoice{Slot: p.Slot, Chosen: p.Candidates[:1]})
		}
		t0 := time.Now()
		actor.send(tb, cmd)
		var last time.Time
		for _, c := range r.seats {
			c.waitFor(tb, func(_ benchView, s int64) bool { return s > seq })
			if _, _, at := c.latest(); at.After(last) {
				last = at
			}
		}
		return last.Sub(t0)
	}
}

// BenchmarkRooms200x4WebSocket: 200 rooms of four human seats, 800
// WebSockets on loopback, the room server on SQLite in WAL mode. Each
// iteration every room makes one move at once (a burst of 200 commands)
// in "burst", or after a random think time of up to 400 ms in "paced";
// the latency is from a command's send to every seat of its room having
// received the view of it. Reported: p50 and p99 in ms, connections held,
// committed state bytes per room, and Go heap per room (server and
// clients together, both in this process).
func BenchmarkRooms200x4WebSocket(b *testing.B) {
	nRooms := 200
	if n, err := strconv.Atoi(os.Getenv("HOSTING_BENCH_ROOMS")); err == nil && n > 0 {
		nRooms = n // a smaller run, for a quick look
	}
	st, err := hoststore.Open(filepath.Join(b.TempDir(), "host.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	reg, _ := rooms.NewRegistry(cheat.Game{})
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	h, err := hosting.NewRooms(context.Background(), hosting.RoomsConfig{Store: st, Registry: reg,
		Clock: func() int64 { return time.Now().UnixMilli() }})
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/rooms/ws", h.WebSocketHandler(hosting.WSOptions{}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/rooms/ws"
	// Rooms are set up a few at a time: every lobby connection is sent a
	// view on every directory change, so 800 clients in the lobby at once
	// would make the set-up quadratic.
	rs := make([]*benchRoom, nRooms)
	var wg sync.WaitGroup
	gate := make(chan struct{}, 4)
	for i := range rs {
		wg.Add(1)
		gate <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-gate }()
			r := &benchRoom{}
			for j := range r.seats {
				r.seats[j] = dialBench(b, url)
				r.seats[j].waitFor(b, func(v benchView, _ int64) bool { return v.Session != "" })
			}
			r.start(b)
			rs[i] = r
		}(i)
	}
	wg.Wait()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	snap, _ := h.Snapshot()
	for _, mode := range []string{"burst", "paced"} {
		b.Run(mode, func(b *testing.B) {
			var mu sync.Mutex
			var lat []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k, r := range rs {
					wg.Add(1)
					go func(k int, r *benchRoom) {
						defer wg.Done()
						if mode == "paced" {
							time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
						}
						d := r.step(b)
						mu.Lock()
						lat = append(lat, d)
						mu.Unlock()
					}(k, r)
				}
				wg.Wait()
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(nRooms*4), "conns")
			b.ReportMetric(float64(len(snap))/float64(nRooms), "state-B/room")
			b.ReportMetric(float64(m1.HeapInuse-m0.HeapInuse)/float64(nRooms), "heap-B/room")
			b.ReportMetric(float64(len(lat))/b.Elapsed().Seconds(), "cmds/s")
		})
	}
	for _, r := range rs {
		for _, c := range r.seats {
			_ = c.conn.CloseNow()
		}
	}
}

// BenchmarkFreeportHTTP: 50 concurrent clients on loopback, each enrolled
// with its own token, send transfers of one credit to one another (two in
// three requests) and inventory reads, against the shipped game on SQLite.
// Reported: requests per second and p99 latency.
func BenchmarkFreeportHTTP(b *testing.B) {
	const clients = 50
	raw, err := os.ReadFile(filepath.Join("..", "..", "static", "freeport", "freeport.json"))
	if err != nil {
		b.Fatal(err)
	}
	g, err := freeport.ParseGame(raw)
	if err != nil {
		b.Fatal(err)
	}
	st, err := hoststore.Open(filepath.Join(b.TempDir(), "host.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	f, err := hosting.NewFreeport(context.Background(), hosting.FreeportConfig{Store: st,
		Clock: func() int64 { return time.Now().UnixMilli() }, Games: map[string]*freeport.Game{"harbour": g},
		CommandsPerSecond: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	hc := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	post := func(tok, body string) []byte {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/freeport/harbour/", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return out
	}
	toks := make([]string, clients)
	ids := make([]string, clients)
	for i := range toks {
		toks[i] = f.IssueToken()
		var env struct {
			Result struct {
				PlayerID string `json:"playerId"`
			} `json:"result"`
		}
		_ = json.Unmarshal(post(toks[i], `{"protocolVersion":2,"action":"enroll","commandId":"e"}`), &env)
		ids[i] = env.Result.PlayerID
	}
	var mu sync.Mutex
	var lat []time.Duration
	var next, seq int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 1))
			for {
				mu.Lock()
				if next >= int64(b.N) {
					mu.Unlock()
					return
				}
				next++
				seq++
				n := seq
				mu.Unlock()
				body := `{"protocolVersion":2,"action":"readInventory"}`
				if n%3 != 0 {
					to := r.IntN(clients - 1)
					if to >= c {
						to++
					}
					body = fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"t%d","toPlayerId":%q,"assetId":"credits","quantity":1}`, n, ids[to])
				}
				t0 := time.Now()
				post(toks[c], body)
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}(c)
	}
	wg.Wait()
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
