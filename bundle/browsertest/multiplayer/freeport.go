package multiplayer

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
)

// OpenFreeport navigates the tab to the Freeport page (path relative to
// the site's root, such as "freeport/") on a width×height screen and waits
// until the page is ready.
func (tb *Tab) OpenFreeport(path string, width, height int64, opts ...chromedp.EmulateViewportOption) {
	tb.t.Helper()
	tb.Do(chromedp.EmulateViewport(width, height, opts...))
	tb.Visit(path)
	tb.Wait(`document.documentElement.dataset.freeport === "ready"`)
}

// Wait waits until js is truthy on the Freeport page, nudging it to poll
// (a background tab polls slowly) between looks.
func (tb *Tab) Wait(js string) {
	tb.t.Helper()
	tb.waitFor(js, settleLimit, `(window.dispatchEvent(new Event("focus")), true)`)
}

// Act clicks sel once the page is no longer busy with the tab's last
// command (main's aria-busy, shown as a progress cursor): the page
// ignores a command sent while the last one and its refresh are still
// under way, as a player who clicked through the progress cursor would
// see.
func (tb *Tab) Act(sel string) {
	tb.t.Helper()
	tb.Wait(`document.getElementById("main")?.getAttribute("aria-busy") !== "true"`)
	tb.Click(sel)
}

// Enrol joins the market and returns the tab's Player ID.
func (tb *Tab) Enrol() string {
	tb.t.Helper()
	tb.Act("#enrol")
	tb.Wait(`document.querySelector("#holdings") && document.querySelector(".standing li.you")`)
	return Eval[string](tb, `document.querySelector(".standing li.you").dataset.player`)
}

// held is how much of asset the tab's trader holds.
func (tb *Tab) held(asset string) int {
	tb.t.Helper()
	return Eval[int](tb, fmt.Sprintf(`Number(document.querySelector('#holdings tr[data-asset=%q] td[data-held]').dataset.held)`, asset))
}

// wealthOf is playerID's wealth on the tab's standing (-1 when absent).
func (tb *Tab) wealthOf(playerID string) int {
	tb.t.Helper()
	return Eval[int](tb, fmt.Sprintf(`Number(document.querySelector('.standing li[data-player=%q]')?.dataset.wealth ?? -1)`, playerID))
}

// proposeTo picks the counterparty of the tab's next offer.
func (tb *Tab) proposeTo(playerID string) {
	tb.t.Helper()
	Eval[bool](tb, fmt.Sprintf(`(() => { const s = document.querySelector("#propose-to"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, playerID))
}

// TradeOptions say what the host under test offers [TradeThree].
type TradeOptions struct {
	// Base is the site's root URL, ending in a slash; the Freeport page is
	// Base + "freeport/".
	Base string
	// Fresh says nobody has joined the market yet, so the page must say
	// so. A market others trade in too (the edge worker's one D1 across a
	// test run) is not fresh; the scenario only looks at its own traders
	// there.
	Fresh bool
}

// TradeThree plays three traders on the Freeport page: Ann, Ben and Cal
// enrol in three tabs; Ann names her yard and the others print it as text;
// Ann offers Ben timber for credits, Ben counters, Ann accepts; every tab's
// standing moves to the new wealth; Cal's offer to Ann is declined and
// Ben's to Cal cancelled, each tab showing whose turn it is. The page
// passes axe-core in both themes.
func TradeThree(t *testing.T, b *browsertest.Browser, o TradeOptions) {
	t.Helper()
	open := func(name string) *Tab {
		tb := NewTab(t, b, name, o.Base)
		tb.OpenFreeport("freeport/", 1100, 900)
		return tb
	}
	ann, ben, cal := open("ann"), open("ben"), open("cal")

	// With nothing to say, the alert banner takes no space.
	if shown := Eval[string](ann, `getComputedStyle(document.getElementById("notice")).display`); shown != "none" {
		t.Errorf("the hidden notice banner is displayed (%s)", shown)
	}

	// A visitor sees the board before joining.
	if o.Fresh && !strings.Contains(Eval[string](ann, `document.querySelector("#st-body").innerText`), "Nobody has joined yet") {
		t.Error("an empty market does not say so")
	}
	annID, benID, calID := ann.Enrol(), ben.Enrol(), cal.Enrol()
	if annID == benID || benID == calID {
		t.Fatalf("tabs share a trader: %s %s %s", annID, benID, calID)
	}
	everyone := fmt.Sprintf(`[%q, %q, %q].every((id) => document.querySelector(`+"`.standing li[data-player=\"${id}\"]`"+`))`, annID, benID, calID)
	if o.Fresh {
		everyone += ` && document.querySelectorAll(".standing li").length === 3`
	}
	for _, tb := range []*Tab{ann, ben, cal} {
		tb.Wait(everyone)
	}

	// Ann names her yard; the others' boards print it. The name is the
	// run's own: a market that outlives the run (the edge worker's, across
	// -count runs) keeps earlier Anns, and names that collide are told
	// apart with a suffix.
	yard := "Ann's <b>Yard</b> " + rand.Text()[:6]
	ann.Type("#trading-name", yard)
	ann.Act(`button[data-key="save-name"]`)
	ben.Wait(fmt.Sprintf(`document.querySelector('.standing li[data-player=%q] .p-name')?.textContent === %q`, annID, yard))
	if n := Eval[int](ben, `document.querySelectorAll(".standing b").length`); n != 0 {
		t.Error("a trading name was rendered as markup")
	}
	before := map[string]int{annID: cal.wealthOf(annID), benID: cal.wealthOf(benID)}

	// Ann offers Ben 5 timber for 20 credits.
	ann.Wait(fmt.Sprintf(`document.querySelector('#propose-to option[value=%q]')`, benID))
	ann.proposeTo(benID)
	ann.Type(`input[name="offered-timber"]`, "5")
	ann.Type(`input[name="requested-credits"]`, "20")
	ann.Act(`button[data-key="propose-send"]`)
	ann.Wait(`document.querySelector('.exchange [data-turn="theirs"]')`)
	if avail := Eval[int](ann, `Number(document.querySelector('#holdings tr[data-asset="timber"] td[data-available]').dataset.available)`); avail != ann.held("timber")-5 {
		t.Errorf("Ann's timber available %d: the offer does not reserve 5", avail)
	}

	// Ben sees it is his turn and counters: 5 timber for 12 credits.
	ben.Wait(`document.querySelector('.exchange.mine [data-action="accept"]')`)
	if txt := Eval[string](ben, `document.querySelector(".exchange.mine").innerText`); !strings.Contains(txt, "Your turn") || !strings.Contains(txt, "Expires") {
		t.Errorf("Ben's exchange does not show the turn and the expiry: %q", txt)
	}
	ben.Act(`.exchange.mine [data-action="counter"]`)
	ben.Wait(`document.querySelector("form.counter")`)
	ben.Type(`form.counter input[name="requested-credits"]`, "12")
	ben.Act(`form.counter button[type="submit"]`)
	ben.Wait(`document.querySelector('.exchange [data-turn="theirs"]')`)

	// Ann sees round 2 and accepts.
	ann.Wait(`document.querySelector('.exchange.mine [data-action="accept"]') && /Round 2/.test(document.querySelector(".exchange.mine").innerText)`)
	ann.Act(`.exchange.mine [data-action="accept"]`)
	ann.Wait(`document.querySelector('.exchanges.done [data-status="settled"]')`)

	// Every tab's standing moves: Ann +12 credits −5 timber, Ben the
	// reverse, at the harbour's prices (credits 1, timber 3).
	delta := 12*1 - 5*3
	for _, tb := range []*Tab{ann, ben, cal} {
		tb.Wait(fmt.Sprintf(`Number(document.querySelector('.standing li[data-player=%q]')?.dataset.wealth) === %d && Number(document.querySelector('.standing li[data-player=%q]')?.dataset.wealth) === %d`,
			annID, before[annID]+delta, benID, before[benID]-delta))
	}
	ben.Wait(`document.querySelector('#holdings tr[data-asset="timber"] td[data-held]')?.dataset.held === "25"`)
	ben.Wait(`/Exchange with/.test(document.querySelector("#sm-body").innerText)`)

	// Cal offers Ann salt for nothing; Ann declines.
	cal.proposeTo(annID)
	cal.Type(`input[name="offered-salt"]`, "2")
	cal.Act(`button[data-key="propose-send"]`)
	ann.Wait(`document.querySelector('.exchange.mine [data-action="decline"]')`)
	ann.Act(`.exchange.mine [data-action="decline"]`)
	cal.Wait(`document.querySelector('.exchanges.done [data-status="declined"]')`)

	// Ben offers Cal rum and cancels before Cal answers.
	ben.proposeTo(calID)
	ben.Type(`input[name="offered-rum"]`, "1")
	ben.Act(`button[data-key="propose-send"]`)
	cal.Wait(`document.querySelector('.exchange.mine [data-action="accept"]')`)
	ben.Wait(`document.querySelector('.exchange [data-action="cancel"]')`)
	ben.Act(`.exchange [data-action="cancel"]`)
	cal.Wait(`document.querySelector('.exchanges.done [data-status="cancelled"]')`)

	// Cal's live region says so (it speaks 50 ms after the change is drawn,
	// so a screen reader hears a repeated message again), and the page
	// passes axe-core in both themes.
	cal.Wait(`/cancelled/.test(document.querySelector("#announce").textContent)`)
	ann.Axe("market, light")
	ann.Click("#theme-toggle")
	ann.Axe("market, dark")
	ann.Shot("freeport")
	t.Logf("Ann %s, Ben %s, Cal %s: wealth %d", annID, benID, calID, ann.wealthOf(annID))
}
