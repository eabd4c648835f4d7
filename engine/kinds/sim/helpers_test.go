package sim

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// campaignsDir is where the shipped campaigns live, from this package.
const campaignsDir = "../../../static/campaigns"

// shipped are the simulation campaigns this kind ships.
var shipped = []string{"first-flat", "harbour-bakery"}

func shippedSource(t testing.TB, id string) content.Source {
	return kindtest.Shipped(t, os.DirFS(campaignsDir), id)
}

func buildRegistry(t testing.TB, sources ...content.Source) *core.Registry {
	return kindtest.Registry(t, Kind{}, sources...)
}

func shippedRegistry(t testing.TB) *core.Registry {
	return kindtest.ShippedRegistry(t, Kind{}, os.DirFS(campaignsDir), shipped...)
}

func newEngine(t testing.TB, reg *core.Registry, em core.Emitter) *core.Engine {
	return kindtest.Engine(t, Kind{}, reg, em)
}

// campaignFile wraps a content source in the campaign file envelope.
func campaignFile(id, source string) []byte {
	return []byte(`{"format": 1, "id": "` + id + `", "kind": "simulation", "version": "1.0.0", "title": "Test ` + id + `", "content": ` + source + `}`)
}

var (
	start     = kindtest.Start
	submit    = kindtest.Submit
	serialize = kindtest.Serialize
)

func kindState(s *core.GameState) *State { return s.KindState.(*State) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
