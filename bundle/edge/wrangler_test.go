package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/site"
)

// Bounds of the harness.
const (
	// startLimit bounds building the worker and waiting for wrangler dev
	// to answer (a cold Go build of the WASM module on a busy machine).
	startLimit = 5 * time.Minute
	// migrateLimit bounds `wrangler d1 migrations apply`.
	migrateLimit = 2 * time.Minute
	// requestLimit bounds one HTTP request to the worker.
	requestLimit = 30 * time.Second
)

// skipEnv skips every test of the package when set to 1.
const skipEnv = "STORYLOOM_SKIP_WORKER"

// perAddressVar is the Worker variable that, set to "off", turns off the
// worker's limits counted per client address (wasm/worker/main.go).
const perAddressVar = "STORYLOOM_PER_ADDRESS_LIMITS"

// traceOn is the Worker variable that has the room server's object log
// every event it handles, begun and ended (wasm/worker/main.go): the dev
// servers of the tests run with it, so that a failed test's log shows an
// event that never ended. Benchmarks run without it.
const traceOn = "STORYLOOM_TRACE:on"

// repoRoot is the repository, two levels up from this package.
var repoRoot = filepath.Join("..", "..")

// sharedServer is a dev server that several of the package's tests use,
// started on first use and stopped when they are all done.
type sharedServer struct {
	once sync.Once
	w    *wrangler
	err  error
}

// running is the dev server that most of the package's tests share;
// seeded is the second, which only the tests that need its variables use
// (seededServer).
var running, seeded sharedServer

func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range []*sharedServer{&running, &seeded} {
		if s.w != nil {
			if code != 0 {
				s.w.dumpLog()
			}
			s.w.stop()
		}
	}
	if migrated.dir != "" {
		os.RemoveAll(migrated.dir)
	}
	if prebuilt.dir != "" {
		os.RemoveAll(prebuilt.dir)
	}
	closeBrowser()
	os.Exit(code)
}

// wrangler is a `wrangler dev` process group and its output.
type wrangler struct {
	base    string // http://127.0.0.1:port
	persist string
	// site is the site wrangler serves as static assets, built from the
	// working tree into a temporary directory (never dist/).
	site *site.Result
	vars []string // Worker variables, "KEY:VALUE"
	// dealt is set by the first test that opens a room on the server
	// whose room server must be fresh (TestWorkerCardTablePages).
	dealt atomic.Bool
	cmd   *exec.Cmd
	done  chan struct{}
	log   lockedBuffer
}

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Len is how many bytes the buffer holds.
func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// From is what the buffer holds from offset on: a copy of that part alone,
// since the shared dev server's log grows with every test and tests poll it.
func (b *lockedBuffer) From(offset int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf.Bytes()[offset:])
}

// worker returns the base URL of the running worker, starting it on first
// use. It skips when STORYLOOM_SKIP_WORKER=1 and fails, saying what to
// do, when wrangler is not installed.
func worker(t testing.TB) *wrangler {
	t.Helper()
	if os.Getenv(skipEnv) == "1" {
		t.Skipf("%s=1: the edge worker is not tested", skipEnv)
	}
	return running.use(t, startWrangler)
}

// use returns s's dev server, starting it with start on first use; a
// failed test prints what the server logged during it.
func (s *sharedServer) use(t testing.TB, start func() (*wrangler, error)) *wrangler {
	t.Helper()
	s.once.Do(func() { s.w, s.err = start() })
	if s.err != nil {
		t.Fatal(s.err)
	}
	w := s.w
	from := w.log.Len()
	t.Cleanup(func() {
		if t.Failed() {
			w.dumpLogFrom(from)
		}
	})
	return w
}

// freePort asks the kernel for a free port on 127.0.0.1.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// wranglerBin is the project's own wrangler, relative to the repository
// root (make deps installs it).
var wranglerBin = filepath.Join("node_modules", ".bin", "wrangler")

// wranglerCmd runs the project's own wrangler (never a download) in the
// repository root, on the configuration of the package's prebuilt worker
// (built). It runs wranglerBin itself, not through npx, whose node of its
// own cost every dev server's start about a second of CPU.
func wranglerCmd(ctx context.Context, config string, args ...string) *exec.Cmd {
	cmd := groupCommand(ctx, wranglerBin, append(args, "--config", config)...)
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=1", "NO_COLOR=1", "FORCE_COLOR=0")
	return cmd
}

// groupCommand is a command run in the repository root in a process group
// of its own, which ctx's end kills whole. exec.CommandContext alone kills
// only the process it started: wrangler's node and workerd, or the build's
// compiler, would live on holding the output pipe, and the wait for the
// command would never end.
func groupCommand(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = repoRoot
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// prebuilt is the worker built once for the package (scripts/worker.sh
// build into a temporary directory) beside a copy of wrangler.toml that
// runs it as it is (devConfig). Every dev server the tests start runs
// that copy: none runs the build command of the repository's
// wrangler.toml, which writes build/worker/, where a running dev server
// would see the files change under it and reload mid-test.
var prebuilt struct {
	once   sync.Once
	dir    string
	config string
	err    error
}

// built returns the prebuilt worker's directory and configuration,
// building them on first use.
func built() (dir, config string, err error) {
	prebuilt.once.Do(func() {
		prebuilt.dir, prebuilt.config, prebuilt.err = buildWorker()
	})
	return prebuilt.dir, prebuilt.config, prebuilt.err
}

// buildWorker builds the worker into a new temporary directory's worker/
// and writes the configuration that runs it there.
func buildWorker() (dir, config string, err error) {
	dir, err = os.MkdirTemp("", "storyloom-worker-")
	if err != nil {
		return "", "", err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), startLimit)
	defer cancel()
	cmd := groupCommand(ctx, "bash", "scripts/worker.sh", "build")
	cmd.Env = append(os.Environ(), "WORKER_OUT="+filepath.Join(dir, "worker"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("scripts/worker.sh build: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(repoRoot, "wrangler.toml"))
	if err != nil {
		return "", "", err
	}
	migrations, err := filepath.Abs(filepath.Join(repoRoot, "migrations"))
	if err != nil {
		return "", "", err
	}
	conf, err := devConfig(src, "worker/entry.mjs", migrations)
	if err != nil {
		return "", "", err
	}
	config = filepath.Join(dir, "wrangler.toml")
	return dir, config, os.WriteFile(config, conf, 0o644)
}

// devConfig rewrites the repository's wrangler.toml (src) to run a worker
// already built: its [build] table goes, main becomes entry and
// migrations_dir the absolute migrations. It fails when src lacks main or
// migrations_dir, so that a change of wrangler.toml cannot slip past it.
func devConfig(src []byte, entry, migrations string) ([]byte, error) {
	var out bytes.Buffer
	found := map[string]bool{}
	inBuild := false
	for _, line := range strings.SplitAfter(string(src), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") {
			inBuild = trimmed == "[build]"
		}
		switch key, _, _ := strings.Cut(trimmed, "="); {
		case inBuild:
			continue
		case strings.TrimSpace(key) == "main":
			line = "main = " + strconv.Quote(entry) + "\n"
			found["main"] = true
		case strings.TrimSpace(key) == "migrations_dir":
			line = "migrations_dir = " + strconv.Quote(migrations) + "\n"
			found["migrations_dir"] = true
		}
		out.WriteString(line)
	}
	if !found["main"] || !found["migrations_dir"] {
		return nil, fmt.Errorf("wrangler.toml: no main or no migrations_dir to point at the prebuilt worker")
	}
	return out.Bytes(), nil
}

func startWrangler() (*wrangler, error) {
	if _, err := os.Stat(filepath.Join(repoRoot, wranglerBin)); err != nil {
		return nil, fmt.Errorf("the edge worker tests need wrangler from npm (%v): run `make deps` "+
			"(or `sh scripts/setup-node.sh`), or set %s=1 to skip them", err, skipEnv)
	}
	// The worker first, then the site: in `make test`, bundle/e2e builds
	// the same site at the same moment, and the Go build cache shares only
	// what is finished, so a site build begun beside it would compile its
	// WASM module's packages a second time. Built after the worker, it
	// mostly finds them in the cache.
	if _, _, err := built(); err != nil {
		return nil, err
	}
	persist, err := os.MkdirTemp("", "storyloom-d1-")
	if err != nil {
		return nil, err
	}
	// The site, as the worker serves it from wrangler.toml's [assets];
	// --assets points wrangler at this build instead of dist/.
	siteCtx, cancelSite := context.WithTimeout(context.Background(), startLimit)
	defer cancelSite()
	st, err := browsertest.Build(siteCtx, filepath.Join(persist, "site"), false)
	if err != nil {
		os.RemoveAll(persist)
		return nil, fmt.Errorf("building the site: %w", err)
	}
	return openWrangler(persist, st, traceOn)
}

// migrated is local state with the D1 migrations applied and nothing
// else, made once for the package: every dev server starts from a copy of
// it, so that each fork does not start workerd once more to apply them.
var migrated struct {
	once sync.Once
	dir  string
	err  error
}

// migratedState returns migrated's directory, making it on first use.
func migratedState() (string, error) {
	migrated.once.Do(func() {
		dir, err := os.MkdirTemp("", "storyloom-d1-migrated-")
		if err != nil {
			migrated.err = err
			return
		}
		_, config, err := built()
		if err != nil {
			os.RemoveAll(dir)
			migrated.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), migrateLimit)
		defer cancel()
		if out, err := wranglerCmd(ctx, config, "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			migrated.err = fmt.Errorf("wrangler d1 migrations apply: %v\n%s", err, out)
			return
		}
		migrated.dir = dir
	})
	return migrated.dir, migrated.err
}

// openWrangler starts wrangler dev over a copy of the migrated local state
// in persist, serving st, with vars ("KEY:VALUE") as Worker variables.
func openWrangler(persist string, st *site.Result, vars ...string) (*wrangler, error) {
	w := &wrangler{persist: persist, site: st, vars: vars}
	template, err := migratedState()
	if err == nil {
		err = os.CopyFS(persist, os.DirFS(template))
	}
	if err != nil {
		os.RemoveAll(persist)
		return nil, err
	}
	if err := w.launch(); err != nil {
		os.RemoveAll(persist)
		return nil, err
	}
	return w, nil
}

// seededVars are the Worker variables of the seeded dev server
// (seededServer): its room server derives its ids from cardDuelSecret
// (STORYLOOM_TEST_ID_SECRET) and its per-address limits are off.
var seededVars = []string{"STORYLOOM_TEST_ID_SECRET:" + cardDuelSecret, perAddressVar + ":off"}

// seededServer returns the package's second dev server, beside the shared
// one (w), starting it on first use: the same site over local state of its
// own, with seededVars. Two tests need such a server, and one start serves
// both (each start is a whole wrangler dev, workerd and the Go module's
// compilation, on the CPU of a busy machine): TestWorkerCardTablePages,
// whose moves are chosen for the game this fresh room server deals, so
// that no other test may open a room on it, and
// TestWorkerPerAddressLimitsOff, which only asks for Freeport tokens.
func (w *wrangler) seededServer(t *testing.T) *wrangler {
	t.Helper()
	return seeded.use(t, func() (*wrangler, error) {
		persist, err := os.MkdirTemp("", "storyloom-d1-")
		if err != nil {
			return nil, err
		}
		return openWrangler(persist, w.site, slices.Concat(seededVars, []string{traceOn})...)
	})
}

// fork starts a second dev server for t, beside w: the same site over
// fresh local state of its own, with vars ("KEY:VALUE") as Worker
// variables. It stops when t ends.
func (w *wrangler) fork(t testing.TB, vars ...string) *wrangler {
	t.Helper()
	persist, err := os.MkdirTemp("", "storyloom-d1-")
	if err != nil {
		t.Fatal(err)
	}
	if _, test := t.(*testing.T); test {
		vars = append(vars, traceOn)
	}
	w2, err := openWrangler(persist, w.site, vars...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			w2.dumpLog()
		}
		w2.stop()
	})
	return w2
}

// launch starts wrangler dev on a free port over w's persisted state and
// waits until the worker answers.
func (w *wrangler) launch() error {
	port, err := freePort()
	if err != nil {
		return err
	}
	w.base = fmt.Sprintf("http://127.0.0.1:%d", port)
	w.done = make(chan struct{})
	_, config, err := built()
	if err != nil {
		return err
	}
	args := []string{"dev", "--ip", "127.0.0.1", "--port", fmt.Sprint(port), "--local",
		"--persist-to", w.persist, "--assets", w.site.Out, "--test-scheduled",
		"--show-interactive-dev-session=false", "--inspector-port", "0"}
	for _, v := range w.vars {
		args = append(args, "--var", v)
	}
	w.cmd = wranglerCmd(context.Background(), config, args...)
	w.cmd.Stdout, w.cmd.Stderr = &w.log, &w.log
	if err := w.cmd.Start(); err != nil {
		return err
	}
	done := w.done
	go func() { _ = w.cmd.Wait(); close(done) }()
	deadline := time.Now().Add(startLimit)
	for time.Now().Before(deadline) {
		select {
		case <-w.done:
			w.halt()
			return fmt.Errorf("wrangler dev exited before it answered:\n%s", w.log.String())
		case <-time.After(500 * time.Millisecond):
		}
		resp, err := httpClient.Get(w.base + "/healthz")
		if err != nil {
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		if resp.StatusCode != http.StatusServiceUnavailable {
			w.halt()
			return fmt.Errorf("GET /healthz: %d %s\n%s", resp.StatusCode, body, w.log.String())
		}
	}
	w.halt()
	return fmt.Errorf("wrangler dev did not answer within %v:\n%s", startLimit, w.log.String())
}

// restart stops the dev server and starts it again over the same local
// state (its D1 database and Durable Object storage), as an eviction or a
// redeploy would; w.base changes.
func (w *wrangler) restart(t testing.TB) {
	t.Helper()
	w.halt()
	if err := w.launch(); err != nil {
		t.Fatal(err)
	}
}

// stop ends wrangler's process group and removes its local state: the
// D1 database, the objects' storage and, for the first server, the site.
func (w *wrangler) stop() {
	w.halt()
	os.RemoveAll(w.persist)
}

// logTail is how much of wrangler's output a failed run prints.
const logTail = 64 << 10

// dumpLog prints the end of wrangler's output (the worker's console, its
// exceptions), so that a failure shows what the worker saw.
func (w *wrangler) dumpLog() { w.dumpLogFrom(0) }

// dumpLogFrom prints the end of what wrangler wrote from offset on: what
// it saw during one test of the shared dev server.
func (w *wrangler) dumpLogFrom(offset int) {
	out := w.log.From(offset)
	if len(out) > logTail {
		out = out[len(out)-logTail:]
	}
	fmt.Fprintf(os.Stderr, "--- wrangler dev output (last %d bytes):\n%s\n", len(out), out)
}

// halt ends wrangler's whole process group (its two nodes, workerd).
func (w *wrangler) halt() {
	if w.cmd.Process != nil {
		pgid := w.cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-w.done
		}
		// workerd may outlive its parent by a moment.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// httpClient is the tests' client: every request bounded in time, and
// every request on a connection of its own. wrangler dev closes a
// connection that has been idle for 5 seconds; a client that reuses one
// just as it is closed sees its request fail with EOF, and Go does not
// send a POST again on its own (it cannot know the server did not apply
// it). The tests wait 5 seconds often (the rooms' shortest decision
// clock), so they would meet that race: a fresh connection per request
// cannot.
var httpClient = &http.Client{Timeout: requestLimit, Transport: &http.Transport{DisableKeepAlives: true}}

// do sends one request and returns its status and body. When wrangler
// dev's own proxy answers instead of the worker (devProxyDrop), it sends
// the request again, up to three times in all, as a client at any host
// resends after a 503 that asks it to; every other answer, the worker's
// own 503s included, is returned as it came.
func do(method, url, bearer string, body []byte) (int, []byte, error) {
	for try := 1; ; try++ {
		req, err := http.NewRequest(method, url, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := httpClient.Do(req)
		if err != nil {
			return 0, nil, err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || try == 3 || !devProxyDrop(resp, b) {
			return resp.StatusCode, b, err
		}
	}
}

// devProxyDrop reports whether resp is wrangler dev's proxy answering for
// the worker: when its own connection to the worker fails (a pooled
// connection the worker's side closed as the request was sent,
// cloudflare/workers-sdk#14641), the proxy answers a POST with this 503
// and a Retry-After of 0. The worker's own 503s carry JSON and a
// Retry-After of a second or more. (bundle/browsertest tells the same
// answer apart in the browser: Browser.BehindWranglerDev.)
func devProxyDrop(resp *http.Response, body []byte) bool {
	return resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "0" &&
		bytes.HasPrefix(body, []byte("Your worker restarted mid-request."))
}

// TestWorkerServes checks the worker answers its health check, refuses an
// unknown path and a plain GET of the WebSocket's path, answers a CORS
// preflight, and serves the
// site as static assets with the types a browser needs, while the API
// paths beside the pages still reach the Go worker.
func TestWorkerServes(t *testing.T) {
	w := worker(t)
	for _, tc := range []struct {
		name, method, path string
		status             int
		// contentType is the wanted Content-Type's media type, when set.
		contentType string
	}{
		{name: "health", method: http.MethodGet, path: "/healthz", status: http.StatusOK, contentType: "application/json"},
		{name: "unknown path", method: http.MethodGet, path: "/nowhere", status: http.StatusNotFound, contentType: "application/json"},
		{name: "preflight", method: http.MethodOptions, path: "/rooms/command", status: http.StatusNoContent},
		{name: "unknown game", method: http.MethodPost, path: "/freeport/nogame/token", status: http.StatusNotFound},
		{name: "WebSocket without an upgrade", method: http.MethodGet, path: "/rooms/ws", status: http.StatusUpgradeRequired, contentType: "application/json"},
		{name: "view needs a session", method: http.MethodGet, path: "/rooms/view", status: http.StatusUnauthorized, contentType: "application/json"},
		{name: "library page", method: http.MethodGet, path: "/", status: http.StatusOK, contentType: "text/html"},
		{name: "rooms page", method: http.MethodGet, path: "/rooms/", status: http.StatusOK, contentType: "text/html"},
		{name: "freeport page", method: http.MethodGet, path: "/freeport/", status: http.StatusOK, contentType: "text/html"},
		{name: "service worker", method: http.MethodGet, path: "/" + site.SWName, status: http.StatusOK, contentType: "text/javascript"},
		{name: "web manifest", method: http.MethodGet, path: "/" + site.WebManifest, status: http.StatusOK, contentType: "application/manifest+json"},
		{name: "campaign index", method: http.MethodGet, path: "/" + site.CampaignsIdx, status: http.StatusOK, contentType: "application/json"},
		{name: "module", method: http.MethodGet, path: "/" + w.site.Assets[site.WasmSource], status: http.StatusOK, contentType: "application/wasm"},
		{name: "page script", method: http.MethodGet, path: "/" + w.site.Assets["app.js"], status: http.StatusOK, contentType: "text/javascript"},
		{name: "rooms script", method: http.MethodGet, path: "/" + w.site.Assets["rooms/app.js"], status: http.StatusOK, contentType: "text/javascript"},
		{name: "freeport style", method: http.MethodGet, path: "/" + w.site.Assets["freeport/freeport.css"], status: http.StatusOK, contentType: "text/css"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, w.base+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := httpClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("%s %s: %d %.200s, want %d", tc.method, tc.path, resp.StatusCode, body, tc.status)
			}
			if tc.contentType == "" {
				return
			}
			if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != tc.contentType {
				t.Errorf("%s %s: Content-Type %q, want %s", tc.method, tc.path, resp.Header.Get("Content-Type"), tc.contentType)
			}
		})
	}
}

// TestScheduledTick triggers the cron handler as Cloudflare would. With
// static assets, miniflare's /cdn-cgi/handler/scheduled reaches the assets
// router, which has no scheduled handler (500 "exception"), so the test
// uses the /__scheduled route of `wrangler dev --test-scheduled`, which
// runs the worker's own handler.
func TestScheduledTick(t *testing.T) {
	w := worker(t)
	status, body, err := do(http.MethodGet, w.base+"/__scheduled?cron=*+*+*+*+*", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusOK {
		t.Fatalf("scheduled: %d %s", status, body)
	}
}

// decodeJSON unmarshals b into v, or fails the test with b.
func decodeJSON(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %.400s", err, b)
	}
}

// TestDevConfig checks the configuration the dev servers run: the
// repository's wrangler.toml without its build command, pointed at the
// prebuilt worker and the migrations, every other table kept.
func TestDevConfig(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, "wrangler.toml"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := devConfig(src, "worker/entry.mjs", "/abs/migrations")
	if err != nil {
		t.Fatal(err)
	}
	conf := string(got)
	for _, gone := range []string{"[build]", "command =", "watch_dir", "build/worker/entry.mjs"} {
		if strings.Contains(conf, gone) {
			t.Errorf("the dev configuration still has %q", gone)
		}
	}
	for _, kept := range []string{`main = "worker/entry.mjs"`, `migrations_dir = "/abs/migrations"`,
		"[[durable_objects.bindings]]", "[[migrations]]", "[[d1_databases]]", "[assets]", "run_worker_first", "[triggers]"} {
		if !strings.Contains(conf, kept) {
			t.Errorf("the dev configuration lacks %q", kept)
		}
	}
	if _, err := devConfig([]byte("name = \"x\"\n[build]\ncommand = \"make\"\n"), "e.mjs", "/m"); err == nil {
		t.Error("a configuration without main or migrations_dir was rewritten without an error")
	}
}
