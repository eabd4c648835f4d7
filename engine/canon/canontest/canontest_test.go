package canontest_test

import (
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/canon/canontest"
)

type pair struct {
	A string `json:"a"`
	Z int    `json:"z,omitempty"`
}

func (p pair) AppendCanonical(b []byte) ([]byte, error) {
	o := canon.OpenObject(b)
	o.String("a", p.A)
	o.OptInt("z", int64(p.Z))
	return o.Close(), nil
}

func TestCheck(t *testing.T) {
	if got := canontest.Check(t, pair{A: "x\n", Z: 2}); string(got) != `{"a":"x\n","z":2}` {
		t.Errorf("Check returned %s", got)
	}
	if got := canontest.Reference(t, map[string]int{"b": 1, "a": 2}); string(got) != `{"a":2,"b":1}` {
		t.Errorf("Reference returned %s", got)
	}
}
