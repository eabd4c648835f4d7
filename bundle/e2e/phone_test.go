package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPhoneSizedKeyboardOnly plays on a phone-sized screen with the
// keyboard alone: Tab reaches the choices in reading order after the
// header, Enter takes one, focus lands on the new scene's text, and the
// live region announces it.
func TestPhoneSizedKeyboardOnly(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	p.visit("#/new/gannet-rock")
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 20`)
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %dpx wide on a 390px screen", w)
	}
	p.shot("phone-story")
	var order []string
	for i := 0; i < 20; i++ {
		p.do(chromedp.KeyEvent(kb.Tab))
		el := eval[string](p, `(() => { const a = document.activeElement; return a ? (a.dataset.role || a.dataset.actionId || a.id || a.textContent.trim().slice(0, 20)) : ""; })()`)
		order = append(order, el)
		if eval[bool](p, `document.activeElement?.classList.contains("choice")`) {
			break
		}
	}
	if !eval[bool](p, `document.activeElement?.classList.contains("choice")`) {
		t.Fatalf("Tab never reached a choice: %q", order)
	}
	t.Logf("tab order: %q", order)
	if !eval[bool](p, `getComputedStyle(document.activeElement).outlineStyle !== "none"`) {
		t.Error("the focused choice shows no focus outline")
	}
	n := p.seq()
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitSeq(n)
	p.waitJS(`document.activeElement?.classList.contains("scene-text")`)
	p.waitJS(`document.getElementById("announce").textContent.length > 20`)
	p.visit("")
	p.screen("library")
	p.shot("phone-library")
}

// TestDarkTheme switches to the dark theme with the toggle: it is applied,
// remembered across a reload, and passes axe-core's contrast checks on the
// library and a scene.
func TestDarkTheme(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.visit("")
	p.screen("library")
	p.click("#theme-toggle")
	p.waitJS(`document.documentElement.dataset.theme === "dark"`)
	p.axe("library, dark")
	p.shot("dark-library")
	p.visit("#/new/gannet-rock")
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 20`)
	if eval[string](p, `document.documentElement.dataset.theme`) != "dark" {
		t.Error("the dark theme was not remembered")
	}
	p.axe("story scene, dark")
	p.shot("dark-story")
	p.click("#theme-toggle")
	p.waitJS(`document.documentElement.dataset.theme === "light"`)
}
