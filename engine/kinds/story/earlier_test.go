package story

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestEarlierStorySaves: a game of each shipped story saved under every
// version it was published as (testdata/earlier-saves, three choices in,
// saved by the code of that version's day) loads on a host that holds only
// the versions shipped now, through the campaign's declared migration,
// stands where it stood, and plays on.
func TestEarlierStorySaves(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	files, err := filepath.Glob(filepath.Join("testdata", "earlier-saves", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no earlier saves: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			old := e.Deserialize(data)
			s := kindtest.EarlierSave(t, e, data, Version)
			campaign := s.CampaignID
			if !strings.HasPrefix(filepath.Base(f), campaign+"-") {
				t.Fatalf("%s holds a game of %s", f, campaign)
			}
			if got, want := s.CampaignVersion, reg.Campaign(campaign).Version; got != want {
				t.Fatalf("the save plays version %s, not %s", got, want)
			}
			if old.OK {
				t.Fatalf("the save loaded without a migration, as version %s", old.Value.CampaignVersion)
			}
			var saved struct {
				KindState struct {
					CurrentNodeID string `json:"currentNodeId"`
				} `json:"kindState"`
			}
			if err := json.Unmarshal(data, &saved); err != nil {
				t.Fatal(err)
			}
			if got, want := s.KindState.(*State).NodeID(), saved.KindState.CurrentNodeID; got != want || want == "" {
				t.Fatalf("the loaded game stands at %q, saved at %q", got, want)
			}
			acts, err := e.AvailableActions(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range acts {
				if a.Available {
					mustSubmit(t, e, s, a.ID)
					return
				}
			}
			t.Fatalf("nothing to choose at %q", s.KindState.(*State).NodeID())
		})
	}
}
