package nativehost_test

import (
	"bufio"
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

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/hostingdb"
	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/bundle/nativehost"
	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

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
// native host (nativehost.Open, with its ticker) on the SQLite file at
// path, plus GET /bench/stats. It prints its address and serves until its
// standard input closes.
func serveBench(path string) error {
	nativehost.TuneGC() // as bundle serve does
	h, err := nativehost.Open(context.Background(), nativehost.Config{Path: path, SessionsPerMinute: -1})
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
// WebSockets on loopback, against the native host (nativehost.Open:
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
	rs := roomsclient.OpenTables(b, "ws"+strings.TrimPrefix(srv.base, "http")+"/rooms/ws", nRooms)
	defer roomsclient.CloseTables(rs)
	after := srv.stats(b, "gc=1&profile=start")
	heap := float64(after.HeapInuse) - float64(before.HeapInuse)
	for _, mode := range []string{"burst", "paced"} {
		b.Run(mode, func(b *testing.B) {
			var lat []time.Duration
			think := time.Duration(0)
			if mode == "paced" {
				think = 400 * time.Millisecond
			}
			s0, c0 := srv.stats(b, ""), processCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				lat = append(lat, roomsclient.StepAll(rs, think)...)
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
	st, err := hostingdb.Open(filepath.Join(b.TempDir(), "host.db"))
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
	hosts := make([]*roomsclient.Seat, nRooms)
	parallel(nRooms, func(i int) {
		c := roomsclient.DialSeat(b, url)
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.Session != "" })
		c.Send(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, Name: fmt.Sprint("Table ", i)}})
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool {
			if v.Room != nil {
				ids[i] = v.Room.RoomID
			}
			return v.Room != nil
		})
		hosts[i] = c
	})
	pages := (nRooms + rooms.DirectoryPageSize - 1) / rooms.DirectoryPageSize
	lobby := make([]*roomsclient.Seat, nLobby)
	parallel(nLobby, func(i int) {
		c := roomsclient.DialSeat(b, url)
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.Session != "" })
		if p := i % pages; p > 0 {
			c.Send(rooms.Browse{Page: p})
			c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.DirectoryPage == p })
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
				v, _, _ := c.Latest()
				var cmd rooms.Command = rooms.JoinRoom{RoomID: ids[r.IntN(nRooms)]}
				if v.Room != nil {
					cmd = rooms.Leave{}
				}
				_, before := c.View()
				t0 := time.Now()
				c.Send(cmd)
				c.Await(before, "a view after "+cmd.Type())
				_, at := c.Arrived()
				mu.Lock()
				lat = append(lat, at.Sub(t0))
				mu.Unlock()
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
		c.Close()
	}
}
