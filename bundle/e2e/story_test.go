package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// playStory plays the story on screen to an ending, taking the first
// choice the engine offers: by click on even moves and by its number key
// on odd ones. It returns how many moves it took and the first locked
// choice's reason it saw ("" when none was shown).
func playStory(t *testing.T, p *page, shotLocked string) (moves int, lockedReason string) {
	t.Helper()
	for moves = 0; moves < 120; moves++ {
		if eval[string](p, `document.querySelector(".kind-screen").dataset.status`) == "ended" {
			return moves, lockedReason
		}
		if lockedReason == "" && p.count(".choices li.locked") > 0 {
			lockedReason = p.text(".choices li.locked .reason")
			if !eval[bool](p, `document.querySelector(".choices li.locked button").disabled`) {
				t.Error("a locked choice is not disabled")
			}
			if shotLocked != "" {
				p.shot(shotLocked)
			}
		}
		idx := eval[int](p, `[...document.querySelectorAll("[data-numbered]")].findIndex(b => !b.disabled)`)
		if idx < 0 {
			t.Fatalf("move %d: no available choice on an active scene: %s", moves, p.text("main"))
		}
		if moves%2 == 0 || idx >= 9 {
			p.act(fmt.Sprintf(".choices li:nth-child(%d) button", idx+1))
		} else {
			n := p.seq()
			p.do(chromedp.KeyEvent(fmt.Sprint(idx + 1)))
			p.waitSeq(n)
		}
	}
	t.Fatalf("no ending after %d moves", moves)
	return moves, lockedReason
}

func TestStoryPlaysToAnEndingByClickAndKeyboard(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.visit("")
	p.screen("library")
	p.shot("library")
	p.axe("library")
	if n := p.count(".card"); n < 4 {
		t.Fatalf("the library shows %d campaigns", n)
	}
	p.click(`[data-start="gannet-rock"]`)
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 20`)
	p.shot("story-scene")
	p.axe("story scene")
	// A low meter reads low: every meter has its low and high marks.
	if p.count(".vars meter") == 0 || p.count(".vars meter:not([low]):not([high])") > 0 {
		t.Errorf("the story's meters (%d) have no low and high marks", p.count(".vars meter"))
	}
	if got := p.text("#announce"); got == "" {
		p.waitJS(`document.getElementById("announce").textContent.length > 0`)
	}
	moves, locked := playStory(t, p, "story-locked")
	t.Logf("ended after %d moves; a locked choice said %q", moves, locked)
	p.waitJS(`document.querySelector(".ending .ending-title")?.textContent.length > 0`)
	// The ending is news: a toast and, a moment later, the live region say
	// it was found for the first time.
	p.waitJS(`[...document.querySelectorAll("#toasts .toast strong")].some((s) => s.textContent === "New ending found")`)
	p.waitJS(`document.getElementById("announce").textContent.includes("New ending found")`)
	p.shot("story-ending")
	if !strings.Contains(p.text(".ending-actions"), "Play again") {
		t.Error("the ending offers no way on")
	}

	p.visit("#/gallery/gannet-rock")
	p.screen("gallery")
	if n := p.count(`[data-campaign="gannet-rock"] .tile.got[data-ending]`); n != 1 {
		t.Errorf("the gallery shows %d endings found, want 1", n)
	}
	if n := p.count(`[data-campaign="gannet-rock"] .tile.got[data-achievement]`); n == 0 {
		t.Error("the gallery shows no achievement")
	}
	p.shot("gallery")
	p.visit("")
	p.screen("library")
	if got := p.text(`[data-campaign="gannet-rock"] .progress`); !strings.Contains(got, "1 of") {
		t.Errorf("the library's progress reads %q", got)
	}
}

// TestStoryCountsAgreeInNumber plays the Marrow Affair on screen down to
// one hour left and checks the page shows "1 hour", not "1 hours": the
// page renders the plural the engine and the string table agree on.
func TestStoryCountsAgreeInNumber(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "the-marrow-affair")
	choose := func(label string) {
		t.Helper()
		js := fmt.Sprintf(`(() => { const b = [...document.querySelectorAll(".choices button")].find((x) => !x.disabled && x.textContent.includes(%q)); if (b) b.dataset.pick = "1"; return Boolean(b); })()`, label)
		if !eval[bool](p, js) {
			t.Fatalf("no choice %q on: %s", label, p.text("main"))
		}
		p.act(".choices button[data-pick]")
	}
	choose("take the case")
	if got := p.text(".scene-text"); !strings.Contains(got, "4 hours until judging.") {
		t.Fatalf("the tent reads %q", got)
	}
	choose("Go out onto the green")
	if got := p.text(".scene-text"); !strings.Contains(got, "0 clues in your notebook") {
		t.Fatalf("the green reads %q", got)
	}
	for range 2 {
		choose("Call on Colonel Haddock")
		choose("Leave him to his marrow")
	}
	choose("Go back to the show tent")
	if got := p.text(".scene-text"); !strings.Contains(got, "1 hour until judging.") || strings.Contains(got, "{") {
		t.Fatalf("with one hour left the tent reads %q", got)
	}
}
