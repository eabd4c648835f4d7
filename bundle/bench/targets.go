package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

// target is one row of the targets table: what an issue asks, what this
// run measured, and whether it is met (nil: not measured, or no verdict).
type target struct {
	Issue    string `json:"issue"`
	Target   string `json:"target"`
	Measured string `json:"measured"`
	Met      *bool  `json:"met"`
}

// runTargets is `bench targets`: it checks every figure the issues ask
// `make bench` for against its target and writes the table as a section
// of the report.
func runTargets(args []string, stdout, stderr io.Writer) int {
	fl := flags("targets", stderr)
	native := nativeFlag(fl)
	wasm := fl.String("wasm", "bench/out/wasm.txt", "the engine benchmarks as WASM under Node")
	peer := fl.String("peer", "bench/out/peer.json", "bundle/bench/peer.mjs's result")
	browser := fl.String("browser", "bench/out/browser.json", "`bench browser`'s result")
	out := fl.String("out", "bench/out/targets.json", "section to write")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	read := func(path string) map[string]map[string]float64 {
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		m, _, _ := medians(f)
		return m
	}
	var pf struct {
		Figures struct {
			Storyloom map[string]float64 `json:"storyloom"`
			Ink       map[string]any     `json:"ink"`
		} `json:"figures"`
	}
	if b, err := os.ReadFile(*peer); err == nil {
		_ = json.Unmarshal(b, &pf)
	}
	var bf struct {
		Figures struct {
			BrowserPlay    map[string]float64 `json:"browserPlay"`
			CardTablePaint map[string]float64 `json:"cardTablePaint"`
		} `json:"figures"`
	}
	if b, err := os.ReadFile(*browser); err == nil {
		_ = json.Unmarshal(b, &bf)
	}
	ink := map[string]float64{}
	for k, v := range pf.Figures.Ink {
		if f, ok := v.(float64); ok {
			ink[k] = f
		}
	}
	rows := checkTargets(read(*native), read(*wasm), pf.Figures.Storyloom, ink, bf.Figures.BrowserPlay, bf.Figures.CardTablePaint)
	md := targetsMarkdown(rows)
	if err := writeJSON(*out, struct {
		section
		Targets []target `json:"targets"`
	}{section{Title: "Targets (issues 3, 5, 6, 7, 8, 10, 14, 16, 17, 18, 19 and 21)", Markdown: md}, rows}); err != nil {
		fmt.Fprintln(stderr, "bench targets:", err)
		return 1
	}
	fmt.Fprintln(stdout, md)
	return 0
}

func yes(ok bool) *bool { return &ok }

// checkTargets builds the table from the medians of the native and WASM
// runs, bundle/bench/peer.mjs's figures (sl: Storyloom, ink: inkjs), the
// browser benchmark's (play) and the card table's (card:
// BenchmarkCardTablePaint).
func checkTargets(native, wasm map[string]map[string]float64, sl, ink, play, card map[string]float64) []target {
	var rows []target
	ns := func(name string) (float64, bool) {
		v, ok := native[name]["ns/op"]
		return v, ok
	}
	add := func(issue, tgt, measured string, met *bool) {
		rows = append(rows, target{issue, tgt, measured, met})
	}
	missing := func(issue, tgt, what string) { add(issue, tgt, "missing: "+what+" did not run", nil) }

	// Issue 3: the core and the story-graph kind.
	for _, c := range []string{"gannet-rock", "the-marrow-affair"} {
		name := "story.SubmitAction/" + c
		if v, ok := ns(name); ok {
			allocs := native[name]["allocs/op"]
			add("3", "SubmitAction on "+c+": at most 5 µs and a handful of allocations, native",
				fmt.Sprintf("%s, %.0f allocs", humanNs(v), allocs), yes(v <= 5000 && allocs <= 10))
		} else {
			missing("3", "SubmitAction on "+c+" ≤ 5 µs", name)
		}
	}
	// growth checks the 10,000th action of family against its 10th.
	growth := func(issue, family, tgt string, limit float64) {
		a, okA := ns(family + "/actions=10")
		z, okZ := ns(family + "/actions=10000")
		if okA && okZ {
			add(issue, tgt, fmt.Sprintf("%s at 10, %s at 10,000: %.2f×", humanNs(a), humanNs(z), z/a), yes(z/a <= limit))
		} else {
			missing(issue, tgt, family)
		}
	}
	for _, fam := range []struct{ name, what string }{
		{"core.SubmitActionAtHistory", "core engine, test kind"},
		{"story.StorySubmitActionAtHistory", "core engine, story-graph kind"},
		{"session.StoreSubmitActionAtHistory", "session store, autosave included"},
	} {
		growth("3", fam.name, "the 10,000th action within 1.5× the cost of the 10th ("+fam.what+")", 1.5)
	}
	for _, name := range []string{"core.Serialize1000", "core.Deserialize1000"} {
		if v, ok := ns(name); ok {
			add("3", strings.TrimPrefix(name, "core.")+" of a 1,000-action game under 1 ms", humanNs(v), yes(v < 1e6))
		} else {
			missing("3", name+" under 1 ms", name)
		}
	}
	// The 10,000-node point of the graph-size series is the same search of
	// the same generated graph as story.Tier3Generated10k, which `make
	// bench` therefore skips.
	tier3 := "story.Tier3AtGraphSize/nodes=10000"
	v, ok := ns(tier3)
	if !ok {
		tier3 = "story.Tier3Generated10k"
		v, ok = ns(tier3)
	}
	if ok {
		add("3", "tier 3 of a generated 10,000-node story graph under 1 s", humanNs(v)+" ("+tier3+")", yes(v < 1e9))
	} else {
		missing("3", "tier 3 of 10,000 nodes under 1 s", "story.Tier3AtGraphSize/nodes=10000")
	}

	// Issue 5: simulation and world-graph kinds.
	worst, worstName := 0.0, ""
	for name, m := range native {
		if strings.HasPrefix(name, "sim.EndWeek") && m["ns/op"] > worst {
			worst, worstName = m["ns/op"], name
		}
	}
	if worstName != "" {
		add("5", "end_week on the largest sample campaign at most 50 µs native", fmt.Sprintf("%s (slowest: %s)", humanNs(worst), worstName), yes(worst <= 50000))
	} else {
		missing("5", "end_week at most 50 µs", "sim.EndWeek")
	}
	if v, ok := ns("world.AdvanceTicks/ticks=1000"); ok {
		add("5", "advance_ticks of 1,000 ticks at most 20 ms native", humanNs(v), yes(v <= 20e6))
	} else {
		missing("5", "advance_ticks of 1,000 ticks at most 20 ms", "world.AdvanceTicks/ticks=1000")
	}
	if s, ok := slope(native, "world.AdvanceTicks", "ticks"); ok {
		add("5", "advance_ticks linear in ticks (slope ≤ 1.1)", fmt.Sprintf("slope %.2f", s), yes(s <= 1.1))
	}

	// Issue 6: the browser build.
	if v := sl["moduleGzipBytes"]; v > 0 {
		add("6", "the WASM module under 1.5 MB gzip", fmt.Sprintf("%s gzip -9 (%s raw)", size(v), size(sl["runtimeRawBytes"]-sl["wasmExecGzipBytes"])), yes(v < 1.5e6))
	} else {
		missing("6", "module under 1.5 MB gzip", "bundle/bench/peer.mjs")
	}
	if play != nil {
		add("6", "cold load to first playable scene under 1.5 s", fmt.Sprintf("%.0f ms", play["ms-first-scene"]), yes(play["ms-first-scene"] < 1500))
		add("6", "click to next scene rendered: p95 under 50 ms over 200 choices", fmt.Sprintf("p95 %.1f ms (p50 %.1f ms)", play["ms-click-p95"], play["ms-click-p50"]), yes(play["ms-click-p95"] < 50))
		if v := play["B-offline-file"]; v > 0 {
			add("6", "the offline single file under 6 MB", size(v), yes(v < 6e6))
		}
	} else {
		missing("6", "browser figures", "BenchmarkBrowserPlay")
	}

	// Issue 7: the native room server, and the edge worker beside it.
	// The target is judged on "paced", where each room moves after a think
	// time as players do; "burst", every room moving in the same
	// millisecond, is a stress figure: its p99 is the time to serve all
	// 200 commands on cores the 800 clients share (docs/performance.md).
	for _, mode := range []string{"paced", "burst"} {
		name := "nativehost.Rooms200x4WebSocket/" + mode
		tgt := "200 rooms of 4 seats over loopback WebSockets, each room moving after a think time of up to 400 ms: p99 from command to every seat's view under 25 ms; connections held and memory per room reported"
		var ok *bool
		if mode == "burst" {
			tgt = "the same 200 rooms all moving in the same millisecond (stress figure, reported)"
		}
		if m, found := native[name]; found && m["p99-ms"] > 0 {
			if mode == "paced" {
				ok = yes(m["p99-ms"] < 25)
			}
			add("7", tgt, fmt.Sprintf("p99 %.1f ms (p50 %.1f ms); %.0f connections; %s Go heap and %s state per room; %.0f commands/s",
				m["p99-ms"], m["p50-ms"], m["conns"], kib(m["heap-B/room"]), kib(m["state-B/room"]), m["cmds/s"]), ok)
		} else {
			missing("7", tgt, name)
		}
	}
	// Issue 14: the same rooms at the edge worker, beside the native host.
	const edgeRooms = "edge.Rooms200x4WebSocket/paced"
	if m, found := native[edgeRooms]; found && m["p99-ms"] > 0 {
		add("14", "200 rooms of 4 seats over WebSockets at the worker under wrangler dev, paced as above: reported beside the native host's figure",
			fmt.Sprintf("p99 %.1f ms (p50 %.1f ms), %.0f commands/s; the native host in the same run: p99 %.1f ms",
				m["p99-ms"], m["p50-ms"], m["cmds/s"], native["nativehost.Rooms200x4WebSocket/paced"]["p99-ms"]), nil)
	} else {
		missing("14", "200 rooms of 4 seats over WebSockets at the worker", edgeRooms)
	}
	// Issue 14: eight clients at the worker, over its WebSocket, each paced
	// under the per-connection limit; the issue's baseline was 15 commands
	// a second (the D1 design, over HTTP).
	const edgeWS = "edge.WebSocketCommand"
	if m, found := native[edgeWS]; found && m["p99-ms"] > 0 {
		add("14", "8 clients over WebSockets at the worker under wrangler dev, each paced under the per-connection limit: at least 150 commands/s (10× the issue's 15) and p99 under 100 ms, none refused",
			fmt.Sprintf("%.0f commands/s, p99 %.1f ms (p50 %.1f ms), %.0f refused", m["cmds/s"], m["p99-ms"], m["p50-ms"], m["refused"]),
			yes(m["cmds/s"] >= 150 && m["p99-ms"] < 100 && m["refused"] == 0))
	} else {
		missing("14", "8 clients over WebSockets at the worker", edgeWS)
	}
	for _, host := range []string{"native", "worker"} {
		tgt := "one committed command over HTTP, " + host + " host (edge.Command): latency and throughput, reported beside each other"
		var parts []string
		for name, m := range native {
			if rest, ok := strings.CutPrefix(name, "edge.Command/"+host+"/"); ok && m["p99-ms"] > 0 {
				parts = append(parts, fmt.Sprintf("%s: p50 %.1f ms, p99 %.1f ms, %.0f commands/s", rest, m["p50-ms"], m["p99-ms"], m["cmds/s"]))
			}
		}
		sort.Strings(parts)
		if len(parts) > 0 {
			add("7", tgt, strings.Join(parts, "; "), nil)
		} else {
			missing("7", tgt, "edge.Command/"+host)
		}
	}

	// Issue 16: the lobby at scale.
	const lobby = "nativehost.Lobby1000x2000WebSocket"
	if m, ok := native[lobby]; ok && m["p99-ms"] > 0 {
		add("16", "1,000 public rooms and 2,000 lobby connections over loopback WebSockets: p99 of a lobby command under 20 ms native",
			fmt.Sprintf("p99 %.1f ms (p50 %.1f ms); %.0f connections; %.0f µs of server CPU a command", m["p99-ms"], m["p50-ms"], m["conns"], m["server-cpu-us/cmd"]), yes(m["p99-ms"] < 20))
		add("16", "the lobby's records well under D1's 2 MB value cap", fmt.Sprintf("largest %s, all %s", kib(m["lobby-max-B"]), kib(m["lobby-B"])), yes(m["lobby-max-B"] < 512<<10))
	} else {
		missing("16", "1,000 public rooms and 2,000 lobby connections: p99 of a lobby command under 20 ms", lobby)
	}

	// Issue 8: Freeport.
	if v := native["freeport.ApplyCommands"]["commands/s"]; v > 0 {
		add("8", "at least 20,000 commands per second through the reducer, native", fmt.Sprintf("%.0f commands/s", v), yes(v >= 20000))
	} else {
		missing("8", "at least 20,000 commands per second through the reducer", "freeport.ApplyCommands")
	}
	if m, ok := native["nativehost.FreeportHTTP"]; ok && m["req/s"] > 0 {
		add("8", "the HTTP endpoint with 50 concurrent clients on loopback: throughput and p99, reported", fmt.Sprintf("%.0f requests/s, p99 %.1f ms (p50 %.1f ms)", m["req/s"], m["p99-ms"], m["p50-ms"]), nil)
	} else {
		missing("8", "the HTTP endpoint's throughput and p99 with 50 clients", "nativehost.FreeportHTTP")
	}

	// Issue 10: against inkjs, WASM against native, first load, growth.
	if sl["choicesPerSecond"] > 0 && ink["choicesPerSecond"] > 0 {
		r := sl["choicesPerSecond"] / ink["choicesPerSecond"]
		add("10", "story play in WASM: more choices per second than inkjs", fmt.Sprintf("%.0f against %.0f choices/s: %.2f×", sl["choicesPerSecond"], ink["choicesPerSecond"], r), yes(r > 1))
		after := fmt.Sprintf("%.0f", sl["choices"])
		add("10", "state save after "+after+" choices at least as fast as inkjs", fmt.Sprintf("%s against %s: %.2f×", ms(sl["saveMs"]), ms(ink["saveMs"]), sl["saveMs"]/ink["saveMs"]), yes(sl["saveMs"] <= ink["saveMs"]))
		// Judged from the saved text, as LoadJson starts: a save the store
		// never saw (importSave + loadGame). The load of a save the store
		// just wrote and remembers is shown beside it.
		add("10", "state restore after "+after+" choices at least as fast as inkjs", fmt.Sprintf("%s against %s: %.2f× (from the saved text; a save the store remembers: %s)", ms(sl["importMs"]), ms(ink["restoreMs"]), sl["importMs"]/ink["restoreMs"], ms(sl["restoreMs"])), yes(sl["importMs"] <= ink["restoreMs"]))
	} else {
		missing("10", "story play against inkjs", "bundle/bench/peer.mjs")
	}
	if play != nil {
		add("10", "everything downloaded before the first scene under 1.5 MB compressed", size(play["B-before-first-scene"])+" (headers included)", yes(play["B-before-first-scene"] < 1.5e6))
	}
	const engineBench = "story.SubmitAction/gannet-rock"
	if w, ok := wasm[engineBench]["ns/op"]; ok {
		n, _ := ns(engineBench)
		var ratios []float64
		worstR, worstN := 0.0, ""
		for name, m := range wasm {
			if nv, ok := ns(name); ok && nv > 0 && m["ns/op"] > 0 {
				r := m["ns/op"] / nv
				ratios = append(ratios, r)
				if r > worstR {
					worstR, worstN = r, name
				}
			}
		}
		sort.Float64s(ratios)
		add("10", "WASM within 3× of native on the engine benchmark ("+engineBench+")",
			fmt.Sprintf("%.2f× (%s against %s); over all %d engine benchmarks: median %.2f×, worst %.2f× (%s)", w/n, humanNs(w), humanNs(n), len(ratios), ratios[len(ratios)/2], worstR, worstN), yes(w/n <= 3))
	} else {
		missing("10", "WASM within 3× of native", "the WASM run of "+engineBench)
	}
	// Issue 17: the card game.
	const cardCommand = "rules.Command/commander/4seats/60perms"
	if v, ok := ns(cardCommand); ok {
		add("17", "one command in a four-seat commander midgame with 60 permanents (apply and settle, every seat's actions and encoded view, the state encoded): median at most 300 µs, native",
			fmt.Sprintf("%s, %.0f allocs", humanNs(v), native[cardCommand]["allocs/op"]), yes(v <= 300e3))
		if w, ok := wasm[cardCommand]["ns/op"]; ok {
			add("17", "the same command in WASM within 3× of native", fmt.Sprintf("%.2f× (%s against %s)", w/v, humanNs(w), humanNs(v)), yes(w/v <= 3))
		} else {
			missing("17", "the card command in WASM within 3× of native", "the WASM run of "+cardCommand)
		}
	} else {
		missing("17", "one card game command in a commander midgame ≤ 300 µs", cardCommand)
	}
	if m, ok := native["cards.Command/commander/4seats/60perms"]; ok {
		add("17", "the same command through the room machine with four human seats (choose_action to every frame), reported", humanNs(m["ns/op"]), nil)
		add("17", "canonical state of that midgame under 64 KB, undo checkpoints included (the room's record)", fmt.Sprintf("%.1f KiB", m["record-B"]/1024), yes(m["record-B"] < 64<<10))
	} else {
		missing("17", "the card game's room record under 64 KB", "cards.Command")
	}
	if v, ok := ns("ai.PilotDuel"); ok {
		add("17", "a whole AI-against-AI starter duel at most 100 ms, native", fmt.Sprintf("%s (%.0f inputs)", humanNs(v), native["ai.PilotDuel"]["inputs/game"]), yes(v <= 100e6))
	} else {
		missing("17", "a whole AI duel ≤ 100 ms", "ai.PilotDuel")
	}
	// Issue 18: the card table in the browser. The p95 is judged on
	// ms/update-p95: message to painted frame without the wait for the
	// next tick of the 60 Hz frame clock, which alone is 16.7 ms
	// (docs/performance.md, "The card table").
	const paintTgt = "from a view arriving to the table painted: p95 at most 16 ms, a 4-seat board of 60 permanents in headless Chromium (judged on the handler's and the frame's own time, the wait for the frame clock left out)"
	const weightTgt = "the card-game page's own JS and CSS under 60 KB brotli"
	if card["ms/update-p95"] > 0 {
		add("18", paintTgt, fmt.Sprintf("p95 %.1f ms (p50 %.1f ms); with the frame clock's wait: p95 %.1f ms, that wait alone %.1f ms",
			card["ms/update-p95"], card["ms/update-p50"], card["ms/paint-p95"], card["ms/idle-paint-p50"]), yes(card["ms/update-p95"] <= 16))
	} else {
		missing("18", paintTgt, "browsertest.CardTablePaint")
	}
	if js, css := card["B-js-br"], card["B-css-br"]; js > 0 && css > 0 {
		add("18", weightTgt, fmt.Sprintf("%.1f KB (JavaScript %.1f KB, CSS %.1f KB; brotli 11)", (js+css)/1e3, js/1e3, css/1e3), yes(js+css < 60e3))
	} else {
		missing("18", weightTgt, "browsertest.CardTablePaint")
	}
	var worse []string
	for _, fam := range families(native) {
		if s, ok := slope(native, fam[0], fam[1]); ok && s > 1.1 {
			worse = append(worse, fmt.Sprintf("%s (%.2f)", fam[0], s))
		}
	}
	add("10", "every growth series linear or better (time slope ≤ 1.1)", fmt.Sprintf("%d series; worse than linear: %s", len(families(native)), orNone(worse)), yes(len(worse) == 0))

	owpTargets(native, add, missing)

	// Issue 21: long games stay fast. Save and restore against inkjs are
	// issue 10's rows above, with the same thresholds.
	if sl["choicesPerSecond"] > 0 && ink["choicesPerSecond"] > 0 {
		r := sl["choicesPerSecond"] / ink["choicesPerSecond"]
		add("21", "story play through the bridge in WASM, games of "+fmt.Sprintf("%.0f", sl["gameChoices"])+": at least 1.5× inkjs' choices per second", fmt.Sprintf("%.0f against %.0f choices/s: %.2f×", sl["choicesPerSecond"], ink["choicesPerSecond"], r), yes(r >= 1.5))
	}
	if sl["longChoicesPerSecond"] > 0 && ink["longChoicesPerSecond"] > 0 {
		r := sl["longChoicesPerSecond"] / ink["longChoicesPerSecond"]
		add("21", fmt.Sprintf("choices per second at a history of %.0f: at least inkjs'", sl["choices"]), fmt.Sprintf("%.0f against %.0f choices/s: %.2f×", sl["longChoicesPerSecond"], ink["longChoicesPerSecond"], r), yes(r >= 1))
	} else {
		missing("21", "choices per second at a long history against inkjs", "bundle/bench/peer.mjs")
	}
	for _, fam := range []struct{ name, what string }{
		{"session.StoreSubmitActionAtHistory", "in memory"},
		{"sessiondb.StoreSubmitActionAtHistorySQLite", "on SQLite"},
	} {
		growth("21", fam.name, "session store, autosave included, "+fam.what+": the 10,000th action at most 1.2× the 10th", 1.2)
	}
	return rows
}

// owpTargets adds issue 19's rows: the OWP market's signed reads and
// rounds. They are judged on CPU time per operation (client or load
// generator and market together, from getrusage) as the rate two otherwise
// idle cores would sustain, because the wall rate of a machine shared
// with other work says more about the other work; the wall rate is shown
// beside it.
func owpTargets(native map[string]map[string]float64, add func(issue, tgt, measured string, met *bool), missing func(issue, tgt, what string)) {
	// rate is name's figure in unit per second: on two idle cores from
	// its CPU time per operation, and on the wall clock of this run.
	rate := func(name, unit string) (cores, cpu, wall float64, ok bool) {
		m, found := native[name]
		if !found || m["cpu-µs/op"] <= 0 {
			return 0, 0, 0, false
		}
		return 2e6 / m["cpu-µs/op"], m["cpu-µs/op"], m[unit], true
	}
	const read = "owp.SignedRead"
	tgt := "signed-request verification plus a read: at least 20,000 requests/s on loopback (GET /v1/events signed by the Go client before the timer, sent by a minimal HTTP/1.1 load generator over keep-alive connections; judged on 2 cores ÷ CPU per request)"
	if cores, cpu, wall, ok := rate(read, "req/s"); ok {
		measured := fmt.Sprintf("%.0f requests/s on 2 idle cores (%.1f µs of CPU a request, load generator included); %.0f requests/s wall on this run's machine", cores, cpu, wall)
		if c, cpuC, _, ok := rate("owp.SignedReadLoopback", "req/s"); ok {
			measured += fmt.Sprintf("; with the Go client signing each request in the loop: %.0f requests/s on 2 idle cores (%.1f µs)", c, cpuC)
		}
		add("19", tgt, measured, yes(cores >= 20000))
	} else {
		missing("19", tgt, read)
	}
	for _, r := range []struct{ name, tgt string }{
		{"owp.WritingRound", "a full writing round (register, subscribe, match, two submissions, selection) through the Go client on loopback: at least 500 rounds/s (judged on 2 cores ÷ CPU per round)"},
		{"owp.WeatherRound", "the weather round (context policy, grants, sealed reads and submissions) the same way, reported"},
	} {
		if cores, cpu, wall, ok := rate(r.name, "rounds/s"); ok {
			var met *bool
			if r.name == "owp.WritingRound" {
				met = yes(cores >= 500)
			}
			add("19", r.tgt, fmt.Sprintf("%.0f rounds/s on 2 idle cores (%s of CPU a round); %.0f rounds/s wall on this run's machine", cores, humanNs(cpu*1e3), wall), met)
		} else {
			missing("19", r.tgt, r.name)
		}
	}
}

// families returns every family/param of sub-benchmarks named
// Family/param=N that has at least two sizes.
func families(m map[string]map[string]float64) [][2]string {
	count := map[[2]string]int{}
	for name := range m {
		if sm := seriesName.FindStringSubmatch(name); sm != nil {
			count[[2]string{sm[1], sm[2]}]++
		}
	}
	var out [][2]string
	for k, n := range count {
		if n >= 2 {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// slope is d log(ns/op) / d log(size) from the smallest to the largest
// size of a family, as `bench report` computes it.
func slope(m map[string]map[string]float64, family, param string) (float64, bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	var ylo, yhi float64
	for name, v := range m {
		sm := seriesName.FindStringSubmatch(name)
		if sm == nil || sm[1] != family || sm[2] != param {
			continue
		}
		var x float64
		fmt.Sscan(sm[3], &x)
		if x < lo {
			lo, ylo = x, v["ns/op"]
		}
		if x > hi {
			hi, yhi = x, v["ns/op"]
		}
	}
	if !(hi > lo) || lo <= 0 || ylo <= 0 || yhi <= 0 {
		return 0, false
	}
	return math.Log(yhi/ylo) / math.Log(hi/lo), true
}

func targetsMarkdown(rows []target) string {
	var b strings.Builder
	met, notMet, missingN := 0, 0, 0
	b.WriteString("| issue | target | this run | verdict |\n|---|---|---|---|\n")
	for _, r := range rows {
		v := "not measured"
		switch {
		case r.Met == nil && !strings.HasPrefix(r.Measured, "missing: "):
			v = "reported (no target)"
		case r.Met == nil:
			missingN++
		case *r.Met:
			v = "met"
			met++
		default:
			v = "**not met**"
			notMet++
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.Issue, r.Target, r.Measured, v)
	}
	fmt.Fprintf(&b, "\n%d met, %d not met, %d not measured. Times are medians on a shared 2-core machine: read the load note under \"This run\" before trusting an absolute figure; ratios measured side by side in one process (WASM/native, Storyloom/inkjs) are steadier than absolute times.\n", met, notMet, missingN)
	return b.String()
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func ms(v float64) string { return humanNs(v * 1e6) }

func size(v float64) string { return fmt.Sprintf("%.2f MB", v/1e6) }
