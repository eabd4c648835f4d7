package rooms

import (
	"bytes"
	"testing"
)

// TestCheckpointDiffRoundTrip rebuilds states from their differences:
// members changed in one place (in ASCII and in multi-byte text, cut
// between characters), members added and removed, and non-objects.
func TestCheckpointDiffRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, before, after string
	}{
		{"one place", `{"a":1,"field":[{"n":1,"tapped":true},{"n":2}],"z":"x"}`, `{"a":1,"field":[{"n":1},{"n":2}],"z":"x"}`},
		{"long member", `{"log":"` + string(bytes.Repeat([]byte("abc"), 40)) + `X` + string(bytes.Repeat([]byte("def"), 40)) + `"}`,
			`{"log":"` + string(bytes.Repeat([]byte("abc"), 40)) + `Y` + string(bytes.Repeat([]byte("def"), 40)) + `"}`},
		{"multi-byte", `{"names":"` + string(bytes.Repeat([]byte("名前"), 30)) + `名` + string(bytes.Repeat([]byte("前"), 30)) + `"}`,
			`{"names":"` + string(bytes.Repeat([]byte("名前"), 30)) + `前` + string(bytes.Repeat([]byte("前"), 30)) + `"}`},
		{"added and removed", `{"a":[1,2,3],"gone":true}`, `{"a":[1,2,3],"new":false}`},
		{"same", `{"a":1}`, `{"a":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cp := compact(Checkpoint{State: []byte(tc.before), AISeq: []int{0}}, []byte(tc.after), nil)
			enc := appendCheckpoint(nil, &cp)
			st, err := DecodeState([]byte(`{"rooms":{"r":{"id":"r","match":{"state":{},"checkpoints":[` + string(enc) + `]}}}}`))
			if err != nil {
				t.Fatal(err)
			}
			back, err := expand(st.Rooms["r"].Match.Checkpoints[0], []byte(tc.after), nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(back.State) != tc.before {
				t.Fatalf("rebuilt\n%s\nnot\n%s\n(kept as %s)", back.State, tc.before, enc)
			}
		})
	}
	if cp := compact(Checkpoint{State: []byte(`[1,2]`)}, []byte(`[1,3]`), nil); string(cp.State) != `[1,2]` || cp.Patch != nil {
		t.Fatalf("a non-object state was compacted: %+v", cp)
	}
}
