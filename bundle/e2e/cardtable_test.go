package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest/multiplayer"
	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

const cardWait = 60 * time.Second

// cardState is what the driver reads of a tab's view.
type cardState struct {
	Turn  int      `json:"turn"`
	Phase string   `json:"phase"`
	Over  bool     `json:"over"`
	Hand  []string `json:"hand"`
	Seq   int      `json:"seq"`
}

func readCards(p *multiplayer.Tab) cardState {
	return multiplayer.Eval[cardState](p, `(() => { const g = window.storyloomRooms.game || {};
	  return { turn: g.turn || 0, phase: g.phase || "", over: Boolean(g.result), hand: (g.my_hand || []).map((c) => c.id),
	    seq: Number(document.getElementById("table").dataset.seq || 0) }; })()`)
}

// TestCardTable seats two browser contexts at a starter-1v1 table on the
// native host: each picks a deck in the lobby (Ada a preconstructed deck
// in one click; Bo first has a pasted list refused per line, then by the
// server, and then builds his deck in the catalog browser, checked live:
// buildDeck); a third context watches; no page shows another
// seat's hand; Bo's reload returns him to his seat; the mulligan prompt
// opens in the panel; Tab reaches every control of the table, each with a
// visible focus mark; each player's statuses show; the table passes
// axe-core in both themes; Ada concedes with confirmation and all three
// see the result. Whole games are TestCardDuel's and the tests after it.
func TestCardTable(t *testing.T) {
	need(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := roomServerWith(t, reg, true)

	ada := multiplayer.NewTab(t, suite.b, "ada", base)
	ada.OpenRooms("rooms/")
	ada.Connected("ws")
	ada.WaitFor(`document.querySelector('#c-format option[value="starter-1v1"]') !== null`, cardWait)
	ada.Do(chromedp.SetValue(chromedp.CSS("#c-format"), "starter-1v1"))
	multiplayer.Eval[bool](ada, `(document.getElementById("c-format").dispatchEvent(new Event("change")), true)`)
	ada.Click(`[data-key="c-create"]`)
	ada.WaitFor(`!document.getElementById("room").hidden && document.getElementById("deck-panel") !== null`, cardWait)
	roomID := multiplayer.Eval[string](ada, `window.storyloomRooms.lobby.room.room_id`)
	ada.WaitFor(`document.querySelector('[data-precon]') !== null`, cardWait)
	ada.Axe("card lobby")
	ada.Click(`[data-precon="ember_rush"]`)
	ada.WaitFor(`document.getElementById("deck-status").textContent.startsWith("Deck accepted")`, cardWait)

	bo := multiplayer.NewTab(t, suite.b, "bo", base)
	bo.OpenRooms("rooms/#room=" + roomID)
	bo.WaitFor(`!document.getElementById("invite").hidden`, cardWait)
	bo.Click(`[data-key="invite-join"]`)
	bo.WaitFor(`document.getElementById("deck-panel") !== null`, cardWait)
	// A pasted list: an unknown name is refused on its line, then a list
	// the server refuses (too few cards) shows the rule it breaks.
	bo.Click(`[data-key="deck-tab-paste"]`)
	bo.Type("#deck-text", "4 Cinder Imp\n2 Emberlash\n")
	bo.Click(`[data-key="deck-submit-list"]`)
	bo.WaitFor(`document.getElementById("deck-lines")?.textContent.includes("Line 2")`, cardWait)
	bo.Type("#deck-text", "4 Cinder Imp\n")
	bo.Click(`[data-key="deck-submit-list"]`)
	bo.WaitFor(`document.getElementById("deck-error")?.textContent.includes("below_minimum")`, cardWait)
	if got := bo.Text("#deck-error"); !strings.Contains(got, "The deck has too few cards: it needs at least 40.") {
		t.Errorf("the refused deck reads %q", got)
	}
	// The catalog browser: Bo builds his deck from it (buildDeck).
	bo.Click(`[data-key="deck-tab-build"]`)
	buildDeck(t, bo)

	bo.Click("#ready")
	bo.WaitFor(`document.getElementById("ready").getAttribute("aria-pressed") === "true"`, cardWait)
	ada.Click("#ready")
	for _, p := range []*multiplayer.Tab{ada, bo} {
		p.WaitFor(`document.querySelector('main[data-screen="table"]') !== null && !document.getElementById("card-table").hidden`, cardWait)
	}

	cy := multiplayer.NewTab(t, suite.b, "cy", base)
	cy.OpenRooms("rooms/#room=" + roomID)
	cy.WaitFor(`!document.getElementById("invite").hidden`, cardWait)
	cy.Click(`[data-key="invite-watch"]`)
	cy.WaitFor(`document.querySelector('#table[data-mode="spectator"]') !== null`, cardWait)

	// Nobody's page shows another seat's hand; Bo's reload returns him to his seat.
	sa, sb := readCards(ada), readCards(bo)
	if len(sa.Hand) == 0 || len(sb.Hand) == 0 {
		t.Fatalf("hands of %d and %d cards", len(sa.Hand), len(sb.Hand))
	}
	multiplayer.NoLeak(t, []*multiplayer.Tab{ada, bo}, cy)
	you := multiplayer.Eval[string](bo, `window.storyloomRooms.game.you`)
	bo.Do(chromedp.Reload())
	bo.WaitFor(`window.storyloomRooms.game != null && !document.getElementById("card-table").hidden`, cardWait)
	if got := multiplayer.Eval[string](bo, `window.storyloomRooms.game.you`); got != you {
		t.Fatalf("after a reload Bo is %q, want %q", got, you)
	}
	// A toast never takes a click meant for the table beneath it (one
	// lying over the hand once swallowed every click on it).
	if over := multiplayer.Eval[string](ada, `(() => { const t = document.createElement("p"); t.className = "toast info"; t.textContent = "A toast";
	  document.getElementById("toasts").append(t); const r = t.getBoundingClientRect();
	  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	  const out = hit && hit.closest("#toasts") ? hit.outerHTML : ""; t.remove(); return out; })()`); over != "" {
		t.Errorf("a click on a toast lands on the toast (%s), not on the page beneath", over)
	}
	// The mulligan decision is a prompt: its panel opens from the action.
	ada.WaitFor(`document.querySelector('[data-action-type="mulligan_decision"]') !== null`, cardWait)
	ada.Click(`[data-action-type="mulligan_decision"]`)
	ada.WaitFor(`document.querySelector('#ct-prompt input[data-choice="keep"]')?.checked`, cardWait)
	ada.Axe("a prompt")
	ada.Shot("prompt")
	ada.Click(`[data-key="ct-cancel"]`)
	// Tab from the top of the page reaches every control of the table,
	// each with a visible focus mark.
	if missing, unmarked := ada.KeyboardReach("#card-table"); len(missing) > 0 || len(unmarked) > 0 {
		t.Errorf("Tab never reaches the table's %q, and reaches %q without a visible focus mark", missing, unmarked)
	}
	// The table shows the format and the maximum hand size; the stops
	// editor sets a stop on every turn and keeps the own-turn ones.
	if got := ada.Text(".ct-players"); !strings.Contains(got, "(maximum 7)") {
		t.Errorf("the players list shows no maximum hand size: %q", got)
	}
	// Each player's statuses: Bo (who has not answered) is still deciding.
	if got := ada.Text(`.ct-player[data-player="` + multiplayer.Eval[string](bo, `window.storyloomRooms.game.you`) + `"] .ct-statuses`); got != "Deciding on a mulligan" {
		t.Errorf("Bo's statuses on Ada's table read %q", got)
	}
	// The room does not allow undo: the table offers none.
	if n := ada.Count("#ct-undo"); n != 0 {
		t.Errorf("a room without undo offers undo (%d buttons)", n)
	}
	if got := ada.Text("#card-table .facts"); !strings.Contains(got, "Starter duel") {
		t.Errorf("the table's header names no format: %q", got)
	}
	ada.Click(".ct-stops summary")
	ada.Click(`[data-key="stop-stops-end"]`)
	ada.WaitFor(`(window.storyloomRooms.game.stops || []).includes("end") && window.storyloomRooms.game.own_turn_stops.includes("precombat_main")`, cardWait)
	ada.Axe("card table")
	ada.Shot("table-desktop")
	// The table in the dark theme passes axe-core's contrast checks too.
	ada.Click("#theme-toggle")
	ada.WaitFor(`document.documentElement.dataset.theme === "dark"`, cardWait)
	ada.Axe("card table, dark")
	ada.Shot("table-dark")
	ada.Click("#theme-toggle")
	ada.WaitFor(`document.documentElement.dataset.theme === "light"`, cardWait)
	bo.Do(chromedp.EmulateViewport(390, 844))
	bo.Shot("table-phone")
	if w := multiplayer.Eval[int](bo, `document.documentElement.scrollWidth`); w > 400 {
		t.Errorf("the phone layout is %d px wide", w)
	}
	cy.Shot("table-spectator")

	if !readCards(ada).Over {
		ada.Click("#ct-concede")
		ada.WaitFor(`document.getElementById("ct-concede-yes") !== null`, cardWait)
		ada.Click("#ct-concede-yes")
	}
	for _, p := range []*multiplayer.Tab{ada, bo, cy} {
		p.WaitFor(`document.getElementById("ct-result") !== null`, cardWait)
	}
	if got := bo.Text("#ct-result-h"); !strings.Contains(got, "won") {
		t.Errorf("Bo's result says %q", got)
	}
	ada.Axe("result")
	ada.Shot("result")
}

// shownCard is a card the catalog browser lists: its functional id, name,
// and cost and type line as it shows them ("{1}{G} Creature — Elf").
type shownCard struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Hint string `json:"hint"`
}

// catalogShows lists the cards the tab's catalog browser shows.
func catalogShows(t *testing.T, p *multiplayer.Tab) []shownCard {
	var out []shownCard
	raw := multiplayer.Eval[string](p, `JSON.stringify([...document.querySelectorAll(".catalog li")].map((li) =>
	  ({ id: li.dataset.card, name: li.querySelector(".ct-name").textContent, hint: li.querySelector(".hint").textContent.trim() })))`)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// choose picks value in the tab's select sel, as a player would.
func choose(p *multiplayer.Tab, sel, value string) {
	p.Do(chromedp.SetValue(chromedp.CSS(sel), value))
	multiplayer.Eval[bool](p, fmt.Sprintf(`(document.querySelector(%q).dispatchEvent(new Event("change")), true)`, sel))
}

// manaValue is a shown cost's mana value ("{1}{G}" is 2).
func manaValue(cost string) int {
	n := 0
	for _, m := range regexp.MustCompile(`\{([^}]*)\}`).FindAllStringSubmatch(cost, -1) {
		if v, err := strconv.Atoi(m[1]); err == nil {
			n += v
		} else if m[1] != "X" {
			n++
		}
	}
	return n
}

// buildDeck has p, at a starter-1v1 seat with the catalog browser open,
// filter it (colour, type, cost, name: every card shown matches) and build
// a deck of 40 green cards by its + buttons. The browser has no submit
// button: the server checks the deck as it grows, so the deck is accepted
// by itself once legal; a fifth copy of a card is refused (copy_limit)
// and taking it out again makes the deck legal again.
func buildDeck(t *testing.T, p *multiplayer.Tab) {
	t.Helper()
	// Each filter narrows the list to the cards it names, the count
	// following.
	choose(p, "#f-colour", "G")
	p.WaitFor(`document.querySelectorAll(".catalog li").length > 0`, cardWait)
	green := catalogShows(t, p)
	choose(p, "#f-type", "creature")
	p.WaitFor(fmt.Sprintf(`document.querySelectorAll(".catalog li").length < %d`, len(green)), cardWait)
	creatures := catalogShows(t, p)
	choose(p, "#f-cost", "2")
	p.WaitFor(fmt.Sprintf(`document.querySelectorAll(".catalog li").length < %d`, len(creatures)), cardWait)
	shown := catalogShows(t, p)
	for _, c := range shown {
		cost, typeLine, _ := strings.Cut(c.Hint, " ")
		if !strings.Contains(cost, "G") || manaValue(cost) != 2 || !strings.Contains(typeLine, "Creature") {
			t.Errorf("filtered to green creatures of mana value 2, the catalog shows %s: %q", c.Name, c.Hint)
		}
	}
	for _, c := range creatures {
		cost, typeLine, _ := strings.Cut(c.Hint, " ")
		if !strings.Contains(cost, "G") || !strings.Contains(typeLine, "Creature") {
			t.Errorf("filtered to green creatures, the catalog shows %s: %q", c.Name, c.Hint)
		}
	}
	if got := p.Text(".builder > .hint"); len(shown) == 0 || !strings.HasPrefix(got, fmt.Sprintf("%d cards shown · your deck: 0 cards (40 needed)", len(shown))) {
		t.Errorf("the builder's count reads %q with %d cards shown", got, len(shown))
	}
	p.Axe("deck builder")
	p.Shot("deck-builder")
	choose(p, "#f-type", "")
	choose(p, "#f-cost", "")
	p.WaitFor(fmt.Sprintf(`document.querySelectorAll(".catalog li").length === %d`, len(green)), cardWait)
	// The name filter keeps the green cards whose name has the text
	// typed. The list is drawn again on every key, the field keeping the
	// focus.
	part := strings.ToLower(green[0].Name[:3])
	p.Do(chromedp.Focus(chromedp.CSS("#f-name")), chromedp.KeyEvent(part))
	p.WaitFor(fmt.Sprintf(`document.getElementById("f-name").value === %q`, part), cardWait)
	named := catalogShows(t, p)
	want := 0
	for _, c := range green {
		if strings.Contains(strings.ToLower(c.Name), part) {
			want++
		}
	}
	if len(named) != want || want == len(green) {
		t.Errorf("the name filter %q shows %d of the %d green cards, want the %d whose name has it", part, len(named), len(green), want)
	}
	t.Logf("green: %d cards, creatures %d, of mana value 2 %d; with %q in the name %d", len(green), len(creatures), len(shown), part, len(named))
	multiplayer.Eval[bool](p, `(() => { const el = document.getElementById("f-name"); el.value = ""; el.dispatchEvent(new Event("input")); return true; })()`)
	p.WaitFor(fmt.Sprintf(`document.querySelectorAll(".catalog li").length === %d`, len(green)), cardWait)
	// Four copies of four spells and 24 Forests.
	var spells []string
	forest := ""
	for _, c := range catalogShows(t, p) {
		switch {
		case c.Name == "Forest":
			forest = c.ID
		case !strings.Contains(c.Hint, "Land") && len(spells) < 4:
			spells = append(spells, c.ID)
		}
	}
	if forest == "" || len(spells) < 4 {
		t.Fatalf("the green catalog has no Forest (%q) or fewer than four spells (%q)", forest, spells)
	}
	add := func(id string, n int) {
		for range n {
			p.Click(fmt.Sprintf(`[data-key="add-%s"]`, id))
		}
	}
	for _, id := range spells {
		add(id, 4)
	}
	add(forest, 24)
	p.WaitFor(`document.getElementById("deck-status").textContent.startsWith("Deck accepted") && !document.getElementById("deck-error")`, cardWait)
	add(spells[0], 1)
	p.WaitFor(`document.getElementById("deck-error")?.textContent.includes("copy_limit")`, cardWait)
	p.Click(fmt.Sprintf(`[data-key="rm-%s"]`, spells[0]))
	p.WaitFor(`document.getElementById("deck-status").textContent.startsWith("Deck accepted") && !document.getElementById("deck-error")`, cardWait)
}

// TestCardDuel plays a whole starter-1v1 game in two browser contexts on
// the native host (multiplayer.PlayCardDuel): mulligan, a land taken back
// with Undo, mana payment, targets, a counterspell on the stack, combat
// with a block, a mid-resolution choice, a reload back to the same view,
// moves by taps on a phone, a spectator, to Bo's win. The host's
// ids come from a fixed secret, so the seed, and with it the game, is
// the same on every run.
func TestCardDuel(t *testing.T) {
	need(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := roomServerWith(t, reg, true, &rooms.DerivedIDs{Secret: "card duel"})
	multiplayer.PlayCardDuel(t, suite.b, multiplayer.CardOptions{Base: base, Transport: "ws"})
}

// TestCardCommander plays a four-seat commander game, one human and three
// AI seats, to its result in the browser (multiplayer.PlayCommander), with
// the host's ids from a fixed secret. After every view the human's page is
// scanned for the AI seats' hidden cards, read from the host's state
// (hostSecrets).
func TestCardCommander(t *testing.T) {
	need(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	base, _, h := roomHost(t, reg, true, nil, &rooms.DerivedIDs{Secret: "card commander"})
	multiplayer.PlayCommander(t, suite.b, multiplayer.CardOptions{Base: base, Transport: "ws", Secrets: hostSecrets(t, h, reg)})
}

// hostSecrets reads, for multiplayer.CardOptions.Secrets, what the host h
// hides from a player from its own state (h.Snapshot, not any view it
// sends): the cards in the other seats' hands, as their owners' views show
// them, the names of the cards in their libraries, and the spectators'
// view for the public table.
func hostSecrets(t *testing.T, h *hosting.Rooms, reg *rooms.Registry) func(roomID, viewer string) multiplayer.Secrets {
	cat, _, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	return func(roomID, viewer string) multiplayer.Secrets {
		t.Helper()
		snap, err := h.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		st, err := rooms.DecodeState(snap)
		if err != nil {
			t.Fatal(err)
		}
		r := st.Rooms[roomID]
		if r == nil || r.Match == nil {
			t.Fatalf("the host has no game in room %q", roomID)
		}
		g, _ := reg.Game(r.Config.GameSetup)
		pos, err := g.Load(r.Match.State)
		if err != nil {
			t.Fatal(err)
		}
		var state rules.State
		if err := json.Unmarshal(r.Match.State, &state); err != nil {
			t.Fatal(err)
		}
		var s multiplayer.Secrets
		for seat := range r.Seats {
			if rooms.PlayerID(seat) == viewer {
				continue
			}
			var own struct {
				MyHand []multiplayer.CardFace `json:"my_hand"`
			}
			b, _ := json.Marshal(pos.View(seat))
			if err := json.Unmarshal(b, &own); err != nil {
				t.Fatal(err)
			}
			s.Cards = append(s.Cards, own.MyHand...)
			for _, id := range state.Players[seat].Library {
				d, ok := cat.Card(id)
				if !ok {
					t.Fatalf("a library holds %q, which the catalog lacks", id)
				}
				s.Names = append(s.Names, d.Name)
			}
		}
		pub, _ := json.Marshal(pos.View(rooms.Spectator))
		s.Public = string(pub)
		return s
	}
}

// TestCardUndo plays undo at a starter-1v1 table whose room allows it on
// the native host (multiplayer.PlayCardUndo): a land taken back shows the
// earlier table to both players, the game plays on, and after the result
// undo is disabled and the host refuses it.
func TestCardUndo(t *testing.T) {
	need(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := roomServerWith(t, reg, true, &rooms.DerivedIDs{Secret: "card undo"})
	multiplayer.PlayCardUndo(t, suite.b, multiplayer.CardOptions{Base: base, Transport: "ws"})
}

// TestCardReconnect cuts the players' WebSockets at the native host
// mid-game (multiplayer.PlayCardReconnect): each page says it is
// reconnecting, comes back by itself to the same seat, view and table,
// and play goes on.
func TestCardReconnect(t *testing.T) {
	need(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	base, cut := roomServerWith(t, reg, true, &rooms.DerivedIDs{Secret: "card reconnect"})
	multiplayer.PlayCardReconnect(t, suite.b, multiplayer.CardOptions{Base: base, Transport: "ws", Cut: cut})
}

// TestCardPhone plays a whole starter-1v1 game against an AI pilot on a
// phone-sized, touch screen against the native host
// (multiplayer.PlayCardPhone): every tap must be in reach without
// scrolling the page sideways.
func TestCardPhone(t *testing.T) {
	need(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := roomServerWith(t, reg, true, &rooms.DerivedIDs{Secret: "card phone"})
	multiplayer.PlayCardPhone(t, suite.b, multiplayer.CardOptions{Base: base, Transport: "ws"})
}
