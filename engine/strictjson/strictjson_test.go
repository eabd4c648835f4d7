package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
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
		Plain int
	}
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
		{name: "untagged field in another case", in: `{"plain": 3}`, err: `did you mean "Plain"?`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			err := Decode([]byte(tc.in), &d)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want one containing %q", err, tc.err)
			}
		})
	}
}
