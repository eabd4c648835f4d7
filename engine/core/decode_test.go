package core

import (
	"fmt"
	"strings"
	"testing"
)

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
