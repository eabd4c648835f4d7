package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// benchResult is one benchmark's figures: the median of each metric over
// every count the run made.
type benchResult struct {
	Name    string             `json:"name"`
	Runs    int                `json:"runs"`
	Metrics map[string]float64 `json:"metrics"`
}

// benchLine is one line of `go test -bench` output: name, iterations, figures.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)

// parseBench reads `go test -bench` output and returns each benchmark with
// the median of every metric, in first-seen order, and the package of each.
func parseBench(r io.Reader) ([]benchResult, error) {
	samples := map[string]map[string][]float64{}
	var order []string
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p[strings.LastIndex(p, "/")+1:]
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1]
		if pkg != "" {
			name = pkg + "." + strings.TrimPrefix(name, "Benchmark")
		}
		fields := strings.Fields(m[3])
		if samples[name] == nil {
			samples[name] = map[string][]float64{}
			order = append(order, name)
		}
		for i := 0; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			samples[name][fields[i+1]] = append(samples[name][fields[i+1]], v)
		}
	}
	out := make([]benchResult, 0, len(order))
	for _, name := range order {
		res := benchResult{Name: name, Metrics: map[string]float64{}}
		for unit, vs := range samples[name] {
			res.Metrics[unit] = median(vs)
			res.Runs = len(vs)
		}
		out = append(out, res)
	}
	return out, sc.Err()
}

func median(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// series is a family of sub-benchmarks keyed by one numeric parameter, e.g.
// core.SubmitActionAtHistory/actions=10, =1000, =10000: one series for
// ns/op and one for each custom size metric the family reports (such as
// save-bytes).
type series struct {
	Family string    `json:"family"`
	Param  string    `json:"param"`
	Unit   string    `json:"unit"` // of Y: "ns/op" or a custom metric's unit
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	// Slope is d log(ns/op) / d log(x) from the first to the last point: 0
	// is flat, 1 is linear.
	Slope float64 `json:"slope"`
}

var paramSuffix = regexp.MustCompile(`^(.*)/([a-zA-Z_]+)=(\d+)$`)

func findSeries(results []benchResult) []series {
	byFamily := map[string]*series{}
	var order []string
	for _, r := range results {
		m := paramSuffix.FindStringSubmatch(r.Name)
		if m == nil {
			continue
		}
		x, _ := strconv.ParseFloat(m[3], 64)
		for _, unit := range seriesUnits(r.Metrics) {
			key := m[1] + "/" + m[2] + " " + unit
			s := byFamily[key]
			if s == nil {
				s = &series{Family: m[1], Param: m[2], Unit: unit}
				byFamily[key] = s
				order = append(order, key)
			}
			s.X = append(s.X, x)
			s.Y = append(s.Y, r.Metrics[unit])
		}
	}
	var out []series
	for _, k := range order {
		s := byFamily[k]
		if len(s.X) < 2 {
			continue
		}
		n := len(s.X) - 1
		if s.X[0] > 0 && s.X[n] > s.X[0] && s.Y[0] > 0 {
			s.Slope = math.Log(s.Y[n]/s.Y[0]) / math.Log(s.X[n]/s.X[0])
		}
		out = append(out, *s)
	}
	return out
}

// seriesUnits returns the metrics of a result that make growth series:
// ns/op first, then the custom size metrics (units ending in "bytes", such
// as save-bytes) in name order. Other custom metrics — rates, latencies,
// counts — stay in results.json: a log-log slope does not judge them.
func seriesUnits(metrics map[string]float64) []string {
	var units []string
	if _, ok := metrics["ns/op"]; ok {
		units = append(units, "ns/op")
	}
	var custom []string
	for u := range metrics {
		if strings.HasSuffix(u, "bytes") {
			custom = append(custom, u)
		}
	}
	sort.Strings(custom)
	return append(units, custom...)
}

// chartName is the file name of a series' chart: the family, and the unit
// when it is not time.
func chartName(s series) string {
	name := s.Family
	if s.Unit != "" && s.Unit != "ns/op" {
		name += "-" + strings.ReplaceAll(s.Unit, "/", "-per-")
	}
	return strings.NewReplacer("/", "-", ".", "-").Replace(name) + ".svg"
}

// human formats a value of unit for a chart or a table.
func human(unit string, v float64) string {
	switch {
	case unit == "ns/op" || unit == "":
		return humanNs(v)
	case strings.HasSuffix(unit, "bytes") || unit == "B":
		switch {
		case v >= 1<<20:
			return fmt.Sprintf("%.2f MiB", v/(1<<20))
		case v >= 1<<10:
			return fmt.Sprintf("%.1f KiB", v/(1<<10))
		}
		return fmt.Sprintf("%.0f B", v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + unit
}

// svgChart draws s as a small line chart: x on a log scale, the metric on
// a linear scale from zero.
func svgChart(s series) []byte {
	const w, h, left, bottom, top, right = 480, 240, 70, 40, 30, 20
	maxY := 0.0
	for _, y := range s.Y {
		maxY = math.Max(maxY, y)
	}
	lx := func(x float64) float64 { return math.Log10(math.Max(x, 1)) }
	x0, x1 := lx(s.X[0]), lx(s.X[len(s.X)-1])
	if x1 == x0 {
		x1 = x0 + 1
	}
	px := func(x float64) float64 { return left + (lx(x)-x0)/(x1-x0)*(w-left-right) }
	py := func(y float64) float64 { return h - bottom - y/maxY*(h-bottom-top) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`, w, h, w, h)
	what := "time per op"
	if s.Unit != "" && s.Unit != "ns/op" {
		what = s.Unit
	}
	fmt.Fprintf(&b, `<title>%s: %s against %s</title><rect width="100%%" height="100%%" fill="#fff"/>`, s.Family, what, s.Param)
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="13">%s (%s)</text>`, left, s.Family, what)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>`,
		left, h-bottom, w-right, h-bottom, left, top, left, h-bottom)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text><text x="%d" y="%d" text-anchor="end">0</text>`,
		left-6, top+4, human(s.Unit, maxY), left-6, h-bottom)
	var pts []string
	for i := range s.X {
		x, y := px(s.X[i]), py(s.Y[i])
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#1f6feb"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>`,
			x, y, x, h-bottom+16, strconv.FormatFloat(s.X[i], 'f', -1, 64))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, y-8, human(s.Unit, s.Y[i]))
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#1f6feb" stroke-width="2"/>`, strings.Join(pts, " "))
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s (log scale) — slope %.2f</text></svg>`, (left+w-right)/2, h-6, s.Param, s.Slope)
	b.WriteByte('\n')
	return b.Bytes()
}

// humanNs writes a duration in nanoseconds in the largest unit it fills.
func humanNs(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// benchReport is everything `make bench` measured, as written to the
// machine-readable result file.
type benchReport struct {
	Date     string            `json:"date"`
	Cores    int               `json:"cores"`
	GoOS     string            `json:"goos"`
	Commands []string          `json:"commands"`
	Native   []benchResult     `json:"native"`
	WASM     []benchResult     `json:"wasm,omitempty"`
	Series   []series          `json:"series"`
	Extra    []json.RawMessage `json:"extra,omitempty"`
}

// runReport is `bench report`: it turns the outputs of `make
// bench` into bench/out/results.json, docs/performance.md's generated
// section and an SVG chart per growth series.
func runReport(args []string, stdout, stderr io.Writer) int {
	fl := flags("report", stderr)
	native := nativeFlag(fl)
	wasm := fl.String("wasm", "", "the same engine benchmarks run as WASM under Node (optional)")
	extra := fl.String("extra", "", "comma-separated JSON files of other measurements to include (optional)")
	jsonOut := fl.String("json", "bench/out/results.json", "machine-readable result file")
	doc := fl.String("doc", "docs/performance.md", "document whose generated section is rewritten")
	charts := fl.String("charts", "docs/perf", "directory for the SVG charts")
	commands := fl.String("commands", "", "the commands that produced the inputs, separated by ';'")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintf(stderr, "bench report: %v\n", err); return 1 }
	rep := benchReport{Date: time.Now().UTC().Format("2006-01-02"), Cores: runtime.NumCPU(), GoOS: runtime.GOOS + "/" + runtime.GOARCH}
	for _, c := range strings.Split(*commands, ";") {
		if c = strings.TrimSpace(c); c != "" {
			rep.Commands = append(rep.Commands, c)
		}
	}
	read := func(path string) ([]benchResult, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return parseBench(f)
	}
	var err error
	if rep.Native, err = read(*native); err != nil {
		return fail(err)
	}
	if *wasm != "" {
		if rep.WASM, err = read(*wasm); err != nil {
			return fail(err)
		}
	}
	for _, p := range strings.Split(*extra, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return fail(err)
		}
		if !json.Valid(b) {
			return fail(fmt.Errorf("%s is not JSON", p))
		}
		rep.Extra = append(rep.Extra, b)
	}
	rep.Series = findSeries(rep.Native)
	if err := os.MkdirAll(*charts, 0o755); err != nil {
		return fail(err)
	}
	for _, s := range rep.Series {
		if err := os.WriteFile(filepath.Join(*charts, chartName(s)), svgChart(s), 0o644); err != nil {
			return fail(err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(*jsonOut), 0o755); err != nil {
		return fail(err)
	}
	if err := writeJSON(*jsonOut, rep); err != nil {
		return fail(err)
	}
	if err := rewriteGenerated(*doc, renderReport(rep, *charts, filepath.Dir(*doc))); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %s, %s and %d charts in %s\n", *jsonOut, *doc, len(rep.Series), *charts)
	return 0
}

const (
	beginGenerated = "<!-- BEGIN GENERATED by `make bench`: edits here are overwritten -->"
	endGenerated   = "<!-- END GENERATED -->"
)

// rewriteGenerated replaces the generated section of the document at path
// (creating the document, or the section at its end, when missing).
func rewriteGenerated(path, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	block := beginGenerated + "\n" + section + endGenerated + "\n"
	s := string(old)
	i, j := strings.Index(s, beginGenerated), strings.Index(s, endGenerated)
	switch {
	case i >= 0 && j > i:
		s = s[:i] + block + s[j+len(endGenerated)+1:]
	case s == "":
		s = "# Performance\n\n" + block
	default:
		s += "\n" + block
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

func renderReport(rep benchReport, charts, docDir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %d cores (%s).\n\n", rep.Date, rep.Cores, rep.GoOS)
	if len(rep.Commands) > 0 {
		b.WriteString("Commands:\n\n```sh\n")
		for _, c := range rep.Commands {
			b.WriteString(c + "\n")
		}
		b.WriteString("```\n\n")
	}
	b.WriteString("### Benchmarks (median of every count)\n\nOther metrics are the ones a benchmark reports of its own (latency percentiles, rates, connections, sizes), each a median too.\n\n| benchmark | time/op | B/op | allocs/op | other metrics |\n|---|---:|---:|---:|---|\n")
	for _, r := range rep.Native {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Name, humanNs(r.Metrics["ns/op"]), num(r.Metrics, "B/op"), num(r.Metrics, "allocs/op"), otherMetrics(r.Metrics))
	}
	if len(rep.WASM) > 0 {
		b.WriteString("\n### WASM under Node against native (same benchmark, same run)\n\n| benchmark | native | WASM | WASM / native |\n|---|---:|---:|---:|\n")
		nat := map[string]float64{}
		for _, r := range rep.Native {
			nat[r.Name] = r.Metrics["ns/op"]
		}
		for _, r := range rep.WASM {
			if n := nat[r.Name]; n > 0 {
				fmt.Fprintf(&b, "| %s | %s | %s | %.2f× |\n", r.Name, humanNs(n), humanNs(r.Metrics["ns/op"]), r.Metrics["ns/op"]/n)
			}
		}
	}
	if len(rep.Series) > 0 {
		b.WriteString("\n### Growth series\n\nSlope is d log(metric) / d log(size) between the smallest and the largest point: 0 is flat, 1 is linear; above 1.1 is worse than linear, a bug to file.\n\n| series | metric | sizes | values | slope | verdict | chart |\n|---|---|---|---|---:|---|---|\n")
		rel, err := filepath.Rel(docDir, charts)
		if err != nil {
			rel = charts
		}
		for _, s := range rep.Series {
			verdict := "linear or better"
			if s.Slope > 1.1 {
				verdict = "**worse than linear**"
			}
			var sizes, values []string
			for i, x := range s.X {
				sizes = append(sizes, strconv.FormatFloat(x, 'f', -1, 64))
				values = append(values, human(s.Unit, s.Y[i]))
			}
			fmt.Fprintf(&b, "| %s (%s) | %s | %s | %s | %.2f | %s | ![%s](%s) |\n", s.Family, s.Param, s.Unit, strings.Join(sizes, ", "), strings.Join(values, ", "), s.Slope, verdict, s.Family, filepath.ToSlash(filepath.Join(rel, chartName(s))))
		}
	}
	for _, x := range rep.Extra {
		var m struct {
			Title    string `json:"title"`
			Markdown string `json:"markdown"`
		}
		if json.Unmarshal(x, &m) == nil && m.Markdown != "" {
			fmt.Fprintf(&b, "\n### %s\n\n%s\n", m.Title, strings.TrimSpace(m.Markdown))
		}
	}
	return b.String()
}

// otherMetrics lists a result's custom metrics — every unit but ns/op,
// B/op and allocs/op — in name order, or "–" when it has none.
func otherMetrics(m map[string]float64) string {
	var units []string
	for u := range m {
		if u != "ns/op" && u != "B/op" && u != "allocs/op" {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return "–"
	}
	sort.Strings(units)
	out := make([]string, len(units))
	for i, u := range units {
		out[i] = strconv.FormatFloat(m[u], 'g', 4, 64) + " " + u
	}
	return strings.Join(out, ", ")
}

func num(m map[string]float64, unit string) string {
	v, ok := m[unit]
	if !ok {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
