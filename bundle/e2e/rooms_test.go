package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// roomServer serves the built site with the native room server mounted
// beside it, as `bundle serve` does, on 127.0.0.1, and drives the room
// machine's clock. It returns the site's root URL and a function that
// cuts every open WebSocket, as a network failure would.
func roomServer(t *testing.T, withWebSocket bool) (string, func()) {
	t.Helper()
	reg, err := rooms.NewRegistry(cheat.Game{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h, err := hosting.NewRooms(ctx, hosting.RoomsConfig{
		Store: &hosting.MemStore{}, Registry: reg,
		Clock: func() int64 { return time.Now().UnixMilli() },
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	api := h.Handler()
	var (
		smu     sync.Mutex
		sockets []context.CancelFunc
	)
	ws := h.WebSocketHandler(hosting.WSOptions{})
	cut := func() {
		smu.Lock()
		defer smu.Unlock()
		for _, c := range sockets {
			c()
		}
		sockets = nil
	}
	// The room API's exact routes, not "/rooms/": /rooms/ itself is the
	// lobby page of the built site.
	mounts := []site.Mount{
		{Pattern: "POST /rooms/command", Handler: api},
		{Pattern: "GET /rooms/view", Handler: api},
	}
	if withWebSocket {
		mounts = append(mounts, site.Mount{Pattern: "GET /rooms/ws", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithCancel(r.Context())
			smu.Lock()
			sockets = append(sockets, cancel)
			smu.Unlock()
			ws.ServeHTTP(w, r.WithContext(ctx))
		})})
	}
	handler := site.Handler(os.DirFS(suite.dist), mounts...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() { _ = srv.Serve(ln) }()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				_ = h.Tick(ctx)
			}
		}
	}()
	t.Cleanup(func() {
		cancel() // ends the tick loop and every socket's request context
		_ = srv.Close()
		wg.Wait()
	})
	return "http://" + ln.Addr().String() + "/", cut
}

// roomTab opens a tab in a browser context of its own (its own cookies and
// storage, so its own room session) and fails the test at cleanup on any
// console error, uncaught exception or error log entry.
func roomTab(t *testing.T, label string, allow ...string) *page {
	t.Helper()
	need(t)
	p := &page{t: t}
	ctx, cancel := chromedp.NewContext(suite.browser, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					if a.Description != "" {
						parts = append(parts, a.Description)
					} else {
						parts = append(parts, strings.Trim(string(a.Value), `"`))
					}
				}
				msg = "console.error: " + strings.Join(parts, " ")
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg = "exception: " + d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				msg = "log: " + ev.Entry.Text + " " + ev.Entry.URL
			}
		}
		for _, a := range allow {
			if strings.Contains(msg, a) {
				return
			}
		}
		if msg != "" {
			p.mu.Lock()
			p.errs = append(p.errs, label+": "+msg)
			p.mu.Unlock()
		}
	}))
	p.ctx = ctx
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	})); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errs {
			t.Errorf("browser reported an error: %s", e)
		}
	})
	return p
}

// tryClick clicks the element sel names when it turns up visible and
// enabled within a short wait, and reports whether it did.
func tryClick(p *page, sel string) error {
	ctx, cancel := context.WithTimeout(p.ctx, 4*time.Second)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel+":not(:disabled)"), chromedp.NodeVisible))
}

// type into an input: clear it, then send the keys.
func typeInto(p *page, sel, text string) {
	p.t.Helper()
	eval[bool](p, fmt.Sprintf(`(document.querySelector(%q).value = "", true)`, sel))
	p.do(chromedp.SendKeys(chromedp.CSS(sel), text))
}

// cheatView is the part of a seat's GameView the test plays from.
type cheatView struct {
	You          string `json:"you"`
	Phase        string `json:"phase"`
	Rank         string `json:"rank"`
	Play         int    `json:"play"`
	ValidActions []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"valid_actions"`
	MyHand []struct {
		ID   string `json:"id"`
		Rank string `json:"rank"`
	} `json:"my_hand"`
	Result *rooms.Result `json:"result"`
	Undo   *struct {
		Available int `json:"available"`
	} `json:"undo"`
}

func gameOf(p *page) (cheatView, bool) {
	raw := eval[string](p, `JSON.stringify(window.storyloomRooms?.game ?? null)`)
	var v cheatView
	if raw == "null" || json.Unmarshal([]byte(raw), &v) != nil {
		return v, false
	}
	return v, true
}

// seq is the room screen's render counter.
func seq(p *page) int {
	return eval[int](p, `Number(document.getElementById("table")?.dataset.seq || 0)`)
}

// move makes one move for a seated tab when it has one: the truth when the
// hand holds the rank (every such card), else one card; never a call.
// keyboard plays with the keyboard instead of the mouse. It reports
// whether it acted.
func move(p *page, keyboard bool) bool {
	v, ok := gameOf(p)
	if !ok || v.Result != nil || len(v.ValidActions) == 0 {
		return false
	}
	before := seq(p)
	var acted error = errors.New("no action")
	for _, a := range v.ValidActions {
		switch a.Type {
		case "play_cards":
			var pick []string
			for _, c := range v.MyHand {
				if c.Rank == v.Rank && len(pick) < 4 {
					pick = append(pick, c.ID)
				}
			}
			if len(pick) == 0 && len(v.MyHand) > 0 {
				pick = []string{v.MyHand[0].ID}
			}
			acted = nil
			for _, id := range pick {
				sel := fmt.Sprintf(`button[data-card=%q][aria-pressed="false"]`, id)
				if eval[bool](p, fmt.Sprintf(`document.querySelector('button[data-card=%q][aria-pressed="true"]') !== null`, id)) {
					continue // picked already
				}
				if keyboard {
					acted = keyPress(p, sel, " ")
				} else {
					acted = tryClick(p, sel)
				}
				if acted != nil {
					break
				}
			}
			if acted == nil {
				if keyboard {
					acted = keyPress(p, `button[data-action-type="play_cards"]`, "\r")
				} else {
					acted = tryClick(p, `button[data-action-type="play_cards"]`)
				}
			}
		case "pass":
			acted = tryClick(p, `button[data-action-type="pass"]`)
		default:
			continue
		}
		break
	}
	if acted != nil {
		return false // the view moved on under us; look again
	}
	waitFor(p, fmt.Sprintf(`Number(document.getElementById("table")?.dataset.seq || 0) > %d`, before), 20*time.Second)
	return true
}

// keyPress focuses sel and presses key on it, as a keyboard player would
// after tabbing to it.
func keyPress(p *page, sel, key string) error {
	ctx, cancel := context.WithTimeout(p.ctx, 4*time.Second)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel+":not(:disabled)"), chromedp.NodeVisible), chromedp.KeyEvent(key))
}

// waitFor waits until the expression is truthy, failing after d. It asks
// the page again and again rather than polling inside it, so it also
// works while the page's own timers are throttled.
func waitFor(p *page, js string, d time.Duration) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, d)
	defer cancel()
	var err error
	for {
		var ok bool
		ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`Boolean(`+js+`)`))
		if err == nil && ok {
			return
		}
		if ctx.Err() != nil {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	p.shot("rooms-failed")
	p.t.Fatalf("waiting for %s: %v (page: %.400s)", js, err, eval[string](p, `document.querySelector("main")?.innerText ?? ""`))
}

// openRooms navigates to path under the page's base and waits for the
// first view.
func openRooms(p *page, path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base + path))
	waitFor(p, `document.documentElement.dataset.storyloom === "ready"`, 30*time.Second)
}

// TestRoomsCheat plays Cheat through the lobby and room pages: two players
// in browser contexts of their own meet in a room with an AI seat, a
// third context watches (over the HTTP fallback), one player reloads
// mid-game and gets its seat back, and the game is played to its end by
// clicking the valid actions.
func TestRoomsCheat(t *testing.T) {
	need(t)
	base, cut := roomServer(t, true)

	// Ada creates a room.
	ada := roomTab(t, "ada")
	ada.base = base
	openRooms(ada, "rooms/")
	waitFor(ada, `document.getElementById("conn").dataset.state === "open" && document.getElementById("conn").dataset.transport === "ws"`, 20*time.Second)
	typeInto(ada, "#name", "Ada")
	ada.click(`[data-key="name-save"]`)
	waitFor(ada, `document.getElementById("name-now").textContent.includes("Ada")`, 10*time.Second)
	waitFor(ada, `document.getElementById("c-seats") !== null`, 10*time.Second)
	ada.shot("rooms-lobby")
	ada.axe("rooms lobby")

	// A refused room: nine seats is out of range, and the reason is shown.
	ada.do(chromedp.SetValue(chromedp.CSS("#c-seats"), "9"), chromedp.RemoveAttribute(chromedp.CSS("#c-seats"), "max"))
	ada.click(`[data-key="c-create"]`)
	waitFor(ada, `!document.getElementById("notice").hidden && document.getElementById("notice").dataset.code !== ""`, 10*time.Second)
	if code := ada.text("#notice code"); !strings.Contains(code, "seat") {
		t.Errorf("the refusal shows %q, want a seat-count code", code)
	}
	ada.click(`#notice button`)

	ada.do(chromedp.SetValue(chromedp.CSS("#c-seats"), "3"))
	typeInto(ada, "#c-name", "Friday <b>cards</b>")
	ada.click("#c-undo")
	ada.do(chromedp.SetValue(chromedp.CSS("#c-clock"), "60"))
	ada.click(`[data-key="c-create"]`)
	waitFor(ada, `!document.getElementById("room").hidden`, 10*time.Second)
	if got := ada.text("#room-h"); got != "Friday <b>cards</b>" {
		t.Errorf("room title %q: names must be shown as text", got)
	}
	roomID := eval[string](ada, `window.storyloomRooms.lobby.room.room_id`)
	if h := eval[string](ada, `location.hash`); !strings.Contains(h, "room=") {
		t.Errorf("the lobby did not put the room in the address: %q", h)
	}

	// An AI seat (the catalog's first kind, Fox) in the first open seat.
	waitFor(ada, `document.getElementById("ai-kind") !== null`, 10*time.Second)
	ada.click(`[data-key="ai-add"]`)
	waitFor(ada, `document.querySelector('#room li.seat.ai') !== null`, 10*time.Second)

	// Bo follows the link.
	bo := roomTab(t, "bo")
	bo.base = base
	openRooms(bo, "rooms/#room="+roomID)
	typeInto(bo, "#name", "Bo")
	bo.click(`[data-key="name-save"]`)
	waitFor(bo, `document.getElementById("name-now").textContent.includes("Bo")`, 10*time.Second)
	waitFor(bo, `!document.getElementById("invite").hidden`, 10*time.Second)
	bo.click(`[data-key="invite-join"]`)
	waitFor(bo, `!document.getElementById("room").hidden`, 10*time.Second)

	// Cy opens the link over HTTP only, and may not watch a gathering room.
	cy := roomTab(t, "cy")
	cy.base = base
	openRooms(cy, "rooms/?transport=http&room="+roomID)
	waitFor(cy, `document.getElementById("conn").dataset.state === "open" && document.getElementById("conn").dataset.transport === "http"`, 20*time.Second)
	waitFor(cy, `!document.getElementById("invite").hidden`, 10*time.Second)
	cy.click(`[data-key="invite-watch"]`)
	waitFor(cy, `document.getElementById("notice").dataset.code === "not_running"`, 10*time.Second)
	cy.shot("rooms-refused")

	// Ready: the game starts.
	ada.shot("rooms-room")
	ada.axe("rooms room lobby")
	bo.click("#ready")
	waitFor(bo, `document.getElementById("ready").getAttribute("aria-pressed") === "true"`, 10*time.Second)
	ada.click("#ready")
	for _, p := range []*page{ada, bo} {
		waitFor(p, `document.querySelector('main[data-screen="table"]') !== null`, 20*time.Second)
	}

	// Cy watches now.
	waitFor(cy, fmt.Sprintf(`document.querySelector('li.dir-room[data-room=%q] button') !== null`, roomID), 30*time.Second)
	cy.click(`#notice button`)
	cy.click(`[data-key="invite-watch"]`)
	waitFor(cy, `document.getElementById("table").dataset.mode === "spectator"`, 20*time.Second)
	if eval[bool](cy, `"my_hand" in window.storyloomRooms.game || "valid_actions" in window.storyloomRooms.game || "you" in window.storyloomRooms.game`) {
		t.Error("the spectator's view carries receiver fields")
	}
	if n := cy.count("#hand button.card-face, #actions button.act"); n != 0 {
		t.Errorf("the spectator sees %d cards or actions", n)
	}

	boSeat := eval[string](bo, `window.storyloomRooms.game.you`)
	sawClock, undid, reloaded, keyboard, dropped := false, false, false, false, false
	shotTable := false
	moves := 0
	deadline := time.Now().Add(10 * time.Minute)
	for {
		va, _ := gameOf(ada)
		vb, _ := gameOf(bo)
		if va.Result != nil && vb.Result != nil {
			break
		}
		if time.Now().After(deadline) {
			ada.shot("rooms-timeout")
			t.Fatalf("the game did not end in time after %d moves", moves)
		}
		acted := false
		for _, p := range []*page{ada, bo} {
			if !sawClock && eval[bool](p, `!document.getElementById("clock").hidden && /\d+ s left/.test(document.getElementById("clock").textContent)`) {
				sawClock = true
			}
			if !shotTable && p == ada && len(va.ValidActions) > 0 {
				shotTable = true
				ada.shot("rooms-table")
				ada.axe("rooms table")
				cy.shot("rooms-spectator")
				cy.axe("rooms spectator")
			}
			if move(p, p == ada && moves >= 2 && !keyboard) {
				if p == ada && moves >= 2 {
					keyboard = true
				}
				acted = true
				moves++
			}
		}
		// Undo once, when Ada may.
		if !undid && moves >= 4 {
			if v, _ := gameOf(ada); v.Undo != nil && v.Undo.Available > 0 && v.Result == nil {
				before := seq(ada)
				if tryClick(ada, "#undo") == nil {
					undid = true
					waitFor(ada, fmt.Sprintf(`Number(document.getElementById("table").dataset.seq) > %d`, before), 20*time.Second)
					waitFor(ada, `[...document.querySelectorAll("#log li")].some((li) => li.textContent.includes("took the last move back"))`, 10*time.Second)
				}
			}
		}
		// Bo reloads mid-game and is back in the seat.
		if !reloaded && moves >= 8 {
			reloaded = true
			bo.do(chromedp.Reload())
			waitFor(bo, `document.documentElement.dataset.storyloom === "ready"`, 30*time.Second)
			waitFor(bo, `document.querySelector('main[data-screen="table"]') !== null`, 20*time.Second)
			if got := eval[string](bo, `window.storyloomRooms.game.you`); got != boSeat {
				t.Fatalf("after a reload Bo is %q, want the seat %q", got, boSeat)
			}
			if got := eval[string](bo, `window.storyloomRooms.transport`); got != "ws" {
				t.Errorf("after a reload Bo is on %q, want ws", got)
			}
		}
		// The server cuts both players' sockets: they come back on their own.
		if reloaded && !dropped && moves >= 14 {
			dropped = true
			adaSeat := eval[string](ada, `window.storyloomRooms.game.you`)
			opens := []int{eval[int](ada, `window.storyloomRooms.opens`), eval[int](bo, `window.storyloomRooms.opens`)}
			cut()
			for i, p := range []*page{ada, bo} {
				waitFor(p, fmt.Sprintf(`window.storyloomRooms.opens > %d && document.getElementById("conn").dataset.state === "open" && window.storyloomRooms.game !== null`, opens[i]), 20*time.Second)
			}
			if got := eval[string](ada, `window.storyloomRooms.game.you`); got != adaSeat {
				t.Fatalf("after a dropped connection Ada is %q, want %q", got, adaSeat)
			}
			if got := eval[string](bo, `window.storyloomRooms.game.you`); got != boSeat {
				t.Fatalf("after a dropped connection Bo is %q, want %q", got, boSeat)
			}
		}
		if !acted {
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("the game ended after %d moves by the two players", moves)
	if !undid {
		t.Error("undo was never available to click")
	}
	if !reloaded {
		t.Error("the game ended before Bo could reload")
	}
	if !dropped {
		t.Error("the game ended before the sockets could be cut")
	}
	if !keyboard {
		t.Error("no move was played with the keyboard")
	}
	if !sawClock {
		t.Error("no decision clock was shown")
	}
	waitFor(cy, `document.getElementById("table").dataset.result === "over"`, 20*time.Second)
	for _, p := range []*page{ada, bo, cy} {
		waitFor(p, `!document.getElementById("result").hidden && document.getElementById("announce").textContent.includes("won")`, 10*time.Second)
	}
	ada.shot("rooms-result")
	cy.shot("rooms-spectator-result")
	ada.axe("rooms result")

	// Leaving after the game returns to the lobby; the spectator stops watching.
	ada.click("#back-lobby")
	waitFor(ada, `document.querySelector('main[data-screen="lobby"]') !== null && document.getElementById("room").hidden`, 10*time.Second)
	cy.click("#back-lobby")
	waitFor(cy, `document.querySelector('main[data-screen="lobby"]') !== null`, 20*time.Second)

	// A phone-sized screen, dark.
	ada.do(chromedp.EmulateViewport(390, 844), chromedp.Click(chromedp.CSS("#theme-toggle"), chromedp.NodeVisible))
	ada.shot("rooms-lobby-phone")
}

// TestRoomsHTTPFallback opens the lobby on a server without the WebSocket
// route: the page falls back to the HTTP API by itself, keeps its session
// across a reload, and plays the lobby over it.
func TestRoomsHTTPFallback(t *testing.T) {
	need(t)
	base, _ := roomServer(t, false)
	// The browser reports the refused WebSocket handshake itself.
	p := roomTab(t, "solo", "WebSocket connection to", "/rooms/ws")
	p.base = base
	openRooms(p, "rooms/")
	waitFor(p, `document.getElementById("conn").dataset.state === "open" && document.getElementById("conn").dataset.transport === "http"`, 20*time.Second)
	waitFor(p, `document.getElementById("c-seats") !== null`, 10*time.Second)
	p.click(`[data-key="c-create"]`)
	waitFor(p, `!document.getElementById("room").hidden`, 10*time.Second)
	you := eval[string](p, `window.storyloomRooms.lobby.you`)
	room := eval[string](p, `window.storyloomRooms.lobby.room.room_id`)
	p.do(chromedp.Reload())
	waitFor(p, `document.documentElement.dataset.storyloom === "ready"`, 30*time.Second)
	waitFor(p, `window.storyloomRooms.transport === "http" && window.storyloomRooms.lobby?.room != null`, 20*time.Second)
	if got := eval[string](p, `window.storyloomRooms.lobby.you`); got != you {
		t.Errorf("after a reload the page is %q, want %q", got, you)
	}
	if got := eval[string](p, `window.storyloomRooms.lobby.room.room_id`); got != room {
		t.Errorf("after a reload the page is in room %q, want %q", got, room)
	}
	p.click("#leave")
	waitFor(p, `document.getElementById("room").hidden`, 10*time.Second)
}
