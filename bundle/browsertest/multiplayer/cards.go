package multiplayer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// CardOptions say which host the card-game scenarios ([PlayCardDuel],
// [PlayCommander]) play against.
type CardOptions struct {
	// Base is the site's root URL, ending in a slash; the rooms page is
	// Base + "rooms/".
	Base string
	// Transport is what the tabs settle on by themselves: "ws" on a host
	// with the WebSocket, "http" on one without.
	Transport string
	// Deadline bounds the whole game (10 minutes when zero). It only
	// bounds a wait: a passing run never comes near it.
	Deadline time.Duration
	// Cut, for [PlayCardReconnect], cuts every open WebSocket at the
	// host, as a network failure would.
	Cut func()
	// Secrets, for [PlayCommander], reads from the host's own state what
	// is hidden from the player viewer (a player id) in room roomID now:
	// the other seats' hands and libraries, and the public table.
	Secrets func(roomID, viewer string) Secrets
}

func (o CardOptions) allow() []string {
	if o.Transport != "ws" {
		return WebSocketRefused
	}
	return nil
}

func (o CardOptions) deadline() time.Time {
	d := o.Deadline
	if d <= 0 {
		d = 10 * time.Minute
	}
	return time.Now().Add(d)
}

// CardView is the part of a card-game view the scenarios play from.
type CardView struct {
	You            string         `json:"you"`
	Turn           int            `json:"turn"`
	Phase          string         `json:"phase"`
	ActivePlayer   string         `json:"active_player"`
	PriorityPlayer string         `json:"priority_player"`
	ValidActions   []rooms.Action `json:"valid_actions"`
	MyHand         []CardFace     `json:"my_hand"`
	Stack          []struct {
		ID         string    `json:"id"`
		Controller string    `json:"controller"`
		Card       *CardFace `json:"card"`
	} `json:"stack"`
	Battlefield []struct {
		ID         string   `json:"id"`
		Controller string   `json:"controller"`
		Card       CardFace `json:"card"`
		Attacking  bool     `json:"attacking"`
	} `json:"battlefield"`
	Log []struct {
		Sequence int            `json:"sequence"`
		Event    map[string]any `json:"event"`
	} `json:"log"`
	Opponents []struct {
		PlayerID string `json:"player_id"`
		Life     int    `json:"life"`
	} `json:"opponents"`
	CommanderTax []struct {
		Commander string `json:"commander"`
		Casts     int    `json:"casts"`
	} `json:"commander_tax"`
	Result    *rooms.Result `json:"result"`
	ActionAck *struct {
		Submission string `json:"submission"`
		Accepted   bool   `json:"accepted"`
	} `json:"action_ack"`
	ActionRejected bool `json:"action_rejected"`
	// Revealed are the cards a choice the seat owes shows it (the top of
	// a library for a scry).
	Revealed []CardFace `json:"revealed"`
}

// CardFace is a card as the views show it.
type CardFace struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	CardTypes []string `json:"card_types"`
}

// asked lists the actions the seat is asked for, concede aside.
func (v CardView) asked() []rooms.Action {
	return slices.DeleteFunc(slices.Clone(v.ValidActions), func(a rooms.Action) bool { return a.Type == "concede" })
}

// first returns the first asked action of one of the types.
func (v CardView) first(types ...string) (rooms.Action, bool) {
	for _, a := range v.asked() {
		if slices.Contains(types, a.Type) {
			return a, true
		}
	}
	return rooms.Action{}, false
}

// cast returns the cast action of the hand card named name.
func (v CardView) cast(name string) (rooms.Action, bool) {
	for _, a := range v.asked() {
		if a.Type != "cast_spell" || len(a.Subject) == 0 {
			continue
		}
		for _, c := range v.MyHand {
			if c.ID == a.Subject[0] && c.Name == name {
				return a, true
			}
		}
	}
	return rooms.Action{}, false
}

// creatures lists the ids of the creatures controller controls.
func (v CardView) creatures(controller string) []string {
	var out []string
	for _, p := range v.Battlefield {
		if p.Controller == controller && slices.Contains(p.Card.CardTypes, "creature") {
			out = append(out, p.ID)
		}
	}
	return out
}

// logged counts the log entries of type typ whose player is player ("" any).
func (v CardView) logged(typ, player string) int {
	n := 0
	for _, e := range v.Log {
		if e.Event["type"] == typ && (player == "" || e.Event["player"] == player) {
			n++
		}
	}
	return n
}

// cardView reads the tab's current card-game view: only the members
// [CardView] has, and of the log only each entry's sequence and its
// event's type and player, which is all the scenarios read of it.
func (tb *Tab) cardView() (CardView, bool) {
	var v *CardView
	raw := Eval[string](tb, cardViewJS)
	if err := json.Unmarshal([]byte(raw), &v); err != nil || v == nil {
		return CardView{}, false
	}
	return *v, true
}

// cardViewJS is what [Tab.cardView] reads, as JSON.
const cardViewJS = `(() => { const g = window.storyloomRooms?.game; if (!g) return "null";
  const { you, turn, phase, active_player, priority_player, valid_actions, my_hand, stack, battlefield, log, opponents,
    commander_tax, result, action_ack, action_rejected, revealed } = g;
  return JSON.stringify({ you, turn, phase, active_player, priority_player, valid_actions, my_hand, stack, battlefield,
    log: log?.map((e) => ({ sequence: e.sequence, event: { type: e.event?.type, player: e.event?.player } })), opponents,
    commander_tax, result, action_ack, action_rejected, revealed }); })()`

// Move is one answer a scenario gives through the page: an action and its
// answers by slot (omitted pay_mana, number and order slots keep the
// page's own suggestion), played with the mouse or the keyboard.
type Move struct {
	Action   rooms.Action
	Answers  map[string][]string
	Keyboard bool
	// OnBoard answers the requirement slots by clicking the permanents
	// on the board instead of the prompt panel's inputs.
	OnBoard bool
	// Before, when set, runs once the prompt panel is filled, before
	// Confirm (a screenshot, axe-core).
	Before func()
	// Done, when set, runs when the host accepts the move.
	Done func()
}

// Play makes move m through the page and waits for the host's answer:
// the view acknowledging it. It reports whether the host accepted it; a
// refused answer (the game had moved on) leaves the page on the current
// table. Every step is a click or a key press on what the page shows.
func (tb *Tab) Play(m Move) bool {
	tb.t.Helper()
	sent := Eval[int](tb, `window.storyloomRooms?.submission ?? 0`)
	press := func(sel, key string) {
		tb.t.Helper()
		var err error
		if m.Keyboard {
			err = tb.KeyPress(sel, key)
		} else {
			err = tb.TryClick(sel)
		}
		if err != nil {
			tb.t.Fatalf("%s: %s on %s for %s: %v%s", tb.Label, map[bool]string{true: "key", false: "click"}[m.Keyboard], sel, m.Action.ID, err, tb.P.Diagnosis())
		}
	}
	isSent := func() bool {
		return Eval[int](tb, `window.storyloomRooms.submission`) > sent
	}
	a := m.Action
	if tb.Count("#ct-prompt") > 0 {
		tb.Click(`#ct-prompt [data-key="ct-cancel"]`)
	}
	// Open the action: from its card or permanent when it has one on the
	// page, else from the action buttons.
	opened := false
	if len(a.Subject) > 0 && tb.Count(fmt.Sprintf(`button.ct-card[data-id=%q]:not(:disabled)`, a.Subject[0])) > 0 {
		press(fmt.Sprintf(`button.ct-card[data-id=%q]`, a.Subject[0]), "\r")
		opened = isSent() || tb.Count("#ct-prompt") > 0
	}
	if !opened {
		press(fmt.Sprintf(`button.act[data-action-id=%q]`, a.ID), "\r")
	}
	if !isSent() {
		tb.WaitFor(fmt.Sprintf(`document.querySelector("#ct-prompt h2")?.textContent === %q`, a.Label), settleLimit)
		for _, r := range a.Requirements {
			for _, id := range m.Answers[r.Slot] {
				if m.OnBoard && tb.Count(fmt.Sprintf(`button.ct-card[data-id=%q][aria-pressed="false"]`, id)) > 0 {
					press(fmt.Sprintf(`button.ct-card[data-id=%q][aria-pressed="false"]`, id), " ")
				} else {
					press(fmt.Sprintf(`#ct-prompt input[data-key=%q]:not(:checked)`, "slot-"+r.Slot+"-"+id), " ")
				}
			}
		}
		for _, p := range a.Prompts {
			ids, ok := m.Answers[p.Slot]
			if !ok {
				continue
			}
			switch p.Kind {
			case rooms.PromptOption, rooms.PromptSelectFromZone:
				for _, id := range ids {
					sel := fmt.Sprintf(`#ct-prompt input[data-key=%q]`, "slot-"+p.Slot+"-"+id)
					if Eval[bool](tb, fmt.Sprintf(`!document.querySelector(%q)?.checked`, sel)) {
						press(sel, " ")
					}
				}
			default: // pay_mana and number: the slot's select
				sel := fmt.Sprintf(`#ct-prompt select[data-key=%q]`, "slot-"+p.Slot)
				tb.Do(chromedp.SetValue(chromedp.CSS(sel), ids[0]))
				Eval[bool](tb, fmt.Sprintf(`(document.querySelector(%q).dispatchEvent(new Event("change")), true)`, sel))
			}
		}
		tb.WaitFor(`document.getElementById("ct-confirm") && !document.getElementById("ct-confirm").disabled`, settleLimit)
		if m.Before != nil {
			m.Before()
		}
		press("#ct-confirm", "\r")
	}
	tb.WaitFor(fmt.Sprintf(`window.storyloomRooms.submission > %d`, sent), settleLimit)
	sub := fmt.Sprintf("c%d", Eval[int](tb, `window.storyloomRooms.submission`))
	tb.WaitFor(fmt.Sprintf(`window.storyloomRooms.game?.action_ack?.submission === %q`, sub), settleLimit)
	return Eval[bool](tb, `window.storyloomRooms.game.action_ack.accepted === true`)
}

// answerAll answers every slot of a with its first candidates: a
// mid-resolution choice, a trigger's targets, a cleanup discard.
func answerAll(a rooms.Action) map[string][]string {
	ans := map[string][]string{}
	for _, r := range a.Requirements {
		if !r.Optional && len(r.Candidates) > 0 {
			ans[r.Slot] = r.Candidates[:1]
		}
	}
	for _, p := range a.Prompts {
		if p.Kind != rooms.PromptSelectFromZone {
			continue
		}
		n := max(p.Count, 1)
		if p.Min != nil {
			n = max(*p.Min, min(1, p.Count))
		}
		ans[p.Slot] = p.Candidates[:min(n, len(p.Candidates))]
	}
	return ans
}

// submitDeck submits the seat's deck in the room's deck panel: a
// preconstructed deck's id in one click, or a pasted list when deck has a
// line break.
func (tb *Tab) submitDeck(deck string) {
	tb.t.Helper()
	tb.WaitFor(`document.getElementById("deck-panel") !== null`, settleLimit)
	if strings.Contains(deck, "\n") {
		tb.Click(`[data-key="deck-tab-paste"]`)
		tb.WaitFor(`document.getElementById("deck-text") !== null`, settleLimit)
		Eval[bool](tb, fmt.Sprintf(`(() => { const el = document.getElementById("deck-text"); el.value = %q; el.dispatchEvent(new Event("input")); return true; })()`, deck))
		tb.Click(`[data-key="deck-submit-list"]`)
	} else {
		tb.WaitFor(fmt.Sprintf(`document.querySelector('[data-precon=%q]') !== null`, deck), settleLimit)
		tb.Click(fmt.Sprintf(`[data-precon=%q]`, deck))
	}
	tb.WaitFor(`document.getElementById("deck-status").textContent.startsWith("Deck accepted")`, settleLimit)
}

// tableRules are the room's rules a scenario chooses in the create form.
type tableRules struct {
	undo  bool // undo allowed
	clock int  // seconds per decision, 0 for no decision clock
}

// createCardRoom opens the rooms page and creates a room of format with
// seats seats under rules, and returns its id.
func (tb *Tab) createCardRoom(format string, seats int, rules tableRules) string {
	tb.t.Helper()
	tb.OpenRooms("rooms/")
	tb.WaitFor(fmt.Sprintf(`document.querySelector('#c-format option[value=%q]') !== null`, format), settleLimit)
	tb.Do(chromedp.SetValue(chromedp.CSS("#c-format"), format))
	Eval[bool](tb, `(document.getElementById("c-format").dispatchEvent(new Event("change")), true)`)
	tb.Do(chromedp.SetValue(chromedp.CSS("#c-seats"), fmt.Sprint(seats)))
	if rules.undo {
		tb.Click("#c-undo")
		tb.WaitFor(`document.getElementById("c-undo").checked`, settleLimit)
	}
	if rules.clock > 0 {
		tb.Do(chromedp.SetValue(chromedp.CSS("#c-clock"), fmt.Sprint(rules.clock)))
	}
	tb.Click(`[data-key="c-create"]`)
	tb.WaitFor(`!document.getElementById("room").hidden && window.storyloomRooms.lobby?.room != null`, settleLimit)
	return Eval[string](tb, `window.storyloomRooms.lobby.room.room_id`)
}

// joinRoom opens the room's link and takes a seat.
func (tb *Tab) joinRoom(roomID string) {
	tb.t.Helper()
	tb.OpenRooms("rooms/#room=" + roomID)
	tb.WaitFor(`!document.getElementById("invite").hidden`, settleLimit)
	tb.Click(`[data-key="invite-join"]`)
	tb.WaitFor(`!document.getElementById("room").hidden`, settleLimit)
}

// watchRoom opens the room's link and watches.
func (tb *Tab) watchRoom(roomID string) {
	tb.t.Helper()
	tb.OpenRooms("rooms/#room=" + roomID)
	tb.WaitFor(`!document.getElementById("invite").hidden`, settleLimit)
	tb.Click(`[data-key="invite-watch"]`)
	tb.WaitFor(`document.querySelector('#table[data-mode="spectator"]') !== null && !document.getElementById("card-table").hidden`, settleLimit)
}

// addAI seats an AI player of kind from the room's form (with the
// format's next shipped deck, which the form picks) and waits until the
// room has seated AI seats.
func (tb *Tab) addAI(kind string, seated int) {
	tb.t.Helper()
	tb.WaitFor(`document.getElementById("ai-kind") !== null`, settleLimit)
	tb.Do(chromedp.SetValue(chromedp.CSS("#ai-kind"), kind))
	Eval[bool](tb, `(document.getElementById("ai-kind").dispatchEvent(new Event("change")), true)`)
	tb.Click(`[data-key="ai-add"]`)
	tb.WaitFor(fmt.Sprintf(`document.querySelectorAll('#room li.seat.ai').length === %d`, seated), settleLimit)
}

// atTable waits for the card table.
func (tb *Tab) atTable() {
	tb.t.Helper()
	tb.WaitFor(`document.querySelector('main[data-screen="table"]') !== null && !document.getElementById("card-table").hidden`, settleLimit)
}

// seatPolicy chooses a seat's next move from its view; ok is false when
// it has none to make (not asked, or waiting).
type seatPolicy func(v CardView) (Move, bool)

// player is one seat the scenario plays through a tab.
type player struct {
	tab      *Tab
	policy   seatPolicy
	refused  int
	accepted int
	moves    int
}

// step makes the player's next move, if it has one, and reports whether
// it acted.
func (p *player) step(t *testing.T) bool {
	t.Helper()
	v, ok := p.tab.cardView()
	return ok && p.stepFrom(t, v)
}

// stepFrom is step from v, the view the player's tab shows now.
func (p *player) stepFrom(t *testing.T, v CardView) bool {
	t.Helper()
	if v.Result != nil {
		return false
	}
	m, ok := p.policy(v)
	if !ok {
		return false
	}
	p.moves++
	if p.tab.Play(m) {
		p.accepted++
		if m.Done != nil {
			m.Done()
		}
	} else {
		p.refused++
		if p.refused > 20 {
			t.Fatalf("%s: the host refused %d answers; the last was %s", p.tab.Label, p.refused, m.Action.ID)
		}
	}
	return true
}

// recordAnnouncements records, in window.storyloomSaid, everything the
// page's live region (#announce) says from now on.
const recordAnnouncements = `(() => { const el = document.getElementById("announce"); window.storyloomSaid = [];
  new MutationObserver(() => { if (el.textContent) window.storyloomSaid.push(el.textContent); })
    .observe(el, { childList: true, characterData: true, subtree: true });
  return true; })()`

// duelDeck is the control deck Ada pastes for [PlayCardDuel]: counters,
// a creature whose arrival asks a mid-resolution choice (scry), a
// targeted burn spell and creatures that can block.
const duelDeck = `# Tidehall control
4 Unravel
4 Tidehall Apprentice
4 Ember Lash
4 Sift the Archive
4 Mistwing Heron
4 Cinder Imp
9 Island
8 Mountain
`

// duelGoals are what [PlayCardDuel] must see happen through the pages.
type duelGoals struct {
	Mulligan, Payment, ChangedPayment, Target, Counter, Block, Choice, Revealed, Attack bool
}

func (g duelGoals) missing() []string {
	var out []string
	for name, ok := range map[string]bool{"a mulligan with a card bottomed": g.Mulligan, "a mana payment": g.Payment,
		"a changed mana payment": g.ChangedPayment, "a targeted spell": g.Target, "a counterspell on the stack": g.Counter,
		"a block": g.Block, "a mid-resolution choice": g.Choice, "an attack": g.Attack,
		"revealed cards shown only while their choice is owed": g.Revealed} {
		if !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// commonMove answers what every seat answers the same way: a trigger's
// targets, a mid-resolution choice, a cleanup discard, the order of
// combat damage (the page's order). It returns false for other decisions.
func commonMove(v CardView, keyboard bool, goals *duelGoals) (Move, bool) {
	if a, ok := v.first("choose_targets", "player_choice", "discard", "order_combat_damage"); ok {
		m := Move{Action: a, Answers: answerAll(a), Keyboard: keyboard}
		if a.Type == "player_choice" && goals != nil {
			m.Done = func() { goals.Choice = true }
		}
		return m, true
	}
	return Move{}, false
}

// changedPayment answers a cast's pay_mana slots with another source than
// the page suggests for one pip, when the cast has one to spare; the
// other slots keep the suggestion.
func changedPayment(a rooms.Action) (map[string][]string, bool) {
	used := map[string]bool{}
	var slots []rooms.Prompt
	suggested := map[string]string{}
	for _, p := range a.Prompts {
		if p.Kind != rooms.PromptPayMana {
			continue
		}
		slots = append(slots, p)
		for _, c := range p.ManaCandidates {
			if !used[c.Source] {
				used[c.Source] = true
				suggested[p.Slot] = c.Source
				break
			}
		}
	}
	for _, p := range slots {
		for _, c := range p.ManaCandidates {
			if !used[c.Source] {
				return map[string][]string{p.Slot: {c.ID}}, true
			}
		}
	}
	return nil, false
}

func hasPayment(a rooms.Action) bool {
	return hasPrompt(a, rooms.PromptPayMana)
}

// PlayCardDuel plays a whole starter-1v1 game between two browser
// contexts against the host at o.Base, in a room that allows undo, every
// answer a click, a tap or a key press on the rooms page. Ada pastes a
// blue-red control list, Bo takes the Thornwild Stampede precon in one
// click; Cy watches. Ada takes a mulligan (bottoming a card), plays her
// first land and takes it back with Undo before she plays it again
// ([landTakenBack]), pays mana (once with another source than the page
// suggests), aims Ember Lash at Bo's creature by clicking it on the board,
// counters one of Bo's spells with Unravel while it is on the stack,
// blocks one attack and answers Tidehall Apprentice's scry as it resolves
// (the cards it reveals shown on her page only while the choice is owed,
// never on another page: [revealedWhileOwed]); Bo attacks with everything
// by the keyboard and never blocks, so Bo wins. Mid-game Bo reloads and is
// back in his seat with the same view and table ([backInSeat]); later Ada
// makes six moves on a phone, by taps ([Tab.Phone], [phoneTable]). After
// every move no page has shown a card in another seat's hand ([NoLeak];
// the spectator's none at all); Ada's live region says the steps, whose
// priority, the spells cast and the damage; axe-core checks the table, a
// prompt and the result.
func PlayCardDuel(t *testing.T, b *browsertest.Browser, o CardOptions) {
	t.Helper()
	ada, bo, roomID := seatDuel(t, b, o, duelDeck, tableRules{undo: true})
	cy := NewTab(t, b, "cy", o.Base, o.allow()...)
	cy.watchRoom(roomID)
	Eval[bool](ada, recordAnnouncements)

	va, _ := ada.cardView()
	vb, _ := bo.cardView()
	adaID, boID := va.You, vb.You
	var g duelGoals
	prompted := false
	ap := &player{tab: ada}
	ap.policy = func(v CardView) (Move, bool) {
		if a, ok := v.first("mulligan_decision"); ok {
			if v.logged("mulligan", adaID) == 0 {
				return Move{Action: a, Answers: map[string][]string{"decision": {"mulligan"}}, Keyboard: true}, true
			}
			ans := map[string][]string{"decision": {"keep"}}
			for _, p := range a.Prompts {
				if p.Slot == "bottom" {
					ans["bottom"] = p.Candidates[len(p.Candidates)-p.Count:]
				}
			}
			return Move{Action: a, Answers: ans, Keyboard: true, Done: func() { g.Mulligan = len(ans["bottom"]) > 0 }}, true
		}
		if m, ok := commonMove(v, false, &g); ok {
			if m.Action.Type == "player_choice" && len(v.Revealed) > 0 {
				revealedWhileOwed(t, &m, v.Revealed, ada, []*Tab{bo, cy}, &g)
			}
			return m, true
		}
		if a, ok := v.first("declare_blockers"); ok {
			ans := map[string][]string{}
			if !g.Block {
				for _, r := range a.Requirements {
					if len(r.Candidates) > 0 {
						ans[r.Slot] = r.Candidates[:1]
						break
					}
				}
			}
			return Move{Action: a, Answers: ans, Done: func() { g.Block = g.Block || len(ans) > 0 }}, true
		}
		if a, ok := v.first("declare_attackers"); ok {
			return Move{Action: a, Answers: map[string][]string{}}, true
		}
		if _, ok := v.first("pass_priority"); !ok {
			return Move{}, false
		}
		// Bo's spell on the stack: counter it.
		if n := len(v.Stack); n > 0 && v.Stack[n-1].Controller == boID && !g.Counter {
			if a, ok := v.cast("Unravel"); ok && len(a.Requirements) > 0 && slices.Contains(a.Requirements[0].Candidates, v.Stack[n-1].ID) {
				return Move{Action: a, Answers: map[string][]string{a.Requirements[0].Slot: {v.Stack[n-1].ID}}, Done: func() { g.Payment = true }, Before: func() {
					if !prompted {
						prompted = true
						ada.Shot("card-prompt")
						ada.Axe("card prompt")
					}
				}}, true
			}
		}
		if len(v.Stack) == 0 && v.ActivePlayer == adaID && strings.HasSuffix(v.Phase, "main") {
			if a, ok := v.first("play_land"); ok {
				return Move{Action: a}, true
			}
			if bos := v.creatures(boID); len(bos) > 0 {
				if a, ok := v.cast("Ember Lash"); ok {
					return Move{Action: a, Answers: map[string][]string{a.Requirements[0].Slot: bos[:1]}, OnBoard: true, Done: func() { g.Target, g.Payment = true, true }}, true
				}
			}
			for _, name := range []string{"Tidehall Apprentice", "Mistwing Heron", "Cinder Imp"} {
				if a, ok := v.cast(name); ok {
					ans := map[string][]string{}
					changed := false
					if pay, ok := changedPayment(a); ok && !g.ChangedPayment {
						ans, changed = pay, true
					}
					return Move{Action: a, Answers: ans, Done: func() { g.Payment, g.ChangedPayment = true, g.ChangedPayment || changed }}, true
				}
			}
		}
		a, _ := v.first("pass_priority")
		return Move{Action: a}, true
	}
	bp := &player{tab: bo}
	bp.policy = func(v CardView) (Move, bool) {
		if a, ok := v.first("mulligan_decision"); ok {
			return Move{Action: a, Answers: map[string][]string{"decision": {"keep"}}}, true
		}
		if m, ok := commonMove(v, true, &g); ok {
			return m, true
		}
		if a, ok := v.first("declare_attackers"); ok {
			ans := map[string][]string{}
			if len(a.Requirements) > 0 && len(a.Requirements[0].Candidates) > 0 {
				ans[a.Requirements[0].Slot] = a.Requirements[0].Candidates
			}
			return Move{Action: a, Answers: ans, Keyboard: true, OnBoard: true, Done: func() { g.Attack = g.Attack || len(ans) > 0 }}, true
		}
		if a, ok := v.first("declare_blockers"); ok {
			return Move{Action: a, Answers: map[string][]string{}, Keyboard: true}, true
		}
		if _, ok := v.first("pass_priority"); !ok {
			return Move{}, false
		}
		if len(v.Stack) == 0 && v.ActivePlayer == boID && strings.HasSuffix(v.Phase, "main") {
			if a, ok := v.first("play_land"); ok {
				return Move{Action: a, Keyboard: true}, true
			}
			for _, a := range v.asked() {
				if a.Type == "cast_spell" && len(a.Requirements) == 0 && hasPayment(a) {
					return Move{Action: a, Keyboard: true}, true
				}
			}
		}
		a, _ := v.first("pass_priority")
		return Move{Action: a, Keyboard: true}, true
	}

	deadline := o.deadline()
	undone, reloaded, shot := false, false, false
	phone := -1 // Ada's accepted moves when she took to the phone; -2 once done
	for {
		va, _ = ada.cardView()
		vb, _ = bo.cardView()
		if va.Result != nil && vb.Result != nil {
			break
		}
		if time.Now().After(deadline) {
			ada.Shot("card-timeout")
			t.Fatalf("the duel did not end in time: turn %d, %d and %d moves, still missing %v", va.Turn, ap.moves, bp.moves, g.missing())
		}
		g.Counter = g.Counter || va.logged("spell_countered", boID) > 0
		// Ada's first land is taken back once, then played again.
		fresh := true // va is what Ada's page shows now
		if _, ok := va.first("play_land"); ok && !undone && len(va.Stack) == 0 && va.ActivePlayer == adaID && strings.HasSuffix(va.Phase, "main") {
			undone, fresh = true, false
			landTakenBack(t, ada, bo, cy)
		}
		// After every move, every view each page shows is scanned.
		acted := false
		for _, p := range []*player{ap, bp} {
			var moved bool
			if p == ap && fresh {
				moved = p.stepFrom(t, va)
			} else {
				moved = p.step(t)
			}
			if moved {
				acted = true
				NoLeak(t, []*Tab{ada, bo}, cy)
			}
		}
		if !shot && va.Turn >= 3 && len(va.Battlefield) > 2 {
			shot = true
			ada.Shot("card-table")
			ada.Axe("card table mid-game")
			cy.Shot("card-spectator")
		}
		if !reloaded && g.Attack {
			reloaded = true
			settle(t, ada, bo, cy)
			backInSeat(t, []*Tab{bo}, []*Tab{ada, cy}, "a reload", func() { bo.Do(chromedp.Reload()) })
		}
		// Once the table is busy, Ada plays six moves on a phone, by taps.
		switch {
		case phone == -1 && reloaded && shot:
			phone = ap.accepted
			ada.Phone()
			phoneTable(t, ada, "card-phone")
		case phone >= 0 && ap.accepted >= phone+6:
			phone = -2
			ada.Desktop()
		}
		if !acted {
			// Neither seat is asked: the host is settling, or a frame is
			// on its way. Look again shortly.
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("the duel ended on turn %d after %d and %d moves (%d and %d refused as stale); result %+v",
		va.Turn, ap.moves, bp.moves, ap.refused, bp.refused, *va.Result)
	if phone >= 0 {
		ada.Desktop()
	}
	if !undone || phone == -1 {
		t.Errorf("the duel ended before Ada took a land back (%v) or played on a phone (%v)", undone, phone != -1)
	}
	if m := g.missing(); len(m) > 0 {
		t.Errorf("the duel ended without %s", strings.Join(m, ", "))
	}
	// The live region said what changed: a step, whose priority, a spell
	// cast, damage.
	said := strings.Join(Eval[[]string](ada, `window.storyloomSaid`), "\n")
	for _, want := range []string{"Turn 3, ", "has priority.", "You may act.", " casts ", " damage to "} {
		if !strings.Contains(said, want) {
			t.Errorf("Ada's live region never said %q; it said:\n%.2000s", want, said)
		}
	}
	if va.Result.Winner != boID {
		t.Errorf("the winner is %q, want Bo (%s)", va.Result.Winner, boID)
	}
	for _, p := range []*Tab{ada, bo, cy} {
		p.WaitFor(`document.getElementById("ct-result") !== null`, settleLimit)
	}
	if got := bo.Text("#ct-result-h"); !strings.Contains(got, "won") {
		t.Errorf("Bo's result says %q", got)
	}
	ada.Shot("card-result")
	ada.Axe("card result")
}

// lowestLife returns, of the player ids in cands, the one whose life in v
// is lowest (the first on a tie), or cands[0] when none is a player.
func lowestLife(v CardView, cands []string) string {
	best, life := "", 0
	for _, id := range cands {
		for _, o := range v.Opponents {
			if o.PlayerID == id && (best == "" || o.Life < life) {
				best, life = id, o.Life
			}
		}
	}
	if best == "" && len(cands) > 0 {
		return cands[0]
	}
	return best
}

// pickCommander has the tab, at a commander seat with no deck yet, choose
// the card named name as its commander in the catalog browser, found by
// typing part in its name filter. The server checks the deck as it grows:
// the card added alone is refused for want of a commander
// (missing_commander); picked by its commander button it is refused only
// for the deck's size (below_minimum), so the choice went with the deck.
func (tb *Tab) pickCommander(t *testing.T, part, name string) {
	t.Helper()
	tb.WaitFor(`document.getElementById("deck-panel") !== null`, settleLimit)
	tb.Click(`[data-key="deck-tab-build"]`)
	tb.WaitFor(`document.getElementById("f-name") !== null`, settleLimit)
	tb.Do(chromedp.Focus(chromedp.CSS("#f-name")), chromedp.KeyEvent(part))
	find := fmt.Sprintf(`[...document.querySelectorAll(".catalog li")].find((li) => li.querySelector(".ct-name").textContent === %q)?.dataset.card`, name)
	tb.WaitFor(find, settleLimit)
	id := Eval[string](tb, find)
	tb.Click(fmt.Sprintf(`[data-key="add-%s"]`, id))
	tb.WaitFor(`document.getElementById("deck-error")?.textContent.includes("missing_commander")`, settleLimit)
	tb.Click(fmt.Sprintf(`[data-key="cmd-%s"]`, id))
	tb.WaitFor(`document.getElementById("deck-error")?.textContent.includes("below_minimum")`, settleLimit)
	if got := tb.Text(".builder > .hint"); !strings.Contains(got, "your deck: 1 cards") {
		t.Errorf("%s: picked as commander, the card added before counts again: %q", tb.Label, got)
	}
}

// commanderList is the shipped commander deck id as a list to paste: its
// commander on a "Commander: Name" line (which counts as its one copy),
// every other card on a "1 Name" line.
func commanderList(t *testing.T, id string) string {
	t.Helper()
	cat, precons, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range precons {
		if p.ID != id {
			continue
		}
		name := func(fid string) string {
			d, ok := cat.Card(fid)
			if !ok {
				t.Fatalf("deck %s holds %q, which the catalog lacks", id, fid)
			}
			return d.Name
		}
		lines := []string{"# " + p.Name, "Commander: " + name(p.Commander)}
		rest := slices.Clone(p.Cards)
		rest = slices.Delete(rest, slices.Index(rest, p.Commander), slices.Index(rest, p.Commander)+1)
		for _, c := range rest {
			lines = append(lines, "1 "+name(c))
		}
		return strings.Join(lines, "\n") + "\n"
	}
	t.Fatalf("no shipped deck %q", id)
	return ""
}

// PlayCommander plays a four-seat commander game against the host at
// o.Base: Ada, the only human, picks Brakka as her commander in the
// catalog browser ([Tab.pickCommander]), then pastes the Wildfire
// Chieftain deck with a "Commander:" line ([commanderList]), and fills the other seats with AI players of both kinds (each with a shipped
// commander deck, from the lobby's form), then plays to the result: she
// keeps, plays a land and casts her creatures (her commander from the
// command zone, from the action list: it has no card button), attacks with
// everything at the opponent with the least life, and never blocks. The
// table shows the AI seats, the commanders and the result. After every
// view her page draws, it is scanned for the AI seats' hidden cards as
// o.Secrets reads them from the host ([Tab.shows]): no id or name of a
// card in their hands, no name of a card in their libraries unless a card
// of that name is public or hers to see.
func PlayCommander(t *testing.T, b *browsertest.Browser, o CardOptions) {
	t.Helper()
	if o.Secrets == nil {
		t.Fatal("PlayCommander needs CardOptions.Secrets")
	}
	ada := NewTab(t, b, "ada", o.Base, o.allow()...)
	roomID := ada.createCardRoom("commander", 4, tableRules{})
	ada.Connected(o.Transport)
	ada.pickCommander(t, "brakka", "Brakka, Wildfire Chieftain")
	ada.submitDeck(commanderList(t, "wildfire_chieftain"))
	if got := ada.Text("#deck-status"); !strings.Contains(got, "commander Brakka, Wildfire Chieftain") {
		t.Errorf("the accepted deck's status names no commander: %q", got)
	}
	for i, kind := range []string{"pilot", "random", "pilot"} {
		ada.addAI(kind, i+1)
	}
	ada.Shot("commander-lobby")
	ada.Click("#ready")
	ada.atTable()
	v, _ := ada.cardView()
	me := v.You
	if n := ada.Count(`.ct-player .badge`); n == 0 || !strings.Contains(ada.Text(".ct-players"), "AI: Pilot") || !strings.Contains(ada.Text(".ct-players"), "AI: Random") {
		t.Errorf("the players list does not name the AI seats: %q", ada.Text(".ct-players"))
	}
	// The AI seats move only when Ada does (the host plays them before it
	// answers her), so the host's state is the one her latest view shows.
	scans, secrets := 0, 0
	scan := func() {
		t.Helper()
		s := o.Secrets(roomID, me)
		if leak := ada.shows(s, false); leak != "" {
			t.Fatalf("Ada's page shows a card hidden from her: %s", leak)
		}
		scans++
		secrets += len(s.Cards) + len(s.Names)
	}
	scan()
	fromCommand := false
	ps := &plainSeat{me: me}
	ap := &player{tab: ada, policy: ps.policy}
	deadline := o.deadline()
	shot := false
	for {
		v, _ = ada.cardView()
		if v.Result != nil {
			break
		}
		if time.Now().After(deadline) {
			ada.Shot("commander-timeout")
			t.Fatalf("the commander game did not end in time: turn %d, %d moves", v.Turn, ap.moves)
		}
		for _, c := range v.CommanderTax {
			fromCommand = fromCommand || c.Casts > 0
		}
		if !shot && v.Turn >= 8 {
			shot = true
			ada.Shot("commander-table")
			ada.Axe("commander table")
		}
		if ap.stepFrom(t, v) {
			scan()
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	scan()
	t.Logf("the commander game ended on turn %d after %d moves by Ada (%d casts, %d refused as stale); result %+v; her page scanned %d times for %d hidden cards in all",
		v.Turn, ap.moves, ps.cast, ap.refused, *v.Result, scans, secrets)
	if ps.cast == 0 || !ps.attacked || !fromCommand {
		t.Errorf("Ada cast %d spells, attacked: %v, cast her commander: %v", ps.cast, ps.attacked, fromCommand)
	}
	ada.WaitFor(`document.getElementById("ct-result") !== null`, settleLimit)
	if !strings.Contains(ada.Text("#card-table"), "Commanders") {
		t.Error("the table shows no commanders")
	}
	ada.Shot("commander-result")
	ada.Axe("commander result")
}

// plainSeat plays a seat plainly: it keeps its hand, answers triggers and
// mid-resolution choices with their first candidates, plays a land and
// casts every spell that needs no target and no number in its main
// phases, attacks with everything (each attacker at the opponent with the
// least life) and never blocks. Its casts alternate between the mouse and
// the keyboard, and it keeps, declines to block and passes by the
// keyboard, unless touch says the seat is on a phone: then every move is a
// tap.
type plainSeat struct {
	me       string
	touch    bool
	cast     int  // spells cast
	attacked bool // an attack declared
}

func (s *plainSeat) policy(v CardView) (Move, bool) {
	kb := !s.touch
	if a, ok := v.first("mulligan_decision"); ok {
		return Move{Action: a, Answers: map[string][]string{"decision": {"keep"}}, Keyboard: kb}, true
	}
	if m, ok := commonMove(v, false, nil); ok {
		return m, true
	}
	if a, ok := v.first("declare_attackers"); ok {
		ans := map[string][]string{}
		for _, r := range a.Requirements {
			if r.Slot == "attackers" {
				ans[r.Slot] = r.Candidates
			}
		}
		for _, r := range a.Requirements {
			if strings.HasPrefix(r.Slot, "defender:") && len(r.Candidates) > 0 {
				ans[r.Slot] = []string{lowestLife(v, r.Candidates)}
			}
		}
		return Move{Action: a, Answers: ans, Done: func() { s.attacked = s.attacked || len(ans["attackers"]) > 0 }}, true
	}
	if a, ok := v.first("declare_blockers"); ok {
		return Move{Action: a, Answers: map[string][]string{}, Keyboard: kb}, true
	}
	pass, ok := v.first("pass_priority")
	if !ok {
		return Move{}, false
	}
	if len(v.Stack) == 0 && v.ActivePlayer == s.me && strings.HasSuffix(v.Phase, "main") {
		if a, ok := v.first("play_land"); ok {
			return Move{Action: a}, true
		}
		for _, a := range v.asked() {
			if a.Type == "cast_spell" && len(a.Requirements) == 0 && hasPayment(a) && !hasPrompt(a, rooms.PromptNumber) {
				return Move{Action: a, Keyboard: kb && s.cast%2 == 1, Done: func() { s.cast++ }}, true
			}
		}
	}
	return Move{Action: pass, Keyboard: kb}, true
}

func hasPrompt(a rooms.Action, kind string) bool {
	for _, p := range a.Prompts {
		if p.Kind == kind {
			return true
		}
	}
	return false
}

// revealedWhileOwed makes move m, a choice that reveals cards to the
// chooser's tab, check that the chooser's page shows those cards while the
// choice is owed, and that no other page does; and, once the host has
// accepted the answer, that the chooser's page no longer shows them.
func revealedWhileOwed(t *testing.T, m *Move, revealed []CardFace, chooser *Tab, others []*Tab, g *duelGoals) {
	ids := make([]string, len(revealed))
	for i, c := range revealed {
		ids[i] = c.ID
	}
	list, _ := json.Marshal(ids)
	before, done := m.Before, m.Done
	m.Before = func() {
		if before != nil {
			before()
		}
		chooser.WaitFor(fmt.Sprintf(`%s.every((id) => document.querySelector('#main [data-revealed="' + id + '"]') !== null)`, list), settleLimit)
		s := Secrets{Cards: revealed, Public: publicTable(others)}
		for _, o := range others {
			if leak := o.shows(s, true); leak != "" {
				t.Errorf("%s's page shows a card revealed only to %s: %s", o.Label, chooser.Label, leak)
			}
		}
	}
	m.Done = func() {
		if done != nil {
			done()
		}
		chooser.WaitFor(fmt.Sprintf(`!%s.some((id) => document.getElementById("main").outerHTML.includes('"' + id + '"'))`, list), settleLimit)
		g.Revealed = true
	}
}
