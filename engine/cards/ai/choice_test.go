package ai

import (
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
)

// resolve puts item on the stack of b's position, passes priority until
// it resolves, and returns the game with seat's choice pending.
func (b *position) resolve(it rules.Item, seat int) *rules.Game {
	b.t.Helper()
	it.N, it.Aimed = b.mint(), true
	if it.Kind == "spell" {
		b.st.Phys++
		it.Card = b.st.Phys
	}
	b.st.Stack = append(b.st.Stack, it)
	b.st.Dec = rules.Decision{Kind: rules.DecPriority, Seat: b.st.Active}
	b.st.Passes = 0
	g := b.game()
	for i := 0; i < 8 && g.PendingChoice(seat) == ""; i++ {
		for s := range b.st.Players {
			for _, a := range g.Actions(s) {
				if a.Type == "pass_priority" {
					if _, err := g.Apply(s, rooms.Choice{ActionID: a.ID}); err != nil {
						b.t.Fatal(err)
					}
				}
			}
		}
	}
	if g.PendingChoice(seat) == "" {
		b.t.Fatalf("seat %d is asked no choice", seat)
	}
	return g
}

func TestPilotChoices(t *testing.T) {
	_, cards, _ := shipped(t)
	t.Run("discards excess lands when flooded", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.lands(0, "mountain", 6)
		ids := b.hand(0, "mountain", "kiln_brute", "mountain", "ember_lash")
		g := b.resolve(rules.Item{Kind: "spell", Ctrl: 1, Owner: 1, ID: "fraying_will", Name: "Fraying Will", Targets: []string{"p0"}}, 0)
		c, _ := decide(t, g, Pilot, 0)
		got := c.Targets["choice"]
		slices.Sort(got)
		want := []string{ids[0], ids[2]}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("discarded %v, want the mountains %v", got, want)
		}
	})
	t.Run("takes an opponent's best card", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		ids := b.hand(1, "mountain", "cinder_imp", "emberwing_drake")
		g := b.resolve(rules.Item{Kind: "spell", Ctrl: 0, Owner: 0, ID: "pry_the_secret", Name: "Pry the Secret", Targets: []string{"p1"}}, 0)
		c, _ := decide(t, g, Pilot, 0)
		if !slices.Equal(c.Targets["choice"], []string{ids[2]}) {
			t.Fatalf("took %v, want the drake %s", c.Targets["choice"], ids[2])
		}
	})
	for _, tc := range []struct {
		name   string
		lands  int
		bottom int
	}{{"scry away lands when flooded", 6, 2}, {"scry keeps lands when short", 2, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPosition(t, cards, 2)
			b.lands(0, "island", tc.lands)
			b.perm(0, "tidehall_apprentice")
			n := b.st.Next
			g := b.resolve(rules.Item{Kind: "triggered", Ctrl: 0, Owner: 0, ID: "tidehall_apprentice", Source: n, Name: "Tidehall Apprentice"}, 0)
			c, _ := decide(t, g, Pilot, 0)
			if len(c.Targets["choice"]) != tc.bottom {
				t.Fatalf("bottomed %v, want %d cards", c.Targets["choice"], tc.bottom)
			}
		})
	}
	t.Run("searches for the basic it needs", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.lands(0, "mountain", 2)
		b.hand(0, "thornback_warden")
		b.st.Players[0].Library = []string{"mountain", "island", "forest", "plains"}
		g := b.resolve(rules.Item{Kind: "spell", Ctrl: 0, Owner: 0, ID: "pathcutters_trek", Name: "Pathcutter's Trek"}, 0)
		decide(t, g, Pilot, 0)
		v := g.View(0).(rules.View)
		found := false
		for _, p := range v.Battlefield {
			found = found || p.Card.FunctionalID == "forest"
		}
		if !found {
			t.Fatal("no forest was fetched")
		}
	})
	t.Run("chooses the colour its hand needs", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.lands(0, "mountain", 3)
		b.hand(0, "thornback_warden", "grove_herald")
		g := b.resolve(rules.Item{Kind: "spell", Ctrl: 0, Owner: 0, ID: "prism_lens", Name: "Prism Lens"}, 0)
		c, _ := decide(t, g, Pilot, 0)
		if !slices.Equal(c.Targets["choice"], []string{"G"}) {
			t.Fatalf("chose %v, want G", c.Targets["choice"])
		}
	})
	t.Run("names the opponent's best card", func(t *testing.T) {
		b := newPosition(t, cards, 2)
		b.perm(1, "cinder_imp")
		b.perm(1, "emberwing_drake")
		g := b.resolve(rules.Item{Kind: "spell", Ctrl: 0, Owner: 0, ID: "hush_totem", Name: "Hush Totem"}, 0)
		c, _ := decide(t, g, Pilot, 0)
		if !slices.Equal(c.Targets["choice"], []string{"emberwing_drake"}) {
			t.Fatalf("named %v, want the drake", c.Targets["choice"])
		}
	})
	for _, tc := range []struct {
		name  string
		lands int
		pays  bool
	}{{"declines an optional cost it cannot spare", 1, false}, {"pays an optional cost with spare mana", 4, true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPosition(t, cards, 2)
			b.st.Step = rules.StepUpkeep
			b.lands(0, "island", tc.lands)
			b.perm(0, "drifting_scholar")
			n := b.st.Next
			b.hand(0, "hollowfang_rat")
			g := b.resolve(rules.Item{Kind: "triggered", Ctrl: 0, Owner: 0, ID: "drifting_scholar", Source: n, Name: "Drifting Scholar"}, 0)
			c, a := decide(t, g, Pilot, 0)
			if a.ManaAbility {
				c, _ = decide(t, g, Pilot, 0)
			}
			paid := slices.Equal(c.Targets["choice"], []string{"accept"})
			if paid != tc.pays || a.ManaAbility != tc.pays {
				t.Fatalf("answer %v after %s, want paying: %v", c.Targets, a.Type, tc.pays)
			}
		})
	}
}
