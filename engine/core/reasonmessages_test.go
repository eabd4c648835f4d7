package core

import "testing"

func TestKindReasonMessages(t *testing.T) {
	m := KindReasonMessages("toy", map[string]string{"bad_move": "No."}, map[LocKey]string{"toy.scene.title": "Toy"})
	if len(m) != 2 || m["toy.reason.bad_move"] != "No." || m["toy.scene.title"] != "Toy" {
		t.Fatalf("KindReasonMessages = %v", m)
	}
}
