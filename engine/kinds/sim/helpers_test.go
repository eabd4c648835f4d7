package sim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// campaignsDir is where the shipped campaigns live, from this package.
const campaignsDir = "../../../static/campaigns"

// shipped are the simulation campaigns this kind ships.
var shipped = []string{"first-flat", "harbour-bakery"}

func shippedSource(t testing.TB, id string) content.Source {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(campaignsDir, id, "campaign.json"))
	if err != nil {
		t.Fatal(err)
	}
	return content.Source{Path: "static/campaigns/" + id + "/campaign.json", Campaign: data}
}

func buildRegistry(t testing.TB, sources ...content.Source) *core.Registry {
	t.Helper()
	reg, res := content.Build([]core.Kind{Kind{}}, sources...)
	if !res.OK {
		t.Fatalf("registry does not build: %v", res.Errors)
	}
	return reg
}

func shippedRegistry(t testing.TB) *core.Registry {
	t.Helper()
	var sources []content.Source
	for _, id := range shipped {
		sources = append(sources, shippedSource(t, id))
	}
	return buildRegistry(t, sources...)
}

func newEngine(t testing.TB, reg *core.Registry, em core.Emitter) *core.Engine {
	t.Helper()
	e, err := core.New(core.Host{Kinds: []core.Kind{Kind{}}, Registry: reg, Emitter: em})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// campaignFile wraps a content source in the campaign file envelope.
func campaignFile(id, source string) []byte {
	return []byte(`{"format": 1, "id": "` + id + `", "kind": "simulation", "version": "1.0.0", "title": "Test ` + id + `", "content": ` + source + `}`)
}

func start(t testing.TB, e *core.Engine, campaign, seed string) *core.GameState {
	t.Helper()
	res := e.CreateGame(core.NewGameConfig{CampaignID: campaign, Seed: seed}, "")
	if !res.OK {
		t.Fatalf("create %s: %v", campaign, res.Errors)
	}
	return res.Value
}

func submit(t testing.TB, e *core.Engine, s *core.GameState, action string, params core.Params) *core.GameState {
	t.Helper()
	res := e.SubmitAction(s, action, params)
	if !res.OK {
		t.Fatalf("%s %v: %v", action, params, res.Errors)
	}
	return res.Value
}

func kindState(s *core.GameState) *State { return s.KindState.(*State) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
