package hoststore_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hoststore"
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// cardView is what the card-game client reads of a game view.
type cardView struct {
	Format          *rooms.MatchFormat     `json:"format"`
	ValidActions    []rooms.Action         `json:"valid_actions"`
	Result          *rooms.Result          `json:"result"`
	AutoPassedSteps []rooms.AutoPassedStep `json:"auto_passed_steps"`
	ActionRejected  bool                   `json:"action_rejected"`
	Log             []struct {
		Event struct {
			Type string `json:"type"`
		} `json:"event"`
	} `json:"log"`
}

// preference ranks action types for the test's aggressive client: keep,
// play a land, cast, attack with everything, pass.
var preference = []string{"mulligan_decision", "play_land", "cast_spell", "declare_attackers", "pass_priority"}

// pickCard chooses one of v's actions, but none refused before, and
// answers every slot: the first candidates, an unspent source for each
// pip, keep on a mulligan, all attackers, no blockers.
func pickCard(v cardView, refused map[string]bool) (rooms.ChooseAction, bool) {
	acts := slices.DeleteFunc(slices.Clone(v.ValidActions), func(a rooms.Action) bool { return a.Type == "concede" || refused[a.ID] })
	if len(acts) == 0 {
		return rooms.ChooseAction{}, false
	}
	rank := func(a rooms.Action) int {
		if i := slices.Index(preference, a.Type); i >= 0 {
			return i
		}
		return len(preference)
	}
	a := slices.MinFunc(acts, func(x, y rooms.Action) int { return rank(x) - rank(y) })
	ca := rooms.ChooseAction{ActionID: a.ID, Token: a.Token}
	answer := func(slot string, ids []string) {
		ca.Targets = append(ca.Targets, rooms.TargetChoice{Slot: slot, Chosen: ids})
	}
	// Optional slots owed an answer: those a chosen option requires, and
	// the defender of every attacker when there is more than one target.
	owed := map[string]bool{}
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptOption {
			for _, o := range p.Options {
				if o.ID == pickOption(p) {
					for _, r := range o.Requires {
						owed[r] = true
					}
				}
			}
		}
	}
	for _, q := range a.Requirements {
		switch {
		case a.Type == "declare_attackers" && q.Slot == "attackers":
			answer(q.Slot, q.Candidates)
			for _, c := range q.Candidates {
				owed["defender:"+c] = true
			}
		case (!q.Optional || owed[q.Slot]) && len(q.Candidates) > 0:
			answer(q.Slot, q.Candidates[:1])
		}
	}
	spent := map[string]bool{}
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptOption:
			answer(p.Slot, []string{pickOption(p)})
		case rooms.PromptNumber:
			answer(p.Slot, []string{strconv.Itoa(*p.Min)})
		case rooms.PromptOrder:
			answer(p.Slot, p.Items)
		case rooms.PromptPayMana:
			for _, c := range p.ManaCandidates {
				if !spent[c.Source] {
					spent[c.Source] = true
					answer(p.Slot, []string{c.ID})
					break
				}
			}
		default:
			n := p.Count
			if p.Min != nil {
				n = *p.Min
			}
			answer(p.Slot, p.Candidates[:n])
		}
	}
	return ca, true
}

// pickOption keeps a hand, else takes the first option.
func pickOption(p rooms.Prompt) string {
	if slices.ContainsFunc(p.Options, func(o rooms.Option) bool { return o.ID == "keep" }) {
		return "keep"
	}
	return p.Options[0].ID
}

// TestCardGameOverWebSocket plays a starter-1v1 game of two WebSocket
// clients on the native host, with preconstructed decks, to its result:
// the host registers the card game, casts are paid through pay_mana, and
// the settle passes for the players between their stops.
func TestCardGameOverWebSocket(t *testing.T) {
	files, err := cardgame.CardFiles()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := card.NewCatalog(files...)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := cardgame.FS.ReadFile("decks.json")
	precons, err := deck.LoadPrecons(raw, cat)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := deck.FormatByID(deck.StarterDuel)
	decks := deck.For(precons, f, cat)

	var now atomic.Int64
	now.Store(1_780_000_000_000)
	host, err := hoststore.OpenHost(context.Background(), hoststore.HostConfig{
		Path: filepath.Join(t.TempDir(), "host.db"), Clock: now.Load})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	mux := http.NewServeMux()
	for p, hd := range host.Handlers() {
		mux.Handle(p, hd)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/rooms/ws"

	a, b := dialBench(t, url), dialBench(t, url)
	for _, c := range []*benchClient{a, b} {
		c.waitFor(t, func(v benchView, _ int64) bool { return v.Session != "" })
	}
	a.send(t, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: deck.StarterDuel}})
	var id string
	a.waitFor(t, func(v benchView, _ int64) bool {
		if v.Room != nil {
			id = v.Room.RoomID
		}
		return v.Room != nil
	})
	b.send(t, rooms.JoinRoom{RoomID: id})
	for i, c := range []*benchClient{a, b} {
		c.send(t, rooms.SubmitDeck{Cards: decks[i].Cards})
		c.waitFor(t, func(v benchView, _ int64) bool { return v.Room != nil && v.Room.Seats[i].Decked })
		c.send(t, rooms.Ready{Ready: true})
	}
	for _, c := range []*benchClient{a, b} {
		c.waitFor(t, func(v benchView, _ int64) bool { return v.You != "" && v.Session == "" })
	}

	// view decodes c's latest view and says how many c has received.
	view := func(c *benchClient) (cardView, int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		var v cardView
		if err := json.Unmarshal(c.view, &v); err != nil {
			t.Fatalf("a game view does not decode: %v", err)
		}
		return v, c.frames
	}
	// next waits for c's view after its n-th.
	next := func(c *benchClient, n int, what string) {
		deadline := time.Now().Add(60 * time.Second)
		for _, got := view(c); got <= n; _, got = view(c) {
			if time.Now().After(deadline) {
				t.Fatalf("no view came for %s", what)
			}
			select {
			case <-c.wake:
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	moves, casts, paid, passedFor := 0, 0, false, false
	refused, refusals := map[string]bool{}, 0
	var result *rooms.Result
	for ; moves < 1500 && result == nil; moves++ {
		acted := false
		for _, c := range []*benchClient{a, b} {
			v, n := view(c)
			if v.Format == nil || v.Format.ID != deck.StarterDuel || v.Format.Commander {
				t.Fatalf("format = %+v", v.Format)
			}
			passedFor = passedFor || len(v.AutoPassedSteps) > 0
			if v.Result != nil {
				result = v.Result
				break
			}
			ca, ok := pickCard(v, refused)
			if !ok {
				continue
			}
			for _, act := range v.ValidActions {
				paid = paid || act.ID == ca.ActionID && slices.ContainsFunc(act.Prompts, func(p rooms.Prompt) bool { return p.Kind == rooms.PromptPayMana })
			}
			other := map[*benchClient]*benchClient{a: b, b: a}[c]
			_, otherN := view(other)
			now.Add(100)
			c.send(t, ca)
			next(c, n, "the answer "+ca.ActionID)
			if v2, _ := view(c); v2.ActionRejected {
				// The answer this client built was not legal (a choice
				// it does not understand): try something else.
				refused[ca.ActionID] = true
				refusals++
				acted = true
				break
			}
			// An accepted answer is broadcast: wait for the other seat's
			// view too, so that no answer is sent from a stale one.
			next(other, otherN, "the other seat after "+ca.ActionID)
			acted = true
			break
		}
		if !acted && result == nil {
			t.Fatal("neither seat is asked anything and the game is not over")
		}
	}
	if result == nil {
		t.Fatal("no result after 1500 moves")
	}
	v, _ := view(a)
	for _, e := range v.Log {
		if e.Event.Type == "spell_cast" {
			casts++
		}
	}
	if result.Reason == "" || len(result.Losers) != 1 || casts == 0 || !paid || !passedFor {
		t.Fatalf("result %+v, casts in the log window %d, paid through pay_mana %v, auto-passed %v", result, casts, paid, passedFor)
	}
	t.Logf("%d moves (%d answers refused), result %+v", moves, refusals, *result)
}
