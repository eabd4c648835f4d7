package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
)

func TestBurnPaysPerPipAndResolves(t *testing.T) {
	g := scene(t, 2)
	m := g.put(0, "mountain")
	f := g.put(0, "forest")
	lash := g.give(0, "ember_lash")
	a, ok := offered(g, 0, "cast_spell", lash)
	if !ok {
		t.Fatal("Ember Lash is not offered")
	}
	if a.Cost == nil || a.Cost.Printed != "{1}{R}" || a.Cost.Modified != "{1}{R}" {
		t.Fatalf("cost %+v", a.Cost)
	}
	var pips []string
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptPayMana {
			pips = append(pips, p.Pip)
		}
	}
	if len(pips) != 2 || pips[0] != "{R}" || pips[1] != "{1}" {
		t.Fatalf("pay slots %v", pips)
	}
	// the red pip can only be paid by the Mountain: the Forest is refused
	if _, err := try(g, 0, "cast_spell", lash, map[string][]string{"t0": ids("p1"), "pay0": ids(permID(f)), "pay1": ids(permID(m))}); err == nil {
		t.Fatal("a Forest paid {R}")
	}
	// one source cannot pay two pips
	if _, err := try(g, 0, "cast_spell", lash, map[string][]string{"t0": ids("p1"), "pay0": ids(permID(m)), "pay1": ids(permID(m))}); err == nil {
		t.Fatal("a source paid twice")
	}
	evs := cast(t, g, 0, lash, map[string][]string{"t0": ids("p1")})
	if !hasEvent(evs, "spell_cast") || len(g.st.Stack) != 1 || !g.perm(m).Tapped || !g.perm(f).Tapped {
		t.Fatalf("cast: events %v stack %d", evs, len(g.st.Stack))
	}
	if g.st.Dec.Seat != 0 {
		t.Fatal("the caster does not keep priority")
	}
	resolve(t, g)
	if g.st.Players[1].Life != 17 {
		t.Fatalf("life %d, want 17", g.st.Players[1].Life)
	}
	if len(g.st.Players[0].Grave) != 1 {
		t.Fatal("the spell is not in the graveyard")
	}
	checkView(t, g, 0, "burn")
	checkScene(t, g, 1)
}

func TestFloatingManaPaysFirstAndEmptiesBetweenSteps(t *testing.T) {
	g := scene(t, 2)
	m := g.put(0, "mountain")
	g.put(0, "forest")
	do(t, g, 0, "activate_ability", permID(m), nil)
	if g.st.Players[0].Pool != "R" {
		t.Fatalf("pool %q", g.st.Players[0].Pool)
	}
	lash := g.give(0, "ember_lash")
	a, _ := offered(g, 0, "cast_spell", lash)
	n := 0
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptPayMana {
			n++
			if p.Pip != "{1}" {
				t.Fatalf("the floating {R} left pip %s", p.Pip)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d pay slots, want 1", n)
	}
	toStep(t, g, StepBeginCombat)
	if g.st.Players[0].Pool != "" {
		t.Fatal("the pool did not empty when the step ended")
	}
	checkScene(t, g, 0)
}

func TestCounterspellCountersTheSpell(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 2)
	g.putN(1, "island", 2)
	lash := g.give(0, "ember_lash")
	hush := g.give(1, "hush")
	cast(t, g, 0, lash, map[string][]string{"t0": ids("p1")})
	do(t, g, 0, "pass_priority", "", nil)
	target := stackID(g.st.Stack[0].N)
	evs := cast(t, g, 1, hush, map[string][]string{"t0": ids(target)})
	if len(g.st.Stack) != 2 {
		t.Fatalf("stack %d, events %v", len(g.st.Stack), evs)
	}
	passAll(t, g, 4)
	if len(g.st.Stack) != 0 || g.st.Players[1].Life != 20 {
		t.Fatalf("stack %d, life %d", len(g.st.Stack), g.st.Players[1].Life)
	}
	if len(g.st.Players[0].Grave) != 1 || len(g.st.Players[1].Grave) != 1 {
		t.Fatal("the countered spell or the counterspell is not in a graveyard")
	}
	checkScene(t, g, 0)
}

func TestFizzleWhenTheTargetIsGone(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 4)
	bear := g.put(1, "bear")
	a := g.give(0, "ember_lash")
	b := g.give(0, "ember_lash")
	cast(t, g, 0, a, map[string][]string{"t0": ids(permID(bear))})
	cast(t, g, 0, b, map[string][]string{"t0": ids(permID(bear))})
	resolve(t, g)
	if g.perm(bear) != nil {
		t.Fatal("the bear survived")
	}
	var evs []rooms.Event
	for g.st.Dec.Kind == DecPriority && len(g.st.Stack) > 0 {
		evs = append(evs, do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)...)
	}
	if !hasEvent(evs, "spell_fizzled") {
		t.Fatalf("no fizzle: %v", evs)
	}
	checkScene(t, g, 0)
}

func TestXSpellOffersAffordableValues(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 3)
	wave := g.give(0, "blaze_wave")
	a, ok := offered(g, 0, "cast_spell", wave)
	if !ok {
		t.Fatal("not offered")
	}
	var x *rooms.Prompt
	for i := range a.Prompts {
		if a.Prompts[i].Slot == "x" {
			x = &a.Prompts[i]
		}
	}
	if x == nil || *x.Min != 0 || *x.Max != 2 || len(x.Values) != 3 || x.Values[2].Cost != "{2}{R}" {
		t.Fatalf("x prompt %+v", x)
	}
	if _, err := try(g, 0, "cast_spell", wave, map[string][]string{"x": ids("3"), "t0": ids("p1")}); err == nil {
		t.Fatal("X=3 accepted with three lands")
	}
	ans := map[string][]string{"x": ids("2"), "t0": ids("p1")}
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptPayMana {
			ans[p.Slot] = []string{p.ManaCandidates[0].ID}
		}
	}
	do(t, g, 0, "cast_spell", wave, ans)
	if g.st.Stack[0].X != 2 {
		t.Fatal("X not kept")
	}
	resolve(t, g)
	if g.st.Players[1].Life != 18 {
		t.Fatalf("life %d", g.st.Players[1].Life)
	}
	checkScene(t, g, 0)
}

func TestModalSpell(t *testing.T) {
	g := scene(t, 2)
	g.put(0, "mountain")
	bolt := g.give(0, "choice_bolt")
	a, _ := offered(g, 0, "cast_spell", bolt)
	if len(a.Prompts) == 0 || a.Prompts[0].Slot != "mode" || len(a.Prompts[0].Options) != 1 {
		t.Fatalf("with no creature only the life mode is offered: %+v", a.Prompts)
	}
	cast(t, g, 0, bolt, map[string][]string{"mode": ids("1")})
	resolve(t, g)
	if g.st.Players[0].Life != 23 {
		t.Fatalf("life %d", g.st.Players[0].Life)
	}
	checkScene(t, g, 0)
}

func TestOneLandPerTurnAndSorceryTiming(t *testing.T) {
	g := scene(t, 2)
	f1 := g.give(0, "forest")
	f2 := g.give(0, "forest")
	do(t, g, 0, "play_land", f1, nil)
	if _, ok := offered(g, 0, "play_land", f2); ok {
		t.Fatal("a second land is offered")
	}
	g.putN(0, "island", 2)
	ins := g.give(0, "insight")
	if _, ok := offered(g, 0, "cast_spell", ins); !ok {
		t.Fatal("a sorcery is not offered in the main phase")
	}
	toStep(t, g, StepBeginCombat)
	if _, ok := offered(g, 0, "cast_spell", ins); ok {
		t.Fatal("a sorcery is offered in combat")
	}
	checkScene(t, g, 0)
}

func TestAdditionalCostSacrifice(t *testing.T) {
	g := scene(t, 2)
	g.put(0, "swamp")
	bear := g.put(0, "bear")
	off := g.give(0, "offering")
	cast(t, g, 0, off, map[string][]string{"cost_sacrifice": ids(permID(bear))})
	if g.perm(bear) != nil {
		t.Fatal("the sacrifice was not paid")
	}
	resolve(t, g)
	if len(g.st.Players[0].Hand) != 2 {
		t.Fatalf("hand %d", len(g.st.Players[0].Hand))
	}
	checkScene(t, g, 0)
}

func TestStaleAndBadAnswersChangeNothing(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 2)
	lash := g.give(0, "ember_lash")
	before, _ := g.State()
	a, _ := offered(g, 0, "cast_spell", lash)
	bad := []map[string][]string{
		{"pay0": ids(a.Prompts[0].ManaCandidates[0].ID), "pay1": ids(a.Prompts[1].ManaCandidates[0].ID)}, // missing target
		{"t0": ids("perm_999"), "pay0": ids(a.Prompts[0].ManaCandidates[0].ID), "pay1": ids(a.Prompts[1].ManaCandidates[0].ID)},
		{"t0": ids("p1"), "nonsense": ids("x")},
	}
	for i, ans := range bad {
		if _, err := g.Apply(0, rooms.Choice{ActionID: a.ID, Targets: ans}); err == nil {
			t.Fatalf("bad answer %d accepted", i)
		}
	}
	if _, err := g.Apply(1, rooms.Choice{ActionID: a.ID, Targets: nil}); err == nil {
		t.Fatal("a seat not asked acted")
	}
	do(t, g, 0, "pass_priority", "", nil)
	if _, err := g.Apply(0, rooms.Choice{ActionID: a.ID}); err == nil {
		t.Fatal("a stale action was accepted")
	}
	g2 := scene(t, 2)
	g2.put(0, "mountain")
	g2.put(0, "mountain")
	g2.give(0, "ember_lash")
	after, _ := g2.State()
	if string(before) != string(after) {
		t.Fatal("refused answers changed the state")
	}
}

func TestEveryoneMustPassAfterAResponse(t *testing.T) {
	g := scene(t, 3)
	g.putN(0, "mountain", 2)
	g.putN(2, "island", 2)
	lash := g.give(0, "ember_lash")
	hush := g.give(2, "hush")
	cast(t, g, 0, lash, map[string][]string{"t0": ids("p1")})
	do(t, g, 0, "pass_priority", "", nil)
	do(t, g, 1, "pass_priority", "", nil)
	cast(t, g, 2, hush, map[string][]string{"t0": ids(stackID(g.st.Stack[0].N))})
	if g.st.Dec.Seat != 2 {
		t.Fatal("the responder does not keep priority")
	}
	do(t, g, 2, "pass_priority", "", nil)
	for _, want := range []int{0, 1} {
		if len(g.st.Stack) != 2 || g.st.Dec.Seat != want {
			t.Fatalf("stack %d, priority with seat %d, want seat %d", len(g.st.Stack), g.st.Dec.Seat, want)
		}
		a, _ := offered(g, want, "pass_priority", "")
		if (want == 1) != (a.Label == "Resolve") {
			t.Fatalf("seat %d's pass is labelled %q", want, a.Label)
		}
		do(t, g, want, "pass_priority", "", nil)
	}
	if len(g.st.Stack) != 0 || g.st.Dec.Seat != 0 || g.st.Players[1].Life != 20 {
		t.Fatalf("after the counterspell resolved: stack %d, priority %d", len(g.st.Stack), g.st.Dec.Seat)
	}
	checkScene(t, g, 0)
}

// TestXZeroPaysOnlyItsPips casts an X spell whose action poses a pay slot
// for every X up to the largest payable one (pay1… carry min 0): X=0 is
// paid with the coloured pip alone and taps one land; answering the
// optional slots too, or fewer slots than the X announced, is refused and
// changes nothing.
func TestXZeroPaysOnlyItsPips(t *testing.T) {
	g := scene(t, 2)
	var lands []int
	for range 4 {
		lands = append(lands, g.put(0, "mountain"))
	}
	w := g.give(0, "blaze_wave")
	a, ok := offered(g, 0, "cast_spell", w)
	if !ok {
		t.Fatal("Blaze Wave is not offered")
	}
	var pays []string
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptPayMana {
			pays = append(pays, p.Slot)
			if optional := p.Min != nil && *p.Min == 0; optional != (p.Slot != "pay0") {
				t.Fatalf("slot %s: min %v", p.Slot, p.Min)
			}
		}
	}
	if len(pays) != 4 {
		t.Fatalf("pay slots %v", pays)
	}
	before, _ := g.State()
	for name, ans := range map[string]map[string][]string{
		"X=0 paying every slot": {"x": {"0"}, "t0": {"p1"}, "pay0": {permID(lands[0])}, "pay1": {permID(lands[1])},
			"pay2": {permID(lands[2])}, "pay3": {permID(lands[3])}},
		"X=2 paying one pip":  {"x": {"2"}, "t0": {"p1"}, "pay0": {permID(lands[0])}},
		"X=4 beyond the most": {"x": {"4"}, "t0": {"p1"}, "pay0": {permID(lands[0])}},
	} {
		if _, err := g.Apply(0, rooms.Choice{ActionID: a.ID, Targets: ans}); err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if after, _ := g.State(); string(after) != string(before) {
			t.Fatalf("%s: the refused answer changed the state", name)
		}
	}
	do(t, g, 0, "cast_spell", w, map[string][]string{"x": {"0"}, "t0": {"p1"}, "pay0": {permID(lands[0])}})
	tapped := 0
	for _, n := range lands {
		if g.perm(n).Tapped {
			tapped++
		}
	}
	if tapped != 1 || len(g.st.Stack) != 1 || g.st.Stack[0].X != 0 {
		t.Fatalf("%d lands tapped, stack %+v", tapped, g.st.Stack)
	}
	resolve(t, g)
	if g.st.Players[1].Life != 20 {
		t.Fatalf("X=0 dealt %d damage", 20-g.st.Players[1].Life)
	}
	checkScene(t, g, 0)
}

// TestModalChooseTwo casts a "choose two" spell: it poses one option slot
// per mode chosen, refuses the same mode twice (and an unanswered mode
// slot) with the state unchanged, and resolves the chosen modes in
// printed order whatever order they were answered in.
func TestModalChooseTwo(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 2)
	rite := g.give(0, "twin_rite")
	a, ok := offered(g, 0, "cast_spell", rite)
	if !ok {
		t.Fatalf("Twin Rite is not offered: %s", actionList(g, 0))
	}
	var slots []string
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptOption {
			slots = append(slots, p.Slot)
			if len(p.Options) != 3 {
				t.Fatalf("slot %s offers %+v", p.Slot, p.Options)
			}
		}
	}
	if strings.Join(slots, ",") != "mode,mode1" {
		t.Fatalf("mode slots %v", slots)
	}
	if text := g.cards.views["twin_rite"].RulesText; !strings.HasPrefix(text, "Choose two —") {
		t.Fatalf("rules text %q", text)
	}
	before, _ := g.State()
	for name, ans := range map[string]map[string][]string{
		"the same mode twice": {"mode": {"0"}, "mode1": {"0"}, "m0t0": {"p1"}},
		"one mode only":       {"mode": {"2"}},
	} {
		if _, err := g.Apply(0, rooms.Choice{ActionID: a.ID, Targets: pay(a, ans)}); err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if after, _ := g.State(); string(after) != string(before) {
			t.Fatalf("%s: the refused answer changed the state", name)
		}
	}
	hand := len(g.st.Players[0].Hand)
	do(t, g, 0, "cast_spell", rite, pay(a, map[string][]string{"mode": {"2"}, "mode1": {"0"}, "m0t0": {"p1"}}))
	if it := g.st.Stack[0]; len(it.Modes) != 2 || it.Modes[0] != 0 || it.Modes[1] != 2 || len(it.Targets) != 1 || it.Targets[0] != "p1" {
		t.Fatalf("stack item %+v", it)
	}
	resolve(t, g)
	if g.st.Players[1].Life != 18 || g.st.Players[0].Life != 23 || len(g.st.Players[0].Hand) != hand-1 {
		t.Fatalf("lives %d and %d, hand %d", g.st.Players[0].Life, g.st.Players[1].Life, len(g.st.Players[0].Hand))
	}
	checkScene(t, g, 0)
}

// TestTwelveStepsInOrder plays a turn with an attack and the next
// player's turn up to its main phase, and reads the steps from the log:
// all twelve in order, the turn passing after cleanup, the untap step
// untapping only the active player's permanents and the draw step
// drawing one card.
func TestTwelveStepsInOrder(t *testing.T) {
	g := scene(t, 2)
	bear := g.put(0, "bear")
	other := g.put(1, "forest")
	g.perm(other).Tapped = true
	var steps []string
	record := func(evs []rooms.Event) {
		for _, e := range evs {
			if e["type"] == "step_changed" {
				steps = append(steps, fmt.Sprint(e["turn"], " ", e["active_player"], " ", e["phase"]))
			}
		}
	}
	for range 64 {
		if g.st.Active == 1 && g.st.Step == StepMain1 {
			break
		}
		switch g.st.Dec.Kind {
		case DecPriority:
			record(do(t, g, g.st.Dec.Seat, "pass_priority", "", nil))
		case DecAttackers:
			record(do(t, g, 0, "declare_attackers", "", map[string][]string{"attackers": ids(permID(bear))}))
		case DecBlockers:
			record(do(t, g, 1, "declare_blockers", "", nil))
		default:
			t.Fatalf("unexpected decision %+v", g.st.Dec)
		}
	}
	want := []string{"2 p0 begin_combat", "2 p0 declare_attackers", "2 p0 declare_blockers", "2 p0 combat_damage",
		"2 p0 end_combat", "2 p0 postcombat_main", "2 p0 end", "2 p0 cleanup",
		"3 p1 untap", "3 p1 upkeep", "3 p1 draw", "3 p1 precombat_main"}
	if !slices.Equal(steps, want) {
		t.Fatalf("steps\n%q\nwant\n%q", steps, want)
	}
	if g.st.Players[1].Life != 18 {
		t.Fatalf("the attack dealt %d", 20-g.st.Players[1].Life)
	}
	if !g.perm(bear).Tapped || g.perm(other).Tapped {
		t.Fatal("the untap step untapped the wrong permanents")
	}
	if len(g.st.Players[1].Hand) != 1 || len(g.st.Players[1].Library) != 9 {
		t.Fatalf("the draw step left a hand of %d and a library of %d", len(g.st.Players[1].Hand), len(g.st.Players[1].Library))
	}
	if got := g.View(1).(View).Phase; got != "precombat_main" {
		t.Fatalf("the view's phase is %q", got)
	}
	checkScene(t, g, 1)
}
