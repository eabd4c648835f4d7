// Package canontest checks a hand-written canonical encoder (a
// canon.Appender) against the reference: encoding/json's encoding of the
// same value, made canonical by canon.Canonicalize.
package canontest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
)

// Reference returns v's canonical form through encoding/json, never
// through an AppendCanonical of v's: what canon.Marshal gave for v before
// v wrote itself. It fails t when v cannot be encoded, or when v encodes
// itself for encoding/json too (a json.Marshaler), which would leave
// nothing to compare with.
func Reference(t testing.TB, v any) []byte {
	t.Helper()
	if _, ok := v.(json.Marshaler); ok {
		t.Fatalf("canontest: %T is a json.Marshaler: no reference to compare with", v)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("canontest: %T: %v", v, err)
	}
	want, err := canon.Canonicalize(raw)
	if err != nil {
		t.Fatalf("canontest: %T: %v", v, err)
	}
	return want
}

// Check fails t unless v's AppendCanonical, appended after some bytes
// already in the buffer, writes exactly Reference's bytes. It returns
// them.
func Check(t testing.TB, v canon.Appender) []byte {
	t.Helper()
	want := Reference(t, v)
	const prefix = "[0,"
	got, err := v.AppendCanonical([]byte(prefix))
	if err != nil {
		t.Fatalf("canontest: %T: AppendCanonical: %v", v, err)
	}
	if !bytes.HasPrefix(got, []byte(prefix)) {
		t.Fatalf("canontest: %T overwrote the bytes before it: %.40s", v, got)
	}
	if got = got[len(prefix):]; !bytes.Equal(got, want) {
		k := 0
		for k < len(got) && k < len(want) && got[k] == want[k] {
			k++
		}
		t.Fatalf("canontest: %T writes itself differently from byte %d:\n got: %.300s\nwant: %.300s", v, k, got[k:], want[k:])
	}
	return want
}
