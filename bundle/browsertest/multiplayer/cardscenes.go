package multiplayer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/engine/rooms"
)

// seatDuel seats Ada and Bo at a starter-1v1 table on the host at o.Base,
// under rules: Ada submits adaDeck (a shipped deck's id,
// or a pasted list), Bo takes the Thornwild Stampede precon in one click.
// It returns once both tables show, with the room's id.
func seatDuel(t *testing.T, b *browsertest.Browser, o CardOptions, adaDeck string, rules tableRules) (ada, bo *Tab, roomID string) {
	t.Helper()
	ada = NewTab(t, b, "ada", o.Base, o.allow()...)
	roomID = ada.createCardRoom("starter-1v1", 2, rules)
	ada.Connected(o.Transport)
	ada.submitDeck(adaDeck)
	bo = NewTab(t, b, "bo", o.Base, o.allow()...)
	bo.joinRoom(roomID)
	bo.submitDeck("thornwild_stampede")
	bo.Click("#ready")
	bo.WaitFor(`document.getElementById("ready").getAttribute("aria-pressed") === "true"`, settleLimit)
	ada.Click("#ready")
	ada.atTable()
	bo.atTable()
	return ada, bo, roomID
}

// plainSeats returns a [plainSeat] player for each tab, seated as its
// view says.
func plainSeats(tabs ...*Tab) []*player {
	var out []*player
	for _, tb := range tabs {
		v, _ := tb.cardView()
		out = append(out, &player{tab: tb, policy: (&plainSeat{me: v.You}).policy})
	}
	return out
}

// playUntil has the seats make their moves in turn until done, asked
// before every move, says the scene is reached; what names the scene in
// a failure. o.Deadline bounds it. Each seat moves once every tab shows
// the same moment of the game ([settle]), so that none answers from a
// view the last move has made stale.
func playUntil(t *testing.T, o CardOptions, what string, seats []*player, done func() bool) {
	t.Helper()
	deadline := o.deadline()
	var tabs []*Tab
	for _, p := range seats {
		tabs = append(tabs, p.tab)
	}
	for {
		acted := false
		for _, p := range seats {
			if done() {
				return
			}
			settle(t, tabs...)
			acted = p.step(t) || acted
		}
		if time.Now().After(deadline) {
			seats[0].tab.Shot("timeout")
			t.Fatalf("%s did not come in time", what)
		}
		if !acted {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// fingerprint is what every seat's view of one moment of the game shares:
// turn, step, whose turn and priority, the last log entry, the stack and
// the battlefield (tapped, attacking, blocking).
const fingerprint = `(() => { const g = window.storyloomRooms.game || {};
  return JSON.stringify([g.turn, g.phase, g.active_player, g.priority_player, (g.log || []).at(-1)?.sequence, (g.stack || []).map((s) => s.id),
    (g.battlefield || []).map((p) => [p.id, p.tapped, p.attacking, p.blocking]), g.result]); })()`

// settle waits until every tab shows the same moment of the game.
func settle(t *testing.T, tabs ...*Tab) {
	t.Helper()
	deadline := time.Now().Add(settleLimit)
	for {
		prints := make([]string, len(tabs))
		for i, tb := range tabs {
			prints[i] = Eval[string](tb, fingerprint)
		}
		if !slices.ContainsFunc(prints, func(p string) bool { return p != prints[0] }) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tabs never showed the same moment of the game: %q", prints)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// tableParts is what a tab's table shows of the game, part by part.
type tableParts struct {
	Players     string   `json:"players"`
	Hand        string   `json:"hand"`
	Battlefield string   `json:"battlefield"`
	Steps       string   `json:"steps"`
	Undo        string   `json:"undo"`
	Log         []string `json:"log"`
}

func (tb *Tab) tableParts() tableParts {
	tb.t.Helper()
	var p tableParts
	raw := Eval[string](tb, `(() => { const t = (sel) => document.querySelector(sel)?.textContent ?? "";
	  return JSON.stringify({ players: t(".ct-players"), hand: t("#ct-hand"), battlefield: t('section[aria-labelledby="ct-bf-h"]'),
	    steps: t(".ct-phases"), undo: t("#ct-undo"), log: [...document.querySelectorAll("#ct-log li")].map((li) => li.textContent) }); })()`)
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		tb.t.Fatalf("%s: reading the table: %v", tb.Label, err)
	}
	return p
}

// controls counts the permanents pid controls in the tab's view.
func (tb *Tab) controls(pid string) int {
	tb.t.Helper()
	return Eval[int](tb, fmt.Sprintf(`(window.storyloomRooms.game?.battlefield || []).filter((p) => p.controller === %q).length`, pid))
}

// takeBack has mover make move m, waits until both tabs show changed (a
// JavaScript condition), and has mover take it back with the table's Undo,
// by the keyboard. Both tables must then show what they showed before m:
// players, hand, battlefield, steps and the undo count, and the log as it
// was plus one line saying who took the move back.
func takeBack(t *testing.T, mover, other *Tab, m Move, changed string, watchers ...*Tab) {
	t.Helper()
	settle(t, mover, other)
	before := map[*Tab]tableParts{mover: mover.tableParts(), other: other.tableParts()}
	if !mover.Play(m) {
		t.Fatalf("%s: %s was refused", mover.Label, m.Action.ID)
	}
	for _, tb := range []*Tab{mover, other} {
		tb.WaitFor(changed, settleLimit)
	}
	NoLeak(t, []*Tab{mover, other}, watchers...)
	undos := func(tb *Tab) int {
		return Eval[int](tb, `[...document.querySelectorAll("#ct-log li")].filter((li) => li.textContent.includes("took the last move back")).length`)
	}
	was := map[*Tab]int{mover: undos(mover), other: undos(other)}
	if err := mover.KeyPress("#ct-undo", "\r"); err != nil {
		t.Fatalf("%s: undo by the keyboard: %v", mover.Label, err)
	}
	for _, tb := range []*Tab{mover, other} {
		tb.WaitFor(fmt.Sprintf(`[...document.querySelectorAll("#ct-log li")].filter((li) => li.textContent.includes("took the last move back")).length > %d`, was[tb]), settleLimit)
	}
	settle(t, mover, other)
	for _, tb := range []*Tab{mover, other} {
		after, was := tb.tableParts(), before[tb]
		t.Logf("%s's table after %s was taken back: %d log lines, %d before it", tb.Label, m.Action.Type, len(after.Log), len(was.Log))
		for _, part := range []struct{ name, was, now string }{{"players", was.Players, after.Players}, {"hand", was.Hand, after.Hand},
			{"battlefield", was.Battlefield, after.Battlefield}, {"steps", was.Steps, after.Steps}, {"undo button", was.Undo, after.Undo}} {
			if part.was != part.now {
				t.Errorf("%s's table after %s was taken back: the %s show %q, before it %q", tb.Label, m.Action.Type, part.name, part.now, part.was)
			}
		}
		if len(after.Log) != len(was.Log)+1 || !slices.Equal(after.Log[:len(was.Log)], was.Log) || !strings.Contains(after.Log[len(was.Log)], "took the last move back") {
			t.Errorf("%s's log after %s was taken back:\n%s\nwant the log before it:\n%s\nand one line saying who took the move back",
				tb.Label, m.Action.Type, strings.Join(after.Log, "\n"), strings.Join(was.Log, "\n"))
		}
	}
	NoLeak(t, []*Tab{mover, other}, watchers...)
	v, _ := mover.cardView()
	if name, got := other.Text(fmt.Sprintf(`.ct-player[data-player=%q] strong`, v.You)), other.Text("#ct-log li:last-child"); name == "" || !strings.Contains(got, name) {
		t.Errorf("%s's log says %q, not who took the move back (%s)", other.Label, got, name)
	}
}

// controlling is a JavaScript condition: pid controls n permanents in the
// tab's view.
func controlling(pid string, n int) string {
	return fmt.Sprintf(`(window.storyloomRooms.game?.battlefield || []).filter((p) => p.controller === %q).length === %d`, pid, n)
}

// landTakenBack has mover, who is asked to play a land, play it and take
// it back ([takeBack]): mover then controls as many permanents as before.
func landTakenBack(t *testing.T, mover, other *Tab, watchers ...*Tab) {
	t.Helper()
	v, _ := mover.cardView()
	land, ok := v.first("play_land")
	if !ok {
		t.Fatalf("%s is not asked to play a land", mover.Label)
	}
	n := mover.controls(v.You)
	takeBack(t, mover, other, Move{Action: land}, controlling(v.You, n+1), watchers...)
	if got := mover.controls(v.You); got != n {
		t.Errorf("%s controls %d permanents after the undo, want %d", mover.Label, got, n)
	}
}

// phoneTable checks the tab's table on a phone ([Tab.Phone]): the page,
// scrolled to its top, is no wider than the screen and passes axe-core;
// a screenshot named name is written for review.
func phoneTable(t *testing.T, tb *Tab, name string) {
	t.Helper()
	Eval[bool](tb, `(scrollTo(0, 0), true)`)
	if w := Eval[int](tb, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("%s: on a phone the page is %d px wide; %s", tb.Label, w, Eval[string](tb, tooWide))
	}
	tb.Shot(name)
	tb.Axe(strings.ReplaceAll(name, "-", " "))
}

// PlayCardUndo plays undo at a starter-1v1 table whose room allows it, on
// the host at o.Base. Ada and Bo keep their hands and pass to the first
// land drop (Undo is offered disabled before any move); the player on
// turn plays a land and takes it back ([takeBack]: both tables show what
// they showed before it). He plays the land again, passes (the game moves
// on through logged steps) and takes the pass back too. He then concedes: once there is a result, both tables offer Undo disabled and
// say the result stands, and an undo sent anyway (the button enabled by
// the test) is refused by the host with game_over, which the page shows.
func PlayCardUndo(t *testing.T, b *browsertest.Browser, o CardOptions) {
	t.Helper()
	ada, bo, _ := seatDuel(t, b, o, "ember_rush", tableRules{undo: true})
	// Nothing to take back yet: Undo is offered, disabled.
	for _, tb := range []*Tab{ada, bo} {
		tb.WaitFor(`document.getElementById("ct-undo") !== null`, settleLimit)
		if !Eval[bool](tb, `document.getElementById("ct-undo").disabled`) {
			t.Errorf("%s's table offers Undo before any move", tb.Label)
		}
	}
	seats := plainSeats(ada, bo)
	var mover *Tab
	playUntil(t, o, "the first land drop", seats, func() bool {
		for _, p := range seats {
			if v, _ := p.tab.cardView(); slices.ContainsFunc(v.asked(), func(a rooms.Action) bool { return a.Type == "play_land" }) {
				mover = p.tab
				return true
			}
		}
		return false
	})
	settle(t, ada, bo)
	other := map[*Tab]*Tab{ada: bo, bo: ada}[mover]
	v, _ := mover.cardView()
	me := v.You
	n := mover.controls(me)
	landTakenBack(t, mover, other)
	mover.Shot("undone")
	// The table as it was plays on: the land again, then a pass that moves
	// the game on (the steps it goes through are logged), taken back too.
	v, _ = mover.cardView()
	land, ok := v.first("play_land")
	if !ok || !mover.Play(Move{Action: land}) {
		t.Fatalf("%s could not play the land again after the undo", mover.Label)
	}
	for _, tb := range []*Tab{ada, bo} {
		tb.WaitFor(controlling(me, n+1), settleLimit)
	}
	settle(t, ada, bo)
	v, _ = mover.cardView()
	pass, _ := v.first("pass_priority")
	takeBack(t, mover, other, Move{Action: pass}, fmt.Sprintf(`(window.storyloomRooms.game?.log || []).at(-1)?.sequence > %d`, v.Log[len(v.Log)-1].Sequence))

	// After a result, undo is off: a seat may not take the result back.
	mover.Click("#ct-concede")
	mover.Click("#ct-concede-yes")
	for _, tb := range []*Tab{ada, bo} {
		tb.WaitFor(`document.getElementById("ct-result") !== null`, settleLimit)
		tb.WaitFor(`document.getElementById("ct-undo")?.disabled === true && document.getElementById("ct-undo-hint")?.textContent.includes("its result stands")`, settleLimit)
	}
	tableAfter := mover.tableParts()
	Eval[bool](mover, `(document.getElementById("ct-undo").disabled = false, true)`)
	mover.Click("#ct-undo")
	mover.WaitFor(`!document.getElementById("notice").hidden && document.getElementById("notice").dataset.code === "game_over"`, settleLimit)
	if got := mover.Text("#notice"); !strings.Contains(got, "The game is over: its result stands.") {
		t.Errorf("the refused undo reads %q", got)
	}
	if got := mover.tableParts(); !slices.Equal(got.Log, tableAfter.Log) || got.Battlefield != tableAfter.Battlefield {
		t.Error("the refused undo changed the table")
	}
	mover.Shot("undo-refused")
	mover.Axe("a refused undo")
}

// watchConnection records, in window.storyloomConn, every state and text
// the page's connection status takes from now on ("waiting: Reconnecting
// in 1 s…").
const watchConnection = `(() => { const el = document.getElementById("conn"); window.storyloomConn = [];
  new MutationObserver(() => window.storyloomConn.push(el.dataset.state + ": " + el.textContent))
    .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
  return true; })()`

// seatView is a seat's view as the page holds it, but for whether the
// other seats are connected, the seconds left on the decision clock, and
// the notes on the last answer (its acknowledgement, the steps passed for
// the seat), which a view sent on a new connection does not repeat.
const seatView = `(() => { const { action_ack, auto_passed, auto_passed_from, auto_passed_steps, action_deadline, ...v } = window.storyloomRooms.game;
  return JSON.stringify({ ...v, opponents: (v.opponents || []).map(({ connected, ...o }) => o) }); })()`

// seatTable is the text of the tab's table, but for the steps passed for
// the seat and the decision clock (see seatView).
const seatTable = `(() => { const t = document.getElementById("card-table").cloneNode(true);
  t.querySelector("#ct-passed")?.remove(); t.querySelector("#ct-clock")?.remove(); return t.textContent; })()`

// clockShows is the seconds the tab's decision clock shows, or -1.
const clockShows = `Number(document.getElementById("ct-clock")?.textContent.match(/\d+/)?.[0] ?? -1)`

// backInSeat drops the connections of the tabs with drop (a reload, or
// the host cutting the sockets) and checks that each page comes back by
// itself, over a new connection, to the same seat, the same view and the
// same table (but for what seatView and seatTable leave out), and that
// every other tab of the game (the seated ones among tabs, and others)
// shows it connected again; then that no page shows another seat's hand
// ([NoLeak]). what names the drop in failures.
func backInSeat(t *testing.T, tabs, others []*Tab, what string, drop func()) {
	t.Helper()
	type look struct{ seat, view, table string }
	before := map[*Tab]look{}
	for _, tb := range tabs {
		Eval[bool](tb, `(window.storyloomOpensBefore = window.storyloomRooms.opens, true)`)
		before[tb] = look{Eval[string](tb, `window.storyloomRooms.game.you`), Eval[string](tb, seatView), Eval[string](tb, seatTable)}
	}
	drop()
	// A reloaded page has no record of the connections before it.
	for _, tb := range tabs {
		tb.WaitFor(`document.getElementById("conn")?.dataset.state === "open" && window.storyloomRooms?.game != null &&
		  window.storyloomRooms.opens > (window.storyloomOpensBefore ?? 0) && !document.getElementById("card-table").hidden`, settleLimit)
	}
	// Each is back when every other table shows it connected again.
	for _, tb := range append(slices.Clone(tabs), others...) {
		tb.WaitFor(`(window.storyloomRooms.game.opponents || window.storyloomRooms.game.players || []).every((o) => o.connected !== false)`, settleLimit)
	}
	for _, tb := range tabs {
		was := before[tb]
		if got := Eval[string](tb, `window.storyloomRooms.game.you`); got != was.seat {
			t.Fatalf("after %s %s is %q, want the seat %q", what, tb.Label, got, was.seat)
		}
		if got := Eval[string](tb, seatView); got != was.view {
			t.Errorf("after %s %s's view is\n%s\nwant\n%s", what, tb.Label, got, was.view)
		}
		if got := Eval[string](tb, seatTable); got != was.table {
			t.Errorf("after %s %s's table shows\n%s\nwant\n%s", what, tb.Label, got, was.table)
		}
	}
	var seated, watchers []*Tab
	for _, tb := range append(slices.Clone(tabs), others...) {
		if Eval[string](tb, `document.getElementById("table").dataset.mode`) == "spectator" {
			watchers = append(watchers, tb)
		} else {
			seated = append(seated, tb)
		}
	}
	NoLeak(t, seated, watchers...)
}

// reconnectClock is the decision clock PlayCardReconnect's room has, in
// seconds: long enough that no seat runs out of time on a loaded machine.
const reconnectClock = 300

// PlayCardReconnect drops the players' connections mid-game at a
// starter-1v1 table with a decision clock on the host at o.Base, whose
// o.Cut cuts every open WebSocket at the host as a network failure would
// (no reload): Ada and Bo play on turn 3, the deciding seat's clock counts
// down for three seconds, the host cuts both sockets, each page says it
// is reconnecting, reconnects by itself, and is back in the same seat with
// the same view and the same table ([backInSeat]); the clock was not
// restarted by the reconnect; then each seat makes a move the host
// accepts.
func PlayCardReconnect(t *testing.T, b *browsertest.Browser, o CardOptions) {
	t.Helper()
	ada, bo, _ := seatDuel(t, b, o, "ember_rush", tableRules{clock: reconnectClock})
	seats := plainSeats(ada, bo)
	playUntil(t, o, "turn 3", seats, func() bool {
		v, _ := ada.cardView()
		return v.Turn >= 3
	})
	settle(t, ada, bo)
	// The deciding seat's clock counts down.
	decider := ada
	if Eval[int](bo, clockShows) >= 0 {
		decider = bo
	}
	left := Eval[int](decider, clockShows)
	if left <= 0 || left > reconnectClock {
		t.Fatalf("%s, who decides, has a clock showing %d s (the room gives %d s)", decider.Label, left, reconnectClock)
	}
	decider.WaitFor(fmt.Sprintf(`%s > 0 && %s <= %d`, clockShows, clockShows, left-3), settleLimit)
	for _, tb := range []*Tab{ada, bo} {
		Eval[bool](tb, watchConnection)
	}
	backInSeat(t, []*Tab{ada, bo}, nil, "the dropped connection", func() {
		left = Eval[int](decider, clockShows)
		o.Cut()
	})
	for _, tb := range []*Tab{ada, bo} {
		said := Eval[[]string](tb, `window.storyloomConn`)
		if !slices.ContainsFunc(said, func(s string) bool { return strings.HasPrefix(s, "waiting: Reconnecting in") }) {
			t.Errorf("%s's page never said it was reconnecting: %q", tb.Label, said)
		}
	}
	// The clock kept its deadline: a restarted one would show more.
	if got := Eval[int](decider, clockShows); got <= 0 || got > left+1 {
		t.Errorf("after the reconnect %s's clock shows %d s, %d s before the cut: the reconnect restarted it", decider.Label, got, left)
	}
	ada.Shot("reconnected")
	// Play goes on: each seat makes a move the host accepts.
	accepted := []int{seats[0].accepted, seats[1].accepted}
	playUntil(t, o, "a move by each seat after the reconnect", seats, func() bool {
		return seats[0].accepted > accepted[0] && seats[1].accepted > accepted[1]
	})
}

// PlayCardPhone plays a whole starter-1v1 game against an AI pilot on a
// phone ([Tab.Phone]: 390×844, touch) against the host at o.Base: Ada
// creates the room, takes the Ember Rush precon and seats the AI, all by
// taps, then plays a [plainSeat] by taps to the result. Every tap fails
// the test unless what it taps is in reach without scrolling the page
// sideways. The table mid-game and the result are screenshot for review
// and checked with axe-core.
func PlayCardPhone(t *testing.T, b *browsertest.Browser, o CardOptions) {
	t.Helper()
	ada := NewTab(t, b, "ada", o.Base, o.allow()...)
	ada.Phone()
	ada.createCardRoom("starter-1v1", 2, tableRules{})
	ada.Connected(o.Transport)
	ada.submitDeck("ember_rush")
	ada.addAI("pilot", 1)
	ada.Shot("phone-lobby")
	ada.Click("#ready")
	ada.atTable()
	v, _ := ada.cardView()
	ps := &plainSeat{me: v.You, touch: true}
	ap := &player{tab: ada, policy: ps.policy}
	shot := false
	playUntil(t, o, "the phone game's result", []*player{ap}, func() bool {
		v, _ := ada.cardView()
		if !shot && v.Turn >= 3 && len(v.Battlefield) > 2 {
			shot = true
			phoneTable(t, ada, "phone-table")
		}
		return v.Result != nil
	})
	v, _ = ada.cardView()
	t.Logf("the phone game ended on turn %d after %d moves by taps (%d casts, %d refused as stale); result %+v",
		v.Turn, ap.moves, ps.cast, ap.refused, *v.Result)
	if ps.cast == 0 || !ps.attacked {
		t.Errorf("on the phone Ada cast %d spells and attacked: %v", ps.cast, ps.attacked)
	}
	ada.WaitFor(`document.getElementById("ct-result") !== null`, settleLimit)
	phoneTable(t, ada, "phone-result")
}
