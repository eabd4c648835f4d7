package roomsclient

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// Precons returns the shipped preconstructed decks legal in format id.
func Precons(t testing.TB, id string) []deck.Precon {
	t.Helper()
	cat, precons, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := deck.FormatByID(id)
	if !ok {
		t.Fatalf("no format %q", id)
	}
	return deck.For(precons, f, cat)
}

// CardView is what the card-game client reads of a game view.
type CardView struct {
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

// Logged counts the entries of the view's log window of type typ.
func (v CardView) Logged(typ string) int {
	n := 0
	for _, e := range v.Log {
		if e.Event.Type == typ {
			n++
		}
	}
	return n
}

// preference ranks action types for the card client's aggressive play:
// keep, play a land, cast, attack with everything, pass.
var preference = []string{"mulligan_decision", "play_land", "cast_spell", "declare_attackers", "pass_priority"}

// PickCard chooses one of v's actions, but none refused before, and
// answers every slot: the first candidates, an unspent source for each
// pip, keep on a mulligan, all attackers, no blockers.
func PickCard(v CardView, refused map[string]bool) (rooms.ChooseAction, bool) {
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
			if p.Min != nil { // a slot past the cost's need: only a larger X than the client picks
				continue
			}
			for _, c := range p.ManaCandidates {
				if !spent[c.Source] {
					spent[c.Source] = true
					answer(p.Slot, []string{c.ID})
					break
				}
			}
		default:
			n := p.Least()
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

// CardSeat is one human client of a card game, whatever carries its
// frames.
type CardSeat interface {
	// View returns the latest game view and how many views have come.
	View() ([]byte, int)
	// Await waits for a view after the n-th, failing the test after its
	// bound; what names the wait.
	Await(n int, what string)
	// Send sends one command.
	Send(c rooms.Command)
}

// CardPlay is the outcome of [PlayCards].
type CardPlay struct {
	// Result is the game's result (nil when the move limit came first).
	Result *rooms.Result
	// Moves and Refusals count the answers sent and those refused.
	Moves, Refusals int
	// Paid says a cast was paid through a pay_mana prompt; PassedFor that
	// the settle passed for a client between its stops.
	Paid, PassedFor bool
}

// PlayCards answers for the human seats of a card game of format until it
// has a result or limit answers were sent. Each answer is the acting
// seat's [PickCard]; before it, tick (when set) runs, for a host whose
// clock the test drives. An accepted answer is awaited on every seat, so
// that no answer is sent from a stale view; a refused one is not offered
// again.
func PlayCards(t testing.TB, seats []CardSeat, format string, commander bool, limit int, tick func()) CardPlay {
	t.Helper()
	var out CardPlay
	view := func(s CardSeat) (CardView, int) {
		b, n := s.View()
		var v CardView
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("a game view does not decode: %v: %.300s", err, b)
		}
		return v, n
	}
	refused := map[string]bool{}
	for ; out.Moves < limit && out.Result == nil; out.Moves++ {
		acted := false
		for _, s := range seats {
			v, n := view(s)
			if v.Format == nil || v.Format.ID != format || v.Format.Commander != commander {
				t.Fatalf("format = %+v", v.Format)
			}
			out.PassedFor = out.PassedFor || len(v.AutoPassedSteps) > 0
			if v.Result != nil {
				out.Result = v.Result
				break
			}
			ca, ok := PickCard(v, refused)
			if !ok {
				continue
			}
			for _, act := range v.ValidActions {
				out.Paid = out.Paid || act.ID == ca.ActionID && slices.ContainsFunc(act.Prompts, func(p rooms.Prompt) bool { return p.Kind == rooms.PromptPayMana })
			}
			seen := make([]int, len(seats))
			for i, o := range seats {
				_, seen[i] = o.View()
			}
			if tick != nil {
				tick()
			}
			s.Send(ca)
			s.Await(n, "the answer "+ca.ActionID)
			acted = true
			if v2, _ := view(s); v2.ActionRejected {
				// The answer this client built was not legal (a choice
				// it does not understand): try something else.
				refused[ca.ActionID] = true
				out.Refusals++
				break
			}
			for i, o := range seats {
				if o != s {
					o.Await(seen[i], "another seat after "+ca.ActionID)
				}
			}
			break
		}
		if !acted && out.Result == nil {
			t.Fatal("no client is asked anything and the game is not over")
		}
	}
	return out
}

// Ended fails t unless p ended with a result, the settle having passed
// for a human client between its stops.
func (p CardPlay) Ended(t testing.TB) {
	t.Helper()
	if p.Result == nil {
		t.Fatalf("no result after %d answers", p.Moves)
	}
	if !p.PassedFor {
		t.Fatal("the settle never passed for a human client")
	}
}

// EndedDuel is Ended for a duel of two human clients: the result also
// has its reason and one loser, the log window of first's latest view
// holds a spell cast, and a cast was paid through a pay_mana prompt.
func (p CardPlay) EndedDuel(t testing.TB, first CardSeat) {
	t.Helper()
	p.Ended(t)
	b, _ := first.View()
	var v CardView
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("the last view does not decode: %v: %.300s", err, b)
	}
	if casts := v.Logged("spell_cast"); p.Result.Reason == "" || len(p.Result.Losers) != 1 || casts == 0 || !p.Paid {
		t.Fatalf("result %+v, casts in the log window %d, paid through pay_mana %v", p.Result, casts, p.Paid)
	}
}

// CardClient is a human client of a card game before its game starts,
// whatever carries its frames.
type CardClient interface {
	// Send sends one command.
	Send(c rooms.Command)
	// WaitRoom waits for a lobby view whose room ok accepts, failing the
	// test after its bound; what names the wait.
	WaitRoom(what string, ok func(r *rooms.RoomView) bool)
}

// SeatCards has the first of clients create a room of format with seats
// seats, the others join it, AI seats of kind ai fill the rest, and every
// client submits a deck (decks[i] for seat i, round the list) and readies.
// The game starts then; awaiting its first view is the caller's.
func SeatCards(clients []CardClient, format string, seats int, ai string, decks []deck.Precon) {
	host := clients[0]
	host.Send(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: seats, GameSetup: format}})
	var id string
	host.WaitRoom("a room", func(r *rooms.RoomView) bool { id = r.RoomID; return true })
	for i, c := range clients[1:] {
		c.Send(rooms.JoinRoom{RoomID: id})
		c.WaitRoom("a seat", func(r *rooms.RoomView) bool { return r.Seats[i+1].OccupiedBy != "" })
	}
	for s := len(clients); s < seats; s++ {
		d := decks[s%len(decks)]
		host.Send(rooms.AddAI{Seat: s, Kind: ai, Cards: d.Cards, Commander: d.Commander})
		host.WaitRoom("an AI seat", func(r *rooms.RoomView) bool { return r.Seats[s].AI != "" })
	}
	for i, c := range clients {
		d := decks[i%len(decks)]
		c.Send(rooms.SubmitDeck{Cards: d.Cards, Commander: d.Commander})
		c.WaitRoom("a deck", func(r *rooms.RoomView) bool { return r.Seats[i].Decked })
		c.Send(rooms.Ready{Ready: true})
	}
}
