package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/validate"
)

// TestCampaignFormatExampleBuilds keeps docs/campaign-format.md honest: its
// worked example must validate with no error and every ending reachable.
func TestCampaignFormatExampleBuilds(t *testing.T) {
	doc, err := os.ReadFile("../docs/campaign-format.md")
	if err != nil {
		t.Fatal(err)
	}
	// The worked example is the one complete campaign, lantern-test; the
	// doc's other blocks (a pack, fragments) are not campaigns of their own.
	var blocks [][][]byte
	for _, b := range regexp.MustCompile("(?s)```json\n(\\{\n  \"format\".*?)\n```").FindAllSubmatch(doc, -1) {
		if strings.Contains(string(b[1]), `"id": "lantern-test"`) {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) != 1 {
		t.Fatalf("found %d worked examples, want 1", len(blocks))
	}
	rep := validate.Campaigns(registeredKinds(), validate.DefaultBudget(), content.Source{Path: "campaign-format.md", Campaign: blocks[0][1]})
	if rep.Errors() > 0 {
		t.Fatalf("the worked example does not build: %+v", rep.Findings)
	}
	for _, f := range rep.Findings {
		if f.Tier == 3 {
			t.Errorf("tier 3 finding in the worked example: %s %s", f.Code, f.Message)
		}
	}
	if ex := rep.Explorations["lantern-test"]; len(ex.Terminals) != 2 {
		t.Fatalf("endings reached = %v", ex.Terminals)
	}
	if !strings.Contains(string(doc), "lantern-test.node.start.text") {
		t.Fatal("the doc no longer names a derived key")
	}
}
