package core

import "testing"

func TestKindReasonMessages(t *testing.T) {
	m := KindReasonMessages("toy", map[string]string{"bad_move": "No."}, map[LocKey]string{"toy.scene.title": "Toy"})
	if len(m) != 2 || m["toy.reason.bad_move"] != "No." || m["toy.scene.title"] != "Toy" {
		t.Fatalf("KindReasonMessages = %v", m)
	}
}

func TestContextStrings(t *testing.T) {
	if (&Context{}).Strings() != nil {
		t.Fatal("strings without a registry")
	}
	reg := &Registry{Strings: map[LocKey]string{"a.b": "x"}}
	if got := (&Context{Registry: reg}).Strings(); got["a.b"] != "x" {
		t.Fatalf("Strings() = %v", got)
	}
}
