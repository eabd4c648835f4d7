package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
)

// pileIDs lists the card ids of a zone pile of a view.
func pileIDs(piles []ZonePile, player string) []string {
	var out []string
	for _, p := range piles {
		if p.PlayerID == player {
			for _, c := range p.Cards {
				out = append(out, c.ID)
			}
		}
	}
	return out
}

// permOf finds the permanent of a view by its id.
func permOf(v View, id string) (PermanentView, bool) {
	for _, p := range v.Battlefield {
		if p.ID == id {
			return p, true
		}
	}
	return PermanentView{}, false
}

func TestPhysicalCardFollowsTheCardThroughZones(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "forest", 2)
	g.put(0, "swamp")
	g.putN(1, "mountain", 2)
	bear := g.give(0, "bear")
	raise := g.give(0, "raise")
	lash := g.give(1, "ember_lash")

	// hand → stack: the spell is a new object naming its card
	cast(t, g, 0, bear, nil)
	for seat := range 2 {
		v := g.View(seat).(View)
		it := v.Stack[0]
		if it.PhysicalCard != bear || it.ID == bear || it.Card.ID != it.ID {
			t.Fatalf("seat %d sees the spell as %+v, card %s", seat, it, bear)
		}
	}
	// stack → battlefield
	resolve(t, g)
	perm := permID(g.st.Field[len(g.st.Field)-1].N)
	for seat := range 2 {
		p, ok := permOf(g.View(seat).(View), perm)
		if !ok || p.PhysicalCard != bear || p.ID == bear {
			t.Fatalf("seat %d sees the permanent as %+v, card %s", seat, p, bear)
		}
	}
	// an ability on the stack names no card
	pinger := permID(g.put(0, "pinger"))
	do(t, g, 0, "activate_ability", permID(g.put(0, "mountain")), nil)
	do(t, g, 0, "activate_ability", pinger, map[string][]string{"t0": ids("p1")})
	if v := g.View(1).(View); v.Stack[0].Kind != "activated" || v.Stack[0].PhysicalCard != "" {
		t.Fatalf("an ability names a card: %+v", v.Stack[0])
	}
	resolve(t, g)
	// battlefield → graveyard: the permanent is gone, the card is there under its own id
	do(t, g, 0, "pass_priority", "", nil)
	cast(t, g, 1, lash, map[string][]string{"t0": ids(perm)})
	resolve(t, g)
	for seat := range 2 {
		v := g.View(seat).(View)
		if _, ok := permOf(v, perm); ok {
			t.Fatal("the bear survived")
		}
		if got := pileIDs(v.Graveyards, "p0"); !slices.Contains(got, bear) {
			t.Fatalf("seat %d sees p0's graveyard as %v, not holding %s", seat, got, bear)
		}
	}
	// graveyard → hand
	skipTo(t, g, 0, StepMain1)
	cast(t, g, 0, raise, map[string][]string{"t0": ids(bear)})
	resolve(t, g)
	if got := g.View(0).(View).MyHand; !slices.ContainsFunc(got, func(c CardView) bool { return c.ID == bear }) {
		t.Fatalf("the hand %v does not hold %s", got, bear)
	}
	if enc, _ := g.View(1).(View).AppendCanonical(nil); strings.Contains(string(enc), `"`+bear+`"`) {
		t.Fatal("the opponent still sees the card now in a hand")
	}
	checkScene(t, g, 0, 1)
}

func TestTokensAndLibraryCardsNameNoPhysicalCard(t *testing.T) {
	g := scene(t, 2)
	tok := card.Token{Name: "Bee", Types: []string{"creature"}, Subtypes: []string{"Insect"}, Power: 1, Toughness: 1}
	n := g.enter(0, 0, Card{}, &tok, false)
	p, ok := permOf(g.View(1).(View), permID(n))
	if !ok || !p.Card.Token || p.PhysicalCard != "" {
		t.Fatalf("the token projects as %+v", p)
	}
	if g.perm(n).Card != 0 {
		t.Fatal("a token holds a physical card number")
	}
	// a card that goes through a library comes back as another card id:
	// the mulligan's hand is shuffled away and a new seven drawn
	m, err := Setup(g.cards, Config{Format: "test", Life: 20}, "physical-mulligan", players(t, g.cards, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	before := m.handIDs(m.st.Players[0].Hand)
	do(t, m, 0, "mulligan_decision", "", map[string][]string{"decision": ids("mulligan")})
	for _, id := range m.handIDs(m.st.Players[0].Hand) {
		if slices.Contains(before, id) {
			t.Fatalf("%s survived a trip through the library", id)
		}
	}
	checkScene(t, m, 0)
}

func TestCardIDsTellNothingOfTheirOrder(t *testing.T) {
	g := scene(t, 2)
	seen := map[string]bool{}
	var prev []string
	ascending := 0
	for n := 1; n <= 2000; n++ {
		id := g.cardID(n)
		if seen[id] {
			t.Fatalf("card %d's id %s repeats", n, id)
		}
		seen[id] = true
		if k, back, ok := g.parseID(id); !ok || k != "card" || back != n {
			t.Fatalf("%s parses as %s %d", id, k, back)
		}
		if len(prev) > 0 && id > prev[len(prev)-1] {
			ascending++
		}
		prev = append(prev, id)
	}
	// minted numbers ascend; their ids should not, or a spell's id would
	// date the draw: about half the neighbours ascend by chance
	if ascending < 800 || ascending > 1200 {
		t.Fatalf("%d of 1999 consecutive ids ascend", ascending)
	}
	other := &Game{st: State{Seed: "another game"}}
	same := 0
	for n := 1; n <= 100; n++ {
		if other.cardID(n) == g.cardID(n) {
			same++
		}
	}
	if same > 2 {
		t.Fatalf("%d of 100 ids are the same in two games", same)
	}
	for _, bad := range []string{"card_", "card_-1", "card_01", "card_4294967296", "card_x"} {
		if _, _, ok := g.parseID(bad); ok {
			t.Fatalf("%q parses", bad)
		}
	}
}

func TestGraveyardTargetThatLeavesAndReturnsIsANewObject(t *testing.T) {
	g := scene(t, 2)
	g.put(0, "swamp")
	g.putCard(0, Card{ID: "bear"}, toGrave)
	bear := g.cardID(g.st.Players[0].Grave[0].N)
	raise := g.give(0, "raise")
	cast(t, g, 0, raise, map[string][]string{"t0": ids(bear)})
	// in response the card leaves the graveyard and comes back (CR 400.7):
	// the same physical card, a new object the spell did not target
	c, _ := takeCard(&g.st.Players[0].Grave, g.st.Players[0].Grave[0].N)
	g.putCard(0, c, toHand)
	c, _ = takeCard(&g.st.Players[0].Hand, c.N)
	g.putCard(0, c, toGrave)
	g.memo = nil
	if got := g.cardID(g.st.Players[0].Grave[0].N); got != bear {
		t.Fatalf("the card came back as %s, not %s", got, bear)
	}
	var fizzled bool
	for range 4 {
		evs := do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
		fizzled = fizzled || hasEvent(evs, "spell_fizzled")
		if len(g.st.Stack) == 0 {
			break
		}
	}
	if !fizzled || len(g.st.Players[0].Grave) != 2 || len(g.st.Players[0].Hand) != 0 {
		t.Fatalf("fizzled %v, graveyard %v, hand %v", fizzled, g.st.Players[0].Grave, g.st.Players[0].Hand)
	}
	// a card that stayed put is still a legal target
	g.put(0, "swamp")
	raise = g.give(0, "raise")
	cast(t, g, 0, raise, map[string][]string{"t0": ids(bear)})
	resolve(t, g)
	if len(g.st.Players[0].Hand) != 1 || g.cardID(g.st.Players[0].Hand[0].N) != bear {
		t.Fatalf("hand %v", g.st.Players[0].Hand)
	}
	checkScene(t, g, 0)
}
