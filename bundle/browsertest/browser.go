package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// Flags are the command-line flags chromium is started with, besides
// --user-data-dir and the DevTools pipe chromedp adds. --disable-background-
// networking and --disable-component-update keep chromium from reaching for
// Google's hosts, which this machine's closed network refuses.
// --disable-features turns off the address bar's suggestion popups, which
// headless chromium otherwise loads as web pages (chrome://omnibox-popup)
// in a renderer process of their own for every window: every tab of a test
// opens in a window of its own, and that renderer, which no test looks at,
// cost about a CPU second per tab.
var Flags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
}

// ErrNoChromium is returned by [ChromiumPath] when no browser is found.
var ErrNoChromium = errors.New("browsertest: chromium not found (run scripts/setup-chromium.sh)")

// ChromiumPath returns the browser to drive: $STORYLOOM_CHROMIUM when set,
// else chromium (Debian's package) or chromium-browser on PATH.
func ChromiumPath() (string, error) {
	if p := os.Getenv("STORYLOOM_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Browser is a running headless chromium with its own profile.
type Browser struct {
	// UserDataDir is the profile directory; launch another Browser on it
	// to test what survives a restart.
	UserDataDir string

	ctx         context.Context // the browser's first tab; keeps it alive
	cancel      context.CancelFunc
	cancelAlloc context.CancelFunc
	closeOnce   sync.Once
	closeErr    error

	// devProxy is set by BehindWranglerDev.
	devProxy bool
}

// BehindWranglerDev tells b that the sites its tabs open are served by
// `wrangler dev`, before any tab opens. Its proxy answers a request itself
// when its connection to the worker fails (a pooled connection the worker's
// side closed as the request was sent: cloudflare/workers-sdk#14641), with
// a 503, `Retry-After: 0` and the plain text "Your worker restarted
// mid-request". That answer is the dev server's, not the worker's, and the
// pages resend after a 503 as they would at any host; so in isolated tabs
// such an answer is logged instead of failing the test. Any other 503,
// the worker's own included (JSON, Retry-After of a second or more), still
// fails it, and the test's own checks see that the page recovered.
func (b *Browser) BehindWranglerDev() { b.devProxy = true }

// Launch starts chromium with [Flags] on the profile userDataDir (use
// t.TempDir() for a fresh one).
func Launch(userDataDir string) (*Browser, error) {
	exe, err := ChromiumPath()
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(exe), chromedp.UserDataDir(userDataDir)}
	for _, f := range Flags {
		if name, value, ok := strings.Cut(f[2:], "="); ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		return nil, fmt.Errorf("browsertest: starting %s: %w", exe, err)
	}
	return &Browser{UserDataDir: userDataDir, ctx: ctx, cancel: cancel, cancelAlloc: cancelAlloc}, nil
}

// Close shuts the browser down gracefully, so its profile is on disk when
// Close returns. Later calls do nothing and return the same error.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
		defer cancel()
		b.closeErr = chromedp.Cancel(ctx)
		b.cancel()
		b.cancelAlloc()
	})
	return b.closeErr
}

// Context returns the browser's first tab's context, for chromedp calls that
// need no page of their own.
func (b *Browser) Context() context.Context { return b.ctx }
