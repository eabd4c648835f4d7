package rules

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

func TestLondonMulliganIsSimultaneous(t *testing.T) {
	cards := testLib(t)
	g, err := Setup(cards, Config{Format: "test", Life: 20}, "mull", players(t, cards, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions(0)) == 0 || len(g.Actions(1)) == 0 {
		t.Fatal("both seats are not asked at once")
	}
	first := g.st.Active
	do(t, g, 0, "mulligan_decision", "", map[string][]string{"decision": ids("mulligan")})
	a, _ := offered(g, 0, "mulligan_decision", "")
	if len(a.Prompts) != 2 || a.Prompts[1].Slot != "bottom" || a.Prompts[1].Count != 1 || len(g.st.Players[0].Hand) != 7 {
		t.Fatalf("after a mulligan: %+v", a.Prompts)
	}
	if _, err := try(g, 0, "mulligan_decision", "", map[string][]string{"decision": ids("keep")}); err == nil {
		t.Fatal("kept without bottoming")
	}
	bottom := g.cardID(g.st.Players[0].Hand[2].N)
	bottomID := g.st.Players[0].Hand[2].ID
	do(t, g, 0, "mulligan_decision", "", map[string][]string{"decision": ids("keep"), "bottom": ids(bottom)})
	if len(g.st.Players[0].Hand) != 6 || g.st.Players[0].Library[len(g.st.Players[0].Library)-1] != bottomID {
		t.Fatal("the bottomed card is not at the bottom")
	}
	if g.st.Turn != 0 {
		t.Fatal("the game began before every seat kept")
	}
	do(t, g, 1, "mulligan_decision", "", map[string][]string{"decision": ids("keep")})
	if g.st.Turn != 1 || g.st.Active != first || g.st.Step != StepUpkeep || len(g.st.Players[first].Hand) != 7-boolN(first == 0) {
		t.Fatalf("turn %d step %d hand %d", g.st.Turn, g.st.Step, len(g.st.Players[first].Hand))
	}
	toStep(t, g, StepMain1)
	if len(g.st.Players[first].Hand) != 7-boolN(first == 0) {
		t.Fatal("the first player drew on the first turn")
	}
	checkScene(t, g, 0, 1)
}

// TestConcedeDuringMulligans covers seats leaving before the first turn:
// the last seat still deciding conceding starts the game, and the seat
// that was to start conceding passes the first turn to the next seat.
func TestConcedeDuringMulligans(t *testing.T) {
	cards := testLib(t)
	g, err := Setup(cards, Config{Format: "test", Life: 20}, "mull-concede", players(t, cards, 4, false))
	if err != nil {
		t.Fatal(err)
	}
	first := g.st.Active
	keeper, last := (first+2)%4, (first+3)%4
	do(t, g, keeper, "mulligan_decision", "", map[string][]string{"decision": ids("keep")})
	do(t, g, first, "concede", "", nil)
	if g.st.Turn != 0 || len(g.Actions((first+1)%4)) == 0 || len(g.Actions(last)) == 0 {
		t.Fatal("a concession ended the others' mulligans")
	}
	do(t, g, (first+1)%4, "mulligan_decision", "", map[string][]string{"decision": ids("keep")})
	do(t, g, last, "concede", "", nil)
	if g.st.Turn != 1 || g.st.Active != (first+1)%4 || g.st.Dec.Kind != DecPriority {
		t.Fatalf("turn %d, active %d, decision %+v; want turn 1 of seat %d", g.st.Turn, g.st.Active, g.st.Dec, (first+1)%4)
	}
	checkScene(t, g, (first+1)%4)
}

func boolN(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestCleanupDiscardsToHandSize(t *testing.T) {
	g := scene(t, 2)
	for range 9 {
		g.give(0, "bear")
	}
	toStep(t, g, StepEnd)
	passAll(t, g, 2)
	if g.st.Dec.Kind != DecDiscard {
		t.Fatalf("no cleanup discard: %+v", g.st.Dec)
	}
	a, _ := offered(g, 0, "discard", "")
	if a.Prompts[0].Count != 2 {
		t.Fatalf("discard count %d", a.Prompts[0].Count)
	}
	do(t, g, 0, "discard", "", map[string][]string{"discard": a.Prompts[0].Candidates[:2]})
	if len(g.st.Players[0].Hand) != 7 || g.st.Active != 1 {
		t.Fatalf("hand %d active %d", len(g.st.Players[0].Hand), g.st.Active)
	}
	checkScene(t, g, 0)
}

func TestPoisonAndDeckingLose(t *testing.T) {
	t.Run("poison", func(t *testing.T) {
		g := scene(t, 2)
		g.putN(0, "swamp", 2)
		for range 2 {
			s := g.give(0, "poison_shot")
			cast(t, g, 0, s, map[string][]string{"t0": ids("p1")})
			resolve(t, g)
		}
		if r := g.Result(); r == nil || r.Reason != "poison" || r.Winner != "p0" {
			t.Fatalf("result %+v", r)
		}
		if g.Actions(0) != nil || g.Actions(1) != nil {
			t.Fatal("actions after the game ended")
		}
		checkScene(t, g, 0)
	})
	t.Run("decking", func(t *testing.T) {
		g := scene(t, 2)
		g.st.Players[1].Library = nil
		var evs []rooms.Event
		for g.Result() == nil {
			evs = append(evs, do(t, g, g.st.Dec.Seat, g.Actions(g.st.Dec.Seat)[0].Type, "", nil)...)
		}
		if r := g.Result(); r.Reason != "decked" || r.Winner != "p0" || evs[len(evs)-1]["type"] != "game_over" {
			t.Fatalf("result %+v", r)
		}
		checkScene(t, g, 1)
	})
}

func TestMultiplayerEliminationKeepsPlaying(t *testing.T) {
	g := scene(t, 3)
	g.put(2, "bear")
	g.put(1, "bear")
	g.st.Players[1].Life = 2
	g.putN(0, "mountain", 2)
	lash := g.give(0, "ember_lash")
	cast(t, g, 0, lash, map[string][]string{"t0": ids("p1")})
	evs := []rooms.Event{}
	for len(g.st.Stack) > 0 {
		evs = append(evs, do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)...)
	}
	if g.Result() != nil || !hasEvent(evs, "player_eliminated") {
		t.Fatalf("result %+v events %v", g.Result(), evs)
	}
	for _, p := range g.st.Field {
		if p.Owner == 1 {
			t.Fatal("an eliminated player's permanent stayed")
		}
	}
	if g.View(0).(View).Opponents[0].Eliminated != true {
		t.Fatal("the view does not show the elimination")
	}
	// the next seat concedes on its own turn; p0 wins
	skipTo(t, g, 2, StepMain1)
	do(t, g, 2, "concede", "", nil)
	if r := g.Result(); r == nil || r.Winner != "p0" || !slices.Equal(r.Losers, []string{"p1", "p2"}) || r.Reason != "concede" {
		t.Fatalf("result %+v", r)
	}
	checkScene(t, g, 0)
}

func TestCommanderTaxReturnAndDamage(t *testing.T) {
	g := scene(t, 2)
	g.st.Config = Config{Format: "commander", Life: 30, Commander: true}
	for i := range g.st.Players {
		g.st.Players[i].Life = 30
		g.st.Players[i].CmdrDmg = make([]int, 2)
		g.st.Players[i].Cmdr = "lord"
		g.st.Players[i].Identity = []string{"R", "G"}
		g.st.Players[i].Command = []Card{{N: g.mintCard(), ID: "lord", Cmdr: true}}
	}
	g.putN(0, "twin_spring", 3)
	g.putN(0, "mountain", 2)
	cmd := g.cardID(g.st.Players[0].Command[0].N)
	a, ok := offered(g, 0, "cast_spell", cmd)
	if !ok || a.Cost.Modified != "{1}{R}{G}" {
		t.Fatalf("commander cast %+v", a.Cost)
	}
	cast(t, g, 0, cmd, nil)
	resolve(t, g)
	var lord int
	for _, p := range g.st.Field {
		if p.Cmdr {
			lord = p.N
		}
	}
	if lord == 0 {
		t.Fatal("the commander did not enter")
	}
	g.leaveField(lord, toGrave) // as a removal spell would, mid-game
	g.st.Dec = Decision{}
	g.settle()
	if g.st.Dec.Kind != DecChoice || g.st.Dec.Choice.Kind != chCommander {
		t.Fatalf("no return question: %+v", g.st.Dec)
	}
	evs := do(t, g, 0, "player_choice", "", map[string][]string{"choice": ids("accept")})
	if !hasEvent(evs, "commander_returned_to_command_zone") || len(g.st.Players[0].Command) != 1 {
		t.Fatal("the commander did not return")
	}
	for i := range g.st.Field {
		g.st.Field[i].Tapped = false
	}
	cmd = g.cardID(g.st.Players[0].Command[0].N)
	if a, ok = offered(g, 0, "cast_spell", cmd); !ok || a.Cost.Modified != "{3}{R}{G}" {
		t.Fatalf("tax: %+v", a.Cost)
	}
	cast(t, g, 0, cmd, nil)
	resolve(t, g)
	v := g.View(-1).(View)
	if len(v.CommanderTax) != 2 || v.CommanderTax[0].Tax != 4 || len(v.CommanderIdentity) != 2 || !slices.Equal(v.CommanderIdentity[0].ColorIdentity, []string{"R", "G"}) {
		t.Fatalf("commander view %+v %+v", v.CommanderTax, v.CommanderIdentity)
	}
	for _, p := range g.st.Field {
		if p.Cmdr {
			lord = p.N
		}
	}
	g.st.Players[1].CmdrDmg[0] = 18
	attack(t, g, lord)
	passAll(t, g, 10)
	toStep(t, g, StepEndCombat)
	if r := g.Result(); r == nil || r.Reason != "commander_damage" {
		t.Fatalf("result %+v, damage %v", r, g.st.Players[1].CmdrDmg)
	}
	checkView(t, g, 0, "commander_over")
	checkScene(t, g, 1)
}

func TestSacrificeMillAndReturn(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "swamp", 4)
	g.put(0, "island")
	b1 := g.put(1, "bear")
	g.put(1, "hawk")
	pact := g.give(0, "grave_pact")
	cast(t, g, 0, pact, nil)
	resolve(t, g)
	if g.st.Dec.Choice == nil || g.st.Dec.Seat != 1 || g.st.Dec.Choice.Kind != chSacrifice {
		t.Fatalf("no sacrifice choice: %+v", g.st.Dec)
	}
	answer(t, g, 1, permID(b1))
	if g.perm(b1) != nil || len(g.st.Players[1].Grave) != 1 {
		t.Fatal("the sacrifice did not happen")
	}
	mill := g.give(0, "mill_rite")
	cast(t, g, 0, mill, map[string][]string{"t0": ids("p1")})
	resolve(t, g)
	if len(g.st.Players[1].Library) != 7 || len(g.st.Players[1].Grave) != 4 {
		t.Fatalf("mill: library %d grave %d", len(g.st.Players[1].Library), len(g.st.Players[1].Grave))
	}
	g.putCard(0, Card{ID: "bear"}, toGrave)
	raise := g.give(0, "raise")
	a, _ := offered(g, 0, "cast_spell", raise)
	if len(a.Requirements) != 1 || len(a.Requirements[0].Candidates) != 1 {
		t.Fatalf("raise targets %+v", a.Requirements)
	}
	cast(t, g, 0, raise, map[string][]string{"t0": a.Requirements[0].Candidates})
	resolve(t, g)
	if !slices.ContainsFunc(g.st.Players[0].Hand, func(c Card) bool { return c.ID == "bear" }) {
		t.Fatal("the bear did not return")
	}
	checkScene(t, g, 0, 1)
}

func TestLoadIsStrict(t *testing.T) {
	g := scene(t, 2)
	g.put(0, "bear")
	b, _ := g.State()
	if _, err := Load(g.cards, b); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"miscased": strings.Replace(string(b), `"life"`, `"Life"`, 1),
		"unknown":  `{"bogus":1,` + string(b[1:]),
		"trailing": string(b) + " {}",
		"spaced":   strings.Replace(string(b), `,`, `, `, 1),
		"seat":     strings.Replace(string(b), `"active":0`, `"active":7`, 1),
	} {
		if _, err := Load(g.cards, []byte(bad)); err == nil {
			t.Errorf("%s state accepted", name)
		}
	}
}

func TestCloneIsDeep(t *testing.T) {
	g := midgame(t, 20, false)
	before, _ := g.State()
	c := g.st.clone()
	for i := range c.Players {
		c.Players[i].Library[0] = "x"
		c.Players[i].Hand = append(c.Players[i].Hand[:0], Card{N: 1})
	}
	for i := range c.Field {
		c.Field[i].Tapped = !c.Field[i].Tapped
		c.Field[i].Blocks = append(c.Field[i].Blocks[:0:0], 9)
	}
	after, _ := g.State()
	if string(before) != string(after) {
		t.Fatal("mutating the clone changed the state")
	}
}

func TestSeatFlagsInViews(t *testing.T) {
	g := scene(t, 3)
	seats := []rooms.SeatStatus{{Connected: true}, {Connected: false}, {Connected: true, AI: "pilot"}}
	v := g.ViewSeats(0, seats).(View)
	if v.Me.Connected != nil || v.Me.AI || v.Opponents[0].Connected == nil || *v.Opponents[0].Connected || !v.Opponents[1].AI {
		t.Fatalf("flags %+v %+v", v.Me, v.Opponents)
	}
	s := g.ViewSeats(rooms.Spectator, seats).(View)
	if len(s.Players) != 3 || s.Players[1].Connected == nil || !s.Players[2].AI || s.Me != nil || s.MyHand != nil {
		t.Fatalf("spectator %+v", s.Players)
	}
}

// TestLegendRule casts a second legendary creature of the same name: the
// older one goes to its owner's graveyard as a state-based action, while
// an opponent's copy of the same legend stays.
func TestLegendRule(t *testing.T) {
	g := scene(t, 2)
	old := g.put(0, "lord")
	theirs := g.put(1, "lord")
	g.put(0, "mountain")
	g.putN(0, "forest", 2)
	fresh := g.give(0, "lord")
	cast(t, g, 0, fresh, nil)
	resolve(t, g)
	var lords []*Perm
	for i := range g.st.Field {
		if g.st.Field[i].ID == "lord" {
			lords = append(lords, &g.st.Field[i])
		}
	}
	if len(lords) != 2 || g.perm(old) != nil || g.perm(theirs) == nil {
		t.Fatalf("lords on the battlefield: %+v", lords)
	}
	if gy := g.st.Players[0].Grave; len(gy) != 1 || gy[0].ID != "lord" {
		t.Fatalf("seat 0's graveyard: %+v", gy)
	}
	if len(g.st.Players[1].Grave) != 0 {
		t.Fatal("the opponent's legend left too")
	}
	checkScene(t, g, 0)
}

// TestExileFromTheTop exiles the top cards of a player's library, in
// order, as new public cards every seat sees in that player's exile;
// asked for more than the library holds, it exiles what there is and
// the player does not lose.
func TestExileFromTheTop(t *testing.T) {
	var defs []card.Def
	if err := json.Unmarshal([]byte(testCards), &defs); err != nil {
		t.Fatal(err)
	}
	var def card.Def
	if err := json.Unmarshal([]byte(`{"id":"purge","name":"Purge","cost":"{B}","types":["sorcery"],
		"spell":{"modes":[{"targets":[{"kind":"player"}],"effects":[{"op":"exile_top","amount":3,"to":"t0"}]}]}}`), &def); err != nil {
		t.Fatal(err)
	}
	g := scene(t, 2)
	g.cards = NewCards(append(defs, def))
	g.putN(0, "swamp", 2)
	g.st.Players[1].Library = []string{"bear", "hawk", "island", "forest", "forest"}
	// purge casts Purge at p1 and passes until it resolves, returning the
	// log of the resolution.
	purge := func() []rooms.Event {
		cast(t, g, 0, g.give(0, "purge"), map[string][]string{"t0": ids("p1")})
		var evs []rooms.Event
		for len(g.st.Stack) > 0 && g.st.Dec.Kind == DecPriority {
			evs = append(evs, do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)...)
		}
		return evs
	}
	purge()
	pl := &g.st.Players[1]
	var got []string
	for _, c := range pl.Exile {
		got = append(got, c.ID)
	}
	if !slices.Equal(got, []string{"bear", "hawk", "island"}) || !slices.Equal(pl.Library, []string{"forest", "forest"}) {
		t.Fatalf("exile %q, library %q", got, pl.Library)
	}
	for _, seat := range []int{0, 1, rooms.Spectator} {
		g.memo = nil
		pile := g.View(seat).(View).Exile[1]
		if pile.PlayerID != "p1" || len(pile.Cards) != 3 || pile.Cards[0].Name != "Grizzled Bear" || pile.Cards[2].ID != g.cardID(pl.Exile[2].N) {
			t.Fatalf("seat %d sees p1's exile as %+v", seat, pile)
		}
	}
	evs := purge()
	if len(pl.Library) != 0 || len(pl.Exile) != 5 || pl.Out != "" || g.Result() != nil {
		t.Fatalf("library %d, exile %d, out %q", len(pl.Library), len(pl.Exile), pl.Out)
	}
	if !slices.ContainsFunc(evs, func(e rooms.Event) bool { return e["type"] == "cards_exiled" && e["count"] == 2 }) {
		t.Fatalf("no cards_exiled event of 2 in %v", evs)
	}
	checkScene(t, g, 1)
}
