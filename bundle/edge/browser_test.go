package edge

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/browsertest/multiplayer"
)

// chromium is the one headless browser the package's browser tests share,
// started on first use (bundle/browsertest's harness).
var chromium struct {
	once    sync.Once
	b       *browsertest.Browser
	profile string
	err     error
}

// browser returns the shared browser. Without chromium it skips, unless
// STORYLOOM_REQUIRE_BROWSER=1 (make test), where it fails.
func browser(t testing.TB) *browsertest.Browser {
	t.Helper()
	if _, err := browsertest.ChromiumPath(); err != nil {
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	chromium.once.Do(func() {
		if chromium.profile, chromium.err = os.MkdirTemp("", "storyloom-edge-profile-"); chromium.err != nil {
			return
		}
		if chromium.b, chromium.err = browsertest.Launch(chromium.profile); chromium.err == nil {
			chromium.b.BehindWranglerDev()
		}
	})
	if chromium.err != nil {
		t.Fatal(chromium.err)
	}
	return chromium.b
}

// closeBrowser closes the shared browser, if it was started.
func closeBrowser() {
	if chromium.b != nil {
		_ = chromium.b.Close()
	}
	if chromium.profile != "" {
		os.RemoveAll(chromium.profile)
	}
}

// TestWorkerSitePages opens the site on the worker's origin: the library
// page starts, its service worker takes control and precaches the site,
// and a reload under the service worker still starts; the rooms and
// Freeport pages start too.
func TestWorkerSitePages(t *testing.T) {
	w := worker(t)
	p := browser(t).NewIsolatedPage(t)
	p.WaitReady(w.base + "/")
	if !browsertest.Eval[bool](p, `navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ? true :
		new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true))))`) {
		t.Fatal("the service worker does not control the page")
	}
	cached := browsertest.Eval[int](p, `caches.open("storyloom-"+storyloomAssets.version).then((c) => c.keys()).then((k) => k.length)`)
	if want := len(w.site.Manifest.Files); cached != want {
		t.Errorf("precached %d files, want %d", cached, want)
	}
	// The reload is served by the service worker from its cache.
	p.Do(chromedp.Reload())
	p.AwaitReady()
	browsertest.Screenshot(t, p.Ctx, "library")

	p.Do(chromedp.Navigate(w.base + "/rooms/"))
	ready := `new Promise((resolve) => { const check = () => document.documentElement.dataset.%s === "ready" ? resolve(true) : setTimeout(check, 20); check(); })`
	browsertest.Eval[bool](p, fmt.Sprintf(ready, "storyloom"))
	p.Do(chromedp.Navigate(w.base + "/freeport/"))
	browsertest.Eval[bool](p, fmt.Sprintf(ready, "freeport"))
}

// TestWorkerRoomsPages plays the rooms scenario of bundle/e2e against the
// worker (multiplayer.PlayCheat): two tabs meet in a room with an AI seat
// over WebSockets to the room server's Durable Object, as they do
// natively, a third tab spectates over the HTTP API, and they play Cheat
// to the end.
func TestWorkerRoomsPages(t *testing.T) {
	w := worker(t)
	multiplayer.PlayCheat(t, browser(t), multiplayer.CheatOptions{Base: w.base + "/", Transport: "ws"})
}

// TestWorkerFreeportPage plays the Freeport scenario of bundle/e2e against
// the worker (multiplayer.TradeThree): three tabs enrol, trade, and watch
// the standing change. The market is the worker's one instance, which the
// package's other tests trade in too, so it is not fresh.
func TestWorkerFreeportPage(t *testing.T) {
	w := worker(t)
	multiplayer.TradeThree(t, browser(t), multiplayer.TradeOptions{Base: w.base + "/"})
}

// cardDuelSecret is the secret the native host's TestCardDuel (bundle/e2e)
// derives its ids from: with it, a fresh room server deals the same game.
const cardDuelSecret = "card duel"

// TestWorkerCardTablePages plays the card table's duel of bundle/e2e
// against the worker (multiplayer.PlayCardDuel): two browser contexts play
// a whole starter-1v1 game over WebSockets to the room server's object,
// with a land taken back by Undo, mana payment, targets, a counterspell, a
// block, a mid-resolution choice, a reload back to the same seat, view and
// table, moves by taps on a phone-sized screen, and a spectator, to Bo's
// win; no page ever shows another seat's hand. The undo, reload and phone
// steps are the native TestCardUndo's, TestCardReconnect's and
// TestCardPhone's (one helper each in multiplayer). The scenario's moves are
// chosen for the game the native test's ids deal, so it runs on a second
// dev server of its own whose room server derives its ids from the same
// secret (the test-only Worker variable STORYLOOM_TEST_ID_SECRET;
// seededServer). A second run of it (-count) deals on a fresh one.
func TestWorkerCardTablePages(t *testing.T) {
	b := browser(t)
	w := worker(t).seededServer(t)
	if w.dealt.Swap(true) {
		w = worker(t).fork(t, seededVars...)
	}
	multiplayer.PlayCardDuel(t, b, multiplayer.CardOptions{Base: w.base + "/", Transport: "ws"})
}
