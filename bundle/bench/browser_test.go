package main

import (
	"strings"
	"testing"
)

const sampleBrowser = `pkg: github.com/storyloom/storyloom/bundle/bench
BenchmarkBrowserPlay-2   	       1	28974495414 ns/op	   1416672 B-before-first-scene	   1413242 B-body-before-first-scene	        16.00 files-before-first-scene	       872.9 ms-click-max	        32.90 ms-click-p50	       112.7 ms-click-p95	      4677 ms-first-scene	      4677 ms-first-scene-dom	        15.00 restarts
BenchmarkBrowserPlay-2   	       1	28974495414 ns/op	   1416672 B-before-first-scene	   1413242 B-body-before-first-scene	        16.00 files-before-first-scene	       872.9 ms-click-max	        22.90 ms-click-p50	       40.0 ms-click-p95	      900 ms-first-scene	      900 ms-first-scene-dom	        15.00 restarts
BenchmarkBrowserPlay-2   	       1	28974495414 ns/op	   1416672 B-before-first-scene	   1413242 B-body-before-first-scene	        16.00 files-before-first-scene	       872.9 ms-click-max	        12.90 ms-click-p50	       30.0 ms-click-p95	      800 ms-first-scene	      800 ms-first-scene-dom	        15.00 restarts
`

func TestBrowserSectionTakesMediansAndJudges(t *testing.T) {
	med, runs, err := medians(strings.NewReader(sampleBrowser))
	if err != nil {
		t.Fatal(err)
	}
	if runs["bench.BrowserPlay"] != 3 || med["bench.BrowserPlay"]["ms-click-p95"] != 40 || med["bench.BrowserPlay"]["ms-first-scene"] != 900 {
		t.Fatalf("medians = %v, runs %v", med, runs)
	}
	var pf peerFigures
	pf.Figures.Ink.RuntimeGzipBytes, pf.Figures.Ink.StoryGzipBytes = 31000, 7000
	md, _ := browserMarkdown(med, runs, pf, 600)
	for _, want := range []string{"| cold load to first playable scene | 900 ms | under 1,500 ms (issue 6) | met |", "| 40.0 ms | under 50 ms (issue 6) | met |", "Beside inkjs"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if md, _ := browserMarkdown(nil, nil, pf, 600); !strings.Contains(md, "No browser figures") {
		t.Errorf("no figures and no word of it:\n%s", md)
	}
	// The card table's figures ride along for the targets.
	med["browsertest.CardTablePaint"] = map[string]float64{"ms/update-p95": 14.7}
	if _, figs := browserMarkdown(med, runs, pf, 600); figs["cardTablePaint"].(map[string]float64)["ms/update-p95"] != 14.7 {
		t.Errorf("the card table's figures are not kept: %v", figs["cardTablePaint"])
	}
}

func TestTargetsJudgeAndSayWhatIsMissing(t *testing.T) {
	native := map[string]map[string]float64{
		"story.SubmitAction/gannet-rock":                   {"ns/op": 3000, "allocs/op": 4},
		"core.SubmitActionAtHistory/actions=10":            {"ns/op": 1000},
		"core.SubmitActionAtHistory/actions=10000":         {"ns/op": 1200},
		"session.StoreSubmitActionAtHistory/actions=10":    {"ns/op": 1000},
		"session.StoreSubmitActionAtHistory/actions=10000": {"ns/op": 9000000},
		"story.Tier3AtGraphSize/nodes=10000":               {"ns/op": 2e8},
		"nativehost.Rooms200x4WebSocket/burst":             {"p50-ms": 8, "p99-ms": 31.5, "conns": 800, "heap-B/room": 20480, "state-B/room": 3072, "cmds/s": 4000},
		"nativehost.Rooms200x4WebSocket/paced":             {"p50-ms": 1, "p99-ms": 26, "conns": 800, "heap-B/room": 20480, "state-B/room": 3072, "cmds/s": 500},
		"freeport.ApplyCommands":                           {"commands/s": 45000},
		"nativehost.FreeportHTTP":                          {"req/s": 3000, "p50-ms": 4, "p99-ms": 12},
		"nativehost.Lobby1000x2000WebSocket":               {"p50-ms": 3, "p99-ms": 12.5, "conns": 3000, "server-cpu-us/cmd": 900, "lobby-B": 600 << 10, "lobby-max-B": 12 << 10},
		"edge.Command/worker/rooms/clients=8":              {"p50-ms": 20, "p99-ms": 60, "cmds/s": 90},
		"rules.Command/commander/4seats/60perms":           {"ns/op": 250e3, "allocs/op": 900},
		"cards.Command/commander/4seats/60perms":           {"ns/op": 900e3, "record-B": 163285},
		"owp.SignedRead":                                   {"req/s": 4000, "cpu-µs/op": 125},
		"owp.SignedReadLoopback":                           {"req/s": 2500, "cpu-µs/op": 200},
		"owp.WritingRound":                                 {"rounds/s": 150, "cpu-µs/op": 2500},
	}
	wasm := map[string]map[string]float64{"story.SubmitAction/gannet-rock": {"ns/op": 12000}, "rules.Command/commander/4seats/60perms": {"ns/op": 1e6}}
	card := map[string]float64{"ms/update-p50": 9.5, "ms/update-p95": 17.25, "ms/paint-p95": 30, "ms/idle-paint-p50": 16.7, "B-js-br": 35300, "B-css-br": 3834}
	rows := checkTargets(native, wasm, nil, nil, nil, card)
	md := targetsMarkdown(rows)
	for _, want := range []string{
		"| 3 | SubmitAction on gannet-rock: at most 5 µs and a handful of allocations, native | 3.00 µs, 4 allocs | met |",
		"1.20× | met |",
		"core engine, test kind",
		"session store, autosave included) | 1.00 µs at 10, 9.00 ms at 10,000: 9000.00× | **not met** |",
		"missing: sim.EndWeek did not run | not measured |",
		"4.00× (12.00 µs against 3.00 µs)",
		"worse than linear: session.StoreSubmitActionAtHistory (1.32)",
		"| 3 | tier 3 of a generated 10,000-node story graph under 1 s | 200.00 ms (story.Tier3AtGraphSize/nodes=10000) | met |",
		"think time of up to 400 ms: p99 from command to every seat's view under 25 ms; connections held and memory per room reported | p99 26.0 ms (p50 1.0 ms); 800 connections; 20.0 KiB Go heap and 3.0 KiB state per room; 500 commands/s | **not met** |",
		"same millisecond (stress figure, reported) | p99 31.5 ms (p50 8.0 ms); 800 connections; 20.0 KiB Go heap and 3.0 KiB state per room; 4000 commands/s | reported (no target) |",
		"worker host (edge.Command): latency and throughput, reported beside each other | rooms/clients=8: p50 20.0 ms, p99 60.0 ms, 90 commands/s | reported (no target) |",
		"missing: edge.Command/native did not run",
		"| 8 | at least 20,000 commands per second through the reducer, native | 45000 commands/s | met |",
		"| 3000 requests/s, p99 12.0 ms (p50 4.0 ms) | reported (no target) |",
		"every seat's actions and encoded view, the state encoded): median at most 300 µs, native | 250.00 µs, 900 allocs | met |",
		"| 17 | the same command in WASM within 3× of native | 4.00× (1.00 ms against 250.00 µs) | **not met** |",
		"undo checkpoints included (the room's record) | 159.5 KiB | **not met** |",
		"missing: ai.PilotDuel did not run",
		"| 16 | 1,000 public rooms and 2,000 lobby connections over loopback WebSockets: p99 of a lobby command under 20 ms native | p99 12.5 ms (p50 3.0 ms); 3000 connections; 900 µs of server CPU a command | met |",
		"| 16 | the lobby's records well under D1's 2 MB value cap | largest 12.0 KiB, all 600.0 KiB | met |",
		"judged on 2 cores ÷ CPU per request) | 16000 requests/s on 2 idle cores (125.0 µs of CPU a request, load generator included); 4000 requests/s wall on this run's machine; with the Go client signing each request in the loop: 10000 requests/s on 2 idle cores (200.0 µs) | **not met** |",
		"at least 500 rounds/s (judged on 2 cores ÷ CPU per round) | 800 rounds/s on 2 idle cores (2.50 ms of CPU a round); 150 rounds/s wall on this run's machine | met |",
		"the wait for the frame clock left out) | p95 17.2 ms (p50 9.5 ms); with the frame clock's wait: p95 30.0 ms, that wait alone 16.7 ms | **not met** |",
		"| 18 | the card-game page's own JS and CSS under 60 KB brotli | 39.1 KB (JavaScript 35.3 KB, CSS 3.8 KB; brotli 11) | met |",
		"| 19 | the weather round (context policy, grants, sealed reads and submissions) the same way, reported | missing: owp.WeatherRound did not run | not measured |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("targets lack %q:\n%s", want, md)
		}
	}
}
