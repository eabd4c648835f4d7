package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestSimulationPlaysWeeksToAResolution(t *testing.T) {
	t.Parallel()
	p := open(t)
	startGame(p, "first-flat", "simulation")
	p.shot("sim-start")
	p.axe("simulation screen")
	// What an activity costs and earns, said once and never as €0.00.
	if costs := eval[[]string](p, `[...document.querySelectorAll(".act-cost")].map((e) => e.textContent).filter((t) => t.includes("€0.00"))`); len(costs) > 0 {
		t.Errorf("activities show a cost of nothing: %q", costs)
	}
	// The premise comes before the plan and the activities, not below them.
	if !eval[bool](p, `(() => { const c = document.querySelector(".changes"), a = document.querySelector(".activities"); return !!c && !!a && c.textContent.length > 60 && !!(c.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING); })()`) {
		t.Error("the simulation's premise is not above its activities")
	}
	// Every stat's meter has low and high marks, so a low one reads low.
	if p.count(".stats meter") == 0 || p.count(".stats meter:not([low]):not([high])") > 0 {
		t.Errorf("the simulation's meters (%d) have no low and high marks", p.count(".stats meter"))
	}
	// A locked activity says what opens it, as its button's description.
	if got := p.text(`[data-activity="freelance_job"] .reason`); got != "Opens once your design skill reaches 40: the evening design course builds it." {
		t.Errorf("the locked freelance job's reason reads %q", got)
	}
	weeks := 0
	for ; weeks < 30; weeks++ {
		if eval[string](p, `document.querySelector(".kind-screen").dataset.status`) == "ended" {
			break
		}
		// A plan the engine accepts: whatever it offers, from a fixed
		// preference list, one of each while it fits.
		for _, id := range []string{"cafe_shift", "sleep_in", "run", "cafe_shift", "see_friends"} {
			sel := fmt.Sprintf(`[data-add=%q]`, id)
			if eval[bool](p, fmt.Sprintf(`!!document.querySelector('%s') && !document.querySelector('%s').disabled`, sel, sel)) {
				p.act(sel)
			}
		}
		if weeks == 1 {
			// Remove an item and add it back: the editor's other verbs.
			if p.count("[data-remove]") > 0 {
				p.act("[data-remove]")
			}
			p.act(`[data-action-id="plan.clear"]`)
			if p.count(".plan-items li") != 0 {
				t.Error("clearing the plan left items")
			}
			p.act(`[data-add="sleep_in"]`)
		}
		p.act(`[data-action-id="end_week"]`)
		// A week's incident is told once: in its box, not again as a message.
		if eval[bool](p, `(() => { const s = document.querySelector(".changes .incident strong"); return !!s && document.querySelector(".changes").innerText.split(s.textContent).length - 1 > 1; })()`) {
			t.Errorf("week %d's incident is told twice: %q", weeks+1, p.text(".changes"))
		}
		if weeks == 2 {
			if p.count("svg.chart polyline") == 0 {
				t.Error("no chart of the weeks")
			}
			checkChart(t, p)
			if !strings.Contains(p.text(".changes"), "Week") {
				t.Errorf("what changed reads %q", p.text(".changes"))
			}
			// The week's totals come first; each message once, with a
			// count; every step folded away, grouped.
			if !eval[bool](p, `document.querySelector(".changes h2 + h3")?.textContent.includes("in all") === true`) {
				t.Errorf("what changed does not open with the week's totals: %q", p.text(".changes"))
			}
			if eval[bool](p, `(() => { const t = [...document.querySelectorAll(".changes .messages li")].map((li) => li.textContent); return new Set(t).size !== t.length; })()`) {
				t.Error("what changed repeats a message")
			}
			if !eval[bool](p, `!!document.querySelector(".changes details.steps:not([open]) table")`) {
				t.Error("the step-by-step changes are not folded")
			}
			// Grouped: one row per thing and reason. (How many rows
			// there are depends on the week's random incident.)
			rows := eval[[]string](p, `[...document.querySelectorAll(".changes details.steps tbody tr")].map((tr) => tr.cells[0].textContent + " | " + tr.cells[3].textContent.replace(/ \(×\d+\)$/, ""))`)
			seen := map[string]bool{}
			for _, r := range rows {
				if seen[r] {
					t.Errorf("the step-by-step changes repeat %q: not grouped", r)
				}
				seen[r] = true
			}
			if len(rows) == 0 {
				t.Error("no step-by-step changes")
			}
			p.shot("sim-weeks")
		}
	}
	if eval[string](p, `document.querySelector(".kind-screen").dataset.status`) != "ended" {
		t.Fatalf("no resolution after %d weeks", weeks)
	}
	t.Logf("resolved after %d weeks: %s", weeks, p.text(".resolution"))
	p.endingOnce("first-flat")
	p.shot("sim-resolution")
	if p.count(".goals .goal-met, .goals .goal-failed") == 0 {
		t.Error("no goal shows met or failed")
	}
}

func TestWorldBuildAndAdvanceTime(t *testing.T) {
	t.Parallel()
	p := open(t)
	startGame(p, "pier-fair", "world-graph")
	p.axe("world screen")
	// The premise is open before the first hour, the map has a key.
	if !eval[bool](p, `document.querySelector("details.premise")?.open === true && document.querySelector("details.premise p").textContent.length > 40`) {
		t.Error("the world opens with no premise")
	}
	if n := p.count(".map-legend li"); n < 4 {
		t.Errorf("the map's key has %d entries", n)
	}
	node := eval[string](p, `document.querySelector("[data-build]").dataset.build`)
	p.act(fmt.Sprintf(`[data-build=%q]`, node))
	if p.count(fmt.Sprintf(`.place[data-node=%q] .build-form`, node)) != 0 {
		t.Fatalf("%s is still free after building: %s", node, p.text(fmt.Sprintf(`.place[data-node=%q]`, node)))
	}
	before := p.text(".time .muted")
	// A day's advance stops at ten, when the day's offer opens; answered,
	// time goes on.
	p.act(`[data-advance="24"]`)
	if got := p.text(".time .muted"); !strings.Contains(got, "Hour 10 ") || p.count(".offer [data-choice]") < 2 {
		t.Fatalf("a day's advance stopped at %q with %d answers offered", got, p.count(".offer [data-choice]"))
	}
	p.shot("world-offer")
	p.axe("world screen with an offer")
	p.act(".offer [data-choice]")
	if p.count(".offer") != 0 {
		t.Error("the offer is still asked after its answer")
	}
	p.act(`[data-advance="8"]`)
	after := p.text(".time .muted")
	if before == after {
		t.Errorf("time did not pass: %q", after)
	}
	if !eval[bool](p, `document.querySelector("details.premise")?.open === false`) {
		t.Error("the premise is still open after 18 hours")
	}
	if !strings.Contains(after, "Hour 18") {
		t.Errorf("after 18 hours the clock reads %q", after)
	}
	p.shot("world")
}

// checkChart checks the simulation's chart can be read: money and the
// stats on charts of their own, each with a labelled scale; a week's
// values shown when it has keyboard focus; the numbers in a table anyone
// can open.
func checkChart(t *testing.T, p *page) {
	t.Helper()
	if n := p.count("svg.chart"); n != 2 {
		t.Errorf("%d charts, want money and the stats apart", n)
	}
	axes := eval[[]string](p, `[...document.querySelectorAll("svg.chart .axis-label")].map((e) => e.textContent)`)
	if strings.Join(axes, "|") != "Week|Money|Week|Points" {
		t.Errorf("the charts' axes read %q", axes)
	}
	if !eval[bool](p, `[...document.querySelectorAll("svg.chart")][0].querySelector(".tick")?.textContent.includes("€")`) {
		t.Error("the money chart's scale is not in money")
	}
	// (The pointer may rest over the charts, so the focused week is read
	// right after the focus.)
	got := eval[[]string](p, `(() => { const hit = document.querySelector("svg.chart .hit"); hit.focus(); return [document.activeElement === hit ? "focused" : "not focused", document.querySelector(".chart-readout").textContent]; })()`)
	if got[0] != "focused" || !regexp.MustCompile(`^Week \d+: Cash €[\d,.]+`).MatchString(got[1]) {
		t.Errorf("focusing the first week of the money chart (%s) reads %q", got[0], got[1])
	}
	if eval[bool](p, `document.querySelector(".chart-data table").closest(".sr-only") !== null`) {
		t.Error("the chart's numbers are for screen readers only")
	}
	p.click(".chart-data summary")
	p.waitJS(`document.querySelector(".chart-data table").getBoundingClientRect().height > 0`)
}

// TestPlanRemoveOneAndRepeatLastWeek: Remove takes one off a stack, and
// after the week ends its plan can be put back with one click.
func TestPlanRemoveOneAndRepeatLastWeek(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.visit("#/new/first-flat")
	p.waitJS(`document.querySelector(".kind-screen")?.dataset.kind === "simulation"`)
	p.act(`[data-add="cafe_shift"]`)
	p.act(`[data-add="cafe_shift"]`)
	p.act(`[data-add="cafe_shift"]`)
	if got := p.text(".plan-items li span"); !strings.HasSuffix(got, "× 3") {
		t.Fatalf("the plan reads %q after three café shifts", got)
	}
	p.act(`[data-remove="cafe_shift"]`)
	if got := p.text(".plan-items li span"); !strings.HasSuffix(got, "× 2") {
		t.Fatalf("removing one of three café shifts leaves %q", got)
	}
	p.act(`[data-add="sleep_in"]`)
	planned := eval[string](p, `[...document.querySelectorAll(".plan-items li > span:first-child")].map((s) => s.textContent).join("|")`)
	p.act(`[data-action-id="end_week"]`)
	if p.count(".plan-items li") != 0 {
		t.Fatal("the plan did not empty at the end of the week")
	}
	p.click(`[data-role="repeat-plan"]`)
	p.waitJS(`[...document.querySelectorAll(".plan-items li > span:first-child")].map((s) => s.textContent).join("|") === ` + fmt.Sprintf("%q", planned))
}

// TestWorldAndSimulationAchievements: building the Pier Fair's Ferris
// wheel unlocks its achievement, announced as a story's are; the gallery
// shows it among the Pier Fair's, the library counts it, and the
// simulations list theirs too.
func TestWorldAndSimulationAchievements(t *testing.T) {
	t.Parallel()
	p := open(t)
	startGame(p, "pier-fair", "world-graph")
	p.watchToasts()
	node := eval[string](p, `document.querySelector("[data-build]").dataset.build`)
	eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector('.place[data-node=%q] [data-role="building"]'); s.value = "ferris_wheel"; s.dispatchEvent(new Event("change")); return true; })()`, node))
	p.act(fmt.Sprintf(`[data-build=%q]`, node))
	p.waitJS(`window.toastLog.includes("Achievement unlocked")`)
	if got := p.text("#toasts"); !strings.Contains(got, "Big Wheel") {
		t.Errorf("the achievement toast reads %q", got)
	}
	p.visit("#/gallery/pier-fair")
	p.screen("gallery")
	if n := p.count(`[data-campaign="pier-fair"] .tile[data-achievement]`); n != 3 {
		t.Errorf("the gallery shows %d of the Pier Fair's achievements, want 3", n)
	}
	if got := p.text(`[data-campaign="pier-fair"] .tile.got[data-achievement="big_wheel"]`); !strings.Contains(got, "Big Wheel") {
		t.Errorf("the gallery's Big Wheel tile reads %q", got)
	}
	p.visit("")
	p.screen("library")
	for campaign, want := range map[string]string{"pier-fair": "1 of 3", "first-flat": "0 of 4", "harbour-bakery": "0 of 3"} {
		got := eval[string](p, fmt.Sprintf(`[...document.querySelectorAll('[data-campaign=%q] .progress div')].find((d) => d.querySelector("dt").textContent === "Achievements")?.querySelector("dd").textContent ?? ""`, campaign))
		if got != want {
			t.Errorf("%s's card counts achievements %q, want %q", campaign, got, want)
		}
	}
}

// startGame starts campaign, of kind, from the library.
func startGame(p *page, campaign, kind string) {
	p.t.Helper()
	p.visit("")
	p.screen("library")
	p.click(fmt.Sprintf(`[data-start=%q]`, campaign))
	p.screen("play")
	p.waitJS(fmt.Sprintf(`document.querySelector(".kind-screen")?.dataset.kind === %q`, kind))
}
