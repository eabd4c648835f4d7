package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/site"
)

// suite is what TestMain prepares once for the package: the built site
// and one browser (bundle/browsertest's Main).
var suite struct {
	env     browsertest.Suite
	res     *site.Result
	dist    string // the built site
	offline string // storyloom-offline.html
	root    string // the module root
	b       *browsertest.Browser
}

func TestMain(m *testing.M) {
	// The browser tests mostly wait on Chromium, so run more of them at
	// once than there are cores, unless -test.parallel says otherwise.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "4")
	}
	dir, err := os.MkdirTemp("", "storyloom-e2e-versions-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	versions.dir = dir
	code := browsertest.Main(m, "e2e", true, func(s browsertest.Suite) {
		suite.env, suite.root, suite.res, suite.b = s, s.Root, s.Res, s.Browser
		if s.Res != nil {
			suite.dist, suite.offline = s.Res.Out, s.Res.OfflinePath
		}
	})
	os.RemoveAll(dir)
	os.Exit(code)
}

// need skips t when the browser suite cannot run, and fails it when the
// site did not build.
func need(t testing.TB) {
	t.Helper()
	suite.env.Need(t)
}

// page is one tab on its own origin (its own server port), so that its
// IndexedDB, service worker and caches are its own. It wraps
// browsertest's page, which fails the test on any console error,
// uncaught exception or unhandled rejection.
type page struct {
	t    testing.TB
	ctx  context.Context
	base string
	bp   *browsertest.Page
	site *browsertest.Site
}

// origin serves the site res built on a new port, an origin of its own,
// until t ends: a page with no tab yet (attach opens one).
func origin(t testing.TB, res *site.Result) *page {
	s := browsertest.ServeDir(res.Out, res)
	t.Cleanup(s.Close)
	return &page{t: t, base: s.URL(), site: s}
}

// open serves the built site on a new port and opens a tab on it; allow
// lists console errors the test provokes on purpose.
func open(t testing.TB, allow ...string) *page {
	t.Helper()
	need(t)
	p := origin(t, suite.res)
	p.attach(allow)
	return p
}

// openDownloading is open with the tab's downloads saved into dir. The
// download directory is a setting of a browser context, so the tab gets a
// context of its own: tests that download side by side in one context
// would send their files into each other's directories.
func openDownloading(t testing.TB, dir string, allow ...string) *page {
	t.Helper()
	need(t)
	p := origin(t, suite.res)
	p.attachPage(suite.b.NewIsolatedPage(t), allow)
	p.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		c := chromedp.FromContext(p.ctx)
		_, err := cdp.Call(ctx, c.Browser, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, BrowserContextID: c.BrowserContextID, DownloadPath: dir,
		})
		return err
	}))
	return p
}

// openFile opens a tab on a file:// URL.
func openFile(t testing.TB, path string, allow ...string) *page {
	t.Helper()
	need(t)
	p := &page{t: t, base: "file://" + filepath.ToSlash(path)}
	p.attach(allow)
	return p
}

// attach opens the page's tab in the browser's shared context.
func (p *page) attach(allow []string) { p.attachPage(suite.b.NewPage(p.t), allow) }

// attachPage makes bp the page's tab, allowing the console errors allow
// lists.
func (p *page) attachPage(bp *browsertest.Page, allow []string) {
	p.bp = bp
	for _, a := range allow {
		p.bp.Allow(a)
	}
	p.ctx = p.bp.Ctx
	p.do(chromedp.EmulateViewport(1280, 900), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	}))
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
	path := filepath.Join(browsertest.OutDir(p.t), name+".png")
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

// axe runs axe-core on the page (bundle/browsertest) and fails on every
// violation, whatever its impact; what names the screen in the log.
func (p *page) axe(what string) {
	p.t.Helper()
	p.t.Logf("axe-core on the %s", what)
	browsertest.Axe(p.t, p.ctx)
}
