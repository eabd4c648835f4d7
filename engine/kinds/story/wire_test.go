package story

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/storyloom/storyloom/engine/strictjson"
)

var wireSamples = []string{
	`{"currentNodeId":"gate","turn":2,"unlockedAchievements":["first_light"],"variables":{"name":"Tamsin","oil":3,"lit":true,"debt":-40},"visitedCounts":{"gate":1,"n10":120}}`,
	`{"currentNodeId":"dawn","endingId":"dawn","turn":0,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"é ✓","turn":999999999999999,"unlockedAchievements":["a","b"],"variables":{"s":""},"visitedCounts":{"é ✓":0}}`,
	// Not canonical, or not valid: the strict decoder reads these.
	`{"currentNodeId":"gate", "turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"g\u0061te","turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":2.0,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":-0,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":02,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":1e3,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":2,"unlockedAchievements":[],"variables":{"a":1,"a":2},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{"x":1,"x":1}}`,
	`{"currentNodeId":"gate","turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{},"extra":1}`,
	`{"currentNodeId":"gate","turn":2,"unlockedAchievements":[],"variables":{"v":null},"visitedCounts":{}}`,
	`{"currentNodeId":"ga` + "\xff" + `te","turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"CurrentNodeId":"gate","turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}`,
	`{"currentNodeId":"gate","turn":2,"unlockedAchievements":[],"variables":{},"visitedCounts":{}}x`,
}

// TestCanonicalWireReadsAsTheStrictDecoder checks that what the canonical
// reader accepts, the strict decoder reads the same, and that the
// engine's own output is what it accepts.
func TestCanonicalWireReadsAsTheStrictDecoder(t *testing.T) {
	accepted := 0
	for _, raw := range wireSamples {
		if checkCanonicalWire(t, []byte(raw)) {
			accepted++
		}
	}
	if accepted != 3 {
		t.Fatalf("the canonical reader took %d of the samples, want the 3 canonical ones", accepted)
	}
}

// checkCanonicalWire fails t when canonicalWire reads raw differently from
// the strict decoder, and reports whether it read it.
func checkCanonicalWire(t *testing.T, raw []byte) bool {
	t.Helper()
	fast, ok := canonicalWire(raw)
	if !ok {
		return false
	}
	var strict stateJSON
	if err := strictjson.Decode(raw, &strict); err != nil {
		t.Fatalf("%s: read canonically, refused strictly: %v", raw, err)
	}
	if !reflect.DeepEqual(fast, strict) {
		t.Fatalf("%s: read as\n%#v\nnot\n%#v", raw, fast, strict)
	}
	return true
}

// FuzzCanonicalWire checks the canonical reader never reads anything
// differently from the strict decoder.
func FuzzCanonicalWire(f *testing.F) {
	for _, s := range wireSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkCanonicalWire(t, raw)
	})
}

// TestTheEnginesStatesReadCanonically checks the states the engine writes
// for the shipped campaigns are what the canonical reader takes.
func TestTheEnginesStatesReadCanonically(t *testing.T) {
	reg := shippedRegistry(t)
	for _, id := range shipped {
		for i := 0; i < 5; i++ {
			out := randomPlay(t, newEngine(t, reg, nil), id, fmt.Sprintf("wire-%d", i))
			var env struct {
				KindState json.RawMessage `json:"kindState"`
			}
			if err := json.Unmarshal(out, &env); err != nil {
				t.Fatal(err)
			}
			if !checkCanonicalWire(t, env.KindState) {
				t.Fatalf("%s: the engine's state is not read canonically:\n%s", id, env.KindState)
			}
		}
	}
}
