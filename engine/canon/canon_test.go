package canon

import (
	"encoding/json"
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
		``, `{`, `{"a":1,"a":2}`, `[1,]`, `01`, `1.`, `-`, `"\x"`, `"\ud800"`,
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
