package browsertest

import (
	"testing"
)

// Load is what one cold load of the site cost, as the browser saw it.
type Load struct {
	// ReadyMS is the time from navigation start to the page's
	// "storyloom-ready" mark, in milliseconds.
	ReadyMS float64 `json:"readyMs"`
	// TransferBytes is every byte received for the page and its resources
	// up to that mark, headers included (compressed bodies as sent).
	TransferBytes int `json:"transferBytes"`
	// BodyBytes is the sum of the encoded (compressed) bodies alone.
	BodyBytes int `json:"bodyBytes"`
	// ModuleBytes is the encoded body of the WASM module.
	ModuleBytes int `json:"moduleBytes"`
}

// MeasureLoad navigates the page to url, waits until it is ready and reads
// the Performance API's figures. Use a fresh profile for a cold load.
func MeasureLoad(tb testing.TB, p *Page, url string) Load {
	tb.Helper()
	p.WaitReady(url)
	return Eval[Load](p, `(() => {
		const nav = performance.getEntriesByType("navigation")[0];
		const ready = performance.getEntriesByName("storyloom-ready")[0];
		const res = performance.getEntriesByType("resource").filter((r) => r.responseEnd <= ready.startTime);
		const all = [nav, ...res];
		const mod = res.find((r) => r.name.endsWith(".wasm"));
		return {
			readyMs: ready.startTime,
			transferBytes: all.reduce((n, r) => n + r.transferSize, 0),
			bodyBytes: all.reduce((n, r) => n + r.encodedBodySize, 0),
			moduleBytes: mod ? mod.encodedBodySize : 0,
		};
	})()`)
}
