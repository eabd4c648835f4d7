package core

import (
	"encoding/json"
	"reflect"
	"testing"
)

// sampleEntries is a log with every kind of entry: plain actions,
// actions with params, a content adoption and a migration.
func sampleEntries() []LoggedEntry {
	var es []LoggedEntry
	for i := 0; i < 70; i++ {
		switch {
		case i == 20:
			es = append(es, LoggedContent{Seq: i, From: "1.0.0", To: "1.1.0"})
		case i == 41:
			es = append(es, LoggedMigration{Seq: i, From: "1.1.0", To: "2.0.0"})
		case i%7 == 3:
			es = append(es, LoggedAction{Seq: i, ActionID: "buy", Params: Params{"n": float64(i), "what": "é\"x", "all": true}})
		default:
			es = append(es, LoggedAction{Seq: i, ActionID: []string{"on", "jump", "wait ✓"}[i%3]})
		}
	}
	return es
}

// readLog reads data as a state's log does.
func readLog(t *testing.T, data []byte) Log {
	t.Helper()
	r := &reader{b: data}
	l, err := r.log()
	if err == nil {
		err = r.end()
	}
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return l
}

// TestAPrefixReadLogIsTheLog checks a log read from its canonical bytes,
// kept as a prefix and decoded only on demand, answers every question
// as the log it was written from, and grows and branches the same.
func TestAPrefixReadLogIsTheLog(t *testing.T) {
	want := NewLog(sampleEntries()...)
	data := appendLog(nil, want)
	got := readLog(t, data)
	if got.pre == nil {
		t.Fatal("a canonical log was not kept as a prefix")
	}
	if got.pre.items != nil {
		t.Fatal("reading decoded the prefix")
	}
	if len(got.Epochs()) != 2 || !reflect.DeepEqual(got.Epochs(), want.Epochs()) || !got.HasMigration() {
		t.Fatalf("epochs %v, want %v", got.Epochs(), want.Epochs())
	}
	gf, gt, _ := got.lastEpoch()
	wf, wt, _ := want.lastEpoch()
	if gf != wf || gt != wt {
		t.Fatal("lastEpoch differs")
	}
	// Appending, serializing and cutting never decode the prefix.
	grown := got.Append(LoggedAction{Seq: 70, ActionID: "on"}).Append(LoggedAction{Seq: 71, ActionID: "jump"})
	wantGrown := want.Append(LoggedAction{Seq: 70, ActionID: "on"}).Append(LoggedAction{Seq: 71, ActionID: "jump"})
	for from := 0; from <= grown.Len(); from += 5 {
		for to := from; to <= grown.Len(); to += 3 {
			if g, w := string(grown.AppendEntries(nil, from, to)), string(wantGrown.AppendEntries(nil, from, to)); g != w {
				t.Fatalf("AppendEntries(%d, %d):\n got %s\nwant %s", from, to, g, w)
			}
		}
	}
	if g, w := string(appendLog(nil, grown.Prefix(33))), string(appendLog(nil, wantGrown.Prefix(33))); g != w {
		t.Fatalf("a prefix serializes as\n%s\nnot\n%s", g, w)
	}
	if got.pre.items != nil {
		t.Fatal("appending or serializing decoded the prefix")
	}
	// A branch inside the prefix, before anything decoded it.
	early := got.Prefix(12).Append(LoggedAction{Seq: 12, ActionID: "on"}).Append(LoggedAction{Seq: 13, ActionID: "jump"})
	wantEarly := want.Prefix(12).Append(LoggedAction{Seq: 12, ActionID: "on"}).Append(LoggedAction{Seq: 13, ActionID: "jump"})
	if string(appendLog(nil, early)) != string(appendLog(nil, wantEarly)) || !reflect.DeepEqual(early.At(13), wantEarly.At(13)) || !reflect.DeepEqual(early.At(5), wantEarly.At(5)) {
		t.Fatal("a branch inside the prefix differs")
	}
	if got.pre.items != nil {
		t.Fatal("a branch inside the prefix decoded it")
	}
	// Entries decode it, once.
	if !reflect.DeepEqual(grown.Entries(), wantGrown.Entries()) {
		t.Fatal("entries differ")
	}
	for i := 0; i < grown.Len(); i++ {
		if !reflect.DeepEqual(grown.At(i), wantGrown.At(i)) {
			t.Fatalf("entry %d: %v, want %v", i, grown.At(i), wantGrown.At(i))
		}
	}
	// A branch inside the prefix, and two extensions from one point.
	branch := got.Prefix(30).Append(LoggedAction{Seq: 30, ActionID: "wait ✓"})
	wantBranch := want.Prefix(30).Append(LoggedAction{Seq: 30, ActionID: "wait ✓"})
	other := got.Append(LoggedAction{Seq: 70, ActionID: "x"})
	if !reflect.DeepEqual(branch.Entries(), wantBranch.Entries()) || string(appendLog(nil, branch)) != string(appendLog(nil, wantBranch)) {
		t.Fatal("a branch inside the prefix differs")
	}
	if other.At(70).(LoggedAction).ActionID != "x" || grown.At(70).(LoggedAction).ActionID != "on" {
		t.Fatal("two extensions from one point share an entry")
	}
	if got.Len() != 70 || string(appendLog(nil, got)) != string(data) {
		t.Fatal("the log read changed")
	}
}

// TestALogNotWrittenCanonicallyStillReads checks a log with spaces, keys
// out of order or a bad entry reads as before: entry by entry, with the
// same answer or the same error.
func TestALogNotWrittenCanonicallyStillReads(t *testing.T) {
	tests := []struct {
		name, data, err string
	}{
		{"spaces", `[ {"actionId":"a","seq":0}, {"seq":1,"actionId":"b"} ]`, ""},
		{"keys out of order", `[{"seq":0,"actionId":"a"}]`, ""},
		{"params out of order", `[{"actionId":"a","params":{"b":1,"a":2},"seq":0}]`, ""},
		{"empty", `[]`, ""},
		{"seq not its position", `[{"actionId":"a","seq":0},{"actionId":"b","seq":2}]`, "actionLog[1]: seq 2 is not its position"},
		{"empty action id", `[{"actionId":"","seq":0}]`, "actionLog[0]"},
		{"unclosed", `[{"actionId":"a","seq":0},`, "end of JSON"},
		{"unknown field", `[{"actionId":"a","seq":0,"x":1}]`, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l Log
			err := json.Unmarshal([]byte(tt.data), &l)
			if tt.err != "" {
				if err == nil || !contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var raw []map[string]any
			if err := json.Unmarshal([]byte(tt.data), &raw); err != nil {
				t.Fatal(err)
			}
			if l.Len() != len(raw) {
				t.Fatalf("%d entries, want %d", l.Len(), len(raw))
			}
			again := readLog(t, appendLog(nil, l))
			if !reflect.DeepEqual(again.Entries(), l.Entries()) {
				t.Fatal("the canonical form reads back differently")
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
