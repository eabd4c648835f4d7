package multiplayer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/engine/rooms"
)

// WebSocketRefused are the browser's own console errors for a WebSocket
// handshake the host refuses (a host without the WebSocket route): a tab
// that may try one allows them.
var WebSocketRefused = []string{"WebSocket connection to", "/rooms/ws"}

// countSockets counts, from the next page load on, every WebSocket the
// page tries to open, in window.storyloomSocketsTried.
const countSockets = `(() => {
	const Native = window.WebSocket;
	window.storyloomSocketsTried = 0;
	window.WebSocket = class extends Native {
		constructor(...args) { window.storyloomSocketsTried++; super(...args); }
	};
})();`

// CountSockets makes every page the tab loads from now on count the
// WebSockets it tries to open; [Tab.SocketsTried] reads the count.
func (tb *Tab) CountSockets() {
	tb.t.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countSockets})
		return err
	}))
}

// SocketsTried is how many WebSockets the page tried to open since it
// loaded (after [Tab.CountSockets]).
func (tb *Tab) SocketsTried() int {
	tb.t.Helper()
	return Eval[int](tb, `window.storyloomSocketsTried ?? -1`)
}

// OpenRooms navigates the tab to path (relative to the site's root, such
// as "rooms/" or "rooms/#room=…") and waits for the page's first view.
func (tb *Tab) OpenRooms(path string) {
	tb.t.Helper()
	tb.Visit(path)
	tb.WaitFor(`document.documentElement.dataset.storyloom === "ready"`, settleLimit)
}

// Connected waits until the rooms page is connected over transport ("ws"
// or "http").
func (tb *Tab) Connected(transport string) {
	tb.t.Helper()
	tb.WaitFor(fmt.Sprintf(`document.getElementById("conn").dataset.state === "open" && document.getElementById("conn").dataset.transport === %q`, transport), settleLimit)
}

// cheatView is the part of a seat's GameView the scenario plays from.
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

// game returns the tab's current game view, if it has one.
func (tb *Tab) game() (cheatView, bool) {
	raw := Eval[string](tb, `JSON.stringify(window.storyloomRooms?.game ?? null)`)
	var v cheatView
	if raw == "null" || json.Unmarshal([]byte(raw), &v) != nil {
		return v, false
	}
	return v, true
}

// seq is the room screen's render counter.
func (tb *Tab) seq() int {
	return Eval[int](tb, `Number(document.getElementById("table")?.dataset.seq || 0)`)
}

// waitRedrawn waits for the room screen to draw again after seq before.
func (tb *Tab) waitRedrawn(before int) {
	tb.t.Helper()
	tb.WaitFor(fmt.Sprintf(`Number(document.getElementById("table")?.dataset.seq || 0) > %d`, before), settleLimit)
}

// move makes one move for a seated tab when it has one: the truth when the
// hand holds the rank (every such card), else one card; never a call.
// keyboard plays with the keyboard instead of the mouse. It reports
// whether it acted.
func (tb *Tab) move(keyboard bool) bool {
	v, ok := tb.game()
	if !ok || v.Result != nil || len(v.ValidActions) == 0 {
		return false
	}
	before := tb.seq()
	press := func(sel, key string) error {
		if keyboard {
			return tb.KeyPress(sel, key)
		}
		return tb.TryClick(sel)
	}
	acted := errors.New("no action")
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
				if Eval[bool](tb, fmt.Sprintf(`document.querySelector('button[data-card=%q][aria-pressed="true"]') !== null`, id)) {
					continue // picked already
				}
				if acted = press(fmt.Sprintf(`button[data-card=%q][aria-pressed="false"]`, id), " "); acted != nil {
					break
				}
			}
			if acted == nil {
				acted = press(`button[data-action-type="play_cards"]`, "\r")
			}
		case "pass":
			acted = tb.TryClick(`button[data-action-type="pass"]`)
		default:
			continue
		}
		break
	}
	if acted != nil {
		return false // the view moved on under us; look again
	}
	tb.waitRedrawn(before)
	return true
}

// CheatOptions say what the host under test offers [PlayCheat].
type CheatOptions struct {
	// Base is the site's root URL, ending in a slash; the rooms page is
	// Base + "rooms/".
	Base string
	// Transport is what the players' tabs settle on by themselves: "ws"
	// on a host with the WebSocket, "http" on one without (the edge
	// worker), where they fall back to the HTTP API.
	Transport string
	// Cut, when set, cuts every open WebSocket mid-game, as a network
	// failure would; the players must come back on their own.
	Cut func()
}

// PlayCheat plays Cheat (engine/rooms/cheat, the reference game) through
// the lobby and room pages. Two players in browser contexts of their own
// meet in a room with an AI seat; a third context watches over the HTTP
// API (refused while the room gathers, then a spectator who sees no hand);
// one player reloads mid-game and gets the seat back; with o.Cut, the
// host drops both players' connections and they come back; undo, the
// keyboard and the decision clock are used; the game is played to its end
// by clicking the valid actions, and everyone sees the result. Screens are
// screenshot and checked with axe-core.
func PlayCheat(t *testing.T, b *browsertest.Browser, o CheatOptions) {
	t.Helper()
	var allow []string
	if o.Transport != "ws" {
		allow = WebSocketRefused
	}

	// Ada creates a room.
	ada := NewTab(t, b, "ada", o.Base, allow...)
	ada.OpenRooms("rooms/")
	ada.Connected(o.Transport)
	ada.Type("#name", "Ada")
	ada.Click(`[data-key="name-save"]`)
	ada.WaitFor(`document.getElementById("name-now").textContent.includes("Ada")`, settleLimit)
	ada.WaitFor(`document.getElementById("c-seats") !== null`, settleLimit)
	ada.Shot("rooms-lobby")
	ada.Axe("rooms lobby")

	// A refused room: nine seats is out of range, and the reason is shown.
	ada.Do(chromedp.SetValue(chromedp.CSS("#c-seats"), "9"), chromedp.RemoveAttribute(chromedp.CSS("#c-seats"), "max"))
	ada.Click(`[data-key="c-create"]`)
	ada.WaitFor(`!document.getElementById("notice").hidden && document.getElementById("notice").dataset.code !== ""`, settleLimit)
	if code := ada.Text("#notice code"); !strings.Contains(code, "seat") {
		t.Errorf("the refusal shows %q, want a seat-count code", code)
	}
	ada.Click(`#notice button`)

	ada.Do(chromedp.SetValue(chromedp.CSS("#c-seats"), "3"))
	ada.Type("#c-name", "Friday <b>cards</b>")
	ada.Click("#c-undo")
	ada.Do(chromedp.SetValue(chromedp.CSS("#c-clock"), "60"))
	ada.Click(`[data-key="c-create"]`)
	ada.WaitFor(`!document.getElementById("room").hidden`, settleLimit)
	if got := ada.Text("#room-h"); got != "Friday <b>cards</b>" {
		t.Errorf("room title %q: names must be shown as text", got)
	}
	roomID := Eval[string](ada, `window.storyloomRooms.lobby.room.room_id`)
	if h := Eval[string](ada, `location.hash`); !strings.Contains(h, "room=") {
		t.Errorf("the lobby did not put the room in the address: %q", h)
	}

	// An AI seat (the catalog's first kind, Fox) in the first open seat.
	ada.WaitFor(`document.getElementById("ai-kind") !== null`, settleLimit)
	ada.Click(`[data-key="ai-add"]`)
	ada.WaitFor(`document.querySelector('#room li.seat.ai') !== null`, settleLimit)

	// Bo follows the link.
	bo := NewTab(t, b, "bo", o.Base, allow...)
	bo.OpenRooms("rooms/#room=" + roomID)
	bo.Type("#name", "Bo")
	bo.Click(`[data-key="name-save"]`)
	bo.WaitFor(`document.getElementById("name-now").textContent.includes("Bo")`, settleLimit)
	bo.WaitFor(`!document.getElementById("invite").hidden`, settleLimit)
	bo.Click(`[data-key="invite-join"]`)
	bo.WaitFor(`!document.getElementById("room").hidden`, settleLimit)

	// Cy opens the link over HTTP only, and may not watch a gathering room.
	cy := NewTab(t, b, "cy", o.Base)
	cy.OpenRooms("rooms/?transport=http&room=" + roomID)
	cy.Connected("http")
	cy.WaitFor(`!document.getElementById("invite").hidden`, settleLimit)
	cy.Click(`[data-key="invite-watch"]`)
	cy.WaitFor(`document.getElementById("notice").dataset.code === "not_running"`, settleLimit)
	cy.Shot("rooms-refused")

	// Ready: the game starts.
	ada.Shot("rooms-room")
	ada.Axe("rooms room lobby")
	bo.Click("#ready")
	bo.WaitFor(`document.getElementById("ready").getAttribute("aria-pressed") === "true"`, settleLimit)
	ada.Click("#ready")
	for _, p := range []*Tab{ada, bo} {
		p.WaitFor(`document.querySelector('main[data-screen="table"]') !== null`, settleLimit)
	}

	// Cy watches now.
	cy.WaitFor(fmt.Sprintf(`document.querySelector('li.dir-room[data-room=%q] button') !== null`, roomID), settleLimit)
	cy.Click(`#notice button`)
	cy.Click(`[data-key="invite-watch"]`)
	cy.WaitFor(`document.getElementById("table").dataset.mode === "spectator"`, settleLimit)
	if Eval[bool](cy, `"my_hand" in window.storyloomRooms.game || "valid_actions" in window.storyloomRooms.game || "you" in window.storyloomRooms.game`) {
		t.Error("the spectator's view carries receiver fields")
	}
	if n := cy.Count("#hand button.card-face, #actions button.act"); n != 0 {
		t.Errorf("the spectator sees %d cards or actions", n)
	}

	boSeat := Eval[string](bo, `window.storyloomRooms.game.you`)
	sawClock, undid, reloaded, keyboard, dropped := false, false, false, false, false
	shotTable := false
	moves := 0
	deadline := time.Now().Add(15 * time.Minute)
	for {
		va, _ := ada.game()
		vb, _ := bo.game()
		if va.Result != nil && vb.Result != nil {
			break
		}
		if time.Now().After(deadline) {
			ada.Shot("rooms-timeout")
			t.Fatalf("the game did not end in time after %d moves", moves)
		}
		acted := false
		for _, p := range []*Tab{ada, bo} {
			if !sawClock && Eval[bool](p, `!document.getElementById("clock").hidden && /\d+ s left/.test(document.getElementById("clock").textContent)`) {
				sawClock = true
			}
			if !shotTable && p == ada && len(va.ValidActions) > 0 {
				shotTable = true
				ada.Shot("rooms-table")
				ada.Axe("rooms table")
				cy.Shot("rooms-spectator")
				cy.Axe("rooms spectator")
			}
			if p.move(p == ada && moves >= 2 && !keyboard) {
				if p == ada && moves >= 2 {
					keyboard = true
				}
				acted = true
				moves++
			}
		}
		// Undo once, when Ada may.
		if !undid && moves >= 4 {
			if v, _ := ada.game(); v.Undo != nil && v.Undo.Available > 0 && v.Result == nil {
				before := ada.seq()
				if ada.TryClick("#undo") == nil {
					ada.waitRedrawn(before)
					// The undo takes the move back, or the game moved on
					// before it arrived (another move or the AI's, which at
					// the edge lands from any tab's poll) and the answer is
					// the table as it stands, marked rejected: then Ada
					// tries again when undo is offered once more.
					ada.WaitFor(`[...document.querySelectorAll("#log li")].some((li) => li.textContent.includes("took the last move back")) || window.storyloomRooms.game?.action_rejected === true`, settleLimit)
					undid = Eval[bool](ada, `[...document.querySelectorAll("#log li")].some((li) => li.textContent.includes("took the last move back"))`)
				}
			}
		}
		// Bo reloads mid-game and is back in the seat, on the same transport.
		if !reloaded && moves >= 8 {
			reloaded = true
			bo.CountSockets()
			bo.Do(chromedp.Reload())
			bo.WaitFor(`document.documentElement.dataset.storyloom === "ready"`, settleLimit)
			bo.WaitFor(`document.querySelector('main[data-screen="table"]') !== null`, settleLimit)
			if got := Eval[string](bo, `window.storyloomRooms.game.you`); got != boSeat {
				t.Fatalf("after a reload Bo is %q, want the seat %q", got, boSeat)
			}
			if got := Eval[string](bo, `window.storyloomRooms.transport`); got != o.Transport {
				t.Errorf("after a reload Bo is on %q, want %s", got, o.Transport)
			}
			// A tab that found no WebSocket here does not try one again.
			if n := bo.SocketsTried(); o.Transport == "http" && n != 0 {
				t.Errorf("after a reload Bo tried %d WebSockets on a host without them", n)
			}
		}
		// The host cuts both players' sockets: they come back on their own.
		if o.Cut != nil && reloaded && !dropped && moves >= 14 {
			dropped = true
			adaSeat := Eval[string](ada, `window.storyloomRooms.game.you`)
			opens := []int{Eval[int](ada, `window.storyloomRooms.opens`), Eval[int](bo, `window.storyloomRooms.opens`)}
			o.Cut()
			for i, p := range []*Tab{ada, bo} {
				p.WaitFor(fmt.Sprintf(`window.storyloomRooms.opens > %d && document.getElementById("conn").dataset.state === "open" && window.storyloomRooms.game !== null`, opens[i]), settleLimit)
			}
			if got := Eval[string](ada, `window.storyloomRooms.game.you`); got != adaSeat {
				t.Fatalf("after a dropped connection Ada is %q, want %q", got, adaSeat)
			}
			if got := Eval[string](bo, `window.storyloomRooms.game.you`); got != boSeat {
				t.Fatalf("after a dropped connection Bo is %q, want %q", got, boSeat)
			}
		}
		if !acted {
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("the game ended after %d moves by the two players", moves)
	if !undid {
		t.Error("no undo took a move back: undo was never available, or every one was refused")
	}
	if !reloaded {
		t.Error("the game ended before Bo could reload")
	}
	if o.Cut != nil && !dropped {
		t.Error("the game ended before the sockets could be cut")
	}
	if !keyboard {
		t.Error("no move was played with the keyboard")
	}
	if !sawClock {
		t.Error("no decision clock was shown")
	}
	cy.WaitFor(`document.getElementById("table").dataset.result === "over"`, settleLimit)
	for _, p := range []*Tab{ada, bo, cy} {
		p.WaitFor(`!document.getElementById("result").hidden && document.getElementById("announce").textContent.includes("won")`, settleLimit)
	}
	// After the result, no one may take a move back: the winner's victory
	// stands (docs/rooms.md, "Undo").
	if Eval[bool](ada, `!!document.getElementById("undo") && !document.getElementById("undo").disabled`) {
		t.Error("undo is still offered on the game-over screen")
	}
	ada.Shot("rooms-result")
	cy.Shot("rooms-spectator-result")
	ada.Axe("rooms result")

	// Leaving after the game returns to the lobby; the spectator stops watching.
	ada.Click("#back-lobby")
	ada.WaitFor(`document.querySelector('main[data-screen="lobby"]') !== null && document.getElementById("room").hidden`, settleLimit)
	cy.Click("#back-lobby")
	cy.WaitFor(`document.querySelector('main[data-screen="lobby"]') !== null`, settleLimit)

	// A phone-sized screen, dark.
	ada.Do(chromedp.EmulateViewport(390, 844), chromedp.Click(chromedp.CSS("#theme-toggle"), chromedp.NodeVisible))
	ada.Shot("rooms-lobby-phone")
}
