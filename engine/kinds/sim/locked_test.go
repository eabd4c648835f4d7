package sim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// TestLockedActivitySaysWhatOpensIt: while an activity's requires does
// not hold, the view gives as its reason the author's locked text (First
// Flat's freelance job opens at design skill 40), not only that it is not
// open yet; once it holds, the activity is offered with no reason. An
// activity that requires a condition without a locked text is a tier 2
// warning.
func TestLockedActivitySaysWhatOpensIt(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	s := start(t, e, "first-flat", "locked")
	freelance := func(s *core.GameState) ActivityView {
		t.Helper()
		view, err := e.View(s, core.AudiencePlayer)
		if err != nil {
			t.Fatal(err)
		}
		var v View
		if err := json.Unmarshal(view.KindView, &v); err != nil {
			t.Fatal(err)
		}
		for _, a := range v.Activities {
			if a.ID == "freelance_job" {
				return a
			}
		}
		t.Fatal("the freelance job is not in the view")
		return ActivityView{}
	}
	if got := freelance(s); got.ReasonKey != "first-flat.activity.freelance_job.locked" || got.Offerable {
		t.Fatalf("the locked freelance job: offerable %v, reason %q", got.Offerable, got.ReasonKey)
	}
	st := *kindState(s)
	st.Stats = map[string]int64{"energy": st.Stats["energy"], "mood": st.Stats["mood"], "skill": 40}
	open := *s
	open.KindState = &st
	if got := freelance(&open); got.ReasonKey != "" || !got.Offerable || got.MaxAddable == 0 {
		t.Fatalf("at skill 40 the freelance job: offerable %v, can add %d, reason %q", got.Offerable, got.MaxAddable, got.ReasonKey)
	}

	src := strings.Replace(sampleSource, `"id": "class",`, `"id": "class", "requires": {"field": "stat.energy", "operator": "greater_than", "value": 10},`, 1)
	if src == sampleSource {
		t.Fatal("the sample has no class activity to lock")
	}
	_, res := content.Build([]core.Kind{Kind{}}, content.Source{Path: "lock", Campaign: campaignFile("lock", src)})
	if !res.OK {
		t.Fatal(res.Errors)
	}
	for _, w := range res.Warnings {
		if w.Code == ReasonActivityUnavailable && w.Path == "content.activities.class.locked" {
			return
		}
	}
	t.Fatalf("no %s warning at content.activities.class.locked in %v", ReasonActivityUnavailable, res.Warnings)
}
