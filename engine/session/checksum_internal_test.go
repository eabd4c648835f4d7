package session

import (
	"strings"
	"testing"
)

// state writes a canonical state with the given log entries.
func stateOf(entries ...string) []byte {
	return []byte(`{"actionLog":[` + strings.Join(entries, ",") + `],"campaignId":"c","kindState":{"a":[1,2],"s":"]"},"status":"active"}`)
}

func TestRunningChecksumExtendsEntryByEntry(t *testing.T) {
	entries := []string{
		`{"actionId":"a","seq":0}`,
		`{"actionId":"]","params":{"t":"],\"x\":[{"},"seq":1}`,
		`{"from":"1","seq":2,"system":"content","to":"2"}`,
		`{"actionId":"b\\","params":{"\\]":true,"n":1.5},"seq":3}`,
	}
	for _, compatible := range []bool{true, false} {
		sum := startChecksum(compatible, stateOf(), 0)
		if sum == nil {
			t.Fatal("no running checksum for an empty log")
		}
		for n := 1; n <= len(entries); n++ {
			st := stateOf(entries[:n]...)
			next := sum.extend(st, n)
			if next == nil || next.entries != n {
				t.Fatalf("entry %d: extend = %+v", n, next)
			}
			if got, ok := next.finish(compatible, st, n); !ok || got != saveChecksum(compatible, st) {
				t.Fatalf("entry %d: finish = %s %v, want %s", n, got, ok, saveChecksum(compatible, st))
			}
			if fresh := startChecksum(compatible, st, n); fresh == nil || fresh.n != next.n {
				t.Fatalf("entry %d: a fresh start disagrees", n)
			}
			sum = next
		}
		st := stateOf(entries...)
		if again := sum.extend(st, len(entries)); again != sum {
			t.Fatal("the same log did not keep its running checksum")
		}
	}
}

func TestRunningChecksumRefusesWhatDoesNotFit(t *testing.T) {
	st := stateOf(`{"actionId":"a","seq":0}`)
	sum := startChecksum(true, st, 1)
	tests := []struct {
		name string
		ok   bool
	}{
		{"wrong replay compatibility", func() bool { _, ok := sum.finish(false, st, 1); return ok }()},
		{"wrong entry count", func() bool { _, ok := sum.finish(true, st, 2); return ok }()},
		{"a state whose log is longer", func() bool {
			_, ok := sum.finish(true, stateOf(`{"actionId":"a","seq":0}`, `{"actionId":"b","seq":1}`), 1)
			return ok
		}()},
		{"extend by a count the state does not hold", sum.extend(stateOf(`{"actionId":"a","seq":0}`, `{"actionId":"b","seq":1}`), 3) != nil},
		{"extend to fewer entries", sum.extend(st, 0) != nil},
		{"a state that is not laid out canonically", startChecksum(true, []byte(`{"actionLog": []}`), 0) != nil},
		{"a log that never closes", startChecksum(true, []byte(`{"actionLog":[{"actionId":"a"`), -1) != nil},
		{"nil", func() bool { _, ok := (*runningChecksum)(nil).finish(true, st, 1); return ok }()},
	}
	for _, tt := range tests {
		if tt.ok {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}
