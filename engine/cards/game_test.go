package cards_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards"
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// shipped returns the shipped catalog and preconstructed decks.
func shipped(t testing.TB) (*card.Catalog, []deck.Precon) {
	t.Helper()
	cat, precons, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cat, precons
}

// TestGamesFormats checks the three formats as the lobby and the match
// see them.
func TestGamesFormats(t *testing.T) {
	cat, _ := shipped(t)
	games := cards.Games(cat)
	tests := []struct {
		id         string
		min, max   int
		commander  bool
		minDeck    int
		maxCopies  int
		identityOn bool
	}{
		{id: deck.StarterDuel, min: 2, max: 2, minDeck: 40, maxCopies: 4},
		{id: deck.FreeForAll, min: 3, max: 4, minDeck: 40, maxCopies: 4},
		{id: deck.Commander, min: 2, max: 4, commander: true, minDeck: 40, maxCopies: 1, identityOn: true},
	}
	if len(games) != len(tests) {
		t.Fatalf("%d games", len(games))
	}
	for i, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			f := games[i].Format()
			if f.ID != tc.id || f.MinSeats != tc.min || f.MaxSeats != tc.max || f.Commander != tc.commander ||
				f.Deck == nil || f.Deck.MinDeckSize != tc.minDeck || f.Deck.MaxCopies != tc.maxCopies ||
				f.Deck.RequiresCommander != tc.commander || f.Deck.EnforceColorIdentity != tc.identityOn ||
				len(f.Deck.Cards) != len(cat.Cards()) {
				t.Fatalf("format = %+v, deck rules = %+v", f, f.Deck)
			}
			if !slices.Equal(f.Phases, rules.Phases()) || !slices.Equal(f.DefaultStops, []string{"precombat_main", "postcombat_main"}) ||
				f.LogWindow != cards.LogWindow || f.SettleSteps != cards.SettleSteps {
				t.Fatalf("match settings = %v %v %d %d", f.Phases, f.DefaultStops, f.LogWindow, f.SettleSteps)
			}
			if _, rej := f.Deck.Check([]string{"nothing"}, ""); rej == nil {
				t.Fatal("a one-card deck of an unknown card passes")
			}
		})
	}
	if _, err := rooms.NewRegistry(games...); err != nil {
		t.Fatal(err)
	}
}

// randomAnswer fills every slot of a with a legal-looking answer from h.
func randomAnswer(a rooms.Action, h *rng.Handle) []rooms.TargetChoice {
	var out []rooms.TargetChoice
	pick := func(slot string, cands []string, n int) {
		c := slices.Clone(cands)
		for i := len(c) - 1; i > 0; i-- {
			j := h.Intn(i + 1)
			c[i], c[j] = c[j], c[i]
		}
		out = append(out, rooms.TargetChoice{Slot: slot, Chosen: c[:n]})
	}
	for _, r := range a.Requirements {
		if len(r.Candidates) > 0 && (!r.Optional || h.Intn(2) == 0) {
			pick(r.Slot, r.Candidates, 1+h.Intn(min(max(r.Count, 1), len(r.Candidates))))
		}
	}
	spent := map[string]bool{}
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptOption:
			out = append(out, rooms.TargetChoice{Slot: p.Slot, Chosen: []string{p.Options[h.Intn(len(p.Options))].ID}})
		case rooms.PromptNumber:
			out = append(out, rooms.TargetChoice{Slot: p.Slot, Chosen: []string{strconv.Itoa(*p.Min + h.Intn(*p.Max-*p.Min+1))}})
		case rooms.PromptOrder:
			pick(p.Slot, p.Items, len(p.Items))
		case rooms.PromptPayMana:
			for _, c := range p.ManaCandidates {
				if !spent[c.Source] {
					spent[c.Source] = true
					out = append(out, rooms.TargetChoice{Slot: p.Slot, Chosen: []string{c.ID}})
					break
				}
			}
		default:
			lo := p.Least()
			pick(p.Slot, p.Candidates, lo+h.Intn(p.Count-lo+1))
		}
	}
	return out
}

// table drives a rooms.Server hosting the card game for the test's seats.
// With restore set (the registry s hosts), every command is also sent to
// a copy of s restored from its bytes just before it (so the game too is
// loaded from its state), which must answer with the same frames and
// changes: every game a table plays is also played with a save and a
// restore between every input.
type table struct {
	t       testing.TB
	s       *rooms.Server
	restore *rooms.Registry
	ids     *rooms.DerivedIDs
	now     int64
	views   map[string]json.RawMessage           // latest game view per connection
	games   map[string]*gameFrame                // the same, decoded
	sent    int                                  // frames seen
	room    string                               // the room the lobby frames last named
	over    bool                                 // a game view carried a result
	col     *collector                           // when set, keeps the frames showing new fields
	scan    func([]rooms.Outbound, []*gameFrame) // when set, sees every batch of frames and its decoded game frames
}

// gameFrame is what the tests read of every game frame, decoded once;
// its valid actions are decoded when asked for (table.actions).
type gameFrame struct {
	Result       *rooms.Result   `json:"result"`
	MyHand       []wireCard      `json:"my_hand"`
	Revealed     []wireCard      `json:"revealed"`
	ValidActions json.RawMessage `json:"valid_actions"`
	acts         []rooms.Action
}

func (tb *table) feed(out []rooms.Outbound, _ rooms.Changes) {
	tb.t.Helper()
	if tb.games == nil {
		tb.games = map[string]*gameFrame{}
	}
	decoded := make([]*gameFrame, len(out))
	for i, o := range out {
		tb.sent++
		if tb.col != nil {
			tb.col.add(tb.t, o.Kind, o.Frame)
		}
		switch o.Kind {
		case rooms.KindLobby:
			var v struct {
				Room *rooms.RoomView `json:"room"`
			}
			if json.Unmarshal(o.Frame, &v) == nil && v.Room != nil {
				tb.room = v.Room.RoomID
			}
		case rooms.KindGame:
			v := &gameFrame{}
			if err := json.Unmarshal(o.Frame, v); err != nil {
				tb.t.Fatalf("%s's game frame: %v", o.Conn, err)
			}
			tb.views[o.Conn], tb.games[o.Conn], decoded[i] = o.Frame, v, v
			tb.over = tb.over || v.Result != nil
		}
	}
	if tb.scan != nil {
		tb.scan(out, decoded)
	}
}

// actions returns the valid actions of conn's latest game frame.
func (tb *table) actions(conn string) []rooms.Action {
	v := tb.games[conn]
	if v == nil || v.ValidActions == nil {
		return nil
	}
	if v.acts == nil {
		if err := json.Unmarshal(v.ValidActions, &v.acts); err != nil {
			tb.t.Fatalf("%s's valid actions: %v", conn, err)
		}
	}
	return v.acts
}

func (tb *table) send(conn string, c rooms.Command) {
	tb.t.Helper()
	b, err := rooms.EncodeCommand(c)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.now += 50
	if tb.restore == nil {
		tb.feed(tb.s.Receive(conn, b, tb.now, tb.ids))
		return
	}
	saved, err := tb.s.Marshal()
	if err != nil {
		tb.t.Fatal(err)
	}
	r, err := rooms.Restore(saved, tb.restore)
	if err != nil {
		tb.t.Fatalf("restore: %v", err)
	}
	ids := *tb.ids
	out, ch := tb.s.Receive(conn, b, tb.now, tb.ids)
	rout, rch := r.Receive(conn, b, tb.now, &ids)
	if !reflect.DeepEqual(out, rout) || !reflect.DeepEqual(ch, rch) || ids != *tb.ids {
		tb.t.Fatalf("%s's %T: the restored server answered\n%s\nnot\n%s", conn, c, framesOf(rout), framesOf(out))
	}
	tb.feed(out, ch)
}

// framesOf lists out's frames for a failure message.
func framesOf(out []rooms.Outbound) string {
	var b strings.Builder
	for _, o := range out {
		fmt.Fprintf(&b, "%s %s %s\n", o.Conn, o.Kind, o.Frame)
	}
	return b.String()
}

// TestPlayThroughRooms seats two humans with preconstructed decks in each
// two-seat format and plays random answers through the room machine: the
// card game runs as a rooms.Game, the human settle passes idle seats, and
// a commander game says so in its views.
func TestPlayThroughRooms(t *testing.T) {
	cat, precons := shipped(t)
	reg, err := rooms.NewRegistry(cards.Games(cat)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{deck.StarterDuel, deck.Commander} {
		t.Run(id, func(t *testing.T) {
			f, _ := deck.FormatByID(id)
			decks := deck.For(precons, f, cat)
			if len(decks) < 2 {
				t.Fatalf("%d decks for %s", len(decks), id)
			}
			tb := &table{t: t, s: rooms.New(reg, rooms.Limits{}), restore: reg, ids: &rooms.DerivedIDs{Secret: id},
				now: 1_000_000, views: map[string]json.RawMessage{}}
			for _, c := range []string{"a", "b"} {
				tb.now += 10
				tb.feed(tb.s.Connect(c, tb.now, tb.ids))
			}
			tb.send("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: id}})
			tb.send("b", rooms.JoinRoom{RoomID: tb.room})
			for i, c := range []string{"a", "b"} {
				tb.send(c, rooms.SubmitDeck{Cards: decks[i].Cards, Commander: decks[i].Commander})
				tb.send(c, rooms.Ready{Ready: true})
			}
			h := rng.For(id, rng.System("test", 0))
			passedFor, payMana := false, false
			for step := 0; step < 300 && !tb.over; step++ {
				moved := false
				for _, c := range []string{"a", "b"} {
					var v struct {
						Format          *rooms.MatchFormat     `json:"format"`
						AutoPassedSteps []rooms.AutoPassedStep `json:"auto_passed_steps"`
						ValidActions    []rooms.Action         `json:"valid_actions"`
					}
					if err := json.Unmarshal(tb.views[c], &v); err != nil {
						t.Fatalf("%s's view: %v", c, err)
					}
					if want := id == deck.Commander; v.Format == nil || v.Format.Commander != want {
						t.Fatalf("format = %+v", v.Format)
					}
					passedFor = passedFor || len(v.AutoPassedSteps) > 0
					if len(v.ValidActions) == 0 {
						continue
					}
					acts := slices.DeleteFunc(slices.Clone(v.ValidActions), func(a rooms.Action) bool { return a.Type == "concede" })
					if len(acts) == 0 {
						continue
					}
					a := acts[h.Intn(len(acts))]
					for _, p := range a.Prompts {
						payMana = payMana || p.Kind == rooms.PromptPayMana
					}
					tb.send(c, rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Targets: randomAnswer(a, h)})
					moved = true
					break
				}
				if !moved {
					t.Fatalf("step %d: nobody is asked anything and the game is not over", step)
				}
			}
			if !passedFor || !payMana {
				t.Fatalf("after the random play: auto-passed %v, pay_mana offered %v", passedFor, payMana)
			}
		})
	}
}
