package hoststore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// it arrived. A game view's log sequence is read off its bytes on arrival;
// the whole view is decoded only when the benchmark looks at it, so the
// clients, which share the machine's cores with the server, spend little.
type benchClient struct {
	conn    *websocket.Conn
	mu      sync.Mutex
	view    []byte
	v       benchView // view, decoded on demand
	decoded bool
	seq     int64 // last log sequence of the latest game view
	frames  int   // views received
	at      time.Time
	tok     string
	wake    chan struct{}
}

type benchView struct {
	Session       string          `json:"session"`
	DirectoryPage int             `json:"directory_page"`
	Room          *rooms.RoomView `json:"room"`
	You           string          `json:"you"`
	ValidActions  []rooms.Action  `json:"valid_actions"`
	Result        *rooms.Result   `json:"result"`
}

// lastSequence returns the sequence of the last log entry of a canonical
// game view (0 when it has none). Keys are sorted and strings escaped, so
// the last `"sequence":` key is the last log entry's.
func lastSequence(view []byte) int64 {
	i := bytes.LastIndex(view, []byte(`"sequence":`))
	if i < 0 {
		return 0
	}
	var n int64
	for _, c := range view[i+len(`"sequence":`):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

func dialBench(tb testing.TB, url string) *benchClient {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	c.SetReadLimit(1 << 20) // a card game's view passes the 32 KiB default
	bc := &benchClient{conn: c, wake: make(chan struct{}, 1)}
	go func() {
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			if bytes.HasPrefix(b, []byte(`{"lobby_error"`)) {
				continue
			}
			at := time.Now()
			bc.mu.Lock()
			bc.view, bc.decoded, bc.at = b, false, at
			bc.frames++
			if bc.tok == "" {
				bc.decode()
				bc.tok = bc.v.Session
			}
			if s := lastSequence(b); s > 0 {
				bc.seq = s
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

// decode decodes the latest view once; c.mu is held.
func (c *benchClient) decode() {
	if !c.decoded {
		c.v = benchView{}
		_ = json.Unmarshal(c.view, &c.v)
		c.decoded = true
	}
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
	c.decode()
	return c.v, c.seq, c.at
}

// arrived returns the log sequence of the latest view and when it came.
func (c *benchClient) arrived() (int64, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq, c.at
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

// waitSeq waits until the latest view's log goes past seq, without
// decoding it.
func (c *benchClient) waitSeq(tb testing.TB, seq int64) {
	deadline := time.After(60 * time.Second)
	for {
		if s, _ := c.arrived(); s > seq {
			return
		}
		select {
		case <-c.wake:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			tb.Fatalf("bench client: timed out waiting for log entry %d", seq+1)
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
				break
			}
			if len(v.ValidActions) > 0 {
				actor, act, seq = c, v.ValidActions[len(v.ValidActions)-1], s
				break
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
			c.waitSeq(tb, seq)
			if _, at := c.arrived(); at.After(last) {
				last = at
			}
		}
		return last.Sub(t0)
	}
}

// benchServerEnv turns the test binary into the benchmark's room server:
// its value is the SQLite file. benchProfileEnv, when set, has that
// server write its CPU profile there, from the end of the set-up to the
// end of the last mode, since the benchmark's own -cpuprofile sees only
// the clients.
const (
	benchServerEnv  = "HOSTSTORE_BENCH_SERVER"
	benchProfileEnv = "HOSTSTORE_BENCH_SERVER_PROFILE"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(benchServerEnv); path != "" {
		if err := serveBench(path); err != nil {
			fmt.Fprintln(os.Stderr, "bench server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// benchStats is what the benchmark's server reports about itself.
type benchStats struct {
	CPUNanos   int64  `json:"cpu_ns"`      // user+system CPU time of the process so far
	HeapInuse  uint64 `json:"heap_inuse"`  // Go heap in use, after a GC (gc=1 only)
	Conns      int64  `json:"conns"`       // WebSockets being served
	StateBytes int    `json:"state_bytes"` // the machine's canonical encoding (gc=1 only)
	LobbyBytes int    `json:"lobby_bytes"` // the lobby's records together (gc=1 only)
	LobbyMax   int    `json:"lobby_max"`   // the largest lobby record (gc=1 only)
}

// serveBench is the benchmark's room server, in its own process: the
// native host (hoststore.OpenHost, with its ticker) on the SQLite file at
// path, plus GET /bench/stats. It prints its address and serves until its
// standard input closes.
func serveBench(path string) error {
	hoststore.TuneGC() // as bundle serve does
	h, err := hoststore.OpenHost(context.Background(), hoststore.HostConfig{Path: path, SessionsPerMinute: -1})
	if err != nil {
		return err
	}
	defer h.Close()
	var held atomic.Int64
	mux := http.NewServeMux()
	for p, hd := range h.Handlers() {
		if p == "GET /rooms/ws" {
			ws := hd
			hd = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				held.Add(1)
				defer held.Add(-1)
				ws.ServeHTTP(w, r)
			})
		}
		mux.Handle(p, hd)
	}
	profile := os.Getenv(benchProfileEnv)
	var profiling bool
	var pmu sync.Mutex
	mux.HandleFunc("GET /bench/stats", func(w http.ResponseWriter, r *http.Request) {
		st := benchStats{CPUNanos: processCPU().Nanoseconds(), Conns: held.Load()}
		q := r.URL.Query()
		if q.Get("gc") != "" {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			st.HeapInuse = m.HeapInuse
			snap, _ := h.Rooms.Snapshot()
			st.StateBytes = len(snap)
			recs, _ := h.Store.List(r.Context(), "rooms/main/lobby")
			for _, rec := range recs {
				st.LobbyBytes += len(rec.Data)
				st.LobbyMax = max(st.LobbyMax, len(rec.Data))
			}
		}
		pmu.Lock()
		switch {
		case q.Get("profile") == "start" && profile != "" && !profiling:
			if f, err := os.Create(profile); err == nil && pprof.StartCPUProfile(f) == nil {
				profiling = true
			}
		case q.Get("profile") == "stop" && profiling:
			pprof.StopCPUProfile()
			profiling = false
		}
		pmu.Unlock()
		_ = json.NewEncoder(w).Encode(st)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	fmt.Println(ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	pmu.Lock()
	if profiling {
		pprof.StopCPUProfile()
	}
	pmu.Unlock()
	_ = srv.Close()
	return nil
}

// benchServer is a running serveBench child.
type benchServer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	base  string // http://host:port
}

func startBenchServer(tb testing.TB, path string) *benchServer {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), benchServerEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		tb.Fatalf("bench server: %v", err)
	}
	return &benchServer{cmd: cmd, stdin: stdin, base: "http://" + strings.TrimSpace(addr)}
}

// stats asks the server for its figures; query may ask for a GC first
// (gc=1) and start or stop its CPU profile (profile=start, profile=stop).
func (s *benchServer) stats(tb testing.TB, query string) benchStats {
	resp, err := http.Get(s.base + "/bench/stats?" + query)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var st benchStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		tb.Fatal(err)
	}
	return st
}

// stop closes the server's standard input and waits for it to exit.
func (s *benchServer) stop() {
	_ = s.stdin.Close()
	_ = s.cmd.Wait()
}

// BenchmarkRooms200x4WebSocket: 200 rooms of four human seats, 800
// WebSockets on loopback, against the native host (hoststore.OpenHost:
// SQLite in WAL mode, the deadline ticker) running in a child process, so
// that its CPU and memory are its own. Each iteration every room makes one
// move at once (a burst of 200 commands) in "burst", or after a random
// think time of up to 400 ms in "paced"; the latency is from a command's
// send to every seat of its room having received the view of it. The
// clients run in this process, on the same cores. Reported: p50 and p99
// in ms, connections the server holds, the server's CPU time (user+system)
// per command in µs and the clients' likewise, the server's Go heap in
// use per room after set-up, and committed state bytes per room.
func BenchmarkRooms200x4WebSocket(b *testing.B) {
	nRooms := 200
	if n, err := strconv.Atoi(os.Getenv("HOSTING_BENCH_ROOMS")); err == nil && n > 0 {
		nRooms = n // a smaller run, for a quick look
	}
	srv := startBenchServer(b, filepath.Join(b.TempDir(), "host.db"))
	defer srv.stop()
	before := srv.stats(b, "gc=1")
	url := "ws" + strings.TrimPrefix(srv.base, "http") + "/rooms/ws"
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
	after := srv.stats(b, "gc=1&profile=start")
	heap := float64(after.HeapInuse) - float64(before.HeapInuse)
	for _, mode := range []string{"burst", "paced"} {
		b.Run(mode, func(b *testing.B) {
			var mu sync.Mutex
			var lat []time.Duration
			s0, c0 := srv.stats(b, ""), processCPU()
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
			s1, c1 := srv.stats(b, ""), processCPU()
			n := float64(len(lat))
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(s1.Conns), "conns")
			b.ReportMetric(float64(s1.CPUNanos-s0.CPUNanos)/1000/n, "server-cpu-us/cmd")
			b.ReportMetric(float64((c1-c0).Nanoseconds())/1000/n, "client-cpu-us/cmd")
			b.ReportMetric(float64(after.StateBytes)/float64(nRooms), "state-B/room")
			b.ReportMetric(heap/float64(nRooms), "heap-B/room")
			b.ReportMetric(n/b.Elapsed().Seconds(), "cmds/s")
		})
	}
	srv.stats(b, "profile=stop")
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

// BenchmarkLobby1000x2000WebSocket: the lobby at scale (issue 16), against
// the native host in a child process as in Rooms200x4: 1,000 public rooms,
// each with its host seated, and 2,000 lobby connections spread over the
// directory's pages, all WebSockets on loopback. Ten clients at a time
// (each after a think time of up to 100 ms) join a random room or leave
// the one they joined; the latency is from a command's send to the
// sender's view of it. Reported: p50 and p99 in ms, the server's CPU per
// command, the connections held, and the lobby's records (all of them
// and the largest) against D1's 2 MB value cap. HOSTING_BENCH_LOBBY=N
// runs N rooms and 2N lobby connections, for a quick look.
func BenchmarkLobby1000x2000WebSocket(b *testing.B) {
	nRooms := 1000
	if n, err := strconv.Atoi(os.Getenv("HOSTING_BENCH_LOBBY")); err == nil && n > 0 {
		nRooms = n
	}
	nLobby := 2 * nRooms
	srv := startBenchServer(b, filepath.Join(b.TempDir(), "host.db"))
	defer srv.stop()
	url := "ws" + strings.TrimPrefix(srv.base, "http") + "/rooms/ws"
	var wg sync.WaitGroup
	gate := make(chan struct{}, 8)
	parallel := func(n int, fn func(i int)) {
		for i := range n {
			wg.Add(1)
			gate <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-gate }()
				fn(i)
			}()
		}
		wg.Wait()
	}
	ids := make([]string, nRooms)
	hosts := make([]*benchClient, nRooms)
	parallel(nRooms, func(i int) {
		c := dialBench(b, url)
		c.waitFor(b, func(v benchView, _ int64) bool { return v.Session != "" })
		c.send(b, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, Name: fmt.Sprint("Table ", i)}})
		c.waitFor(b, func(v benchView, _ int64) bool {
			if v.Room != nil {
				ids[i] = v.Room.RoomID
			}
			return v.Room != nil
		})
		hosts[i] = c
	})
	pages := (nRooms + rooms.DirectoryPageSize - 1) / rooms.DirectoryPageSize
	lobby := make([]*benchClient, nLobby)
	parallel(nLobby, func(i int) {
		c := dialBench(b, url)
		c.waitFor(b, func(v benchView, _ int64) bool { return v.Session != "" })
		if p := i % pages; p > 0 {
			c.send(b, rooms.Browse{Page: p})
			c.waitFor(b, func(v benchView, _ int64) bool { return v.DirectoryPage == p })
		}
		lobby[i] = c
	})
	st := srv.stats(b, "gc=1&profile=start")
	const workers = 10
	var mu sync.Mutex
	var lat []time.Duration
	var next atomic.Int64
	s0 := srv.stats(b, "")
	b.ResetTimer()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 16))
			for {
				k := next.Add(1) - 1
				if k >= int64(b.N) {
					return
				}
				time.Sleep(time.Duration(r.IntN(100)) * time.Millisecond)
				c := lobby[int(k)*workers%nLobby+w] // each worker its own clients
				v, _, _ := c.latest()
				var cmd rooms.Command = rooms.JoinRoom{RoomID: ids[r.IntN(nRooms)]}
				if v.Room != nil {
					cmd = rooms.Leave{}
				}
				c.mu.Lock()
				before := c.frames
				c.mu.Unlock()
				t0 := time.Now()
				c.send(b, cmd)
				deadline := time.After(60 * time.Second)
				for {
					c.mu.Lock()
					got, at := c.frames, c.at
					c.mu.Unlock()
					if got > before {
						mu.Lock()
						lat = append(lat, at.Sub(t0))
						mu.Unlock()
						break
					}
					select {
					case <-c.wake:
					case <-time.After(5 * time.Millisecond):
					case <-deadline:
						b.Errorf("no view within a minute of %s", cmd.Type())
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	s1 := srv.stats(b, "profile=stop")
	if len(lat) == 0 {
		b.Fatal("no command answered")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(s1.CPUNanos-s0.CPUNanos)/1000/float64(len(lat)), "server-cpu-us/cmd")
	b.ReportMetric(float64(s1.Conns), "conns")
	b.ReportMetric(float64(st.LobbyBytes), "lobby-B")
	b.ReportMetric(float64(st.LobbyMax), "lobby-max-B")
	for _, c := range append(hosts, lobby...) {
		_ = c.conn.CloseNow()
	}
}
