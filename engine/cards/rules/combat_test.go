package rules

import (
	"slices"
	"testing"
)

// attack moves seat 0 to declare attackers and declares them against p1.
func attack(t *testing.T, g *Game, attackers ...int) {
	t.Helper()
	toStep(t, g, StepAttackers)
	if g.st.Dec.Kind != DecAttackers {
		t.Fatalf("no declaration: %+v", g.st.Dec)
	}
	do(t, g, 0, "declare_attackers", "", map[string][]string{"attackers": numIDs(attackers, permID)})
}

// block declares seat's blockers: attacker → blockers.
func block(t *testing.T, g *Game, seat int, blocks map[int][]int) {
	t.Helper()
	passAll(t, g, 4)
	if g.st.Dec.Kind != DecBlockers || g.st.Dec.Seat != seat {
		t.Fatalf("seat %d is not declaring blockers: %+v", seat, g.st.Dec)
	}
	ans := map[string][]string{}
	for a, bs := range blocks {
		ans["block:"+permID(a)] = numIDs(bs, permID)
	}
	do(t, g, seat, "declare_blockers", "", ans)
}

func TestUnblockedDamageLifelinkAndVenom(t *testing.T) {
	g := scene(t, 2)
	leech := g.put(0, "leech")
	asp := g.put(0, "asp")
	attack(t, g, leech, asp)
	passAll(t, g, 20)
	toStep(t, g, StepEndCombat)
	pl := g.st.Players
	if pl[1].Life != 17 || pl[0].Life != 22 || pl[1].Poison != 1 {
		t.Fatalf("life %d/%d poison %d", pl[0].Life, pl[1].Life, pl[1].Poison)
	}
	if !g.perm(leech).Tapped {
		t.Fatal("an attacker without vigilance did not tap")
	}
	checkScene(t, g, 0)
}

func TestSummoningSicknessAndDefenderCannotAttack(t *testing.T) {
	g := scene(t, 2)
	bear := g.put(0, "bear")
	g.perm(bear).Sick = true
	g.put(0, "wall")
	brute := g.put(0, "brute")
	g.perm(brute).Sick = true // haste
	toStep(t, g, StepAttackers)
	a, ok := offered(g, 0, "declare_attackers", "")
	if !ok {
		t.Fatal("no declaration")
	}
	if got := a.Requirements[0].Candidates; !slices.Equal(got, ids(permID(brute))) {
		t.Fatalf("attackers %v", got)
	}
	checkScene(t, g, 0)
}

func TestFlyingReachAndUnblockable(t *testing.T) {
	g := scene(t, 2)
	hawk := g.put(0, "hawk")
	ghost := g.put(0, "ghost")
	bear := g.put(1, "bear")
	spider := g.put(1, "spider")
	attack(t, g, hawk, ghost)
	passAll(t, g, 4)
	a, ok := offered(g, 1, "declare_blockers", "")
	if !ok {
		t.Fatalf("no block: %+v", g.st.Dec)
	}
	for _, r := range a.Requirements {
		switch r.Subject {
		case permID(hawk):
			if !slices.Equal(r.Candidates, ids(permID(spider))) {
				t.Fatalf("hawk blockers %v", r.Candidates)
			}
		case permID(ghost):
			if len(r.Candidates) != 0 {
				t.Fatalf("ghost blockers %v", r.Candidates)
			}
		}
	}
	_ = bear
	block(t, g, 1, map[int][]int{hawk: {spider}})
	passAll(t, g, 20)
	toStep(t, g, StepEndCombat)
	if g.perm(hawk) != nil || g.st.Players[1].Life != 19 {
		t.Fatalf("hawk alive %v, life %d", g.perm(hawk) != nil, g.st.Players[1].Life)
	}
	checkScene(t, g, 1)
}

func TestMenaceNeedsTwoBlockers(t *testing.T) {
	g := scene(t, 2)
	brute := g.put(0, "brute")
	b1 := g.put(1, "bear")
	b2 := g.put(1, "spider")
	attack(t, g, brute)
	passAll(t, g, 4)
	if _, err := try(g, 1, "declare_blockers", "", map[string][]string{"block:" + permID(brute): ids(permID(b1))}); err == nil {
		t.Fatal("one blocker on a menace attacker was accepted")
	}
	do(t, g, 1, "declare_blockers", "", map[string][]string{"block:" + permID(brute): ids(permID(b1), permID(b2))})
	if g.st.Dec.Kind != DecOrder {
		t.Fatalf("no damage order asked: %+v", g.st.Dec)
	}
	a, _ := offered(g, 0, "order_combat_damage", "")
	if len(a.Prompts) != 1 || len(a.Prompts[0].Items) != 2 {
		t.Fatalf("order prompt %+v", a.Prompts)
	}
	do(t, g, 0, "order_combat_damage", "", map[string][]string{"order:" + permID(brute): ids(permID(b2), permID(b1))})
	passAll(t, g, 20)
	toStep(t, g, StepEndCombat)
	// 3 damage along the order: spider (1/3) takes 3 and dies, bear takes none
	if g.perm(b2) != nil || g.perm(b1) == nil || g.perm(b1).Damage != 0 {
		t.Fatalf("spider alive %v, bear %+v", g.perm(b2) != nil, g.perm(b1))
	}
	if g.perm(brute) != nil {
		t.Fatal("the brute survived 3 damage")
	}
	checkScene(t, g, 1)
}

func TestFirstStrikeKillsBeforeDamageBack(t *testing.T) {
	g := scene(t, 2)
	knight := g.put(0, "knight")
	bear := g.put(1, "bear")
	attack(t, g, knight)
	block(t, g, 1, map[int][]int{knight: {bear}})
	var phases []string
	for g.st.Step != StepEndCombat {
		for _, e := range do(t, g, g.st.Dec.Seat, "pass_priority", "", nil) {
			if e["type"] == "step_changed" {
				phases = append(phases, e["phase"].(string))
			}
		}
	}
	if g.perm(bear) != nil || g.perm(knight) == nil || g.perm(knight).Damage != 0 {
		t.Fatal("first strike did not kill the blocker first")
	}
	if !slices.Equal(phases[:2], []string{"combat_damage", "combat_damage"}) {
		t.Fatalf("phases %v", phases)
	}
	checkScene(t, g, 0)
}

func TestTrampleDeathtouchVigilance(t *testing.T) {
	t.Run("trample_vigilance", func(t *testing.T) {
		g := scene(t, 2)
		rhino := g.put(0, "rhino")
		bear := g.put(1, "bear")
		attack(t, g, rhino)
		if g.perm(rhino).Tapped {
			t.Fatal("a vigilant attacker tapped")
		}
		block(t, g, 1, map[int][]int{rhino: {bear}})
		passAll(t, g, 20)
		toStep(t, g, StepEndCombat)
		if g.st.Players[1].Life != 17 || g.perm(bear) != nil {
			t.Fatalf("trample: life %d", g.st.Players[1].Life)
		}
		checkScene(t, g, 1)
	})
	t.Run("deathtouch", func(t *testing.T) {
		g := scene(t, 2)
		asp := g.put(0, "asp")
		rhino := g.put(1, "rhino")
		attack(t, g, asp)
		block(t, g, 1, map[int][]int{asp: {rhino}})
		passAll(t, g, 20)
		toStep(t, g, StepEndCombat)
		if g.perm(rhino) != nil {
			t.Fatal("deathtouch did not destroy the blocker")
		}
		checkScene(t, g, 1)
	})
}

func TestAttackingAPlaneswalker(t *testing.T) {
	g := scene(t, 2)
	bear := g.put(0, "bear")
	sage := g.put(1, "sage")
	toStep(t, g, StepAttackers)
	a, _ := offered(g, 0, "declare_attackers", "")
	if len(a.Requirements) != 2 || a.Requirements[1].Subject != permID(bear) ||
		!slices.Equal(a.Requirements[1].Candidates, ids("p1", permID(sage))) {
		t.Fatalf("defender slots %+v", a.Requirements)
	}
	do(t, g, 0, "declare_attackers", "", map[string][]string{"attackers": ids(permID(bear)), "defender:" + permID(bear): ids(permID(sage))})
	checkView(t, g, 1, "attack_planeswalker")
	passAll(t, g, 20)
	toStep(t, g, StepEndCombat)
	if g.perm(sage).Loyalty != 1 || g.st.Players[1].Life != 20 {
		t.Fatalf("loyalty %d life %d", g.perm(sage).Loyalty, g.st.Players[1].Life)
	}
	checkScene(t, g, 1)
}

func TestMultiplayerBlockersInAPNAPOrder(t *testing.T) {
	g := scene(t, 3)
	a1 := g.put(0, "bear")
	a2 := g.put(0, "leech")
	g.put(1, "spider")
	g.put(2, "spider")
	toStep(t, g, StepAttackers)
	do(t, g, 0, "declare_attackers", "", map[string][]string{"attackers": ids(permID(a1), permID(a2)),
		"defender:" + permID(a1): ids("p2"), "defender:" + permID(a2): ids("p1")})
	passAll(t, g, 6)
	if g.st.Dec.Kind != DecBlockers || g.st.Dec.Seat != 1 {
		t.Fatalf("first defender %+v", g.st.Dec)
	}
	do(t, g, 1, "declare_blockers", "", nil)
	if g.st.Dec.Kind != DecBlockers || g.st.Dec.Seat != 2 {
		t.Fatalf("second defender %+v", g.st.Dec)
	}
	a, _ := offered(g, 2, "declare_blockers", "")
	if len(a.Requirements) != 1 || a.Requirements[0].Subject != permID(a1) {
		t.Fatalf("p2 is asked about %+v", a.Requirements)
	}
	do(t, g, 2, "declare_blockers", "", nil)
	passAll(t, g, 20)
	toStep(t, g, StepEndCombat)
	if g.st.Players[1].Life != 18 || g.st.Players[2].Life != 18 {
		t.Fatalf("life %d %d", g.st.Players[1].Life, g.st.Players[2].Life)
	}
	checkScene(t, g, 0)
}
