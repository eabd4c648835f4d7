// Package freeport_test drives the Freeport page (web/site/freeport) in a
// real browser against the native Freeport endpoint (bundle/hosting)
// mounted beside the built site, as `bundle serve` mounts it: three
// traders in three tabs enrol, trade, and watch the standing change.
//
//	go test ./bundle/e2e/freeport
//
// It skips when no chromium is found (scripts/setup-chromium.sh), unless
// STORYLOOM_REQUIRE_BROWSER=1.
package freeport_test

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/freeport"
)

// suite is what TestMain prepares once: the built site and one browser.
var suite struct {
	res      *site.Result
	root     string
	browser  *browsertest.Browser
	skip     string
	buildErr error
}

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	root, err := browsertest.ModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	suite.root = root
	if _, err := browsertest.ChromiumPath(); err != nil {
		suite.skip = err.Error()
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") == "1" {
			fmt.Fprintln(os.Stderr, "freeport e2e:", suite.skip)
			return 1
		}
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "storyloom-freeport-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if suite.res, err = browsertest.Build(context.Background(), filepath.Join(tmp, "dist"), false); err != nil {
		suite.buildErr = err
		return m.Run()
	}
	b, err := browsertest.Launch(filepath.Join(tmp, "profile"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "freeport e2e:", err)
		return 1
	}
	defer b.Close()
	suite.browser = b
	return m.Run()
}

func need(t *testing.T) {
	t.Helper()
	if suite.skip != "" {
		t.Skip(suite.skip)
	}
	if suite.buildErr != nil {
		t.Fatalf("building the site: %v", suite.buildErr)
	}
}

// market serves the built site with the Freeport endpoint of the default
// game file mounted beside it on 127.0.0.1 (an in-memory store, the real
// clock) and returns the page's URL.
func market(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(suite.root, "static", "freeport", "freeport.json"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := freeport.ParseGame(data)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := hosting.NewFreeport(context.Background(), hosting.FreeportConfig{
		Store: &hosting.MemStore{}, Clock: func() int64 { return time.Now().UnixMilli() },
		Games: map[string]*freeport.Game{g.ID(): g},
	})
	if err != nil {
		t.Fatal(err)
	}
	// POST only: GET /freeport/ is the page of the built site.
	s := browsertest.ServeDir(suite.res.Out, suite.res, site.Mount{Pattern: "POST /freeport/", Handler: fp.Handler()})
	t.Cleanup(s.Close)
	return s.URL() + "freeport/"
}

// tab is one trader's browser tab.
type tab struct {
	t    *testing.T
	name string
	p    *browsertest.Page
}

func open(t *testing.T, name, url string) *tab {
	t.Helper()
	tb := &tab{t: t, name: name, p: suite.browser.NewPage(t)}
	tb.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(url))
	tb.wait(`document.documentElement.dataset.freeport === "ready"`)
	return tb
}

func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.p.Ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %v (console: %q)", tb.name, err, tb.p.Errors())
	}
}

func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.p.Ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: evaluating %.100q: %v", tb.name, js, err)
	}
	return v
}

// wait waits until js is truthy, nudging the page to poll (a background
// tab polls slowly) every half second.
func (tb *tab) wait(js string) {
	tb.t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		if eval[bool](tb, "Boolean("+js+")") {
			return
		}
		if time.Now().After(deadline) {
			path := browsertest.Screenshot(tb.t, tb.p.Ctx, "freeport-"+tb.name+"-stuck")
			tb.t.Fatalf("%s: waiting for %s\n(the page shows: %.600s)\n(screenshot %s)", tb.name, js,
				eval[string](tb, `document.querySelector("main").innerText`), path)
		}
		eval[bool](tb, `(window.dispatchEvent(new Event("focus")), true)`)
		time.Sleep(500 * time.Millisecond)
	}
}

func (tb *tab) click(sel string) {
	tb.t.Helper()
	tb.do(chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// typeInto clears an input and types text into it, as a player would.
func (tb *tab) typeInto(sel, text string) {
	tb.t.Helper()
	eval[bool](tb, fmt.Sprintf(`(document.querySelector(%q).value = "", true)`, sel))
	tb.do(chromedp.SendKeys(chromedp.CSS(sel), text))
}

// enrol joins the market and returns the tab's Player ID.
func (tb *tab) enrol() string {
	tb.t.Helper()
	tb.click("#enrol")
	tb.wait(`document.querySelector("#holdings") && document.querySelector(".standing li.you")`)
	return eval[string](tb, `document.querySelector(".standing li.you").dataset.player`)
}

func (tb *tab) held(asset string) int {
	return eval[int](tb, fmt.Sprintf(`Number(document.querySelector('#holdings tr[data-asset=%q] td[data-held]').dataset.held)`, asset))
}

func (tb *tab) wealthOf(playerID string) int {
	return eval[int](tb, fmt.Sprintf(`Number(document.querySelector('.standing li[data-player=%q]')?.dataset.wealth ?? -1)`, playerID))
}

// TestThreeTradersTradeAndWatchTheStanding: Ann, Ben and Cal enrol in
// three tabs; Ann offers Ben timber for credits, Ben counters, Ann accepts;
// every tab's standing moves to the new wealth; Cal's offer to Ann is
// declined and Ben's to Cal cancelled, each tab showing whose turn it is.
func TestThreeTradersTradeAndWatchTheStanding(t *testing.T) {
	need(t)
	url := market(t)
	ann, ben, cal := open(t, "ann", url), open(t, "ben", url), open(t, "cal", url)

	// A visitor sees the board before joining.
	if !strings.Contains(eval[string](ann, `document.querySelector("#st-body").innerText`), "Nobody has joined yet") {
		t.Error("an empty market does not say so")
	}
	annID, benID, calID := ann.enrol(), ben.enrol(), cal.enrol()
	if annID == benID || benID == calID {
		t.Fatalf("tabs share a trader: %s %s %s", annID, benID, calID)
	}
	for _, tb := range []*tab{ann, ben, cal} {
		tb.wait(`document.querySelectorAll(".standing li").length === 3`)
	}

	// Ann names her yard; the others' boards print it.
	ann.typeInto("#trading-name", "Ann's <b>Yard</b>")
	ann.click(`button[data-key="save-name"]`)
	ben.wait(fmt.Sprintf(`document.querySelector('.standing li[data-player=%q] .p-name')?.textContent === "Ann's <b>Yard</b>"`, annID))
	if n := eval[int](ben, `document.querySelectorAll(".standing b").length`); n != 0 {
		t.Error("a trading name was rendered as markup")
	}
	before := map[string]int{annID: cal.wealthOf(annID), benID: cal.wealthOf(benID)}

	// Ann offers Ben 5 timber for 20 credits.
	ann.wait(fmt.Sprintf(`document.querySelector('#propose-to option[value=%q]')`, benID))
	eval[bool](ann, fmt.Sprintf(`(() => { const s = document.querySelector("#propose-to"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, benID))
	ann.typeInto(`input[name="offered-timber"]`, "5")
	ann.typeInto(`input[name="requested-credits"]`, "20")
	ann.click(`button[data-key="propose-send"]`)
	ann.wait(`document.querySelector('.exchange [data-turn="theirs"]')`)
	if avail := eval[int](ann, `Number(document.querySelector('#holdings tr[data-asset="timber"] td[data-available]').dataset.available)`); avail != ann.held("timber")-5 {
		t.Errorf("Ann's timber available %d: the offer does not reserve 5", avail)
	}

	// Ben sees it is his turn and counters: 5 timber for 12 credits.
	ben.wait(`document.querySelector('.exchange.mine [data-action="accept"]')`)
	if txt := eval[string](ben, `document.querySelector(".exchange.mine").innerText`); !strings.Contains(txt, "Your turn") || !strings.Contains(txt, "Expires") {
		t.Errorf("Ben's exchange does not show the turn and the expiry: %q", txt)
	}
	ben.click(`.exchange.mine [data-action="counter"]`)
	ben.wait(`document.querySelector("form.counter")`)
	ben.typeInto(`form.counter input[name="requested-credits"]`, "12")
	ben.click(`form.counter button[type="submit"]`)
	ben.wait(`document.querySelector('.exchange [data-turn="theirs"]')`)

	// Ann sees round 2 and accepts.
	ann.wait(`document.querySelector('.exchange.mine [data-action="accept"]') && /Round 2/.test(document.querySelector(".exchange.mine").innerText)`)
	ann.click(`.exchange.mine [data-action="accept"]`)
	ann.wait(`document.querySelector('.exchanges.done [data-status="settled"]')`)

	// Every tab's standing moves: Ann +12 credits −5 timber, Ben the
	// reverse, at the harbour's prices (credits 1, timber 3).
	delta := 12*1 - 5*3
	for _, tb := range []*tab{ann, ben, cal} {
		tb.wait(fmt.Sprintf(`Number(document.querySelector('.standing li[data-player=%q]')?.dataset.wealth) === %d && Number(document.querySelector('.standing li[data-player=%q]')?.dataset.wealth) === %d`,
			annID, before[annID]+delta, benID, before[benID]-delta))
	}
	ben.wait(`document.querySelector('#holdings tr[data-asset="timber"] td[data-held]')?.dataset.held === "25"`)
	ben.wait(`/Exchange with/.test(document.querySelector("#sm-body").innerText)`)

	// Cal offers Ann salt for nothing; Ann declines.
	eval[bool](cal, fmt.Sprintf(`(() => { const s = document.querySelector("#propose-to"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, annID))
	cal.typeInto(`input[name="offered-salt"]`, "2")
	cal.click(`button[data-key="propose-send"]`)
	ann.wait(`document.querySelector('.exchange.mine [data-action="decline"]')`)
	ann.click(`.exchange.mine [data-action="decline"]`)
	cal.wait(`document.querySelector('.exchanges.done [data-status="declined"]')`)

	// Ben offers Cal rum and cancels before Cal answers.
	eval[bool](ben, fmt.Sprintf(`(() => { const s = document.querySelector("#propose-to"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, calID))
	ben.typeInto(`input[name="offered-rum"]`, "1")
	ben.click(`button[data-key="propose-send"]`)
	cal.wait(`document.querySelector('.exchange.mine [data-action="accept"]')`)
	ben.wait(`document.querySelector('.exchange [data-action="cancel"]')`)
	ben.click(`.exchange [data-action="cancel"]`)
	cal.wait(`document.querySelector('.exchanges.done [data-status="cancelled"]')`)

	// The live region spoke, and the page passes axe-core in both themes.
	if said := eval[string](cal, `document.querySelector("#announce").textContent`); said == "" {
		t.Error("the live region is silent")
	}
	browsertest.Axe(t, ann.p.Ctx)
	ann.click("#theme-toggle")
	browsertest.Axe(t, ann.p.Ctx)
	browsertest.Screenshot(t, ann.p.Ctx, "freeport-ann")
	t.Logf("Ann %s, Ben %s, Cal %s: wealth %s", annID, benID, calID, strconv.Itoa(ann.wealthOf(annID)))
}

// TestPhoneSizedAndKeyboard: on a phone-sized screen the market is one
// column, and a trader can join with the keyboard alone.
func TestPhoneSizedAndKeyboard(t *testing.T) {
	need(t)
	url := market(t)
	tb := &tab{t: t, name: "phone", p: suite.browser.NewPage(t)}
	tb.do(chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile), chromedp.Navigate(url))
	tb.wait(`document.documentElement.dataset.freeport === "ready"`)
	eval[bool](tb, `(document.querySelector("#enrol").focus(), true)`)
	tb.do(chromedp.KeyEvent("\r"))
	tb.wait(`document.querySelector("#holdings")`)
	if w := eval[int](tb, `document.documentElement.scrollWidth`); w > 375 {
		t.Errorf("the page is %dpx wide on a 375px screen", w)
	}
	browsertest.Axe(t, tb.p.Ctx)
	browsertest.Screenshot(t, tb.p.Ctx, "freeport-phone")
}

// TestSiteBuildCarriesThePage: the site build copies the page under
// freeport/, names its module bundle and style sheet by content hash, and
// lists them in the precache manifest.
func TestSiteBuildCarriesThePage(t *testing.T) {
	need(t)
	hashed := regexp.MustCompile(`^freeport/[a-z]+\.[0-9a-f]{12}\.(js|css)$`)
	for _, src := range []string{"freeport/app.js", "freeport/freeport.css"} {
		url, ok := suite.res.Assets[src]
		if !ok || !hashed.MatchString(url) {
			t.Errorf("%s is built as %q, want a content-hashed name", src, url)
		}
	}
	listed := map[string]bool{}
	for _, f := range suite.res.Manifest.Files {
		listed[f.URL] = true
	}
	for _, url := range []string{"freeport/index.html", suite.res.Assets["freeport/app.js"], suite.res.Assets["freeport/freeport.css"]} {
		if !listed[url] {
			t.Errorf("%s is not in the precache manifest", url)
		}
	}
	page, err := os.ReadFile(filepath.Join(suite.res.Out, "freeport", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), path.Base(suite.res.Assets["freeport/app.js"])) {
		t.Error("the built page does not load its hashed module")
	}
}
