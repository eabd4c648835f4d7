package session

import (
	"strings"
	"testing"
)

// state writes a canonical state with the given log entries.
func stateOf(entries ...string) []byte {
	return []byte(`{"actionLog":[` + strings.Join(entries, ",") + `],"campaignId":"c","kindState":{"a":[1,2],"s":"]"},"status":"active"}`)
}

// restOf is a canonical state's bytes from its log's closing ']' on.
func restOf(st []byte) []byte {
	_, end := startChecksum(true, st, -1)
	return st[end:]
}

func TestRunningChecksumExtendsEntryByEntry(t *testing.T) {
	entries := []string{
		`{"actionId":"a","seq":0}`,
		`{"actionId":"]","params":{"t":"],\"x\":[{"},"seq":1}`,
		`{"from":"1","seq":2,"system":"content","to":"2"}`,
		`{"actionId":"b\\","params":{"\\]":true,"n":1.5},"seq":3}`,
	}
	for _, compatible := range []bool{true, false} {
		sum := newChecksum(compatible)
		if got, ok := sum.finish(compatible, restOf(stateOf()), 0); !ok || got != saveChecksum(compatible, stateOf()) {
			t.Fatalf("empty log: finish = %s %v", got, ok)
		}
		for n := 1; n <= len(entries); n++ {
			st := stateOf(entries[:n]...)
			next := sum.extend([]byte(entries[n-1]), 1)
			if next == nil || next.entries != n {
				t.Fatalf("entry %d: extend = %+v", n, next)
			}
			if got, ok := next.finish(compatible, restOf(st), n); !ok || got != saveChecksum(compatible, st) {
				t.Fatalf("entry %d: finish = %s %v, want %s", n, got, ok, saveChecksum(compatible, st))
			}
			if fresh, _ := startChecksum(compatible, st, n); fresh == nil || fresh.entries != n {
				t.Fatalf("entry %d: a fresh start disagrees", n)
			}
			sum = next
		}
		if again := sum.extend(nil, 0); again != sum {
			t.Fatal("the same log did not keep its running checksum")
		}
		// Two entries at once hash as the two one by one.
		two := newChecksum(compatible).extend([]byte(entries[0]+","+entries[1]), 2)
		st := stateOf(entries[:2]...)
		if got, ok := two.finish(compatible, restOf(st), 2); !ok || got != saveChecksum(compatible, st) {
			t.Fatal("a run of two entries hashes differently")
		}
	}
}

func TestRunningChecksumRefusesWhatDoesNotFit(t *testing.T) {
	st := stateOf(`{"actionId":"a","seq":0}`)
	sum, _ := startChecksum(true, st, 1)
	notCanonical, _ := startChecksum(true, []byte(`{"actionLog": []}`), 0)
	unclosed, _ := startChecksum(true, []byte(`{"actionLog":[{"actionId":"a"`), -1)
	miscounted, _ := startChecksum(true, st, 2)
	tests := []struct {
		name string
		ok   bool
	}{
		{"wrong replay compatibility", func() bool { _, ok := sum.finish(false, restOf(st), 1); return ok }()},
		{"wrong entry count", func() bool { _, ok := sum.finish(true, restOf(st), 2); return ok }()},
		{"rest that does not start at the log's end", func() bool { _, ok := sum.finish(true, st[1:], 1); return ok }()},
		{"a state that is not laid out canonically", notCanonical != nil},
		{"a log that never closes", unclosed != nil},
		{"a log of another length", miscounted != nil},
		{"nil", func() bool { _, ok := (*runningChecksum)(nil).finish(true, restOf(st), 1); return ok }()},
		{"nil extended", (*runningChecksum)(nil).extend([]byte(`{}`), 1) != nil},
	}
	for _, tt := range tests {
		if tt.ok {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}
