package browsertest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Page is one browser tab opened for a test. Its console errors, uncaught
// exceptions and unhandled rejections are collected, and fail the test when
// the tab closes.
type Page struct {
	// Ctx is the tab's chromedp context: pass it to chromedp.Do and
	// chromedp.Run.
	Ctx context.Context

	t      testing.TB
	cancel context.CancelFunc

	once   sync.Once
	mu     sync.Mutex
	errs   []string
	allows []string
	// warns are the page's console warnings, which fail nothing.
	warns []string

	// devProxy is the tab's Browser.BehindWranglerDev; proxyDrops holds
	// the requests the dev server's proxy answered itself, by id, and
	// dropped their URLs as the browser reported them.
	devProxy   bool
	proxyDrops map[network.RequestID]string
	dropped    []string
	// inflight holds the tab's requests that have not finished, by id, as
	// "METHOD URL", when the tab's network events are on (devProxy): a
	// step that runs out of time names them.
	inflight map[network.RequestID]string
}

// StepLimit bounds one step of a Page (Do, Eval, a navigation and the
// page's start): a step that the browser never answers — a request a
// proxy holds forever — fails the test after it, naming the requests
// still in flight, instead of hanging the package. A passing run never
// waits it out.
const StepLimit = 2 * time.Minute

// NewPage opens a tab. It closes, and its errors are checked, when the test
// ends.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	return b.newPage(t, false)
}

// NewIsolatedPage opens a tab in a browser context of its own: its own
// cookies, storage and caches, as another person's browser would have. It
// also reports the browser's own error log entries (a refused WebSocket
// handshake, a failed fetch). It closes, and its errors are checked, when
// the test ends.
func (b *Browser) NewIsolatedPage(t testing.TB) *Page {
	t.Helper()
	return b.newPage(t, true)
}

func (b *Browser) newPage(t testing.TB, isolated bool) *Page {
	t.Helper()
	p := &Page{t: t, devProxy: isolated && b.devProxy, proxyDrops: map[network.RequestID]string{}, inflight: map[network.RequestID]string{}}
	opts := []chromedp.ContextOption{chromedp.WithListener(p.listen)}
	if isolated {
		opts = append(opts, chromedp.WithNewBrowserContext())
	}
	ctx, cancel := chromedp.NewContext(b.ctx, opts...)
	p.Ctx, p.cancel = ctx, cancel
	actions := []chromedp.Action[chromedp.Void]{chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: reportViolations})
		return err
	})}
	if isolated {
		actions = append(actions, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{})
			return err
		}))
	}
	if p.devProxy {
		actions = append(actions, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
			return err
		}))
	}
	if err := chromedp.Do(ctx, actions...); err != nil {
		cancel()
		t.Fatalf("browsertest: opening a tab: %v", err)
	}
	t.Cleanup(func() {
		p.Close()
		p.mu.Lock()
		for _, url := range p.dropped {
			t.Logf("wrangler dev's proxy answered 503 itself for %s (workers-sdk#14641); the page resent it", url)
		}
		p.mu.Unlock()
		for _, e := range p.Errors() {
			t.Errorf("browser console: %s", e)
		}
	})
	return p
}

// reportViolations runs in every document of a tab before its own
// scripts: a Content-Security-Policy violation becomes a console error, so
// it fails the test like any other unless the test allows "CSP violation".
const reportViolations = `document.addEventListener("securitypolicyviolation", (e) =>
	console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber));`

// Close closes the tab; later calls do nothing.
func (p *Page) Close() {
	p.once.Do(func() {
		ctx, cancel := context.WithTimeout(p.Ctx, 5*time.Second)
		defer cancel()
		_ = chromedp.Cancel(ctx)
		p.cancel()
	})
}

// listen records the error events of the tab. It runs on chromedp's reading
// goroutine, so it only appends under the lock.
func (p *Page) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			parts = append(parts, remoteText(a))
		}
		if ev.Type == runtime.ConsoleAPICalledTypeWarning {
			p.mu.Lock()
			p.warns = append(p.warns, strings.Join(parts, " "))
			p.mu.Unlock()
			return
		}
		msg = "console.error: " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = "uncaught: " + d.Text
		if d.Exception != nil {
			msg += " " + remoteText(d.Exception)
		}
		if d.URL != "" {
			msg += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
		}
	case *network.EventRequestWillBeSent:
		p.mu.Lock()
		p.inflight[ev.RequestID] = ev.Request.Method + " " + ev.Request.URL
		p.mu.Unlock()
		return
	case *network.EventLoadingFinished:
		p.mu.Lock()
		delete(p.inflight, ev.RequestID)
		p.mu.Unlock()
		return
	case *network.EventLoadingFailed:
		p.mu.Lock()
		delete(p.inflight, ev.RequestID)
		p.mu.Unlock()
		return
	case *network.EventResponseReceived:
		if p.devProxy && isDevProxyDrop(ev.Response) {
			p.mu.Lock()
			p.proxyDrops[ev.RequestID] = ev.Response.URL
			p.mu.Unlock()
		}
		return
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		p.mu.Lock()
		url, dropped := p.proxyDrops[ev.Entry.NetworkRequestID]
		if dropped {
			p.dropped = append(p.dropped, url)
		}
		p.mu.Unlock()
		if dropped {
			return
		}
		msg = "log: " + ev.Entry.Text
		if ev.Entry.URL != "" {
			msg += " (" + ev.Entry.URL + ")"
		}
	default:
		return
	}
	p.mu.Lock()
	p.errs = append(p.errs, msg)
	p.mu.Unlock()
}

// isDevProxyDrop reports whether r is the answer wrangler dev's proxy
// gives for a request it could not get to the worker (see
// Browser.BehindWranglerDev): a plain-text 503 with `Retry-After: 0`.
func isDevProxyDrop(r *network.Response) bool {
	if r == nil || r.Status != 503 || !strings.HasPrefix(r.MimeType, "text/plain") {
		return false
	}
	for k, v := range r.Headers {
		if strings.EqualFold(k, "Retry-After") {
			return v == "0"
		}
	}
	return false
}

// remoteText renders a console argument or an exception.
func remoteText(o *runtime.RemoteObject) string {
	switch {
	case o == nil:
		return ""
	case o.Description != "":
		return o.Description
	case len(o.Value) > 0:
		return strings.Trim(string(o.Value), `"`)
	}
	return string(o.Type)
}

// Allow stops errors that contain substr from failing the test, for errors
// a test provokes on purpose (a failed fetch while offline).
func (p *Page) Allow(substr string) {
	p.mu.Lock()
	p.allows = append(p.allows, substr)
	p.mu.Unlock()
}

// Warnings returns the console warnings seen so far.
func (p *Page) Warnings() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.warns)
}

// Errors returns the errors seen so far that no Allow covers.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
next:
	for _, e := range p.errs {
		for _, a := range p.allows {
			if strings.Contains(e, a) {
				continue next
			}
		}
		out = append(out, e)
	}
	return out
}

// Do runs chromedp actions on the tab, failing the test on error or after
// StepLimit.
func (p *Page) Do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, StepLimit)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browsertest: %v%s", err, p.Diagnosis())
	}
}

// Eval evaluates a JavaScript expression in the tab, awaiting it when it is
// a Promise, and decodes its JSON value into a T. It fails the test on error
// or after StepLimit.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, StepLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("browsertest: evaluating %s: %v%s", expr, err, p.Diagnosis())
	}
	return v
}

// Diagnosis says what a failed step leaves behind, for its failure
// message: the console's errors and, when the tab follows its network
// (Browser.BehindWranglerDev), the requests still in flight.
func (p *Page) Diagnosis() string {
	msg := fmt.Sprintf(" (console: %q)", p.Errors())
	p.mu.Lock()
	pending := slices.Sorted(maps.Values(p.inflight))
	p.mu.Unlock()
	if len(pending) > 0 {
		msg += fmt.Sprintf(" (requests in flight: %q)", pending)
	}
	return msg
}

// WaitReady navigates to url and waits until the page says it is ready
// (document.documentElement.dataset.storyloom == "ready") or has failed.
func (p *Page) WaitReady(url string) {
	p.t.Helper()
	p.Do(chromedp.Navigate(url))
	p.AwaitReady()
}

// AwaitReady waits, without navigating, until the page is ready.
func (p *Page) AwaitReady() {
	p.t.Helper()
	state := Eval[string](p, `new Promise((resolve) => {
		const check = () => {
			const s = document.documentElement.dataset.storyloom;
			if (s === "ready" || s === "error") resolve(s); else setTimeout(check, 20);
		};
		check();
	})`)
	if state != "ready" {
		p.t.Fatalf("browsertest: page did not start: %s%s", Eval[string](p, `document.body.innerText`), p.Diagnosis())
	}
}

// SetOffline emulates losing the network (or getting it back) for the tab,
// its service worker included.
func (p *Page) SetOffline(offline bool) {
	p.t.Helper()
	conds := []*network.Conditions{{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}}
	p.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{EmulateOfflineServiceWorker: &offline, MatchedNetworkConditions: conds})
		return err
	}))
}
