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
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/browsertest/multiplayer"
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
// clock) and returns the site's root URL.
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
	return s.URL()
}

// TestThreeTradersTradeAndWatchTheStanding: three traders in three tabs
// enrol, trade and watch the standing change (multiplayer.TradeThree).
// bundle/edge plays the same scenario against the edge worker.
func TestThreeTradersTradeAndWatchTheStanding(t *testing.T) {
	need(t)
	multiplayer.TradeThree(t, suite.browser, multiplayer.TradeOptions{Base: market(t), Fresh: true})
}

// TestPhoneSizedAndKeyboard: on a phone-sized screen the market is one
// column, and a trader can join with the keyboard alone.
func TestPhoneSizedAndKeyboard(t *testing.T) {
	need(t)
	tb := multiplayer.NewTab(t, suite.browser, "phone", market(t))
	tb.OpenFreeport("freeport/", 375, 740, chromedp.EmulateMobile)
	multiplayer.Eval[bool](tb, `(document.querySelector("#enrol").focus(), true)`)
	tb.Do(chromedp.KeyEvent("\r"))
	tb.Wait(`document.querySelector("#holdings")`)
	if w := multiplayer.Eval[int](tb, `document.documentElement.scrollWidth`); w > 375 {
		t.Errorf("the page is %dpx wide on a 375px screen", w)
	}
	tb.Axe("market on a phone")
	tb.Shot("freeport-phone")
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
