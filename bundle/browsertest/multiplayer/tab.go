package multiplayer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
)

// Bounds of one step. They only bound a wait; a passing run never waits
// them out.
const (
	// stepLimit bounds one chromedp action or evaluation.
	stepLimit = 60 * time.Second
	// settleLimit bounds a wait for the page to show the outcome of one
	// command (a round trip to the host and a redraw).
	settleLimit = 60 * time.Second
)

// Tab is one person's tab, in a browser context of its own (its own
// storage, so its own room session or trader), on a page of the site.
type Tab struct {
	// Label names the tab in failures and screenshots.
	Label string
	// P is the browsertest page; its errors fail the test.
	P *browsertest.Page

	t    testing.TB
	base string
	// touch is set by [Tab.Phone]: clicks are taps.
	touch bool
}

// NewTab opens a tab for the site at base (its root URL, ending in a
// slash) in a browser context of its own. allow lists console errors the
// test provokes on purpose.
func NewTab(t testing.TB, b *browsertest.Browser, label, base string, allow ...string) *Tab {
	t.Helper()
	p := b.NewIsolatedPage(t)
	for _, a := range allow {
		p.Allow(a)
	}
	tb := &Tab{Label: label, P: p, t: t, base: base}
	tb.onEveryDocument(recordViews)
	return tb
}

// onEveryDocument has the tab run the script js at the start of every
// document it loads from now on.
func (tb *Tab) onEveryDocument(js string) {
	tb.t.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	}))
}

// Do runs chromedp actions on the tab, failing the test on error.
func (tb *Tab) Do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.P.Ctx, stepLimit)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %v%s", tb.Label, err, tb.P.Diagnosis())
	}
}

// Eval evaluates a JavaScript expression in the tab (awaiting a promise)
// into a T, failing the test on error.
func Eval[T any](tb *Tab, js string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.P.Ctx, stepLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: evaluating %.100q: %v%s", tb.Label, js, err, tb.P.Diagnosis())
	}
	return v
}

// Visit navigates to path, relative to the site's root.
func (tb *Tab) Visit(path string) {
	tb.t.Helper()
	tb.Do(chromedp.Navigate(tb.base + path))
}

// WaitFor waits until the expression is truthy, failing after d. The
// page looks itself ([awaitTruthy]): after every change to its document
// and every 50 ms, and answers within a second either way, so a wait
// costs the page one evaluation per look and the test one round trip a
// second, and a page whose timers are throttled (a background tab) is
// still asked again at least every second.
func (tb *Tab) WaitFor(js string, d time.Duration) {
	tb.t.Helper()
	tb.waitFor(js, d, "")
}

// awaitTruthy is a JavaScript promise that resolves to "" once the
// expression %[1]s is truthy, looking at once, after every change to the
// document (a MutationObserver) and every 50 ms, or after %[2]d ms to why
// it is not yet: "false", or the error its last look threw.
const awaitTruthy = `new Promise((resolve) => {
  let why = "false", done = false, obs = null, tick = 0, stop = 0;
  const look = () => { try { if (Boolean(%[1]s)) return true; why = "false"; } catch (e) { why = String(e); } return false; };
  const end = (v) => { if (done) return; done = true; obs?.disconnect(); clearTimeout(tick); clearTimeout(stop); resolve(v); };
  if (look()) return end("");
  obs = new MutationObserver(() => { if (look()) end(""); });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const poll = () => { if (look()) end(""); else tick = setTimeout(poll, 50); };
  tick = setTimeout(poll, 50);
  stop = setTimeout(() => end(why), %[2]d);
})`

// waitFor is WaitFor that, when nudge is set, evaluates it between two
// waits of a quarter of a second (to wake a page that polls slowly).
func (tb *Tab) waitFor(js string, d time.Duration, nudge string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.P.Ctx, d)
	defer cancel()
	span := 1000
	if nudge != "" {
		span = 250
	}
	wait := fmt.Sprintf(awaitTruthy, js, span)
	why := "false"
	var err error
	for {
		var got string
		got, err = chromedp.Run(ctx, chromedp.Evaluate[string](wait, chromedp.EvalAwaitPromise))
		if err == nil && got == "" {
			return
		}
		if err == nil {
			why = got
		}
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			// The document went away under the wait (a navigation):
			// look again in the next one.
			time.Sleep(25 * time.Millisecond)
		}
		if nudge != "" {
			_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](nudge))
		}
	}
	shot := tb.Shot("stuck")
	tb.t.Fatalf("%s: waiting for %s: %v (its last look: %s)\n(the page shows: %.600s)\n(screenshot %s)%s", tb.Label, js, err, why,
		Eval[string](tb, `document.querySelector("main")?.innerText ?? ""`), shot, tb.P.Diagnosis())
}

// Click clicks the first visible element sel matches (taps it, on a
// [Tab.Phone]). The pages redraw whenever a frame arrives, so the node
// found may be replaced before the click lands; it is then looked up
// again.
func (tb *Tab) Click(sel string) {
	tb.t.Helper()
	var err error
	for range 5 {
		ctx, cancel := context.WithTimeout(tb.P.Ctx, stepLimit)
		err = tb.press(ctx, sel)
		cancel()
		if err == nil || !redrawn(err) {
			break
		}
	}
	if err != nil {
		tb.t.Fatalf("%s: clicking %s: %v%s", tb.Label, sel, err, tb.P.Diagnosis())
	}
}

// press clicks, or on a phone taps, the first visible element sel matches.
func (tb *Tab) press(ctx context.Context, sel string) error {
	if !tb.touch {
		return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	}
	tb.t.Helper()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
		return err
	}
	// In reach on a phone: the page is no wider than the screen, is not
	// scrolled sideways, and the element lies within the screen's width.
	reach, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
	  const el = document.querySelector(%q); if (!el) return "";
	  const r = el.getBoundingClientRect(), w = document.documentElement.clientWidth, page = document.documentElement.scrollWidth;
	  if (window.scrollX !== 0 || page > w) return "the page is " + page + " px wide on a " + w + " px screen, scrolled " + window.scrollX + " px sideways; " + `+tooWide+`;
	  if (r.left < 0 || r.right > w) return "it lies from " + Math.round(r.left) + " to " + Math.round(r.right) + " px on a " + w + " px screen";
	  return ""; })()`, sel)))
	if err != nil {
		return err
	}
	if reach != "" {
		tb.Shot("out-of-reach")
		tb.t.Fatalf("%s: %s is out of reach without scrolling sideways: %s", tb.Label, sel, reach)
	}
	clicks, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.storyloomClicks`))
	if err != nil {
		return err
	}
	if err := chromedp.Do(ctx, chromedp.Tap(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		return err
	}
	// The browser makes the tap a click of its own accord: wait for it,
	// so that what follows sees the page after it.
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`window.storyloomClicks > %d`, clicks), chromedp.WithPollingInterval(10*time.Millisecond)))
	return err
}

// tooWide is a JavaScript expression naming the elements of the page that
// reach past the right edge of its screen, innermost first (at most three),
// for a failure to say what makes a page too wide.
const tooWide = `(() => { const w = document.documentElement.clientWidth;
  const wide = [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > w + 1);
  const inner = wide.filter((el) => !wide.some((o) => o !== el && el.contains(o)));
  return "too wide: " + inner.slice(0, 3).map((el) => el.outerHTML.slice(0, 160) + " (to " + Math.round(el.getBoundingClientRect().right) + " px)").join("; "); })()`

// countClicks counts, in every document the tab loads, the clicks the page
// receives, taps' included (window.storyloomClicks).
const countClicks = `if (window.storyloomClicks === undefined) {
  window.storyloomClicks = 0;
  addEventListener("click", () => { window.storyloomClicks++; }, true);
}`

// Phone makes the tab a phone: a 390×844 portrait screen at three device
// pixels to a CSS pixel, with touch, for the page it shows and every page
// it opens later. From then on [Tab.Click] and [Tab.TryClick] tap, and
// each tap first fails the test unless what it taps is in reach without
// scrolling the page sideways. [Tab.Desktop] undoes it.
func (tb *Tab) Phone() {
	tb.t.Helper()
	tb.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	tb.onEveryDocument(countClicks)
	Eval[bool](tb, `(() => { `+countClicks+` return true; })()`)
	tb.touch = true
}

// Desktop gives a [Tab.Phone] back the browser's own window, without
// touch: clicks are clicks again.
func (tb *Tab) Desktop() {
	tb.t.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: false})
		return err
	}))
	tb.touch = false
}

// redrawn reports whether err says the node acted on left the document.
func redrawn(err error) bool {
	m := err.Error()
	return strings.Contains(m, "Could not find node") || strings.Contains(m, "detached")
}

// TryClick clicks (on a [Tab.Phone], taps) the element sel names when it
// turns up visible and enabled within a short wait, and says why not
// otherwise.
func (tb *Tab) TryClick(sel string) error {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.P.Ctx, 4*time.Second)
	defer cancel()
	return tb.press(ctx, sel+":not(:disabled)")
}

// KeyPress focuses sel and presses key on it, as a keyboard player would
// after tabbing to it.
func (tb *Tab) KeyPress(sel, key string) error {
	ctx, cancel := context.WithTimeout(tb.P.Ctx, 4*time.Second)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel+":not(:disabled)"), chromedp.NodeVisible), chromedp.KeyEvent(key))
}

// Type clears an input and types text into it, as a player would: it
// focuses the field and sends the keys to whatever has the focus. The
// pages redraw when news arrives and keep the focus on a redrawn field's
// replacement, so a redraw while typing loses no key, where keys sent to
// the node first found would fail on a node that left the document.
func (tb *Tab) Type(sel, text string) {
	tb.t.Helper()
	if !Eval[bool](tb, fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = "";
	  el.dispatchEvent(new Event("input", { bubbles: true })); el.focus(); return document.activeElement === el; })()`, sel)) {
		tb.t.Fatalf("%s: %s cannot take the focus", tb.Label, sel)
	}
	tb.Do(chromedp.KeyEvent(text))
}

// Text returns the text of the first element sel matches ("" if none).
func (tb *Tab) Text(sel string) string {
	tb.t.Helper()
	return Eval[string](tb, fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ""`, sel))
}

// Count returns how many elements sel matches.
func (tb *Tab) Count(sel string) int {
	tb.t.Helper()
	return Eval[int](tb, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// Shot writes a screenshot of the tab to testout/<test name>/<label>-<name>.png
// and returns its path.
func (tb *Tab) Shot(name string) string {
	tb.t.Helper()
	return browsertest.Screenshot(tb.t, tb.P.Ctx, tb.Label+"-"+name)
}

// Axe runs axe-core on the tab and fails on every violation,
// whatever its impact; what names the screen in the log.
func (tb *Tab) Axe(what string) {
	tb.t.Helper()
	tb.t.Logf("axe-core on the %s", what)
	browsertest.Axe(tb.t, tb.P.Ctx)
}

// controls lists the controls a keyboard must reach inside root: every
// visible, enabled button, link, field and summary, and every other
// element in the tab order, each marked data-reach-id so that
// [Tab.KeyboardReach] can tell it when it has the focus.
const controls = `((root) => [...document.querySelector(root).querySelectorAll(%q)]
  .filter((el) => !el.disabled && el.checkVisibility())
  .map((el, i) => { el.dataset.reachId = String(i); return (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " " + (el.dataset.key || el.textContent.trim().slice(0, 30)); }))(%q)`

// controlSelector is what [controls] looks for.
const controlSelector = `button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])`

// KeyboardReach presses Tab from the top of the page, as a keyboard user
// would, until the focus comes round again, and reports the controls
// inside root (a CSS selector) it never reached and those it reached
// without a visible focus mark (an outline of at least 2 px).
func (tb *Tab) KeyboardReach(root string) (missing, unmarked []string) {
	tb.t.Helper()
	want := Eval[[]string](tb, fmt.Sprintf(controls, controlSelector, root))
	reached := map[string]bool{}
	Eval[bool](tb, `(document.activeElement?.blur(), window.scrollTo(0, 0), true)`)
	limit := 2*Eval[int](tb, fmt.Sprintf(`document.querySelectorAll(%q).length`, controlSelector)) + 10
	first := ""
	for range limit {
		tb.Do(chromedp.KeyEvent("\t"))
		var at struct {
			Where, Reach string
			Marked       bool
		}
		raw := Eval[string](tb, fmt.Sprintf(`(() => { const el = document.activeElement, cs = el ? getComputedStyle(el) : null;
		  return JSON.stringify({ where: el ? el.outerHTML.slice(0, 60) : "", reach: el?.closest(%q) ? (el.dataset.reachId ?? "") : "",
		    marked: Boolean(cs) && cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2 }); })()`, root))
		if err := json.Unmarshal([]byte(raw), &at); err != nil {
			tb.t.Fatalf("%s: reading the focus: %v", tb.Label, err)
		}
		if at.Where == first {
			break // round again
		}
		if first == "" {
			first = at.Where
		}
		if at.Reach == "" {
			continue
		}
		reached[at.Reach] = true
		if !at.Marked {
			unmarked = append(unmarked, at.Where)
		}
	}
	for i, c := range want {
		if !reached[fmt.Sprint(i)] {
			missing = append(missing, c)
		}
	}
	return missing, unmarked
}
