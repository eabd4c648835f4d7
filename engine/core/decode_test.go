package core

import (
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
