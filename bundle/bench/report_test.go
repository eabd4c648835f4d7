package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleBench = `goos: linux
pkg: github.com/storyloom/storyloom/engine/core
BenchmarkSubmitActionAtHistory/actions=10-2         	  600000	      1600 ns/op	     940 B/op	      13 allocs/op
BenchmarkSubmitActionAtHistory/actions=10-2         	  600000	      1800 ns/op	     940 B/op	      13 allocs/op
BenchmarkSubmitActionAtHistory/actions=10-2         	  600000	      1700 ns/op	     940 B/op	      13 allocs/op
BenchmarkSubmitActionAtHistory/actions=1000-2       	  600000	      1750 ns/op	     938 B/op	      14 allocs/op
BenchmarkSubmitActionAtHistory/actions=10000-2      	  600000	      1790 ns/op	     914 B/op	      14 allocs/op
BenchmarkValidate/nodes=1000-2      	  100	      1000000 ns/op	      4318 states
BenchmarkValidate/nodes=100000-2      	  1	      1000000000 ns/op
BenchmarkSerialize1000-2     	   45500	     36450 ns/op	   49652 B/op	      13 allocs/op
PASS
`

func TestParseBenchTakesMedians(t *testing.T) {
	res, err := parseBench(strings.NewReader(sampleBench))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 6 || res[0].Name != "core.SubmitActionAtHistory/actions=10" || res[0].Runs != 3 || res[0].Metrics["ns/op"] != 1700 {
		t.Fatalf("results = %+v", res[0])
	}
	ser := findSeries(res)
	if len(ser) != 2 {
		t.Fatalf("series = %+v", ser)
	}
	if s := ser[0]; s.Param != "actions" || len(s.X) != 3 || s.Slope > 0.1 {
		t.Fatalf("flat series = %+v", s)
	}
	if s := ser[1]; s.Slope < 1.49 || s.Slope > 1.51 {
		t.Fatalf("superlinear slope = %v", s.Slope)
	}
}

func TestBenchReportWritesDocChartsAndJSON(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "native.txt")
	os.WriteFile(in, []byte(sampleBench), 0o644)
	doc := filepath.Join(dir, "performance.md")
	os.WriteFile(doc, []byte("# Performance\n\nHand-written notes stay.\n"), 0o644)
	extra := filepath.Join(dir, "peer.json")
	os.WriteFile(extra, []byte(`{"title":"Story play against inkjs","markdown":"| a | b |\n|---|---|\n| 1 | 2 |"}`), 0o644)
	args := []string{"-native", in, "-wasm", in, "-extra", extra, "-json", filepath.Join(dir, "out", "results.json"),
		"-doc", doc, "-charts", filepath.Join(dir, "perf"), "-commands", "go test -bench . ./...; bench report"}
	for run := 0; run < 2; run++ { // a second run replaces the section, never appends
		var out, errs bytes.Buffer
		if code := runReport(args, &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
	}
	md, _ := os.ReadFile(doc)
	s := string(md)
	for _, want := range []string{"Hand-written notes stay.", "| core.Serialize1000 | 36.45 µs | 49652 | 13 | – |", "| core.Validate/nodes=1000 | 1.00 ms | – | – | 4318 states |", "1.00×",
		"**worse than linear**", "Story play against inkjs", "go test -bench . ./...", "perf/core-SubmitActionAtHistory.svg"} {
		if !strings.Contains(s, want) {
			t.Errorf("performance.md lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, beginGenerated) != 1 {
		t.Fatal("the generated section was duplicated")
	}
	svg, err := os.ReadFile(filepath.Join(dir, "perf", "core-Validate.svg"))
	if err != nil || !bytes.Contains(svg, []byte("<polyline")) {
		t.Fatalf("chart: %v", err)
	}
	var rep benchReport
	b, _ := os.ReadFile(filepath.Join(dir, "out", "results.json"))
	if err := json.Unmarshal(b, &rep); err != nil || rep.Cores < 1 || len(rep.Native) != 6 || len(rep.Extra) != 1 {
		t.Fatalf("results.json: %v %+v", err, rep)
	}
}

// TestCustomMetricMakesItsOwnSeries: a size metric gets a series and a
// chart of its own; other custom metrics (states) do not.
func TestCustomMetricMakesItsOwnSeries(t *testing.T) {
	const in = `pkg: github.com/storyloom/storyloom/engine/session
BenchmarkSaveGameAtHistory/actions=10-2   	 100	 4000 ns/op	 792.0 save-bytes	 3 states	 2672 B/op	 15 allocs/op
BenchmarkSaveGameAtHistory/actions=10000-2	 100	 4000000 ns/op	 792000 save-bytes	 9 states	 909841 B/op	 15 allocs/op
`
	res, err := parseBench(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	ser := findSeries(res)
	if len(ser) != 2 || ser[0].Unit != "ns/op" || ser[1].Unit != "save-bytes" {
		t.Fatalf("series = %+v", ser)
	}
	if s := ser[1]; s.Slope < 0.99 || s.Slope > 1.01 || chartName(s) != "session-SaveGameAtHistory-save-bytes.svg" {
		t.Fatalf("save-bytes series = %+v, chart %s", s, chartName(s))
	}
	if !bytes.Contains(svgChart(ser[1]), []byte("773.4 KiB")) {
		t.Error("the chart does not label bytes as bytes")
	}
}
