package story_test

import (
	"encoding/json"
	"fmt"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/story"
)

// Example builds a two-scene campaign from its source, plays a locked
// choice, an open one and reads the outcome.
func Example() {
	file := []byte(`{"format": 1, "id": "tiny", "kind": "story-graph", "version": "1.0.0", "title": "Tiny",
 "content": {"start": "hall",
  "variables": [{"id": "lamps", "type": "int", "initial": 1, "min": 0, "max": 3, "visible": true, "label": "Lamps"}],
  "achievements": [{"id": "bright", "title": "Bright", "when": {"field": "var.lamps", "operator": "equals", "value": 3}}],
  "nodes": [
   {"id": "hall", "type": "choice", "text": "A dim hall. {lamps} lamp burns.", "choices": [
    {"id": "light", "text": "Light every lamp", "effects": [{"var": "lamps", "op": "increment", "value": 5}], "to": "hall"},
    {"id": "leave", "text": "Leave", "requires": {"field": "var.lamps", "operator": "equals", "value": 3},
     "requirementFail": "It is too dark to find the door.", "to": "out"}]},
   {"id": "out", "type": "ending", "endingId": "outside", "title": "Outside", "text": "Fresh air.", "outcome": "win"}]}}`)
	reg, res := content.Build([]core.Kind{story.Kind{}}, content.Source{Path: "tiny.json", Campaign: file})
	if !res.OK {
		fmt.Println(res.Errors)
		return
	}
	e, _ := core.New(core.Host{Kinds: []core.Kind{story.Kind{}}, Registry: reg})
	s := e.CreateGame(core.NewGameConfig{CampaignID: "tiny", Seed: "example"}, "").Value

	sc, _ := e.Scene(s)
	fmt.Println(sc.Body.Text)
	refused := e.SubmitAction(s, "leave", nil)
	fmt.Println(refused.Errors[0].Code, reg.Strings[refused.Errors[0].MessageKey])

	r := e.SubmitAction(s, "light", nil)
	for _, c := range r.Changes {
		fmt.Println(c.Path, c.Previous, "->", c.Value, c.Reason)
	}
	s = r.Value
	sc, _ = e.Scene(s)
	fmt.Println(sc.Body.Text)

	s = e.SubmitAction(s, "leave", nil).Value
	out, _ := e.Outcome(s)
	v, _ := e.View(s, core.AudiencePlayer)
	var view story.View
	_ = json.Unmarshal(v.KindView, &view)
	fmt.Println(s.Status, out.TerminalID, view.Ending.Outcome, view.Turn)
	// Output:
	// A dim hall. 1 lamp burns.
	// requirement_unmet It is too dark to find the door.
	// var.lamps 1 -> 3 consequence_applied
	// achieved.bright <nil> -> true achievement_unlocked
	// A dim hall. 3 lamp burns.
	// ended outside win 2
}
