package core_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

func TestSceneAppendJSONReadsAsEncodingJSON(t *testing.T) {
	tests := []struct {
		name  string
		scene core.Scene
	}{
		{"empty", core.Scene{}},
		{"no actions, no kind view", core.Scene{GameID: "g", Status: core.StatusEnded, Body: core.SceneBody{TextKey: "k", Text: "The end."}}},
		{"full", core.Scene{
			GameID: "game-1", Status: core.StatusActive,
			Body: core.SceneBody{TextKey: "story.node.a", Text: "Quotes \" and \\ and <b>&</b>, tab\t, nul \x00, \u2028 and é.",
				Params: map[string]any{"name": "Tamsin", "n": 3.0, "f": 0.1, "big": 1e21, "ok": true, "list": []any{"a", 1.0}}},
			Actions: []core.AvailableAction{
				{ID: "go", LabelKey: "story.go", Available: true},
				{ID: "wait", LabelKey: "story.wait", ReasonKey: "story.locked", Params: map[string]any{"need": 2.0}},
			},
			View: core.PlayerView{GameID: "game-1", Status: core.StatusActive, KindView: json.RawMessage(`{"node":"a","visits":{"a":1},"s":"<\u00e9>"}`)},
		}},
		{"empty actions", core.Scene{Actions: []core.AvailableAction{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mine, err := tt.scene.AppendJSON([]byte("prefix"))
			if err != nil {
				t.Fatal(err)
			}
			if string(mine[:6]) != "prefix" {
				t.Fatal("the prefix was not kept")
			}
			theirs, err := json.Marshal(&tt.scene)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(mine[6:], &a); err != nil {
				t.Fatalf("AppendJSON wrote no JSON: %v\n%s", err, mine[6:])
			}
			if err := json.Unmarshal(theirs, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("differs:\n got %s\nwant %s", mine[6:], theirs)
			}
		})
	}
	bad := core.Scene{Body: core.SceneBody{Params: map[string]any{"x": math.NaN()}}}
	if _, err := bad.AppendJSON(nil); err == nil {
		t.Fatal("a NaN param was written")
	}
}
