package edge

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/hostingdb"
	"github.com/storyloom/storyloom/bundle/internal/freeportclient"
	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// benchClients is how many clients send commands at once in the
// concurrent runs (the others have one).
const benchClients = 8

// nativeHost serves the same handlers natively, as bundle serve does
// (bundle/hosting on the SQLite store of bundle/hostingdb, on 127.0.0.1),
// with the per-connection rate limits lifted so that they do not cut the
// measurement short.
func nativeHost(b *testing.B) string {
	b.Helper()
	st, err := hostingdb.Open(filepath.Join(b.TempDir(), "host.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	reg, err := rooms.NewRegistry(cheat.Game{})
	if err != nil {
		b.Fatal(err)
	}
	clock := func() int64 { return time.Now().UnixMilli() }
	ctx := context.Background()
	rs, err := hosting.NewRooms(ctx, hosting.RoomsConfig{Store: st, Registry: reg, Clock: clock,
		Limits: rooms.Limits{CommandsPerSecond: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(repoRoot, "static", "freeport", "freeport.json"))
	if err != nil {
		b.Fatal(err)
	}
	g, err := freeport.ParseGame(raw)
	if err != nil {
		b.Fatal(err)
	}
	fp, err := hosting.NewFreeport(ctx, hosting.FreeportConfig{Store: st, Clock: clock,
		Games: map[string]*freeport.Game{g.ID(): g}, CommandsPerSecond: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/rooms/", rs.Handler())
	mux.Handle("/freeport/", fp.Handler())
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	return srv.URL
}

// BenchmarkCommand measures one committed command over HTTP against the
// worker under wrangler dev and against the native host, in the same run:
// a room set_name (a lobby commit) and a Freeport setTradingName (a logged
// request), from one client and from benchClients clients at once. It reports the median and
// p99 latency and the commands per second. Run it with a fixed count, for
// example -bench Command -benchtime 200x.
func BenchmarkCommand(b *testing.B) {
	// The clients all come from 127.0.0.1, so the worker that serves them
	// counts no per-address limits, as the native host here does not.
	edge := sync.OnceValue(func() string { return worker(b).fork(b, perAddressVar+":off").base })
	for _, host := range []string{"native", "worker"} {
		for _, op := range []string{"rooms", "freeport"} {
			for _, clients := range []int{1, benchClients} {
				b.Run(fmt.Sprintf("%s/%s/clients=%d", host, op, clients), func(b *testing.B) {
					var base string
					if host == "worker" {
						base = edge()
					} else {
						base = nativeHost(b)
					}
					send := setup(b, base, op)
					lat := make([]time.Duration, b.N)
					var next sync.Mutex
					i := 0
					retried := retries.Load()
					b.ResetTimer()
					start := time.Now()
					var wg sync.WaitGroup
					for c := range clients {
						wg.Add(1)
						go func(c int) {
							defer wg.Done()
							for {
								next.Lock()
								n := i
								i++
								next.Unlock()
								if n >= b.N {
									return
								}
								t0 := time.Now()
								if err := send(c, n); err != nil {
									b.Error(err)
									return
								}
								lat[n] = time.Since(t0)
							}
						}(c)
					}
					wg.Wait()
					elapsed := time.Since(start)
					b.StopTimer()
					slices.Sort(lat)
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
					b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds())/1000, "p99-ms")
					b.ReportMetric(float64(b.N)/elapsed.Seconds(), "cmds/s")
					b.ReportMetric(float64(retries.Load()-retried), "retried-503s")
				})
			}
		}
	}
}

// sessionsPerClient is how many sessions (rooms) or tokens (Freeport)
// each client sends through in turn, so that none comes near the
// per-session rate limit (20 commands a second, which a fast host reaches
// from one client): the benchmark measures commands, not the limiter.
const sessionsPerClient = 4

// setup opens benchClients clients of op at base and returns the command
// each sends.
func setup(b *testing.B, base, op string) func(client, n int) error {
	b.Helper()
	switch op {
	case "rooms":
		toks := make([]string, benchClients*sessionsPerClient)
		for c := range toks {
			p := dial(b, base, fmt.Sprintf("bench%d", c))
			p.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
			p.close()
			toks[c] = p.token.Load().(string)
		}
		return func(c, n int) error {
			frame := fmt.Sprintf(`{"type":"set_name","name":"Bench %d"}`, n%2)
			status, body, err := sendRetrying(base+"/rooms/command", toks[c*sessionsPerClient+n%sessionsPerClient], []byte(frame))
			if err == nil && status != http.StatusOK {
				err = fmt.Errorf("set_name: %d %.200s", status, body)
			}
			return err
		}
	default:
		m := freeportclient.Client{T: b, Base: base, Game: fpGame, HTTP: httpClient, Resend: true}
		toks := make([]string, benchClients*sessionsPerClient)
		for c := range toks {
			toks[c] = m.Token()
			m.Must(toks[c], `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)
		}
		return func(c, n int) error {
			name := `"Bench Trader"`
			if n%2 == 1 {
				name = "null"
			}
			body := fmt.Sprintf(`{"protocolVersion":2,"action":"setTradingName","commandId":"b%d","tradingName":%s}`, n, name)
			status, resp, err := sendRetrying(base+"/freeport/"+fpGame+"/", toks[c*sessionsPerClient+n%sessionsPerClient], []byte(body))
			if err == nil && (status != http.StatusOK || freeportclient.CodeOf(resp) != "") {
				err = fmt.Errorf("setTradingName: %d %.200s", status, resp)
			}
			return err
		}
	}
}

// retries counts the 503 answers the benchmark sent again: a commit that
// lost the optimistic-concurrency race too often, or (under wrangler dev)
// a worker restarted mid-request.
var retries atomic.Int64

// sendRetrying posts body, sending it again (the same command, so
// idempotent) after a 503, at most four times.
func sendRetrying(url, bearer string, body []byte) (int, []byte, error) {
	var status int
	var resp []byte
	var err error
	for range 5 {
		status, resp, err = do(http.MethodPost, url, bearer, body)
		if err != nil || status != http.StatusServiceUnavailable {
			break
		}
		retries.Add(1)
		time.Sleep(50 * time.Millisecond)
	}
	return status, resp, err
}

// BenchmarkRooms200x4WebSocket is the native host's benchmark of the same
// name (bundle/hostingdb) against the worker under wrangler dev, so that
// make bench reports the two side by side: 200 rooms of four human seats,
// 800 WebSockets to the rooms' Durable Object, each room moving after a
// random think time of up to 400 ms per iteration ("paced"); the latency
// is from a command's send to every seat of its room having received the
// view of it. HOSTING_BENCH_ROOMS=N runs fewer rooms. Run it with a small
// fixed count, for example -benchtime 3x: one iteration is 200 commands.
func BenchmarkRooms200x4WebSocket(b *testing.B) {
	nRooms := 200
	if n, err := strconv.Atoi(os.Getenv("HOSTING_BENCH_ROOMS")); err == nil && n > 0 {
		nRooms = n
	}
	// Every client comes from 127.0.0.1: the per-address limits are off.
	base := worker(b).fork(b, perAddressVar+":off").base
	rs := roomsclient.OpenTables(b, "ws"+strings.TrimPrefix(base, "http")+"/rooms/ws", nRooms)
	defer roomsclient.CloseTables(rs)
	b.Run("paced", func(b *testing.B) {
		var lat []time.Duration
		b.ResetTimer()
		for range b.N {
			lat = append(lat, roomsclient.StepAll(rs, 400*time.Millisecond)...)
		}
		b.StopTimer()
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(len(lat))/b.Elapsed().Seconds(), "cmds/s")
	})
}

// BenchmarkWebSocketCommand measures one committed command over the room
// server's WebSocket at the worker under wrangler dev: benchClients
// clients, each on its own socket, send set_name commands, each the next
// once the last one's view arrived. A client paces itself as a page under
// the machine's per-connection limit (rooms.DefaultLimits, 20 commands a
// second) would: never two sends of one socket closer than wsPace, so the
// limit refuses none and the figure is the object's, not the limiter's
// (at most benchClients/wsPace, about 154 commands a second). A refused
// command would fail the benchmark. It reports the median and p99 from a
// send to its view, and the commands per second.
func BenchmarkWebSocketCommand(b *testing.B) {
	base := worker(b).fork(b, perAddressVar+":off").base
	ps := dialLobbies(b, base, "bench", benchClients)
	if b.Failed() {
		return
	}
	var wg sync.WaitGroup
	lat := make([]time.Duration, b.N)
	var next, refused atomic.Int64
	b.ResetTimer()
	start := time.Now()
	for c, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last time.Time
			for n := int(next.Add(1) - 1); n < b.N; n = int(next.Add(1) - 1) {
				name := fmt.Sprintf("b%d-%d", c, n)
				var first time.Time
				for {
					time.Sleep(wsPace - time.Since(last))
					last = time.Now()
					if first.IsZero() {
						first = last
					}
					code := p.setName(name)
					if code == "" {
						break
					}
					// Refused (not applied): sent again at the pace.
					if code != rooms.CodeRateLimited {
						b.Errorf("%s: %s refused: %s", p.Name, name, code)
						return
					}
					refused.Add(1)
				}
				lat[n] = time.Since(first)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "cmds/s")
	b.ReportMetric(float64(refused.Load()), "refused")
}

// wsPace is the least time between two sends of one socket in
// BenchmarkWebSocketCommand: the machine's per-connection limit (a
// twentieth of a second) and 2 ms more, so that a send the network
// delays less than the one before it still arrives within the limit.
var wsPace = time.Second/time.Duration(rooms.DefaultLimits().CommandsPerSecond) + 2*time.Millisecond
