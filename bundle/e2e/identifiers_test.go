package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// identifierJS finds what reads like an identifier in the page's visible
// text: snake_case (phone_broke, goals_met) or a dotted path
// (objective.well_loved), in the text or in what a screen reader says
// (aria-label, title). Every value the player sees should have gone
// through the campaign's strings or the page's own words.
const identifierJS = `(() => {
	const bad = new Set();
	const re = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]{2,}\.[a-z][a-z0-9_]+\b/g;
	for (const root of [document.querySelector("main"), ...document.querySelectorAll("dialog[open], #toasts")]) {
		const said = [root?.innerText || "", ...[...(root?.querySelectorAll("[aria-label], [title]") || [])].map((e) => (e.getAttribute("aria-label") || "") + " " + (e.getAttribute("title") || ""))];
		for (const text of said) for (const m of text.matchAll(re)) bad.add(m[0]);
	}
	return [...bad];
})()`

// noIdentifiers fails the test when the page shows an identifier.
func (p *page) noIdentifiers(where string) {
	p.t.Helper()
	if bad := eval[[]string](p, identifierJS); len(bad) > 0 {
		p.shot("identifiers-" + sanitize(where))
		p.t.Errorf("%s shows identifiers to the player: %q", where, bad)
	}
}

// freshGame waits for the first scene of a game just started (the last
// game's screen stays until the new one is drawn).
func (p *page) freshGame() {
	p.t.Helper()
	p.waitJS(`location.hash.startsWith("#/play/") && document.querySelector(".kind-screen")?.dataset.sceneSeq === "1"`)
}

// endingOnce fails when the ending of the game on screen (the resolution
// panel's text) is not said exactly once in the page's main text.
func (p *page) endingOnce(where string) {
	p.t.Helper()
	ending := p.text(".resolution p")
	if n := eval[int](p, fmt.Sprintf(`document.querySelector("main").innerText.split(%q).length - 1`, ending)); ending == "" || n != 1 {
		p.t.Errorf("%s: the ending %q is said %d times", where, ending, n)
	}
}

// TestNoIdentifiersReachThePlayer plays a simulation and the world for a
// while, to their ends, and checks every screen on the way for raw
// identifiers.
func TestNoIdentifiersReachThePlayer(t *testing.T) {
	t.Parallel()
	p := open(t)
	for _, campaign := range []string{"first-flat", "harbour-bakery"} {
		p.visit("#/new/" + campaign)
		p.freshGame()
		p.noIdentifiers(campaign + " start")
		for week := 0; week < 40 && eval[string](p, `document.querySelector(".kind-screen").dataset.status`) != "ended"; week++ {
			for i := 0; i < 4; i++ {
				sel := eval[string](p, `(() => { const b = [...document.querySelectorAll("[data-add]")].filter((b) => !b.disabled); return b.length ? '[data-add="' + b[(`+fmt.Sprint(week+i)+`) % b.length].dataset.add + '"]' : ""; })()`)
				if sel == "" {
					break
				}
				p.act(sel)
			}
			p.act(`[data-action-id="end_week"]`)
			p.noIdentifiers(fmt.Sprintf("%s week %d", campaign, week+1))
		}
		p.endingOnce(campaign)
	}
	p.visit("#/new/pier-fair")
	p.freshGame()
	p.noIdentifiers("pier-fair start")
	// The hours field speaks in hours and knows how many can pass.
	p.do(chromedp.SetValue(chromedp.CSS(".time input"), "9999"))
	p.click(`[data-role="advance-hours"]`)
	p.waitJS(`!document.querySelector(".time .error").hidden`)
	left := eval[string](p, `document.querySelector(".time .muted").textContent.match(/(\d+) hours left/)[1]`)
	if got := p.text(".time .error"); !strings.Contains(got, "hours from 1 to "+left+".") {
		t.Errorf("9999 hours, with %s left, is answered %q", left, got)
	}
	if got := p.text(".time"); strings.Contains(got, "tick") {
		t.Errorf("the time panel speaks of ticks: %q", got)
	}
	for step := 0; step < 120 && eval[string](p, `document.querySelector(".kind-screen").dataset.status`) != "ended"; step++ {
		switch {
		case p.count(".offer [data-choice]") > 0 && step%3 != 0:
			p.act(".offer [data-choice]") // a third of the offers left to lapse
		case step%4 == 0 && eval[bool](p, `!!document.querySelector("[data-build]:not([disabled])")`):
			p.act(`[data-build]:not([disabled])`)
		default:
			p.act(".time button[data-advance]:last-of-type") // a day, or what is left of the season
		}
		p.noIdentifiers(fmt.Sprintf("pier-fair step %d", step))
	}
	if eval[string](p, `document.querySelector(".kind-screen").dataset.status`) != "ended" {
		t.Fatal("the fair did not end in 120 steps")
	}
	if got := eval[[]string](p, `[...document.querySelectorAll(".goals li .badge")].map((b) => b.textContent)`); strings.Contains(strings.Join(got, "|"), "In progress") {
		t.Errorf("after the end the objectives read %q", got)
	}
	p.endingOnce("pier-fair")
	p.shot("world-ended")
}
