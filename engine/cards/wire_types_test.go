package cards_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// TestWireFixturesDecodeIntoTypes decodes every wire fixture strictly into
// the typed Go structs of its frame kind (the room machine's frame types,
// and for game and spectator views the card game's rules.View for the
// members the game projects), refusing any member no type declares, and
// re-encodes the values canonically: the bytes must be the fixture's.
func TestWireFixturesDecodeIntoTypes(t *testing.T) {
	for _, name := range fixtureNames(t, wireDir) {
		t.Run(name, func(t *testing.T) {
			frame := readFixture(t, wireDir, name)
			kind := name[:strings.LastIndex(name, "-")]
			again := retypeFrame(t, kind, frame)
			if !bytes.Equal(again, frame) {
				t.Fatalf("re-encoded as\n%s\nnot as\n%s", again, frame)
			}
		})
	}
}

// fixtureNames reads the names a fixture directory's index.json lists.
func fixtureNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	index, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(index, &names); err != nil {
		t.Fatal(err)
	}
	return names
}

// readFixture reads one frame of a fixture directory, without its
// trailing newline.
func readFixture(t *testing.T, dir, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(raw, []byte("\n"))
}

// retype decodes frame strictly into a T and encodes it again.
func retype[T any](t *testing.T, frame []byte) []byte {
	t.Helper()
	var v T
	if err := strictjson.Decode(frame, &v); err != nil {
		t.Fatalf("decoding into %T: %v", v, err)
	}
	return encode(t, v)
}

// retypeMembers decodes a view's game members strictly into rules.View
// and returns them re-encoded.
func retypeMembers(t *testing.T, game map[string]json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	b, err := json.Marshal(game)
	if err != nil {
		t.Fatal(err)
	}
	var v rules.View
	if err := strictjson.Decode(b, &v); err != nil {
		t.Fatalf("decoding the game's members into rules.View: %v", err)
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(encode(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// encode is canon.Marshal, failing the test on error.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
