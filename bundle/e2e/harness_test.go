package e2e

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/static"
	"github.com/storyloom/storyloom/web"
)

// suite is what TestMain prepares once for the package: the built site
// and one browser.
var suite struct {
	dist     string // the built site
	offline  string // storyloom-offline.html
	root     string // the module root
	out      string // testout/e2e
	browser  context.Context
	skip     string // why the browser tests skip, when they do
	buildErr error
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	suite.root = root
	suite.out = filepath.Join(root, "testout", "e2e")
	chromium := findChromium()
	if chromium == "" {
		suite.skip = "no Chromium found (run scripts/setup-chromium.sh)"
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") == "1" {
			fmt.Fprintln(os.Stderr, "e2e:", suite.skip)
			return 1
		}
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "storyloom-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	pages, _ := fs.Sub(web.FS, "site")
	res, err := site.Build(context.Background(), site.Options{
		Web: pages, Static: static.FS, Out: filepath.Join(tmp, "dist"), ModuleDir: root, Fast: true, Offline: true,
	})
	if err != nil {
		suite.buildErr = err
		return m.Run()
	}
	suite.dist, suite.offline = res.Out, res.OfflinePath
	if err := os.MkdirAll(suite.out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("allow-file-access-from-files", true),
		chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting Chromium:", err)
		return 1
	}
	suite.browser = browser
	return m.Run()
}

func findChromium() string {
	if p := os.Getenv("STORYLOOM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// need skips t when the browser suite cannot run, and fails it when the
// site did not build.
func need(t *testing.T) {
	t.Helper()
	if suite.skip != "" {
		t.Skip(suite.skip)
	}
	if suite.buildErr != nil {
		t.Fatalf("building the site: %v", suite.buildErr)
	}
}

// page is one tab on its own origin (its own server port), so that its
// IndexedDB, service worker and caches are its own.
type page struct {
	t      *testing.T
	ctx    context.Context
	base   string
	srv    *http.Server
	ln     net.Listener
	mu     sync.Mutex
	errs   []string
	closed bool
}

// open serves the built site on a new port and opens a tab on it. The tab
// fails the test at cleanup if anything reached the console as an error or
// an unhandled exception (allow lists substrings that are expected).
func open(t *testing.T, allow ...string) *page {
	t.Helper()
	need(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ln: ln, base: "http://" + ln.Addr().String() + "/"}
	p.srv = &http.Server{Handler: site.Handler(os.DirFS(suite.dist)), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	p.attach(t, allow)
	t.Cleanup(func() { p.stopServer() })
	return p
}

// openFile opens a tab on a file:// URL.
func openFile(t *testing.T, path string, allow ...string) *page {
	t.Helper()
	need(t)
	p := &page{t: t, base: "file://" + filepath.ToSlash(path)}
	p.attach(t, allow)
	return p
}

func (p *page) attach(t *testing.T, allow []string) {
	ctx, cancel := chromedp.NewContext(suite.browser, chromedp.WithListener(func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					if a.Description != "" {
						parts = append(parts, a.Description)
					} else {
						parts = append(parts, strings.Trim(string(a.Value), `"`))
					}
				}
				msg = "console.error: " + strings.Join(parts, " ")
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg = "exception: " + d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				msg = "log: " + ev.Entry.Text + " " + ev.Entry.URL
			}
		}
		if msg == "" {
			return
		}
		for _, a := range allow {
			if strings.Contains(msg, a) {
				return
			}
		}
		p.mu.Lock()
		p.errs = append(p.errs, msg)
		p.mu.Unlock()
	}))
	p.ctx = ctx
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	})); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errs {
			t.Errorf("browser reported an error: %s", e)
		}
	})
}

func (p *page) stopServer() {
	if p.srv == nil || p.closed {
		return
	}
	p.closed = true
	_ = p.srv.Close()
}

// do runs actions with a deadline, failing the test on error.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) into T.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %.80q: %v", js, err)
	}
	return v
}

// waitJS waits until the expression is truthy.
func (p *page) waitJS(js string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		p.shot("failed-" + sanitize(p.t.Name()))
		main, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector("main")?.innerText ?? ""`))
		p.t.Fatalf("waiting for %s: %v\n(the page shows: %.300s)", js, err, main)
	}
}

// visit navigates to path (relative to the page's base) and waits until
// the first screen is up.
func (p *page) visit(path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base + path))
	p.ready()
}

// ready waits for the page's first screen.
func (p *page) ready() {
	p.t.Helper()
	p.waitJS(`document.documentElement.dataset.storyloom === "ready" || document.documentElement.dataset.storyloom === "error"`)
	if state := eval[string](p, `document.documentElement.dataset.storyloom`); state != "ready" {
		p.t.Fatalf("the page did not start: %s", eval[string](p, `document.querySelector("main").innerText`))
	}
}

// screen waits for main[data-screen=name].
func (p *page) screen(name string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.querySelector('main[data-screen=%q]') !== null && !document.querySelector('dialog[open]')`, name))
}

// seq returns the play screen's scene counter.
func (p *page) seq() int {
	return eval[int](p, `Number(document.querySelector(".kind-screen")?.dataset.sceneSeq || 0)`)
}

// waitSeq waits for the scene counter to pass n.
func (p *page) waitSeq(n int) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`Number(document.querySelector(".kind-screen")?.dataset.sceneSeq || 0) > %d`, n))
}

// click clicks the first element matching the CSS selector.
func (p *page) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// act clicks sel on the play screen and waits for the next scene.
func (p *page) act(sel string) {
	p.t.Helper()
	n := p.seq()
	p.click(sel)
	p.waitSeq(n)
}

// text returns the text of the first element matching sel ("" if none).
func (p *page) text(sel string) string {
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ""`, sel))
}

// count returns how many elements match sel.
func (p *page) count(sel string) int {
	return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// shot writes a full-page screenshot to testout/e2e/<name>.png.
func (p *page) shot(name string) {
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(suite.out, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, s)
}

// axe runs axe-core on the page and fails on any serious or critical
// violation.
func (p *page) axe(what string) {
	p.t.Helper()
	src, err := os.ReadFile(filepath.Join(suite.root, "node_modules", "axe-core", "axe.min.js"))
	if errors.Is(err, fs.ErrNotExist) {
		p.t.Logf("axe-core is not installed (npm ci): skipping the accessibility check of %s", what)
		return
	}
	if err != nil {
		p.t.Fatal(err)
	}
	if !eval[bool](p, `typeof axe !== "undefined"`) {
		eval[any](p, string(src)+";true")
	}
	type violation struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any `json:"target"`
		} `json:"nodes"`
	}
	res := eval[[]violation](p, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.slice(0, 3).map(n => ({target: n.target}))})))`)
	for _, v := range res {
		if v.Impact == "serious" || v.Impact == "critical" {
			p.t.Errorf("axe (%s): %s %s: %s at %v", what, v.Impact, v.ID, v.Help, v.Nodes)
		} else {
			p.t.Logf("axe (%s): %s %s: %s", what, v.Impact, v.ID, v.Help)
		}
	}
}
