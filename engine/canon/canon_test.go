package canon

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCanonicalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"sorted keys", `{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{"nested and spaced", " { \"z\" : [ 1 , { \"y\":true, \"x\":null } ] } ", `{"z":[1,{"x":null,"y":true}]}`},
		{"integral float", `[1.0, 1e2, -0, 0.0]`, `[1,100,0,0]`},
		{"fractions", `[0.5, 1.25e-7, 1e21, 123456789012345678901234]`, `[0.5,1.25e-7,1e+21,1.2345678901234569e+23]`},
		{"big integral", `9007199254740993`, `9007199254740992`},
		{"escapes", `"a\u0041\/\n\u001f\"\\<>&"`, `"aA/\n\u001f\"\\<>&"`},
		{"unicode raw", `"\u00e9\ud83d\ude00"`, `"é😀"`},
		{"utf16 key order", `{"\uff61":1,"😀":2}`, `{"😀":2,"｡":1}`},
		{"empty", `{"a":{},"b":[]}`, `{"a":{},"b":[]}`},
		{"sorted stays", `{"a":1,"b":{"c":2,"d":[3]},"e":"f"}`, `{"a":1,"b":{"c":2,"d":[3]},"e":"f"}`},
		{"unsorted inside sorted inside unsorted", `{"z":{"a":1,"b":{"y":1,"x":2}},"m":[{"q":1,"p":2}]}`, `{"m":[{"p":2,"q":1}],"z":{"a":1,"b":{"x":2,"y":1}}}`},
		{"escaped keys sort decoded", `{"\u0062":1,"\"":2,"a\n":3}`, `{"\"":2,"a\n":3,"b":1}`},
		{"many members", `{"r":1,"q":2,"p":3,"o":4,"n":5,"m":6,"l":7,"k":8,"j":9,"i":10,"h":11,"g":12,"f":13,"e":14,"d":15,"c":16,"b":17,"a":18}`,
			`{"a":18,"b":17,"c":16,"d":15,"e":14,"f":13,"g":12,"h":11,"i":10,"j":9,"k":8,"l":7,"m":6,"n":5,"o":4,"p":3,"q":2,"r":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			if err != nil {
				t.Fatalf("Canonicalize(%s): %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Fatalf("Canonicalize(%s) = %s, want %s", tt.in, got, tt.want)
			}
			again, err := Canonicalize(got)
			if err != nil || string(again) != string(got) {
				t.Fatalf("not idempotent: %s -> %s (%v)", got, again, err)
			}
		})
	}
}

func TestCanonicalizeRefuses(t *testing.T) {
	for _, in := range []string{
		``, `{`, `{"a":1,"a":2}`, `{"b":1,"a":2,"b":3}`, `{"a":1,"b":{"c":1,"c":1}}`, `{"a":1,"b":2,"a":3}`, `[1,]`, `01`, `1.`, `-`, `"\x"`, `"\ud800"`,
		`"a` + "\x01" + `"`, `1e400`, `tru`, `{"a" 1}`, `[1] 2`, "\"\xff\"",
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	} {
		if got, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize(%q) = %s, want an error", in, got)
		}
	}
}

func TestMarshalMatchesCanonicalize(t *testing.T) {
	v := map[string]any{"z": 1.5, "a": []any{"<&>", int64(3)}, "m": struct {
		B int `json:"b"`
		A int `json:"a"`
	}{1, 2}}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":["<&>",3],"m":{"a":2,"b":1},"z":1.5}`; string(got) != want {
		t.Fatalf("Marshal = %s, want %s", got, want)
	}
	if _, err := Marshal(math.NaN()); err == nil {
		t.Fatal("Marshal(NaN) accepted")
	}
	d, _ := Digest(map[string]int{"a": 1})
	if d != DigestBytes([]byte(`{"a":1}`)) || len(d) != 64 {
		t.Fatalf("Digest = %s", d)
	}
}

func TestAppendNumberMatchesJavaScript(t *testing.T) {
	// Values and the strings Number.prototype.toString gives for them.
	tests := []struct {
		f    float64
		want string
	}{
		{0.1, "0.1"}, {1e-6, "0.000001"}, {1e-7, "1e-7"}, {123.456, "123.456"},
		{-2.5, "-2.5"}, {1e20, "100000000000000000000"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{math.Copysign(0, -1), "0"},
	}
	for _, tt := range tests {
		if got := string(AppendNumber(nil, tt.f)); got != tt.want {
			t.Errorf("AppendNumber(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"x"]}`, `1.5e3`, `"\u00e9"`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Canonicalize(data)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("canonical output is not JSON: %s", out)
		}
		again, err := Canonicalize(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("not idempotent: %s -> %s (%v)", out, again, err)
		}
		var a, b any
		if json.Unmarshal(data, &a) == nil {
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatalf("encoding/json cannot read canonical output %s: %v", out, err)
			}
		}
	})
}

// direct is a value with its own MarshalJSON, which writes spaced JSON
// with unsorted keys, or fails.
type direct struct {
	fail bool
}

func (d *direct) MarshalJSON() ([]byte, error) {
	if d.fail {
		return nil, errors.New("direct: cannot encode")
	}
	return []byte(` {"z": [1.0, "\u0041"], "a": {"y": true, "x": null}} `), nil
}

// TestMarshalDirectMatchesEncodingJSON: Marshal of a json.Marshaler, taken
// straight from its MarshalJSON, gives what encoding/json followed by
// Canonicalize gives: the same bytes, null for a nil pointer, and the same
// error text when MarshalJSON fails.
func TestMarshalDirectMatchesEncodingJSON(t *testing.T) {
	viaJSON := func(v any) (string, error) {
		b, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		c, err := Canonicalize(b)
		return string(c), err
	}
	for _, v := range []any{&direct{}, (*direct)(nil), []any{&direct{}}} {
		got, err := Marshal(v)
		want, werr := viaJSON(v)
		if err != nil || werr != nil || string(got) != want {
			t.Errorf("Marshal(%#v) = %s, %v; encoding/json gives %s, %v", v, got, err, want, werr)
		}
	}
	_, err := Marshal(&direct{fail: true})
	_, werr := json.Marshal(&direct{fail: true})
	if err == nil || werr == nil || err.Error() != "canon: "+werr.Error() {
		t.Errorf("failing MarshalJSON: Marshal error %v, encoding/json error %v", err, werr)
	}
}

// TestSkipNumber: a literal by JSON's grammar is read to its end, and one
// that breaks it stops where it breaks.
func TestSkipNumber(t *testing.T) {
	tests := []struct {
		name, in string
		end      int
		ok       bool
	}{
		{"integer", "42,", 2, true},
		{"negative", "-7]", 2, true},
		{"zero", "0", 1, true},
		{"fraction and exponent", "-1.5e+3}", 7, true},
		{"capital exponent", "2E8", 3, true},
		{"leading zero", "012", 3, false},
		{"bare minus", "-x", 1, false},
		{"no fraction digits", "1.e5", 2, false},
		{"no exponent digits", "1e+", 3, false},
		{"not a number", "x", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if end, ok := SkipNumber([]byte(tt.in), 0); end != tt.end || ok != tt.ok {
				t.Errorf("SkipNumber(%q) = %d, %v; want %d, %v", tt.in, end, ok, tt.end, tt.ok)
			}
		})
	}
}
