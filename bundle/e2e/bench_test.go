package e2e

import (
	"fmt"
	"sort"
	"testing"
)

// The browser measurements (docs/browser.md): reported, never asserted.
//
//	go test -run '^$' -bench . ./bundle/e2e
//
// BenchmarkColdLoad is a cold load to the first playable scene: a new
// origin (so nothing is cached, no service worker), navigation start to
// the first story scene with its choices in the document, through the
// #/new/<campaign> route (module download and compile, campaigns fetched
// and built, a session created in IndexedDB, the scene rendered).
// BenchmarkChoice is a choice click to the next scene rendered, over 200
// choices, restarting the story at each ending: to the scene in the DOM
// (the bridge's round trip, the autosave in IndexedDB and the render), and
// to the next animation frame after it (which adds up to one frame, about
// 16.7 ms at 60 Hz, by construction).

func BenchmarkColdLoad(b *testing.B) {
	var all []float64
	for i := 0; i < b.N; i++ {
		p := open(b)
		p.do()
		p.visit("#/new/gannet-rock")
		p.waitJS(`document.querySelector(".kind-screen .choices button:not([disabled])") !== null`)
		ms := eval[float64](p, `performance.getEntriesByName("storyloom-scene")[0]?.startTime ?? -1`)
		all = append(all, ms)
	}
	b.ReportMetric(median(all), "ms/first-scene")
	b.ReportMetric(0, "ns/op")
}

// choiceLoop clicks n choices in the page and returns each one's time.
const choiceLoop = `(async (n) => {
	const screen = () => document.querySelector(".kind-screen");
	const until = (f) => new Promise((resolve) => {
		const check = () => (f() ? resolve() : setTimeout(check, 1));
		check();
	});
	const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
	const times = [];
	while (times.length < n) {
		const s = screen();
		if (s.dataset.status === "ended") {
			location.hash = "#/new/gannet-rock";
			await until(() => screen() && screen() !== s && screen().dataset.status === "active");
			continue;
		}
		const btn = [...s.querySelectorAll("[data-numbered]")].find((b) => !b.disabled);
		const seq = Number(s.dataset.sceneSeq);
		const changed = new Promise((resolve) => {
			const mo = new MutationObserver(() => {
				if (Number(s.dataset.sceneSeq) > seq) { mo.disconnect(); resolve(); }
			});
			mo.observe(s, { attributes: true, attributeFilter: ["data-scene-seq"] });
		});
		const t0 = performance.now();
		btn.click();
		await changed;
		const dom = performance.now() - t0;
		await frame();
		times.push([dom, performance.now() - t0]);
	}
	return times;
})(%d)`

func BenchmarkChoice(b *testing.B) {
	p := open(b)
	p.visit("#/new/gannet-rock")
	p.waitJS(`document.querySelector(".kind-screen .choices button:not([disabled])") !== null`)
	var dom, painted []float64
	for i := 0; i < b.N; i++ {
		for _, pair := range eval[[][2]float64](p, fmt.Sprintf(choiceLoop, 200)) {
			dom, painted = append(dom, pair[0]), append(painted, pair[1])
		}
	}
	sort.Float64s(dom)
	sort.Float64s(painted)
	b.ReportMetric(percentile(dom, 50), "ms/choice-dom-p50")
	b.ReportMetric(percentile(dom, 95), "ms/choice-dom-p95")
	b.ReportMetric(percentile(painted, 50), "ms/choice-frame-p50")
	b.ReportMetric(percentile(painted, 95), "ms/choice-frame-p95")
	b.ReportMetric(0, "ns/op")
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return percentile(s, 50)
}

// percentile reads the p-th percentile of sorted values (nearest rank).
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p/100*float64(len(sorted))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}
