package rooms

import (
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
)

// TestActionEncoders checks the hand-written encoders of actions and
// prompts give exactly canon.Marshal's bytes, escapes and empty lists
// included.
func TestActionEncoders(t *testing.T) {
	one := 1
	tests := []struct {
		name string
		a    Action
	}{
		{name: "bare", a: Action{ID: "p", Type: "pass_priority", Label: "Pass"}},
		{name: "cast", a: Action{ID: "c", Type: "cast_spell", Label: "Cast <Bear> & co", Subject: []string{"card_1"},
			Cost:         &Cost{Printed: "{1}{G}", Modified: "{2}{G}"},
			Destinations: []Destination{{Type: "zone", ID: "battlefield", Owner: "p0", Label: "Battlefield"}, {Type: "player", ID: "p1"}},
			Prompts: []Prompt{
				{Kind: PromptPayMana, Slot: "pay0", Prompt: "Pay {1}", Pip: "{1}", ManaCandidates: []ManaCandidate{
					{ID: "a:1", Source: "perm_1", Label: "Add {W}", Taps: true}, {ID: "a:2", Source: "perm_1", Label: "Add {U}\u2028"}}},
				{Kind: PromptPayMana, Slot: "pay1", Prompt: "Pay {G}", Pip: "{G}"},
				{Kind: PromptSelectFromZone, Slot: "cost_discard", Prompt: "Discard", Zone: "hand", Owner: "p0", Count: 1, Min: &one, Candidates: []string{"card_2"}},
			}}},
		{name: "free cast", a: Action{ID: "f", Type: "cast_spell", Label: "Cast", Cost: &Cost{Modified: "{0}"}}},
		{name: "mana ability", a: Action{ID: "m", Type: "activate_ability", Label: "Add {G}", ManaAbility: true, Token: "t0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := canon.Marshal(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if got := appendAction(nil, &tc.a); string(got) != string(want) {
				t.Fatalf("appendAction:\n got %s\nwant %s", got, want)
			}
		})
	}
}
