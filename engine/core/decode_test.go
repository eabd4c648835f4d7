package core

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecodeStrict(t *testing.T) {
	type doc struct {
		A int `json:"a"`
	}
	tests := []struct {
		name, in, err string
	}{
		{name: "one value", in: `{"a": 1}`},
		{name: "unknown field", in: `{"a": 1, "b": 2}`, err: "unknown field"},
		{name: "trailing value", in: `{"a": 1} {}`, err: "trailing data after JSON value"},
		{name: "not JSON", in: `{`, err: "EOF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			err := DecodeStrict([]byte(tc.in), &d)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want one containing %q", err, tc.err)
			}
		})
	}
}

func TestDecodeChecked(t *testing.T) {
	type doc struct {
		A int `json:"a"`
	}
	positive := func(d *doc) error {
		if d.A <= 0 {
			return fmt.Errorf("a is %d", d.A)
		}
		return nil
	}
	if v, err := DecodeChecked([]byte(`{"a": 2}`), "toy: doc", positive); err != nil || v.(*doc).A != 2 {
		t.Fatalf("got %v, %v", v, err)
	}
	if v, err := DecodeChecked([]byte(`{"a": 0}`), "toy: doc", positive); v != nil || err == nil || err.Error() != "toy: doc: a is 0" {
		t.Fatalf("a refused check: %v, %v", v, err)
	}
	if v, err := DecodeChecked([]byte(`{"b": 1}`), "toy: doc", positive); v != nil || err == nil || !strings.HasPrefix(err.Error(), "toy: doc: json: unknown field") {
		t.Fatalf("an unknown field: %v, %v", v, err)
	}
}
