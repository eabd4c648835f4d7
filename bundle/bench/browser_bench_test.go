package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/storyloom/storyloom/bundle/browsertest"
	sitepkg "github.com/storyloom/storyloom/bundle/site"
)

var (
	siteOnce sync.Once
	site     *browsertest.Site
	siteErr  error
)

// builtSite builds and serves the site once for every benchmark and count.
func builtSite(b *testing.B) *browsertest.Site {
	b.Helper()
	if _, err := browsertest.ChromiumPath(); err != nil {
		b.Skip(err)
	}
	siteOnce.Do(func() { site, siteErr = browsertest.NewSite(context.Background()) })
	if siteErr != nil {
		b.Fatal(siteErr)
	}
	return site
}

// firstSceneProbe runs in the page before any of its scripts: it records
// the moment the first playable scene is in the document (a story scene
// with at least one enabled choice) and, at the next animation frame, the
// moment it is painted.
const firstSceneProbe = `(() => {
	const playable = () => document.querySelector(".kind-screen .choices button:not([disabled])") !== null;
	const mo = new MutationObserver(() => {
		if (!playable()) return;
		mo.disconnect();
		window.__slFirstSceneDOM = performance.now();
		requestAnimationFrame(() => { window.__slFirstScene = performance.now(); });
	});
	mo.observe(document, {subtree: true, childList: true, attributes: true});
})()`

// awaitFirstScene resolves, in the page, to the load figures once the
// first scene is painted: times from navigation start, and what was
// transferred before it.
const awaitFirstScene = `new Promise((resolve) => {
	const check = () => {
		if (window.__slFirstScene === undefined) { setTimeout(check, 10); return; }
		const t = window.__slFirstScene;
		const nav = performance.getEntriesByType("navigation")[0];
		const res = performance.getEntriesByType("resource").filter((r) => r.responseEnd <= t);
		const all = [nav, ...res];
		resolve({
			firstSceneMs: t,
			firstSceneDomMs: window.__slFirstSceneDOM,
			transferBytes: all.reduce((n, r) => n + r.transferSize, 0),
			bodyBytes: all.reduce((n, r) => n + r.encodedBodySize, 0),
			files: all.length,
		});
	};
	check();
})`

// clickRun clicks %d choices in the page with a seeded random policy and
// resolves to each click's latency: from the click to the animation frame
// after the next scene is in the document. An ending starts a new game
// (not timed).
const clickRun = `(async (count, campaign) => {
	let a = 12345;
	const rnd = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
	const screen = () => document.querySelector(".kind-screen");
	const seq = () => Number(screen()?.dataset.sceneSeq || 0);
	const buttons = () => [...document.querySelectorAll(".kind-screen .choices button")].filter((b) => !b.disabled);
	const until = (cond) => new Promise((resolve) => {
		const done = () => requestAnimationFrame(() => resolve(performance.now()));
		if (cond()) { done(); return; }
		const mo = new MutationObserver(() => { if (cond()) { mo.disconnect(); done(); } });
		mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	});
	const lat = [];
	let restarts = 0;
	while (lat.length < count) {
		if (screen()?.dataset.status === "ended" || buttons().length === 0) {
			const old = screen();
			location.hash = "#/new/" + campaign;
			await until(() => screen() && screen() !== old && screen().dataset.status !== "ended" && buttons().length > 0 && !document.querySelector("dialog[open]"));
			restarts++;
			continue;
		}
		const bs = buttons();
		const before = seq();
		const t0 = performance.now();
		bs[Math.floor(rnd() * bs.length)].click();
		const t1 = await until(() => seq() > before);
		lat.push(t1 - t0);
	}
	lat.sort((x, y) => x - y);
	const q = (p) => lat[Math.min(lat.length - 1, Math.ceil(p * lat.length) - 1)];
	return {p50: q(0.5), p95: q(0.95), max: lat[lat.length - 1], restarts};
})(%d, %q)`

// load is what awaitFirstScene returns.
type load struct {
	FirstSceneMs    float64 `json:"firstSceneMs"`
	FirstSceneDomMs float64 `json:"firstSceneDomMs"`
	TransferBytes   float64 `json:"transferBytes"`
	BodyBytes       float64 `json:"bodyBytes"`
	Files           float64 `json:"files"`
}

// latency is what clickRun returns.
type latency struct {
	P50      float64 `json:"p50"`
	P95      float64 `json:"p95"`
	Max      float64 `json:"max"`
	Restarts float64 `json:"restarts"`
}

// BenchmarkBrowserPlay is one cold visit on a fresh browser profile over
// loopback straight to a new game of a story campaign, timed to its first
// playable scene painted, then 200 choices clicked, each timed to the next
// scene painted. It reports figures for `make bench` (run with
// -benchtime 1x and several counts: each count is one fresh browser); no
// test asserts a time.
func BenchmarkBrowserPlay(b *testing.B) {
	s := builtSite(b)
	var sum load
	var lat latency
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		br, err := browsertest.Launch(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		p := br.NewPage(b)
		p.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstSceneProbe})
			return err
		}))
		b.StartTimer()
		p.Do(chromedp.Navigate(s.URL() + "#/new/" + browserCampaign))
		l := browsertest.Eval[load](p, awaitFirstScene)
		c := browsertest.Eval[latency](p, fmt.Sprintf(clickRun, clicks, browserCampaign))
		b.StopTimer()
		sum.FirstSceneMs += l.FirstSceneMs
		sum.FirstSceneDomMs += l.FirstSceneDomMs
		sum.TransferBytes += l.TransferBytes
		sum.BodyBytes += l.BodyBytes
		sum.Files += l.Files
		lat.P50 += c.P50
		lat.P95 += c.P95
		lat.Max += c.Max
		lat.Restarts += c.Restarts
		p.Close()
		_ = br.Close()
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(sum.FirstSceneMs/n, "ms-first-scene")
	b.ReportMetric(sum.FirstSceneDomMs/n, "ms-first-scene-dom")
	b.ReportMetric(sum.TransferBytes/n, "B-before-first-scene")
	b.ReportMetric(sum.BodyBytes/n, "B-body-before-first-scene")
	b.ReportMetric(sum.Files/n, "files-before-first-scene")
	b.ReportMetric(lat.P50/n, "ms-click-p50")
	b.ReportMetric(lat.P95/n, "ms-click-p95")
	b.ReportMetric(lat.Max/n, "ms-click-max")
	b.ReportMetric(lat.Restarts/n, "restarts")
	if fi, err := os.Stat(filepath.Join(s.Dir, sitepkg.OfflineName)); err == nil {
		b.ReportMetric(float64(fi.Size()), "B-offline-file")
	}
}
