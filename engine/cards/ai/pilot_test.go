package ai

import (
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
)

func TestPilotMulligansOnLandCount(t *testing.T) {
	_, cards, _ := shipped(t)
	for _, tc := range []struct {
		name string
		hand []string
		want string
	}{
		{"no lands", []string{"ember_lash", "cinder_imp", "kiln_brute", "ashclaw_raider", "molten_whelp", "ashfall", "cinder_imp"}, "mulligan"},
		{"one land", []string{"mountain", "cinder_imp", "kiln_brute", "ashclaw_raider", "molten_whelp", "ashfall", "cinder_imp"}, "mulligan"},
		{"three lands", []string{"mountain", "mountain", "mountain", "ashclaw_raider", "molten_whelp", "ashfall", "cinder_imp"}, "keep"},
		{"seven lands", []string{"mountain", "mountain", "mountain", "mountain", "mountain", "mountain", "mountain"}, "mulligan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPosition(t, cards, 2)
			b.st.Turn, b.st.Step, b.st.Dec = 0, rules.StepUntap, rules.Decision{Kind: rules.DecMulligan}
			b.hand(0, tc.hand...)
			b.hand(1, "mountain", "mountain", "mountain", "cinder_imp", "cinder_imp", "cinder_imp", "cinder_imp")
			c, _ := b.choose(Pilot, 0)
			if got := c.Targets["decision"]; !slices.Equal(got, []string{tc.want}) {
				t.Fatalf("decision %v, want %s", got, tc.want)
			}
		})
	}
	t.Run("bottoms excess lands after a mulligan", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.st.Turn, b.st.Step, b.st.Dec = 0, rules.StepUntap, rules.Decision{Kind: rules.DecMulligan}
		b.st.Players[0].Mulls = 1
		ids := b.hand(0, "mountain", "mountain", "mountain", "mountain", "mountain", "cinder_imp", "kiln_brute")
		c, _ := b.choose(Pilot, 0)
		if !slices.Equal(c.Targets["decision"], []string{"keep"}) || len(c.Targets["bottom"]) != 1 || !slices.Contains(ids[:5], c.Targets["bottom"][0]) {
			t.Fatalf("choice %v, want keep bottoming a land", c.Targets)
		}
	})
}

func TestPilotPlaysTheLandItNeeds(t *testing.T) {
	_, cards, _ := shipped(t)
	b := newPosition(t, cards, 2)
	b.perm(0, "mountain")
	ids := b.hand(0, "mountain", "forest", "grove_herald", "thornback_warden")
	_, a := b.choose(Pilot, 0)
	if a.Type != "play_land" || a.Subject[0] != ids[1] {
		t.Fatalf("played %s %v, want the forest %s", a.Type, a.Subject, ids[1])
	}
}

func TestPilotCurvesOut(t *testing.T) {
	_, cards, _ := shipped(t)
	b := newPosition(t, cards, 2)
	b.lands(0, "mountain", 5)
	b.st.Players[0].Lands = 1
	ids := b.hand(0, "kiln_brute", "ashclaw_raider", "borrowed_fury", "cinder_imp", "mountain")
	g := b.game()
	_, a := decide(t, g, Pilot, 0)
	// 5 mana: Kiln Brute (4) + Cinder Imp (1) uses all of it; Borrowed Fury has no target
	if a.Type != "cast_spell" || a.Subject[0] != ids[0] {
		t.Fatalf("first cast %s %v, want Kiln Brute", a.Type, a.Subject)
	}
	passUntilAsked(t, g)
	_, a = decide(t, g, Pilot, 0)
	if a.Type != "cast_spell" || a.Subject[0] != ids[3] {
		t.Fatalf("second cast %s %v, want Cinder Imp", a.Type, a.Subject)
	}
}

// passUntilAsked passes priority for every seat but 0 until seat 0 holds
// priority again with an empty stack.
func passUntilAsked(t *testing.T, g *rules.Game) {
	t.Helper()
	for i := 0; i < 20; i++ {
		if acts := g.Actions(0); len(acts) > 0 && g.View(0).(rules.View).Stack != nil && len(g.View(0).(rules.View).Stack) == 0 {
			return
		}
		for s := 0; s < 4; s++ {
			for _, a := range g.Actions(s) {
				if a.Type == "pass_priority" {
					if _, err := g.Apply(s, rooms.Choice{ActionID: a.ID}); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
		}
	}
	t.Fatal("seat 0 never got priority back")
}

func TestPilotPaysWithoutStrandingColours(t *testing.T) {
	_, cards, _ := shipped(t)
	b := newPosition(t, cards, 2)
	b.perm(0, "forest")
	b.perm(0, "forest")
	mountain := b.perm(0, "mountain")
	b.st.Players[0].Lands = 1
	ids := b.hand(0, "grove_herald", "cinder_imp")
	c, a := b.choose(Pilot, 0)
	if a.Subject[0] != ids[0] {
		t.Fatalf("cast %v, want Grove Herald", a.Subject)
	}
	for slot, got := range c.Targets {
		if slices.Contains(got, mountain) {
			t.Fatalf("paid %s with the mountain the Imp needs: %v", slot, c.Targets)
		}
	}
}

func TestPilotAimsRemoval(t *testing.T) {
	_, cards, _ := shipped(t)
	t.Run("never at its own creature", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.lands(0, "mountain", 2)
		b.st.Players[0].Lands = 1
		b.perm(0, "kiln_brute")
		b.hand(0, "ember_lash")
		c, a := b.choose(Pilot, 0)
		if a.Type == "cast_spell" && !slices.Equal(c.Targets["t0"], []string{"p1"}) {
			t.Fatalf("Ember Lash aimed at %v", c.Targets["t0"])
		}
	})
	t.Run("the largest creature it kills", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.lands(0, "mountain", 2)
		b.st.Players[0].Lands = 1
		b.perm(1, "cinder_imp")
		big := b.perm(1, "thornback_warden", func(p *rules.Perm) { p.Damage = 1 })
		b.perm(1, "deeproot_colossus")
		b.hand(0, "ember_lash")
		c, _ := b.choose(Pilot, 0)
		if !slices.Equal(c.Targets["t0"], []string{big}) {
			t.Fatalf("Ember Lash aimed at %v, want the damaged warden %s", c.Targets["t0"], big)
		}
	})
	t.Run("the leading opponent in multiplayer", func(t *testing.T) {
		b := newPosition(t, cards, 3)
		b.lands(0, "swamp", 2)
		b.st.Players[0].Lands = 1
		b.perm(1, "kiln_brute") // the human, behind
		lead := b.perm(2, "kiln_brute")
		b.perm(2, "bramblehide_boar")
		b.perm(2, "thornback_warden")
		b.hand(0, "cut_the_thread")
		c, _ := b.choose(Pilot, 0)
		if got := c.Targets["t0"]; len(got) != 1 || b.ctrlOf(got[0]) != 2 {
			t.Fatalf("Cut the Thread aimed at %v, want one of seat 2's creatures such as %s", got, lead)
		}
	})
	t.Run("no pump on an opponent's creature", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.st.Active, b.st.Step, b.st.Dec = 1, rules.StepBlockers, rules.Decision{Kind: rules.DecPriority, Seat: 0}
		att := b.perm(1, "kiln_brute", attacking(0))
		blk := b.perm(0, "thornback_warden", func(p *rules.Perm) { p.Blocks = []int{b.st.Next - 1} })
		b.st.Field[0].Blockers, b.st.Field[0].Blocked = []int{b.st.Next}, true
		b.st.Combat = &rules.Combat{Attacked: true}
		b.perm(0, "forest")
		b.hand(0, "sapsurge")
		c, a := b.choose(Pilot, 0)
		if a.Type != "cast_spell" || !slices.Equal(c.Targets["t0"], []string{blk}) {
			t.Fatalf("choice %s %v, want Sapsurge on the blocker %s (not the attacker %s)", a.Type, c.Targets, blk, att)
		}
	})
}

// ctrlOf returns the controller seat of permanent id.
func (b *position) ctrlOf(id string) int {
	for _, p := range b.st.Field {
		if "perm_"+itoa(p.N) == id {
			return p.Ctrl
		}
	}
	return -1
}

func TestPilotPicksTheLargestX(t *testing.T) {
	_, cards, _ := shipped(t)
	b := newPosition(t, cards, 2)
	b.lands(0, "mountain", 5)
	b.st.Players[0].Lands = 1
	b.st.Players[1].Life = 4
	b.hand(0, "scorching_torrent")
	c, _ := b.choose(Pilot, 0)
	if !slices.Equal(c.Targets["x"], []string{"4"}) || !slices.Equal(c.Targets["t0"], []string{"p1"}) {
		t.Fatalf("choice %v, want X=4 at the opponent", c.Targets)
	}
}

func TestPilotAttacks(t *testing.T) {
	_, cards, _ := shipped(t)
	setup := func(t *testing.T) *position {
		b := newPosition(t, cards, 2)
		b.st.Step, b.st.Dec, b.st.Combat = rules.StepAttackers, rules.Decision{Kind: rules.DecAttackers}, &rules.Combat{}
		return b
	}
	t.Run("all in when lethal", func(t *testing.T) {
		b := setup(t)
		b.st.Players[1].Life = 3
		b.perm(1, "thornback_warden")
		b.perm(0, "dawnward_squire")
		b.perm(0, "dawnward_squire")
		b.perm(0, "cinder_imp")
		c, _ := b.choose(Pilot, 0)
		if len(c.Targets["attackers"]) != 3 {
			t.Fatalf("attackers %v, want all three", c.Targets["attackers"])
		}
	})
	t.Run("not into a free kill", func(t *testing.T) {
		b := setup(t)
		b.perm(1, "bramblehide_boar")
		b.perm(0, "dawnward_squire")
		c, _ := b.choose(Pilot, 0)
		if len(c.Targets["attackers"]) != 0 {
			t.Fatalf("attackers %v, want none into a 4/4", c.Targets["attackers"])
		}
	})
	t.Run("evasion gets in", func(t *testing.T) {
		b := setup(t)
		b.perm(1, "bramblehide_boar")
		flier := b.perm(0, "skyhall_gryphon")
		c, _ := b.choose(Pilot, 0)
		if !slices.Equal(c.Targets["attackers"], []string{flier}) {
			t.Fatalf("attackers %v, want the gryphon", c.Targets["attackers"])
		}
	})
	t.Run("at the leading opponent, not the human by default", func(t *testing.T) {
		b := newPosition(t, cards, 3)
		b.st.Step, b.st.Dec, b.st.Combat = rules.StepAttackers, rules.Decision{Kind: rules.DecAttackers}, &rules.Combat{}
		b.perm(2, "deeproot_colossus", tapped) // seat 2 leads; seat 1 (the human) is behind
		flier := b.perm(0, "skyhall_gryphon")
		c, _ := b.choose(Pilot, 0)
		if !slices.Equal(c.Targets["attackers"], []string{flier}) || !slices.Equal(c.Targets["defender:"+flier], []string{"p2"}) {
			t.Fatalf("attack %v, want the gryphon at p2", c.Targets)
		}
	})
	t.Run("keeps a blocker home against a lethal swing back", func(t *testing.T) {
		b := setup(t)
		b.st.Players[0].Life = 4
		b.perm(1, "bramblehide_boar", tapped)
		b.perm(0, "skyhall_terrace")
		wall := b.perm(0, "thornback_warden")
		c, _ := b.choose(Pilot, 0)
		if slices.Contains(c.Targets["attackers"], wall) {
			t.Fatalf("attackers %v: the warden must stay home", c.Targets["attackers"])
		}
	})
}

func TestPilotBlocks(t *testing.T) {
	_, cards, _ := shipped(t)
	setup := func(t *testing.T) *position {
		b := newPosition(t, cards, 2)
		b.st.Active, b.st.Step = 1, rules.StepAttackers
		b.st.Dec, b.st.Combat = rules.Decision{Kind: rules.DecBlockers, Seat: 0}, &rules.Combat{Attacked: true, Defenders: []int{0}}
		return b
	}
	for _, tc := range []struct {
		name     string
		build    func(b *position) (att, blk string)
		wantSlot bool
	}{
		{"kills and survives", func(b *position) (string, string) {
			return b.perm(1, "dawnward_squire", attacking(0)), b.perm(0, "thornback_warden")
		}, true},
		{"a trade that wins value", func(b *position) (string, string) {
			return b.perm(1, "kiln_brute", attacking(0)), b.perm(0, "ashclaw_raider", func(p *rules.Perm) { p.Plus = 1 })
		}, true},
		{"no chump when safe", func(b *position) (string, string) {
			return b.perm(1, "bramblehide_boar", attacking(0)), b.perm(0, "cinder_imp")
		}, false},
		{"chump when dying", func(b *position) (string, string) {
			b.st.Players[0].Life = 4
			return b.perm(1, "bramblehide_boar", attacking(0)), b.perm(0, "cinder_imp")
		}, true},
		{"chump against poison, two for menace", func(b *position) (string, string) {
			b.st.Players[0].Poison = 8
			b.perm(0, "cinder_imp")
			return b.perm(1, "mire_adder", attacking(0)), b.perm(0, "dawnward_squire")
		}, true},
		{"no chump when poison is far", func(b *position) (string, string) {
			b.st.Players[0].Poison = 2
			b.perm(0, "cinder_imp")
			return b.perm(1, "mire_adder", attacking(0)), b.perm(0, "dawnward_squire")
		}, false},
		{"chump against commander damage", func(b *position) (string, string) {
			b.st.Config.Commander = true
			b.st.Players[0].CmdrDmg = []int{0, 20}
			b.st.Players[1].CmdrDmg = []int{0, 0}
			b.st.Players[0].Life = 30
			att := b.perm(1, "brakka_wildfire_chieftain", attacking(0), commander)
			return att, b.perm(0, "dawnward_squire")
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := setup(t)
			att, blk := tc.build(b)
			c, _ := b.choose(Pilot, 0)
			got := slices.Contains(c.Targets["block:"+att], blk)
			if got != tc.wantSlot {
				t.Fatalf("blocks %v: blocking %s with %s is %v, want %v", c.Targets, att, blk, got, tc.wantSlot)
			}
		})
	}
}

func TestPilotCountersOnlyBigSpells(t *testing.T) {
	_, cards, _ := shipped(t)
	for _, tc := range []struct {
		spell string
		want  bool
	}{{"ashclaw_raider", false}, {"kiln_brute", true}} {
		t.Run(tc.spell, func(t *testing.T) {
			b := newPosition(t, cards, 2)
			b.st.Active, b.st.Dec = 1, rules.Decision{Kind: rules.DecPriority, Seat: 0}
			b.st.Passes = 1
			b.lands(0, "island", 3)
			b.hand(0, "unravel")
			n := b.mint()
			b.st.Phys++
			b.st.Stack = append(b.st.Stack, rules.Item{N: n, Card: b.st.Phys, Kind: "spell", Ctrl: 1, Owner: 1, ID: tc.spell, Aimed: true, Name: tc.spell})
			_, a := b.choose(Pilot, 0)
			if (a.Type == "cast_spell") != tc.want {
				t.Fatalf("answered %s, want a counter: %v", a.Type, tc.want)
			}
		})
	}
}

func TestPilotSpendsSpareManaOnAnAbility(t *testing.T) {
	_, cards, _ := shipped(t)
	b := newPosition(t, cards, 2)
	b.st.Step = rules.StepMain2
	b.lands(0, "island", 4)
	b.st.Players[0].Lands = 1
	b.perm(0, "tome_of_endless_pages")
	g := b.game()
	for i := 0; i < 4; i++ {
		_, a := decide(t, g, Pilot, 0)
		if a.Type == "activate_ability" && !a.ManaAbility {
			if v := g.View(0).(rules.View); len(v.Stack) != 1 {
				t.Fatalf("stack %v, want the Tome's ability", v.Stack)
			}
			return
		}
		if !a.ManaAbility {
			t.Fatalf("decision %d: %s, want mana toward the Tome", i, a.Type)
		}
	}
	t.Fatal("the Tome was never activated")
}
