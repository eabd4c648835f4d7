package ai

import (
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// position builds a rules state by hand for a scripted decision: seat 0
// is the pilot unless a test says otherwise.
type position struct {
	t     *testing.T
	cards rules.Cards
	st    rules.State
}

// newPosition seats n players at 20 life with ten-card libraries of
// islands, seat 0 active in its first main phase holding priority.
func newPosition(t *testing.T, cards rules.Cards, n int) *position {
	b := &position{t: t, cards: cards, st: rules.State{Config: rules.Config{Format: "starter-1v1", Life: 20},
		Seed: "scripted", Field: []rules.Perm{}, Stack: []rules.Item{}, Turn: 3, Step: rules.StepMain1,
		Dec: rules.Decision{Kind: rules.DecPriority}}}
	for i := 0; i < n; i++ {
		lib := make([]string, 10)
		for k := range lib {
			lib[k] = "island"
		}
		b.st.Players = append(b.st.Players, rules.Player{Life: 20, Library: lib, Hand: []rules.Card{},
			Grave: []rules.Card{}, Exile: []rules.Card{}})
	}
	return b
}

// mint returns a fresh object number.
func (b *position) mint() int {
	b.st.Next++
	return b.st.Next
}

// hand puts cards into seat's hand and returns their wire ids, as the
// seat's view shows them.
func (b *position) hand(seat int, ids ...string) []string {
	for _, id := range ids {
		if _, ok := b.cards.Def(id); !ok {
			b.t.Fatalf("no card %q", id)
		}
		b.st.Phys++
		b.st.Players[seat].Hand = append(b.st.Players[seat].Hand, rules.Card{N: b.st.Phys, ID: id})
	}
	var out []string
	mine := b.game().View(seat).(rules.View).MyHand
	for _, c := range mine[len(mine)-len(ids):] {
		out = append(out, c.ID)
	}
	return out
}

// perm puts a permanent onto the battlefield under seat and returns its
// wire id; edit adjusts it (tapped, attacking, damage…).
func (b *position) perm(seat int, id string, edit ...func(*rules.Perm)) string {
	if _, ok := b.cards.Def(id); !ok {
		b.t.Fatalf("no card %q", id)
	}
	n := b.mint()
	b.st.Phys++
	p := rules.Perm{N: n, Card: b.st.Phys, ID: id, Owner: seat, Ctrl: seat, TS: n}
	if d, _ := b.cards.Def(id); d.Loyalty != nil {
		p.Loyalty = *d.Loyalty
	}
	for _, e := range edit {
		e(&p)
	}
	b.st.Field = append(b.st.Field, p)
	return "perm_" + strconv.Itoa(n)
}

// lands puts n copies of land id onto the battlefield under seat.
func (b *position) lands(seat int, id string, n int) {
	for i := 0; i < n; i++ {
		b.perm(seat, id)
	}
}

// game loads the built state.
func (b *position) game() *rules.Game {
	b.t.Helper()
	data, err := canon.Marshal(&b.st)
	if err != nil {
		b.t.Fatal(err)
	}
	g, err := rules.Load(b.cards, data)
	if err != nil {
		b.t.Fatal(err)
	}
	return g
}

// choose asks kind for seat's choice in the built position, checks that
// the rules accept it, and returns it with the action it answers.
func (b *position) choose(kind string, seat int) (rooms.Choice, rooms.Action) {
	b.t.Helper()
	g := b.game()
	return decide(b.t, g, kind, seat)
}

// decide asks kind for seat's choice in g, applies it (the rules must
// accept it) and returns it with the action it answers.
func decide(t *testing.T, g *rules.Game, kind string, seat int) (rooms.Choice, rooms.Action) {
	t.Helper()
	acts := g.Actions(seat)
	if len(acts) == 0 {
		t.Fatalf("seat %d is asked nothing", seat)
	}
	c := Choose(kind, g, seat, acts, rng.For("scripted", rng.Agent(rooms.PlayerID(seat), 0)))
	var a rooms.Action
	for _, x := range acts {
		if x.ID == c.ActionID {
			a = x
		}
	}
	if _, err := g.Apply(seat, c); err != nil {
		t.Fatalf("%s choice %+v refused: %v", kind, c, err)
	}
	return c, a
}

// tapped, attacking and commander edit a permanent.
func tapped(p *rules.Perm) { p.Tapped = true }
func attacking(seat int) func(*rules.Perm) {
	return func(p *rules.Perm) { p.Attack = rooms.PlayerID(seat); p.Tapped = true }
}
func commander(p *rules.Perm) { p.Cmdr = true }

// itoa writes n.
func itoa(n int) string { return strconv.Itoa(n) }
