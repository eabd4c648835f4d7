package story

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

// shipped are the two campaigns this kind ships.
var shipped = []string{"gannet-rock", "the-marrow-affair"}

// sampleSource is a small campaign exercising every rule: typed variables
// with bounds, a hidden and a locked choice, a random node, achievements by
// condition and by choice, interpolation and three endings.
const sampleSource = `{
 "start": "gate",
 "variables": [
  {"id": "oil", "type": "int", "initial": 3, "min": 0, "max": 5, "visible": true, "label": "Lamp oil"},
  {"id": "has_key", "type": "bool", "initial": false},
  {"id": "mood", "type": "string", "initial": "calm", "visible": true, "label": "Mood"},
  {"id": "noise", "type": "int", "initial": 0}
 ],
 "achievements": [
  {"id": "well_oiled", "title": "Well oiled", "description": "Fill the lamp to the brim.", "when": {"field": "var.oil", "operator": "equals", "value": 5}},
  {"id": "locksmith", "title": "Locksmith"}
 ],
 "nodes": [
  {"id": "gate", "type": "choice", "text": "A gate. You have {oil} oil and feel {mood}.", "choices": [
   {"id": "search", "text": "Search the grass", "showWhen": {"field": "var.has_key", "operator": "equals", "value": false},
    "effects": [{"var": "has_key", "op": "set", "value": true}, {"var": "noise", "op": "increment", "value": 1}], "to": "gate"},
   {"id": "fill", "text": "Fill the lamp", "effects": [{"var": "oil", "op": "increment", "value": 4}, {"var": "mood", "op": "set", "value": "bright"}], "to": "gate"},
   {"id": "open", "text": "Open the gate", "requires": {"field": "var.has_key", "operator": "equals", "value": true},
    "requirementFail": "The gate is locked.", "unlocks": ["locksmith"], "to": "yard"},
   {"id": "climb", "text": "Climb over", "requires": {"field": "var.oil", "operator": "greater_than", "value": 10}, "to": "yard"}
  ]},
  {"id": "yard", "type": "random", "transitions": [{"to": "dog", "weight": 1}, {"to": "door", "weight": 3}]},
  {"id": "dog", "type": "choice", "text": "A dog growls.", "effects": [{"var": "oil", "op": "decrement", "value": 1}], "choices": [
   {"id": "run", "text": "Run", "to": "fled"},
   {"id": "pat", "text": "Pat the dog", "to": "door"}
  ]},
  {"id": "door", "type": "choice", "text": "The door.", "choices": [
   {"id": "knock", "text": "Knock", "to": "home"},
   {"id": "leave", "text": "Leave", "to": "fled"}
  ]},
  {"id": "home", "type": "ending", "endingId": "home", "title": "Home", "text": "You are home.", "outcome": "win"},
  {"id": "fled", "type": "ending", "endingId": "fled", "title": "Fled", "text": "You ran.", "outcome": "lose"}
 ]
}`

// campaignFile wraps a content source in the campaign file envelope.
func campaignFile(id, version, source string) []byte {
	return []byte(`{"format": 1, "id": "` + id + `", "kind": "story-graph", "version": "` + version + `", "title": "Test ` + id + `", "content": ` + source + `}`)
}

// buildRegistry builds a registry of the given campaign files, failing the
// test on any tier 1 error.
func buildRegistry(t testing.TB, sources ...content.Source) *core.Registry {
	return kindtest.Registry(t, Kind{}, sources...)
}

func sampleRegistry(t testing.TB) *core.Registry {
	return buildRegistry(t, content.Source{Path: "sample", Campaign: campaignFile("sample", "1.0.0", sampleSource)})
}

func newEngine(t testing.TB, reg *core.Registry, em core.Emitter) *core.Engine {
	return kindtest.Engine(t, Kind{}, reg, em)
}

// shippedSource reads one shipped campaign's files.
func shippedSource(t testing.TB, id string) content.Source {
	return kindtest.Shipped(t, os.DirFS(campaignsDir), id)
}

func shippedRegistry(t testing.TB) *core.Registry {
	return kindtest.ShippedRegistry(t, Kind{}, os.DirFS(campaignsDir), shipped...)
}

var (
	mustCreate = kindtest.Start
	serialize  = kindtest.Serialize
)

func mustSubmit(t testing.TB, e *core.Engine, s *core.GameState, action string) *core.GameState {
	t.Helper()
	res := e.SubmitAction(s, action, nil)
	if !res.OK {
		t.Fatalf("submit %q at %q: %v", action, s.KindState.(*State).NodeID(), res.Errors)
	}
	return res.Value
}

func kindStateJSON(t testing.TB, s *core.GameState) string {
	t.Helper()
	b, err := json.Marshal(s.KindState)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
