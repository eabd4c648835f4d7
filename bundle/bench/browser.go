package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// seriesName is a sub-benchmark of a growth series: Family/param=N.
var seriesName = regexp.MustCompile(`^(.*)/([a-zA-Z_]+)=(\d+)$`)

// medians reads `go test -bench` output (parseBench) and returns, per
// benchmark, the median of each metric over the counts and the number of
// counts. Benchmarks are named as the report names them: the package's
// last element, a dot, the name without "Benchmark"
// (story.SubmitAction/gannet-rock).
func medians(r io.Reader) (map[string]map[string]float64, map[string]int, error) {
	res, err := parseBench(r)
	out := make(map[string]map[string]float64, len(res))
	runs := make(map[string]int, len(res))
	for _, b := range res {
		out[b.Name], runs[b.Name] = b.Metrics, b.Runs
	}
	return out, runs, err
}

// gzipSize is the size of b compressed with gzip at its best level.
func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Len()
}

// peerFigures is the part of bundle/bench/peer.mjs's output the browser section
// uses: the inkjs side of a first load.
type peerFigures struct {
	Figures struct {
		Ink struct {
			RuntimeGzipBytes float64 `json:"runtimeGzipBytes"`
			StoryGzipBytes   float64 `json:"storyGzipBytes"`
			RuntimeFile      string  `json:"runtimeFile"`
		} `json:"ink"`
	} `json:"figures"`
}

// section is a {"title", "markdown"} section of the report, with the
// figures it was made from.
type section struct {
	Title    string         `json:"title"`
	Markdown string         `json:"markdown"`
	Figures  map[string]any `json:"figures,omitempty"`
}

// runBrowser is `bench browser`: it turns the browser benchmarks' output
// (BenchmarkBrowserPlay of this package, BenchmarkColdLoad of
// bundle/browsertest) into the report's browser section, keeping
// BenchmarkCardTablePaint's medians among its figures for the targets, beside an inkjs
// first load (bundle/bench/peer.mjs's figures and a minimal page).
func runBrowser(args []string, stdout, stderr io.Writer) int {
	fl := flags("browser", stderr)
	in := fl.String("in", "bench/out/browser.txt", "`go test -bench` output of the browser benchmarks")
	peer := fl.String("peer", "bench/out/peer.json", "bundle/bench/peer.mjs's result, for the inkjs side")
	page := fl.String("page", "bundle/bench/ink-page.html", "the minimal page an inkjs story ships with")
	out := fl.String("out", "bench/out/browser.json", "section to write")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench browser:", err); return 1 }
	f, err := os.Open(*in)
	if err != nil {
		return fail(err)
	}
	med, runs, err := medians(f)
	f.Close()
	if err != nil {
		return fail(err)
	}
	var pf peerFigures
	if b, err := os.ReadFile(*peer); err == nil {
		_ = json.Unmarshal(b, &pf)
	}
	pageBytes, err := os.ReadFile(*page)
	if err != nil {
		return fail(err)
	}
	md, figs := browserMarkdown(med, runs, pf, gzipSize(pageBytes))
	if err := writeJSON(*out, section{Title: "Browser figures: headless Chromium on loopback", Markdown: md, Figures: figs}); err != nil {
		return fail(err)
	}
	fmt.Fprintln(stdout, md)
	return 0
}

// browserCampaign is the story campaign the browser figures play.
const browserCampaign = "gannet-rock"

// clicks is how many choices one run of BenchmarkBrowserPlay clicks
// through (issue 6: p95 over 200 choices).
const clicks = 200

// mb is the 1.5 MB of the transfer targets, in bytes.
const mb = 1_000_000

func browserMarkdown(med map[string]map[string]float64, runs map[string]int, pf peerFigures, pageGzip int) (string, map[string]any) {
	play, cold := med["bench.BrowserPlay"], med["browsertest.ColdLoad"]
	var b strings.Builder
	figs := map[string]any{"browserPlay": play, "coldLoad": cold, "cardTablePaint": med["browsertest.CardTablePaint"], "inkPageGzipBytes": pageGzip}
	if play == nil {
		b.WriteString("No browser figures: BenchmarkBrowserPlay did not run (is chromium installed? `bash scripts/setup-chromium.sh`).\n")
		return b.String(), figs
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**not met**"
	}
	fmt.Fprintf(&b, "BenchmarkBrowserPlay (bundle/bench) on the site as `browsertest.NewSite` builds it (the release pipeline with its fast compression: gzip 6, brotli 5) served over loopback: a fresh headless Chromium profile per run opens `#/new/%s` and waits for the first story scene with an enabled choice to be painted (the animation frame after it enters the document), then clicks %d choices with a seeded random policy, each timed from the click to the frame after the next scene is in the document (a new game after an ending is not timed). Median of %d runs.\n\n", browserCampaign, clicks, runs["bench.BrowserPlay"])
	b.WriteString("| figure | measured | target | verdict |\n|---|---:|---|---|\n")
	fmt.Fprintf(&b, "| cold load to first playable scene | %.0f ms | under 1,500 ms (issue 6) | %s |\n", play["ms-first-scene"], verdict(play["ms-first-scene"] < 1500))
	fmt.Fprintf(&b, "| click to next scene, p50 | %.1f ms | reported | |\n", play["ms-click-p50"])
	fmt.Fprintf(&b, "| click to next scene, p95 over %d choices | %.1f ms | under 50 ms (issue 6) | %s |\n", clicks, play["ms-click-p95"], verdict(play["ms-click-p95"] < 50))
	fmt.Fprintf(&b, "| click to next scene, slowest | %.1f ms | reported | |\n", play["ms-click-max"])
	fmt.Fprintf(&b, "| transferred before the first scene (%.0f files, headers included) | %s | under 1.5 MB (issues 6, 10) | %s |\n", play["files-before-first-scene"], kib(play["B-before-first-scene"]), verdict(play["B-before-first-scene"] < 1.5*mb))
	fmt.Fprintf(&b, "| compressed bodies before the first scene | %s | | |\n", kib(play["B-body-before-first-scene"]))
	if off := play["B-offline-file"]; off > 0 {
		fmt.Fprintf(&b, "| the offline single file (%s, raw) | %s | under 6 MB (issue 6) | %s |\n", "storyloom-offline.html", kib(off), verdict(off < 6*mb))
	}
	if cold != nil {
		fmt.Fprintf(&b, "| BenchmarkColdLoad (bundle/browsertest): library ready, %d runs | %.0f ms, %s transferred, module %s | | |\n", runs["browsertest.ColdLoad"], cold["ms-to-ready"], kib(cold["B-transferred"]), kib(cold["B-module"]))
	}
	ink := pf.Figures.Ink
	if ink.RuntimeGzipBytes > 0 {
		total := ink.RuntimeGzipBytes + ink.StoryGzipBytes + float64(pageGzip)
		figs["inkFirstLoadGzipBytes"] = total
		fmt.Fprintf(&b, "\nBeside inkjs: a story published with inkjs needs its runtime (%s, %s gzip -9), the compiled story (the peer story: %s) and a page (bundle/bench/ink-page.html, the least page that plays it: %s), %s in all, against Storyloom's %s of compressed bodies before its first scene (%.1f× as much). Storyloom's first load carries the whole engine and every sample campaign; most of it is the Go WASM module.\n",
			ink.RuntimeFile, kib(ink.RuntimeGzipBytes), kib(ink.StoryGzipBytes), kib(float64(pageGzip)), kib(total), kib(play["B-body-before-first-scene"]), play["B-body-before-first-scene"]/total)
	}
	return b.String(), figs
}

func kib(v float64) string {
	if v >= 1<<20 {
		return fmt.Sprintf("%.2f MiB (%.2f MB)", v/(1<<20), v/1e6)
	}
	return fmt.Sprintf("%.1f KiB", v/(1<<10))
}
