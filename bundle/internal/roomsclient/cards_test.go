package roomsclient

import (
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
)

// TestPickCardPaysOnlyTheCostItChose: for an X spell the client picks the
// smallest X, so it pays the mandatory pips and leaves the optional slots
// of larger X values empty; naming a source there overpays, and the host
// refuses the whole answer.
func TestPickCardPaysOnlyTheCostItChose(t *testing.T) {
	zero, three := 0, 3
	cands := []rooms.ManaCandidate{{ID: "perm_1", Source: "perm_1", Taps: true}, {ID: "perm_2", Source: "perm_2", Taps: true}}
	v := CardView{ValidActions: []rooms.Action{{ID: "7.cast", Type: "cast_spell", Prompts: []rooms.Prompt{
		{Kind: rooms.PromptNumber, Slot: "x", Min: &zero, Max: &three},
		{Kind: rooms.PromptPayMana, Slot: "pay0", Pip: "{R}", ManaCandidates: cands},
		{Kind: rooms.PromptPayMana, Slot: "pay1", Pip: "{1}", Min: &zero, ManaCandidates: cands},
	}}}}
	ca, ok := PickCard(v, nil)
	if !ok {
		t.Fatal("no action picked")
	}
	got := map[string][]string{}
	for _, tc := range ca.Targets {
		got[tc.Slot] = tc.Chosen
	}
	if len(got["x"]) != 1 || got["x"][0] != "0" || len(got["pay0"]) != 1 || got["pay1"] != nil {
		t.Fatalf("answers %v: want x 0, one source for pay0, none for pay1", got)
	}
}
