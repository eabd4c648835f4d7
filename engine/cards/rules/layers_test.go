package rules

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
)

func TestAnthemAuraPumpAndControl(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "island", 6)
	g.put(0, "forest")
	bear := g.put(0, "bear")
	g.put(0, "captain")
	c := g.chars(g.perm(bear))
	if c.power != 3 || c.tough != 3 || c.kw&kwVigilance == 0 || c.granted&kwVigilance == 0 {
		t.Fatalf("anthem: %d/%d %v", c.power, c.tough, c.kw.words(false))
	}
	wings := g.give(0, "wings")
	cast(t, g, 0, wings, map[string][]string{"t0": ids(permID(bear))})
	resolve(t, g)
	c = g.chars(g.perm(bear))
	if c.power != 4 || c.kw&kwFlying == 0 {
		t.Fatalf("aura: %d/%d %v", c.power, c.tough, c.kw.words(false))
	}
	growth := g.give(0, "growth")
	cast(t, g, 0, growth, map[string][]string{"t0": ids(permID(bear))})
	resolve(t, g)
	if c = g.chars(g.perm(bear)); c.power != 7 || c.kw&kwTrample == 0 {
		t.Fatalf("pump: %d/%d", c.power, c.tough)
	}
	checkView(t, g, 1, "layers")
	// the opponent steals the bear: it loses the captain's anthem
	skipTo(t, g, 1, StepMain1)
	if c = g.chars(g.perm(bear)); c.power != 4 || c.kw&kwTrample != 0 {
		t.Fatalf("the pump outlived the turn: %d/%d", c.power, c.tough)
	}
	g.putN(1, "island", 3)
	steal := g.give(1, "steal")
	cast(t, g, 1, steal, map[string][]string{"t0": ids(permID(bear))})
	resolve(t, g)
	c = g.chars(g.perm(bear))
	if c.ctrl != 1 || c.power != 3 || c.kw&kwVigilance != 0 {
		t.Fatalf("control change: ctrl %d %d/%d", c.ctrl, c.power, c.tough)
	}
	if v := g.View(1).(View); !slices.ContainsFunc(v.Battlefield, func(p PermanentView) bool { return p.ID == permID(bear) && p.Controller == "p1" && p.Owner == "p0" }) {
		t.Fatal("the view does not show the new controller")
	}
	checkScene(t, g, 0, 1)
}

func TestTokensCountersAndEndStepTrigger(t *testing.T) {
	g := scene(t, 2)
	g.put(0, "hive")
	toStep(t, g, StepEnd)
	resolve(t, g)
	var bee *Perm
	for i := range g.st.Field {
		if g.st.Field[i].Tok != nil {
			bee = &g.st.Field[i]
		}
	}
	if bee == nil {
		t.Fatal("no token")
	}
	v := g.permView(bee, g.statics())
	if !v.Card.Token || v.Card.FunctionalID != "" || v.Card.Power != "1" {
		t.Fatalf("token view %+v", v.Card)
	}
	n := bee.N
	g.leaveField(n, toHand)
	if len(g.st.Players[0].Hand) != 0 {
		t.Fatal("a token reached a hand")
	}
	checkScene(t, g, 0)
}

func TestPlaneswalkerLoyaltyAndEmblem(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "mountain", 3)
	sage := g.give(0, "sage")
	cast(t, g, 0, sage, nil)
	resolve(t, g)
	var pw *Perm
	for i := range g.st.Field {
		if g.st.Field[i].ID == "sage" {
			pw = &g.st.Field[i]
		}
	}
	if pw == nil || pw.Loyalty != 3 {
		t.Fatal("the planeswalker did not enter with its loyalty")
	}
	n := pw.N
	acts := 0
	for _, a := range g.Actions(0) {
		if a.Type == "activate_ability" && slices.Contains(a.Subject, permID(n)) {
			acts++
		}
	}
	if acts != 1 { // +1 only: -2 has no creature to target, -6 is too dear
		t.Fatalf("%d loyalty abilities offered", acts)
	}
	do(t, g, 0, "activate_ability", permID(n), nil)
	if g.perm(n).Loyalty != 4 {
		t.Fatal("loyalty not paid")
	}
	if _, ok := offered(g, 0, "activate_ability", permID(n)); ok {
		t.Fatal("a second loyalty ability in one turn")
	}
	resolve(t, g)
	g.perm(n).Loyalty, g.perm(n).Used = 6, false
	a := g.Actions(0)
	var ult string
	for _, x := range a {
		if x.Type == "activate_ability" && slices.Contains(x.Subject, permID(n)) && x.Label == "Sage of Ash: -6" {
			ult = x.ID
		}
	}
	if ult == "" {
		t.Fatalf("no ultimate: %s", actionList(g, 0))
	}
	if _, err := g.Apply(0, choiceOf(ult)); err != nil {
		t.Fatal(err)
	}
	resolve(t, g)
	if len(g.st.Emblems) != 1 || g.perm(n) != nil {
		t.Fatalf("emblems %d, walker left %v", len(g.st.Emblems), g.perm(n) == nil)
	}
	bear := g.put(0, "bear")
	if c := g.chars(g.perm(bear)); c.power != 4 {
		t.Fatalf("emblem anthem: %d", c.power)
	}
	checkView(t, g, -1, "emblem_spectator")
	checkScene(t, g, 0)
}

func TestChosenColorAndNamedCard(t *testing.T) {
	g := scene(t, 2)
	g.putN(0, "plains", 4)
	prism := g.give(0, "prism")
	cast(t, g, 0, prism, nil)
	resolve(t, g)
	if len(g.st.Field) != 4 || g.st.Dec.Kind != DecChoice {
		t.Fatalf("the prism entered before choosing: field %d, %+v", len(g.st.Field), g.st.Dec)
	}
	a, _ := offered(g, 0, "player_choice", "")
	if a.Prompts[0].Prompt != "Choose a color as Prism enters the battlefield" || len(a.Prompts[0].Options) != 5 {
		t.Fatalf("prompt %+v", a.Prompts[0])
	}
	answer(t, g, 0, "R")
	if len(g.st.Stack) != 0 {
		t.Fatal("the choosing ability triggered as well")
	}
	var lens *Perm
	for i := range g.st.Field {
		if g.st.Field[i].ID == "prism" {
			lens = &g.st.Field[i]
		}
	}
	if lens == nil || lens.Color != "R" {
		t.Fatal("the prism did not keep its colour")
	}
	if a, ok := offered(g, 0, "activate_ability", permID(lens.N)); !ok || !a.ManaAbility || a.Label != "Prism: add {R}" {
		t.Fatalf("the prism's chosen mana: %+v %v", a, ok)
	}
	nay := g.give(0, "naysayer")
	cast(t, g, 0, nay, nil)
	resolve(t, g)
	a, _ = offered(g, 0, "player_choice", "")
	if len(a.Prompts[0].Options) != len(g.cards.ids) {
		t.Fatal("name options are not the catalog's cards")
	}
	answer(t, g, 0, "ember_lash")
	var colors, names []string
	for _, p := range g.View(1).(View).Battlefield {
		colors = append(colors, p.ChosenColor)
		names = append(names, p.NamedCard)
	}
	if !slices.Contains(colors, "R") || !slices.Contains(names, "ember_lash") {
		t.Fatalf("colors %v names %v", colors, names)
	}
	g.putN(1, "mountain", 4)
	lash := g.give(1, "ember_lash")
	do(t, g, 0, "pass_priority", "", nil)
	a, ok := offered(g, 1, "cast_spell", lash)
	if !ok || a.Cost.Modified != "{3}{R}" {
		t.Fatalf("named cost %+v", a.Cost)
	}
	checkScene(t, g, 0, 1)
}

func TestAuraGoesWhenItsCreatureDies(t *testing.T) {
	g := scene(t, 2)
	g.put(0, "island")
	g.putN(0, "mountain", 2)
	bear := g.put(1, "bear")
	wings := g.give(0, "wings")
	cast(t, g, 0, wings, map[string][]string{"t0": ids(permID(bear))})
	resolve(t, g)
	lash := g.give(0, "ember_lash")
	cast(t, g, 0, lash, map[string][]string{"t0": ids(permID(bear))})
	resolve(t, g)
	if len(g.st.Field) != 3 || len(g.st.Players[0].Grave) != 2 {
		t.Fatalf("field %d, graveyard %d: the aura stayed", len(g.st.Field), len(g.st.Players[0].Grave))
	}
	checkScene(t, g, 0)
}

// TestTypeChangeInLayerOrder animates a land with Wake the Soil (the
// inline twin of the shipped Loamwaker's Call) and follows the layers in
// order: the type change (layer 4) makes the Mountain a creature before
// anything reads its types, so the Captain's anthem for creatures applies
// to it and grants it vigilance beside the haste the effect gives (layer
// 6); its base power and toughness are set (7b) before the anthem and
// pumps modify them (7c) and before counters (7d), whatever their
// timestamps, so a second animation after a pump keeps the pump; a
// control change (layer 2) takes it from under its owner's anthem; in
// cleanup the effects end and it is a land again, with its counter.
func TestTypeChangeInLayerOrder(t *testing.T) {
	var defs []card.Def
	if err := json.Unmarshal([]byte(testCards), &defs); err != nil {
		t.Fatal(err)
	}
	var extra []card.Def
	if err := json.Unmarshal([]byte(`[
{"id":"wake","name":"Wake the Soil","cost":"{G}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"land"}],"effects":[{"op":"animate","power":3,"toughness":3,"keywords":["haste"],"to":"t0","duration":"end_of_turn"}]}]}},
{"id":"snatch","name":"Snatch","cost":"{U}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"creature"}],"effects":[{"op":"gain_control","to":"t0","duration":"end_of_turn"}]}]}}]`), &extra); err != nil {
		t.Fatal(err)
	}
	g := scene(t, 2)
	g.cards = NewCards(append(defs, extra...))
	mountain := g.put(0, "mountain")
	g.putN(0, "forest", 3)
	g.put(0, "captain")
	g.put(1, "island")
	g.perm(mountain).Plus = 1 // a +1/+1 counter does nothing on a land
	pt := func(want string, kws ...string) {
		t.Helper()
		g.memo = nil
		c := g.chars(g.perm(mountain))
		got := "land"
		if is(c.def, "creature") {
			got = fmt.Sprintf("%d/%d", c.power, c.tough)
		}
		if got != want || !c.kw.named(kws) {
			t.Fatalf("the mountain is %s %v, want %s %v", got, c.kw.words(false), want, kws)
		}
	}
	pt("land")
	if g.permMatches(g.perm(mountain), "creature", 1) {
		t.Fatal("a land is a creature target")
	}
	cast(t, g, 0, g.give(0, "wake"), map[string][]string{"t0": ids(permID(mountain))})
	resolve(t, g)
	pt("5/5", "vigilance", "haste") // 3/3 set, +1/+1 anthem, +1/+1 counter
	if !g.permMatches(g.perm(mountain), "creature", 1) {
		t.Fatal("the animated land is not a creature target")
	}
	cast(t, g, 0, g.give(0, "growth"), map[string][]string{"t0": ids(permID(mountain))})
	resolve(t, g)
	pt("8/8", "vigilance", "haste", "trample")
	cast(t, g, 0, g.give(0, "wake"), map[string][]string{"t0": ids(permID(mountain))})
	resolve(t, g)
	pt("8/8", "vigilance", "haste", "trample") // the later 3/3 is a base: the earlier pump still applies
	checkView(t, g, 1, "type_change")
	do(t, g, 0, "pass_priority", "", nil)
	cast(t, g, 1, g.give(1, "snatch"), map[string][]string{"t0": ids(permID(mountain))})
	resolve(t, g)
	if g.ctrl(g.perm(mountain)) != 1 {
		t.Fatal("the control change did not apply")
	}
	pt("7/7", "haste", "trample") // out of the Captain's anthem
	skipTo(t, g, 1, StepMain1)
	pt("land")
	if g.ctrl(g.perm(mountain)) != 0 || g.perm(mountain).Plus != 1 {
		t.Fatalf("after cleanup: controller %d, %d counters", g.ctrl(g.perm(mountain)), g.perm(mountain).Plus)
	}
	checkScene(t, g, 0)
}
