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

// cardHost serves a native host on a real socket and returns its
// WebSocket URL, the clock it reads, and the preconstructed decks legal in
// format id.
func cardHost(t *testing.T, id string) (string, *atomic.Int64, []deck.Precon) {
	t.Helper()
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
	f, _ := deck.FormatByID(id)
	now := &atomic.Int64{}
	now.Store(1_780_000_000_000)
	host, err := hoststore.OpenHost(context.Background(), hoststore.HostConfig{
		Path: filepath.Join(t.TempDir(), "host.db"), Clock: now.Load})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	mux := http.NewServeMux()
	for p, hd := range host.Handlers() {
		mux.Handle(p, hd)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/rooms/ws", now, deck.For(precons, f, cat)
}

// cardTable is a card game's human clients on the native host.
type cardTable struct {
	t       *testing.T
	now     *atomic.Int64
	clients []*benchClient
	format  string
}

// seatCards has the first client create a room of format (seats seats), the
// others join, the AIs of kind ai fill the remaining seats, everyone
// submits a deck (decks[i] for seat i) and readies.
func seatCards(t *testing.T, url string, now *atomic.Int64, format string, seats, humans int, ai string, decks []deck.Precon) *cardTable {
	t.Helper()
	tb := &cardTable{t: t, now: now, format: format}
	for range humans {
		c := dialBench(t, url)
		c.waitFor(t, func(v benchView, _ int64) bool { return v.Session != "" })
		tb.clients = append(tb.clients, c)
	}
	host := tb.clients[0]
	host.send(t, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: seats, GameSetup: format}})
	var id string
	host.waitFor(t, func(v benchView, _ int64) bool {
		if v.Room != nil {
			id = v.Room.RoomID
		}
		return v.Room != nil
	})
	for i, c := range tb.clients[1:] {
		c.send(t, rooms.JoinRoom{RoomID: id})
		c.waitFor(t, func(v benchView, _ int64) bool { return v.Room != nil && v.Room.Seats[i+1].OccupiedBy != "" })
	}
	for s := humans; s < seats; s++ {
		d := decks[s%len(decks)]
		host.send(t, rooms.AddAI{Seat: s, Kind: ai, Cards: d.Cards, Commander: d.Commander})
		host.waitFor(t, func(v benchView, _ int64) bool { return v.Room != nil && v.Room.Seats[s].AI != "" })
	}
	for i, c := range tb.clients {
		d := decks[i%len(decks)]
		c.send(t, rooms.SubmitDeck{Cards: d.Cards, Commander: d.Commander})
		c.waitFor(t, func(v benchView, _ int64) bool { return v.Room != nil && v.Room.Seats[i].Decked })
		c.send(t, rooms.Ready{Ready: true})
	}
	for _, c := range tb.clients {
		c.waitFor(t, func(v benchView, _ int64) bool { return v.You != "" && v.Session == "" })
	}
	return tb
}

// view decodes c's latest view and says how many views c has received.
func (tb *cardTable) view(c *benchClient) (cardView, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var v cardView
	if err := json.Unmarshal(c.view, &v); err != nil {
		tb.t.Fatalf("a game view does not decode: %v", err)
	}
	return v, c.frames
}

// next waits for c's view after its n-th.
func (tb *cardTable) next(c *benchClient, n int, what string) {
	deadline := time.Now().Add(60 * time.Second)
	for _, got := tb.view(c); got <= n; _, got = tb.view(c) {
		if time.Now().After(deadline) {
			tb.t.Fatalf("no view came for %s", what)
		}
		select {
		case <-c.wake:
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// play answers for the human clients until the game has a result and
// returns it with the number of moves and refused answers, whether a cast
// was paid through pay_mana, and whether the settle passed for a client.
func (tb *cardTable) play(limit int) (result *rooms.Result, moves, refusals int, paid, passedFor bool) {
	t := tb.t
	refused := map[string]bool{}
	for ; moves < limit && result == nil; moves++ {
		acted := false
		for _, c := range tb.clients {
			v, n := tb.view(c)
			if v.Format == nil || v.Format.ID != tb.format || v.Format.Commander != (tb.format == deck.Commander) {
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
			seen := make([]int, len(tb.clients))
			for i, o := range tb.clients {
				_, seen[i] = tb.view(o)
			}
			tb.now.Add(100)
			c.send(t, ca)
			tb.next(c, n, "the answer "+ca.ActionID)
			acted = true
			if v2, _ := tb.view(c); v2.ActionRejected {
				// The answer this client built was not legal (a choice
				// it does not understand): try something else.
				refused[ca.ActionID] = true
				refusals++
				break
			}
			// An accepted answer is broadcast: wait for every other
			// client's view too, so that no answer is sent from a stale one.
			for i, o := range tb.clients {
				if o != c {
					tb.next(o, seen[i], "another seat after "+ca.ActionID)
				}
			}
			break
		}
		if !acted && result == nil {
			t.Fatal("no client is asked anything and the game is not over")
		}
	}
	return result, moves, refusals, paid, passedFor
}

// TestCardGameOverWebSocket plays a starter-1v1 game of two WebSocket
// clients on the native host, with preconstructed decks, to its result:
// the host registers the card game, casts are paid through pay_mana, and
// the settle passes for the players between their stops.
func TestCardGameOverWebSocket(t *testing.T) {
	url, now, decks := cardHost(t, deck.StarterDuel)
	tb := seatCards(t, url, now, deck.StarterDuel, 2, 2, "", decks)
	result, moves, refusals, paid, passedFor := tb.play(1500)
	if result == nil {
		t.Fatalf("no result after %d moves", moves)
	}
	v, _ := tb.view(tb.clients[0])
	casts := 0
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

// TestCardGameWithAISeats plays a four-seat commander game of one
// WebSocket client against three pilot AI seats on the native host to
// its result.
func TestCardGameWithAISeats(t *testing.T) {
	url, now, decks := cardHost(t, deck.Commander)
	tb := seatCards(t, url, now, deck.Commander, 4, 1, "pilot", decks)
	result, moves, refusals, _, passedFor := tb.play(1500)
	if result == nil {
		t.Fatalf("no result after %d moves", moves)
	}
	if !passedFor {
		t.Fatal("the settle never passed for the human")
	}
	t.Logf("%d moves (%d answers refused), result %+v", moves, refusals, *result)
}
