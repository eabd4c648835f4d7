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

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/browsertest/multiplayer"
	"github.com/storyloom/storyloom/bundle/hosting"
)

// suite is what TestMain prepares once: the built site and one browser.
var suite browsertest.Suite

func TestMain(m *testing.M) {
	os.Exit(browsertest.Main(m, "freeport-e2e", false, func(s browsertest.Suite) { suite = s }))
}

// market serves the built site with the Freeport endpoint of the default
// game file mounted beside it on 127.0.0.1 (an in-memory store, the real
// clock) and returns the site's root URL.
func market(t *testing.T) string {
	url, _ := marketWith(t)
	return url
}

// marketWith is market, also returning the endpoint itself.
func marketWith(t *testing.T) (string, *hosting.Freeport) {
	t.Helper()
	fp, mounts, err := browsertest.Freeport(suite.Root)
	if err != nil {
		t.Fatal(err)
	}
	s := browsertest.ServeDir(suite.Res.Out, suite.Res, mounts...)
	t.Cleanup(s.Close)
	return s.URL(), fp
}

// TestStandingPages: with more traders than one page holds, the page
// shows the first page of the Standing with the trader's own place, pages
// forward, and brings the trader back to its own place.
func TestStandingPages(t *testing.T) {
	suite.Need(t)
	url, fp := marketWith(t)
	ctx := context.Background()
	ids := make([]string, 30)
	for i := range ids {
		resp, err := fp.Apply(ctx, "freeport", fmt.Sprint("o:seed-", i), []byte(`{"protocolVersion":2,"action":"enroll","commandId":"e"}`))
		m := regexp.MustCompile(`"playerId":"([^"]+)"`).FindSubmatch(resp)
		if err != nil || m == nil {
			t.Fatalf("seeding trader %d: %v %s", i, err, resp)
		}
		ids[i] = string(m[1])
	}
	// Every other seed pays the first: it leads, the rest trail whoever
	// joins next, who so stands second.
	for i := 1; i < len(ids); i++ {
		body := fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"t","toPlayerId":%q,"assetId":"credits","quantity":1}`, ids[0])
		if resp, err := fp.Apply(ctx, "freeport", fmt.Sprint("o:seed-", i), []byte(body)); err != nil || !strings.Contains(string(resp), `"ok":true`) {
			t.Fatalf("transfer %d: %v %s", i, err, resp)
		}
	}
	tb := multiplayer.NewTab(t, suite.Browser, "pages", url)
	tb.OpenFreeport("freeport/", 1100, 900)
	me := tb.Enrol()
	tb.Wait(`document.querySelector("#my-rank")?.textContent === "Your place: 2 of 31"`)
	if got := tb.Text("#st-range"); got != "Ranks 1–25 of 31" {
		t.Errorf("range %q", got)
	}
	if n := tb.Count(".standing li"); n != 25 {
		t.Errorf("the first page lists %d traders", n)
	}
	if tb.Text(".standing li .rank") != "1." {
		t.Errorf("the first page does not start at rank 1: %q", tb.Text(".standing li .rank"))
	}
	tb.Click(`[data-key="st-next"]`)
	tb.Wait(`document.querySelector("#st-range")?.textContent === "Ranks 26–31 of 31" && document.querySelectorAll(".standing li").length === 6`)
	if tb.Text(".standing li .rank") != "26." || tb.Count(".standing li.you") != 0 {
		t.Errorf("the second page starts at %q", tb.Text(".standing li .rank"))
	}
	tb.Axe("standing's second page")
	tb.Click(`[data-key="st-me"]`)
	tb.Wait(fmt.Sprintf(`document.querySelector(".standing li.you")?.dataset.player === %q && document.querySelector("#st-range").textContent === "Ranks 1–25 of 31"`, me))
}

// TestThreeTradersTradeAndWatchTheStanding: three traders in three tabs
// enrol, trade and watch the standing change (multiplayer.TradeThree).
// bundle/edge plays the same scenario against the edge worker.
func TestThreeTradersTradeAndWatchTheStanding(t *testing.T) {
	suite.Need(t)
	multiplayer.TradeThree(t, suite.Browser, multiplayer.TradeOptions{Base: market(t), Fresh: true})
}

// TestPhoneSizedAndKeyboard: on a phone-sized screen the market is one
// column, and a trader can join with the keyboard alone.
func TestPhoneSizedAndKeyboard(t *testing.T) {
	suite.Need(t)
	tb := multiplayer.NewTab(t, suite.Browser, "phone", market(t))
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
	suite.Need(t)
	hashed := regexp.MustCompile(`^freeport/[a-z]+\.[0-9a-f]{12}\.(js|css)$`)
	for _, src := range []string{"freeport/app.js", "freeport/freeport.css"} {
		url, ok := suite.Res.Assets[src]
		if !ok || !hashed.MatchString(url) {
			t.Errorf("%s is built as %q, want a content-hashed name", src, url)
		}
	}
	listed := map[string]bool{}
	for _, f := range suite.Res.Manifest.Files {
		listed[f.URL] = true
	}
	for _, url := range []string{"freeport/index.html", suite.Res.Assets["freeport/app.js"], suite.Res.Assets["freeport/freeport.css"]} {
		if !listed[url] {
			t.Errorf("%s is not in the precache manifest", url)
		}
	}
	page, err := os.ReadFile(filepath.Join(suite.Res.Out, "freeport", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), path.Base(suite.Res.Assets["freeport/app.js"])) {
		t.Error("the built page does not load its hashed module")
	}
}
