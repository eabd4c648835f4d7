package story

import (
	"os"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

// TestDocWorkedExample keeps docs/story-graph-kind.md honest: its worked
// campaign file builds, passes tiers 1 to 3 and plays to its ending.
func TestDocWorkedExample(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/story-graph-kind.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(doc), "## 2. Authored source")
	_, rest, _ = strings.Cut(rest, "```json\n")
	file, _, _ := strings.Cut(rest, "```")
	rep := validate.Campaigns([]core.Kind{Kind{}}, validate.DefaultBudget(), content.Source{Path: "doc", Campaign: []byte(file)})
	for _, f := range rep.Findings {
		t.Errorf("tier %d: %v", f.Tier, f.ValidationError)
	}
	if rep.Registry == nil {
		t.FailNow()
	}
	e := newEngine(t, rep.Registry, nil)
	s := mustCreate(t, e, "tiny", "doc")
	s = mustSubmit(t, e, s, "light")
	for i := 0; s.KindState.(*State).NodeID() != "hall" || i == 0; i++ {
		if i > 50 {
			t.Fatal("no way back to the hall")
		}
		if s.KindState.(*State).NodeID() == "hall" {
			s = mustSubmit(t, e, s, "search")
		} else {
			s = mustSubmit(t, e, s, "back")
			s = mustSubmit(t, e, s, "light")
		}
	}
	s = mustSubmit(t, e, s, "leave")
	if out, _ := e.Outcome(s); out.TerminalID != "outside" {
		t.Errorf("outcome %+v", out)
	}
}
