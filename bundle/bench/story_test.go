package main

import (
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/story"
)

// TestCampaignBuilds: the generated campaign passes the story-graph kind's
// tier 1 checks, at the size the benchmark uses and at the smallest.
func TestCampaignBuilds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes int
	}{{"small", 10}, {"bench", 300}} {
		t.Run(tc.name, func(t *testing.T) {
			s := Generate(tc.nodes, 1)
			reg, res := content.Build([]core.Kind{story.Kind{}}, content.Source{Path: "campaign.json", Campaign: s.Campaign(campaignID)})
			if reg == nil || len(res.Errors) > 0 {
				t.Fatalf("build failed: %v", res.Errors)
			}
			if reg.Campaign(campaignID) == nil {
				t.Fatalf("no campaign %q", campaignID)
			}
		})
	}
}

// TestInkHasEveryNode: the ink rendering has one knot per node and every
// divert names one of them.
func TestInkHasEveryNode(t *testing.T) {
	s := Generate(300, 1)
	ink := s.Ink()
	knots := map[string]bool{}
	for _, n := range s.Nodes {
		if !strings.Contains(ink, "\n=== "+n.ID+" ===\n") {
			t.Errorf("no knot %s", n.ID)
		}
		knots[n.ID] = true
	}
	for _, line := range strings.Split(ink, "\n") {
		if i := strings.Index(line, "-> "); i >= 0 {
			target := strings.Fields(line[i+3:])[0]
			if target != "END" && !knots[target] {
				t.Errorf("divert to unknown knot in %q", line)
			}
		}
	}
}

// TestGenerateIsDeterministic: one seed, one story.
func TestGenerateIsDeterministic(t *testing.T) {
	a, b := Generate(300, 7), Generate(300, 7)
	if string(a.Campaign("x")) != string(b.Campaign("x")) || a.Ink() != b.Ink() {
		t.Error("two generations from one seed differ")
	}
}

// TestMulberry32MatchesTheScript: the Go port draws what bundle/bench/peer.mjs's
// prng(7) draws.
func TestMulberry32MatchesTheScript(t *testing.T) {
	m := mulberry32(7)
	for i, want := range []float64{0.011704753153026104, 0.06195825757458806, 0.97690763277933, 0.6990287057124078} {
		if got := m.next(); got != want {
			t.Errorf("draw %d = %v, want %v", i, got, want)
		}
	}
}

// TestPlayedSave: a played game exports a save of that many choices.
func TestPlayedSave(t *testing.T) {
	doc, err := playedSave(Generate(300, 1).Campaign(campaignID), 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `"actionLog"`) {
		t.Fatalf("no action log in %.300s", doc)
	}
}
