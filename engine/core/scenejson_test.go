package core_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
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

// TestSceneParamsAreCanonical checks the params of a scene, written
// without reflection when they are plain values, are byte for byte
// canon.Marshal's form, for plain values and for the ones that take the
// general path.
func TestSceneParamsAreCanonical(t *testing.T) {
	tests := []struct {
		name   string
		params map[string]any
	}{
		{"ints", map[string]any{"gold": 0, "b": -7, "c": int64(1 << 40), "d": int32(5)}},
		{"floats", map[string]any{"a": 0.1, "b": 2.0, "c": 1e21, "d": 1e-7, "e": -1.5}},
		{"strings and bools", map[string]any{"name": "Tamsin \"T\" \\ \n\u2028 é", "ok": true, "no": false, "z": ""}},
		{"keys in UTF-16 order", map[string]any{"é": 1, "e": 2, "\U0001F600": 3, "\uFFFD": 4, "E": 5}},
		{"large int", map[string]any{"n": int64(1<<53 + 1)}},
		{"invalid UTF-8", map[string]any{"s": "a\xffb", "k\xfe": 1}},
		{"nested", map[string]any{"list": []any{"a", 1.0}, "m": map[string]any{"x": 1}}},
		{"other types", map[string]any{"u": uint8(3), "f": float32(0.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := core.Scene{Body: core.SceneBody{Params: tt.params}}
			got, err := s.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := canon.Marshal(tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(got, append([]byte(`"params":`), want...)) {
				t.Fatalf("params not canonical:\n got %s\nwant %s", got, want)
			}
		})
	}
}
