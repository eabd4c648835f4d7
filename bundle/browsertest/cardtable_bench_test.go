package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// fakeSocket stands in for the rooms page's WebSocket: it opens at once,
// drops what the page sends, and lets the benchmark hand the page frames
// as if they came off the wire (window.storyloomSocket.onmessage).
const fakeSocket = `(() => {
	window.WebSocket = class {
		static OPEN = 1;
		constructor(url) {
			this.url = url;
			this.readyState = 0;
			window.storyloomSocket = this;
			setTimeout(() => { this.readyState = 1; this.onopen?.({}); }, 0);
		}
		send() {}
		close() {}
	};
})();`

// paintLoop hands the page each frame (a JSON string) as a WebSocket
// message and times it from the message to the frame after the table is
// in the document: the animation frame, then a task queued from it, which
// runs once that frame is painted. Each message comes just after a frame
// was painted, so that wall time includes a wait for the next tick of the
// frame clock (60 Hz: 16.7 ms, less the message handler's own time), in
// which the page does nothing. The update time leaves that wait out: the
// message handler's time plus the frame's, from its animation frame
// callback to the painted frame. A null frame hands the page nothing,
// which times the frame clock alone.
const paintLoop = `(async (frames) => {
	let frameStart = 0;
	const painted = () => new Promise((r) => requestAnimationFrame(() => {
		frameStart = performance.now();
		const ch = new MessageChannel();
		ch.port1.onmessage = () => r();
		ch.port2.postMessage(0);
	}));
	const out = { paint: [], sync: [], update: [] };
	for (const data of frames) {
		await painted();
		const t0 = performance.now();
		if (data !== null) window.storyloomSocket.onmessage({ data });
		const sync = performance.now() - t0;
		await painted();
		const t1 = performance.now();
		out.paint.push(t1 - t0);
		out.sync.push(sync);
		out.update.push(sync + t1 - frameStart);
	}
	if (document.getElementById("card-table").hidden || document.querySelectorAll(".ct-perm").length !== 60) throw new Error("the table is not drawn");
	return out;
})(%s)`

// paintTimes are paintLoop's figures in milliseconds, one a frame.
type paintTimes struct {
	Paint  []float64 `json:"paint"`
	Sync   []float64 `json:"sync"`
	Update []float64 `json:"update"`
}

// paintViews builds n four-seat card-game views of 60 permanents (15 a
// seat), as the host would send seat p0 from the shipped catalog, each
// one decision on from the last as a game moves: the step, one permanent
// tapped or untapped, a life total, a new log line, new action ids.
func paintViews(tb testing.TB, n int) []string {
	tb.Helper()
	cat, _, err := cardgame.Load()
	if err != nil {
		tb.Fatal(err)
	}
	var lands, spells []rooms.CatalogCard
	for _, c := range cat.CatalogCards() {
		if slices.Contains(c.CardTypes, "land") {
			lands = append(lands, c)
		} else {
			spells = append(spells, c)
		}
	}
	face := func(c rooms.CatalogCard, id string) map[string]any {
		b, _ := json.Marshal(c)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		m["id"] = id
		return m
	}
	phases := []string{"upkeep", "draw", "precombat_main", "begin_combat", "declare_attackers", "declare_blockers", "combat_damage", "postcombat_main", "end"}
	seats := []string{"p0", "p1", "p2", "p3"}
	out := make([]string, n)
	for v := range n {
		var bf, hand, acts, log []map[string]any
		var zones [3][]map[string]any
		obj := 0
		next := func() int { obj++; return obj }
		for s, pid := range seats {
			for i := range 15 {
				id := fmt.Sprintf("perm_%d", next())
				var c rooms.CatalogCard
				if i < 6 {
					c = lands[(s+i)%len(lands)]
				} else {
					c = spells[(s*9+i)%len(spells)]
				}
				p := map[string]any{"id": id, "controller": pid, "owner": pid, "card": face(c, id), "tapped": (s*15+i)%4 == 0 != (s*15+i == v%60)}
				if i == 7 {
					p["counters"] = []map[string]any{{"kind": "+1/+1", "count": 1 + v%2}}
					p["granted_keywords"] = []string{"flying"}
				}
				if i == 8 && v%2 == 1 {
					p["damage"] = 1
				}
				if i == 9 && s == v%4 {
					p["summoning_sick"] = true
				}
				bf = append(bf, p)
				if s == 0 && i < 6 {
					acts = append(acts, map[string]any{"id": fmt.Sprintf("%d.mana.%s.G", v, id), "type": "activate_ability", "label": c.Name + ": add mana",
						"mana_ability": true, "subject": []string{id}, "token": fmt.Sprintf("t%016x", v*100+i)})
				}
			}
			for z := range zones {
				var cards []map[string]any
				for i := range 3 + z {
					cards = append(cards, face(spells[(s*5+z*3+i)%len(spells)], fmt.Sprintf("card_%d", next())))
				}
				zones[z] = append(zones[z], map[string]any{"player_id": pid, "cards": cards})
			}
		}
		for i := range 7 {
			id := fmt.Sprintf("card_%d", next())
			c := spells[(i*7)%len(spells)]
			hand = append(hand, face(c, id))
			acts = append(acts, map[string]any{"id": fmt.Sprintf("%d.cast.%s", v, id), "type": "cast_spell", "label": "Cast " + c.Name,
				"subject": []string{id}, "cost": map[string]any{"printed": c.ManaCost, "modified": c.ManaCost}, "token": fmt.Sprintf("t%016x", v*100+50+i),
				"prompts": []map[string]any{{"kind": "pay_mana", "slot": "pay0", "prompt": "Pay {G}", "pip": "{G}",
					"candidates": []map[string]any{{"id": "perm_1", "source": "perm_1", "taps": true}, {"id": "perm_2", "source": "perm_2", "taps": true}}}}})
		}
		acts = append(acts, map[string]any{"id": fmt.Sprintf("%d.pass", v), "type": "pass_priority", "label": "Pass", "token": "tpass"},
			map[string]any{"id": fmt.Sprintf("%d.concede", v), "type": "concede", "label": "Concede", "token": "tconcede"})
		for i := range 60 {
			log = append(log, map[string]any{"sequence": v + i + 1, "event": map[string]any{"type": "step_changed", "phase": phases[(v+i)%len(phases)], "turn": (v+i)/36 + 1, "active_player": seats[(v+i)/9%4]}})
		}
		var opps []map[string]any
		names := map[string]string{}
		var seatList []map[string]any
		for s, pid := range seats {
			names[pid] = []string{"Ada", "Pilot", "Random", "Pilot"}[s]
			seat := map[string]any{"seat": s, "player_id": pid}
			if s > 0 {
				seat["ai"] = []string{"", "pilot", "random", "pilot"}[s]
				opps = append(opps, map[string]any{"player_id": pid, "life": 30 - (v+s)/10, "hand_size": 5, "library_size": 25, "graveyard_size": 3, "ai": true})
			}
			seatList = append(seatList, seat)
		}
		view := map[string]any{
			"room_id": "r:bench", "you": "p0", "seat_order": seats, "seats": seatList, "player_names": names,
			"format": map[string]any{"id": "commander", "commander": true},
			"turn":   v/36 + 1, "phase": phases[v%len(phases)], "active_player": seats[v/9%4], "priority_player": "p0",
			"me":        map[string]any{"life": 30 - v/20, "library_size": 24, "maximum_hand_size": map[string]int{"cards": 7}},
			"opponents": opps, "my_hand": hand, "battlefield": bf, "mana_pool": []string{"G"},
			"stack": []map[string]any{
				{"id": "stack_900", "controller": "p1", "kind": "spell", "card": face(spells[3], "stack_900"), "targets": []map[string]any{{"kind": "permanent", "id": "perm_20"}}},
				{"id": "stack_901", "controller": "p0", "kind": "spell", "card": face(spells[5], "stack_901"), "targets": []map[string]any{{"kind": "spell", "id": "stack_900"}}},
			},
			"graveyards": zones[0], "exile": zones[1], "command": zones[2],
			"commander_tax":      []map[string]any{{"commander": "card_1", "casts": 1, "tax": 2}},
			"commander_damage":   []map[string]any{{"commander": "perm_20", "damaged": "p0", "amount": 4}},
			"commander_identity": []map[string]any{{"commander": "card_1", "name": "Brakka, Wildfire Chieftain", "color_identity": []string{"R", "G"}}},
			"valid_actions":      acts, "log": log, "own_turn_stops": []string{"precombat_main", "postcombat_main"},
			"undo": map[string]any{"available": 3, "limit": 16},
		}
		b, err := json.Marshal(view)
		if err != nil {
			tb.Fatal(err)
		}
		out[v] = string(b)
	}
	return out
}

// BenchmarkCardTablePaint measures the rooms page's card table: a
// four-seat view of 60 permanents (seven cards in hand, 22 actions, a
// stack of two, three zones a seat, 60 log lines) arriving on the
// WebSocket to the table painted, over 200 views that differ a little
// each (docs/performance.md, "The card table"). It also reports the
// page's own JavaScript and CSS brotli-compressed at level 11. Reported,
// never asserted.
//
//	go test -run '^$' -bench CardTablePaint ./bundle/browsertest
func BenchmarkCardTablePaint(b *testing.B) {
	needBrowser(b)
	views := paintViews(b, 200)
	list, _ := json.Marshal(views)
	br := launch(b)
	p := br.NewPage(b)
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fakeSocket})
		return err
	}), chromedp.EmulateViewport(1280, 900), chromedp.Navigate(shared.URL()+"rooms/"))
	ctx, cancel := context.WithTimeout(p.Ctx, time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.storyloomSocket?.readyState === 1 && window.storyloomSocket.onmessage != null`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		b.Fatal(err)
	}
	// The renderer's own time in script, style and layout, by the thread's
	// clock, so that a loaded machine's waits do not count.
	metrics := func() map[string]float64 {
		m := map[string]float64{}
		p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			r, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
			for _, x := range r.Metrics {
				m[x.Name] = x.Value
			}
			return err
		}))
		return m
	}
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks})
		return err
	}))
	m0 := metrics()
	var all paintTimes
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := chromedp.Run(p.Ctx, chromedp.Evaluate[paintTimes](fmt.Sprintf(paintLoop, list), chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		all.Paint = append(all.Paint, t.Paint...)
		all.Sync = append(all.Sync, t.Sync...)
		all.Update = append(all.Update, t.Update...)
	}
	b.StopTimer()
	m1 := metrics()
	per := func(name string) float64 { return (m1[name] - m0[name]) * 1000 / float64(len(all.Paint)) }
	b.ReportMetric(per("ScriptDuration"), "ms/view-script")
	b.ReportMetric(per("RecalcStyleDuration"), "ms/view-style")
	b.ReportMetric(per("LayoutDuration"), "ms/view-layout")
	b.ReportMetric(per("TaskDuration"), "ms/view-task")
	// The frame clock alone: the same loop handing the page nothing.
	idle, err := chromedp.Run(p.Ctx, chromedp.Evaluate[paintTimes](fmt.Sprintf(paintLoop, "Array(50).fill(null)"), chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []struct {
		name   string
		values []float64
	}{{"sync", all.Sync}, {"update", all.Update}, {"paint", all.Paint}, {"idle-paint", idle.Paint}} {
		sort.Float64s(m.values)
		b.ReportMetric(nearestRank(m.values, 50), "ms/"+m.name+"-p50")
		b.ReportMetric(nearestRank(m.values, 95), "ms/"+m.name+"-p95")
	}
	b.ReportMetric(float64(len(views[0])), "B/view")
	js, css := pageWeight(b, shared.Dir)
	b.ReportMetric(float64(js), "B-js-br")
	b.ReportMetric(float64(css), "B-css-br")
	b.ReportMetric(0, "ns/op")
}

// pageWeight returns the rooms page's own JavaScript (its bundled module)
// and CSS (every sheet it links) in the built site at dir, each file
// brotli-compressed at level 11.
func pageWeight(tb testing.TB, dir string) (js, css int) {
	tb.Helper()
	html, err := os.ReadFile(filepath.Join(dir, "rooms", "index.html"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, ref := range refs(string(html)) {
		if !strings.HasSuffix(ref, ".js") && !strings.HasSuffix(ref, ".css") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "rooms", filepath.FromSlash(ref)))
		if err != nil {
			tb.Fatal(err)
		}
		var buf bytes.Buffer
		w := brotli.NewWriterLevel(&buf, 11)
		_, _ = w.Write(data)
		_ = w.Close()
		if strings.HasSuffix(ref, ".js") {
			js += buf.Len()
		} else {
			css += buf.Len()
		}
	}
	return js, css
}

// refs lists the src and href values of an HTML document.
func refs(html string) []string {
	var out []string
	for _, attr := range []string{` src="`, ` href="`} {
		for rest := html; ; {
			i := strings.Index(rest, attr)
			if i < 0 {
				break
			}
			rest = rest[i+len(attr):]
			if j := strings.IndexByte(rest, '"'); j >= 0 {
				out = append(out, rest[:j])
			}
		}
	}
	return out
}

// nearestRank reads the p-th percentile of sorted values.
func nearestRank(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p/100*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
