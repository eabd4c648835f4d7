package rooms

import "testing"

// TestCheckSlotsPayMana: a mandatory pay_mana slot needs one candidate;
// an optional one (a larger X's pip) may be left empty but, when
// answered, takes one candidate like any other; no source pays twice.
func TestCheckSlotsPayMana(t *testing.T) {
	zero := 0
	cands := []ManaCandidate{{ID: "perm_1", Source: "perm_1", Taps: true}, {ID: "perm_2", Source: "perm_2", Taps: true}}
	a := Action{ID: "1.cast", Prompts: []Prompt{
		{Kind: PromptPayMana, Slot: "pay0", Pip: "{R}", ManaCandidates: cands},
		{Kind: PromptPayMana, Slot: "pay1", Pip: "{1}", Min: &zero, ManaCandidates: cands},
	}}
	tests := []struct {
		name    string
		targets map[string][]string
		ok      bool
	}{
		{"mandatory paid, optional left empty", map[string][]string{"pay0": {"perm_1"}}, true},
		{"both paid", map[string][]string{"pay0": {"perm_1"}, "pay1": {"perm_2"}}, true},
		{"mandatory unpaid", map[string][]string{"pay1": {"perm_2"}}, false},
		{"one source twice", map[string][]string{"pay0": {"perm_1"}, "pay1": {"perm_1"}}, false},
		{"two sources for one pip", map[string][]string{"pay0": {"perm_1"}, "pay1": {"perm_1", "perm_2"}}, false},
	}
	for _, tt := range tests {
		if rej := checkSlots(a, tt.targets); (rej == nil) != tt.ok {
			t.Errorf("%s: rejection %+v, want ok %v", tt.name, rej, tt.ok)
		}
	}
}
