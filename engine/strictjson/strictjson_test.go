package strictjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

type Base struct {
	ID   string `json:"id"`
	Note string `json:"note"`
}
type item struct {
	Start string `json:"start"`
}
type doc struct {
	Base
	A     int             `json:"a"`
	Note  int             `json:"note"` // hides Base.Note
	Items []item          `json:"items"`
	ByID  map[string]item `json:"byId"`
	Ptr   *item           `json:"ptr"`
	Raw   json.RawMessage `json:"raw"`
	Any   any             `json:"any"`
	Grid  [][]item        `json:"grid"`
	Plain int
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, in, err string
	}{
		{name: "one value", in: `{"a": 1}`},
		{name: "every shape", in: `{"id": "x", "a": 1, "note": 2, "items": [{"start": "s"}], "byId": {"K": {"start": "t"}}, "ptr": {"start": "u"}, "raw": {"Start": 1}, "any": {"Start": 2}, "Plain": 3}`},
		{name: "nulls", in: `{"items": null, "ptr": null, "byId": null}`},
		{name: "unknown field", in: `{"a": 1, "b": 2}`, err: "unknown field"},
		{name: "trailing value", in: `{"a": 1} {}`, err: "trailing data after JSON value"},
		{name: "not JSON", in: `{`, err: "EOF"},
		{name: "top-level key in another case", in: `{"A": 1}`, err: `unknown field "A" at A: keys are case-sensitive; did you mean "a"?`},
		{name: "promoted key in another case", in: `{"ID": "x"}`, err: `did you mean "id"?`},
		{name: "key in a list element", in: `{"items": [{"start": "s"}, {"Start": "t"}]}`, err: `unknown field "Start" at items[1].Start`},
		{name: "key in a map value", in: `{"byId": {"k": {"START": "t"}}}`, err: `at byId.k.START`},
		{name: "key behind a pointer", in: `{"ptr": {"sTart": "t"}}`, err: `at ptr.sTart`},
		{name: "escaped key", in: `{"items": [{"st\u0061rt": "s"}], "\u0061": 1}`},
		{name: "escaped key in another case", in: `{"items": [{"\u0053tart": "s"}]}`, err: `unknown field "Start" at items[0].Start`},
		{name: "delimiters inside strings", in: `{"id": "{[\"]}", "raw": ["}", {"a\"}": "]"}], "items": [{"start": "\\"}]}`},
		{name: "white space everywhere", in: " \n{ \"grid\" :\t[ [ { \"start\" : \"s\" } , {} ] ,[ ] ] , \"a\" : -15 }\r\n"},
		{name: "key in a nested list", in: `{"grid": [[], [{"start": "s"}, {"START": "t"}]]}`, err: `at grid[1][1].START`},
		{name: "untagged field in another case", in: `{"plain": 3}`, err: `did you mean "Plain"?`},
	}
	// A Decoder kept across documents, read in turn and side by side,
	// decodes each as Decode does.
	var shared Decoder
	decoders := []struct {
		name   string
		decode func([]byte, any) error
	}{{"Decode", Decode}, {"a Decoder", shared.Decode}, {"the Decoder again", shared.Decode}}
	for _, dc := range decoders {
		t.Run(dc.name, func(t *testing.T) {
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					var d doc
					err := dc.decode([]byte(tc.in), &d)
					switch {
					case tc.err == "" && err != nil:
						t.Fatalf("refused: %v", err)
					case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
						t.Fatalf("err = %v, want one containing %q", err, tc.err)
					}
				})
			}
		})
	}
}

// TestDecodeWalksWithoutAllocating holds the key walk to what it is for:
// beyond the decoding itself, it allocates the field tables of the struct
// types it meets and nothing more, however long the document.
func TestDecodeWalksWithoutAllocating(t *testing.T) {
	short, long := walkAllocs(t, 1), walkAllocs(t, 500)
	if long > short {
		t.Errorf("the walk allocates %.0f times for 500 items against %.0f for one: it should allocate per struct type, not per value", long, short)
	}
}

// walkAllocs is how many more times Decode allocates than a decoder with
// unknown fields disallowed, for a doc listing n items.
func walkAllocs(t *testing.T, n int) float64 {
	var b strings.Builder
	b.WriteString(`{"id": "x", "items": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"start": "s"}`)
	}
	b.WriteString(`], "grid": [[{"start": "t"}]], "byId": {"k": {"start": "u"}}}`)
	data := []byte(b.String())
	plain := testing.AllocsPerRun(20, func() {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var d doc
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
	})
	strict := testing.AllocsPerRun(20, func() {
		var d doc
		if err := Decode(data, &d); err != nil {
			t.Fatal(err)
		}
	})
	return strict - plain
}
