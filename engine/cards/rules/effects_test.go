package rules

import (
	"slices"
	"testing"
)

// answer answers the pending player_choice of seat.
func answer(t *testing.T, g *Game, seat int, choice ...string) {
	t.Helper()
	if g.st.Dec.Kind != DecChoice || g.st.Dec.Seat != seat {
		t.Fatalf("seat %d is not asked a choice: %+v", seat, g.st.Dec)
	}
	do(t, g, seat, "player_choice", "", map[string][]string{"choice": choice})
}

func TestEntersTriggerIsAimedByItsController(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 2)
	sp := g.give(0, "sparker")
	cast(t, g, 0, sp, nil)
	resolve(t, g)
	if g.st.Dec.Kind != DecTargets || g.st.Dec.Seat != 0 {
		t.Fatalf("no choose_targets: %+v", g.st.Dec)
	}
	if got := g.Actions(1); got != nil {
		t.Fatalf("another seat is offered %v while a trigger is aimed", got)
	}
	a, _ := offered(g, 0, "choose_targets", "")
	if len(a.Subject) != 2 {
		t.Fatalf("subject %v", a.Subject)
	}
	do(t, g, 0, "choose_targets", "", map[string][]string{"t0": ids("p1")})
	resolve(t, g)
	if g.st.Players[1].Life != 19 {
		t.Fatalf("life %d", g.st.Players[1].Life)
	}
	checkScene(t, g, 0)
}

func TestDiesTrigger(t *testing.T) {
	g := scene(t, 2)
	g.putN(1, "mountain", 2)
	martyr := g.put(0, "martyr")
	lash := g.give(1, "ember_lash")
	do(t, g, 0, "pass_priority", "", nil)
	cast(t, g, 1, lash, map[string][]string{"t0": ids(permID(martyr))})
	evs := do(t, g, 1, "pass_priority", "", nil)
	evs = append(evs, do(t, g, 0, "pass_priority", "", nil)...)
	if !hasEvent(evs, "permanent_died") || len(g.st.Stack) != 1 || g.st.Stack[0].Kind != "triggered" {
		t.Fatalf("no dies trigger on the stack: %+v %v", g.st.Stack, evs)
	}
	resolve(t, g)
	if g.st.Players[0].Life != 23 {
		t.Fatalf("life %d", g.st.Players[0].Life)
	}
	checkScene(t, g, 0)
}

func TestOptionalPayTrigger(t *testing.T) {
	g := scene(t, 2)
	scout := g.put(0, "scout")
	land := g.put(0, "plains")
	attack(t, g, scout)
	if len(g.st.Stack) != 1 {
		t.Fatal("no attack trigger")
	}
	resolve(t, g)
	a, ok := offered(g, 0, "player_choice", "")
	if !ok || len(a.Prompts[0].Options) != 1 || a.Prompts[0].Options[0].ID != "decline" {
		t.Fatalf("accept offered with an empty pool: %+v", a.Prompts)
	}
	do(t, g, 0, "activate_ability", permID(land), nil)
	a, _ = offered(g, 0, "player_choice", "")
	if a.Prompts[0].Options[0].ID != "accept" {
		t.Fatal("accept not offered once the pool can pay")
	}
	hand := len(g.st.Players[0].Hand)
	answer(t, g, 0, "accept")
	if len(g.st.Players[0].Hand) != hand+1 || g.st.Players[0].Pool != "" {
		t.Fatalf("hand %d pool %q", len(g.st.Players[0].Hand), g.st.Players[0].Pool)
	}
	checkScene(t, g, 0)
}

func TestUpkeepMayTrigger(t *testing.T) {
	g := scene(t, 2)
	g.put(1, "seer")
	for g.st.Active != 1 || g.st.Step != StepUpkeep {
		do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
	}
	if g.st.Active != 1 || g.st.Step != StepUpkeep || len(g.st.Stack) != 1 {
		t.Fatalf("turn %d active %d step %d stack %d", g.st.Turn, g.st.Active, g.st.Step, len(g.st.Stack))
	}
	resolve(t, g)
	answer(t, g, 1, "decline")
	if len(g.st.Players[1].Hand) != 0 {
		t.Fatal("declining drew")
	}
	checkScene(t, g, 1)
}

func TestDiscardChosenByTheTargetAndByTheCaster(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "swamp", 3)
	rot := g.give(0, "mind_rot")
	pry := g.give(0, "pry")
	keep := g.give(1, "bear")
	g.give(1, "hawk")
	g.give(1, "ember_lash")
	cast(t, g, 0, rot, map[string][]string{"t0": ids("p1")})
	resolve(t, g)
	if len(g.View(1).(View).Revealed) != 0 {
		t.Fatal("a seat choosing from its own hand is shown it again")
	}
	choice := numIDs(g.st.Dec.Choice.Cards, g.cardID)
	if len(choice) != 3 || g.st.Dec.Choice.Max != 2 {
		t.Fatalf("choice %+v", g.st.Dec.Choice)
	}
	answer(t, g, 1, choice[1], choice[2])
	if len(g.st.Players[1].Hand) != 1 || g.cardID(g.st.Players[1].Hand[0].N) != keep || len(g.st.Players[1].Grave) != 2 {
		t.Fatalf("hand %+v", g.st.Players[1].Hand)
	}
	g.give(1, "hawk")
	cast(t, g, 0, pry, map[string][]string{"t0": ids("p1")})
	resolve(t, g)
	v := g.View(0).(View)
	if len(v.Revealed) != 2 || len(g.View(1).(View).Revealed) != 0 || len(g.View(-1).(View).Revealed) != 0 {
		t.Fatalf("revealed to the caster %d", len(v.Revealed))
	}
	checkView(t, g, 0, "discard_revealed")
	answer(t, g, 0, v.Revealed[0].ID)
	if len(g.st.Players[1].Hand) != 1 || len(g.View(0).(View).Revealed) != 0 {
		t.Fatal("the discard or the end of the reveal went wrong")
	}
	checkScene(t, g, 0, 1)
}

func TestSearchScryAndLook(t *testing.T) {
	g := scene(t, 2)
	g.st.Players[0].Library = []string{"bear", "island", "hawk", "mountain", "spider", "forest"}
	g.putN(0, "twin_spring", 4)
	dig := g.give(0, "dig")
	cast(t, g, 0, dig, nil)
	resolve(t, g)
	c := g.st.Dec.Choice
	if c == nil || c.Kind != chSearch || len(c.Cards) != 3 || c.Min != 0 {
		t.Fatalf("search choice %+v", c)
	}
	rev := g.View(0).(View).Revealed
	if len(rev) != 3 || rev[0].FunctionalID != "island" {
		t.Fatalf("revealed %+v", rev)
	}
	answer(t, g, 0, rev[1].ID) // the mountain
	if len(g.st.Players[0].Hand) != 1 || g.st.Players[0].Hand[0].ID != "mountain" || len(g.st.Players[0].Library) != 5 {
		t.Fatal("the search did not find the mountain")
	}

	g.st.Players[0].Library = []string{"bear", "island", "hawk", "mountain"}
	peek := g.give(0, "peek")
	cast(t, g, 0, peek, nil)
	resolve(t, g)
	rev = g.View(0).(View).Revealed
	if len(rev) != 2 {
		t.Fatalf("scry reveals %d", len(rev))
	}
	answer(t, g, 0, rev[0].ID) // the bear to the bottom
	lib := g.st.Players[0].Library
	if !slices.Equal(lib, []string{"hawk", "mountain", "bear"}) {
		t.Fatalf("library after scry and draw %v", lib)
	}

	g.st.Players[0].Library = []string{"bear", "island", "hawk", "mountain"}
	look := g.give(0, "glimpse")
	cast(t, g, 0, look, nil)
	resolve(t, g)
	rev = g.View(0).(View).Revealed
	answer(t, g, 0, rev[2].ID) // take the hawk
	if g.st.Dec.Choice == nil || g.st.Dec.Choice.Kind != chLookOrder {
		t.Fatalf("no order question: %+v", g.st.Dec)
	}
	a, _ := offered(g, 0, "player_choice", "")
	items := a.Prompts[0].Items
	answer(t, g, 0, items[1], items[0]) // island deepest
	if !slices.Equal(g.st.Players[0].Library, []string{"mountain", "bear", "island"}) {
		t.Fatalf("library after look %v", g.st.Players[0].Library)
	}
	checkScene(t, g, 0)
}

func TestCastAndCombatDamageTriggersAndCounters(t *testing.T) {
	t.Run("cast_trigger", func(t *testing.T) {
		g := scene(t, 2)
		adept := g.put(0, "adept")
		g.putN(0, "mountain", 2)
		lash := g.give(0, "ember_lash")
		cast(t, g, 0, lash, map[string][]string{"t0": ids("p1")})
		if len(g.st.Stack) != 2 || g.st.Stack[1].Kind != "triggered" {
			t.Fatalf("no cast trigger above the spell: %+v", g.st.Stack)
		}
		resolve(t, g)
		if c := g.chars(g.perm(adept)); c.power != 2 || c.tough != 3 {
			t.Fatalf("adept %d/%d", c.power, c.tough)
		}
		resolve(t, g)
		checkScene(t, g, 0)
	})
	t.Run("counters_combat_damage_trigger", func(t *testing.T) {
		g := scene(t, 2)
		thief := g.put(0, "thief")
		grower := g.put(0, "grower")
		g.putN(0, "forest", 2)
		for range 2 {
			for _, a := range g.Actions(0) {
				if a.ManaAbility {
					do(t, g, 0, "activate_ability", a.Subject[0], nil)
					break
				}
			}
			do(t, g, 0, "activate_ability", permID(grower), nil)
			resolve(t, g)
		}
		v := g.permView(g.perm(grower), g.statics())
		if v.Card.Power != "3" || len(v.Counters) != 1 || v.Counters[0] != (Counter{"+1/+1", 2}) {
			t.Fatalf("grower %s/%s %+v", v.Card.Power, v.Card.Toughness, v.Counters)
		}
		attack(t, g, thief)
		for g.st.Step != StepEndCombat {
			do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
		}
		if len(g.st.Players[0].Hand) != 1 || g.st.Players[1].Life != 19 {
			t.Fatalf("hand %d life %d", len(g.st.Players[0].Hand), g.st.Players[1].Life)
		}
		checkScene(t, g, 0)
	})
}
