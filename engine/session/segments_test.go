package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// rawRecord reads the session record as the record store holds it.
func rawRecord(t *testing.T, e *env, id string) session.SessionRecord {
	t.Helper()
	r, ok, err := e.records.GetSession(ctx, id)
	if err != nil || !ok {
		t.Fatalf("no record %s: %v", id, err)
	}
	return r
}

// savedState takes a save of the session and returns the state it holds.
func savedState(t *testing.T, e *env, id string) []byte {
	t.Helper()
	return e.envelope(t, e.save(t, id).SaveID).State
}

func TestAnAutosaveAppendsToTheLog(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	var prev session.SessionRecord
	for n := 1; n <= 100; n++ {
		e.submit(t, id, "inc")
		r := rawRecord(t, e, id)
		l := r.Log
		if r.Blob != nil || l == nil {
			t.Fatalf("action %d: the record is not segmented", n)
		}
		if l.TailCount >= 32 || len(l.Tail) > 32*64 {
			t.Fatalf("action %d: the tail holds %d entries (%d bytes)", n, l.TailCount, len(l.Tail))
		}
		total := l.TailCount
		for _, s := range l.Segments {
			total += s.Count
		}
		if total != n {
			t.Fatalf("action %d: the record holds %d entries", n, total)
		}
		// Closed segments are the very ones the previous record held:
		// an autosave adds to them and never writes them again.
		if prev.Log != nil {
			for i, s := range prev.Log.Segments {
				if &l.Segments[i].Entries[0] != &s.Entries[0] || l.Segments[i].Sum != s.Sum {
					t.Fatalf("action %d: segment %d was written again", n, i)
				}
			}
			if len(l.Segments) == len(prev.Log.Segments) && &l.Checkpoint[0] != &prev.Log.Checkpoint[0] {
				t.Fatalf("action %d: the checkpoint was written again without a new segment", n)
			}
		}
		prev = r
	}
	if got := len(prev.Log.Segments); got != 3 {
		t.Fatalf("100 actions made %d segments, want 3 of 32", got)
	}
}

func TestARestoreReplaysTheTailOnTheCheckpoint(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 64, 70} {
		e := newEnv(t, envOptions{})
		id := e.create(t, "p")
		for i := 0; i < n; i++ {
			e.submit(t, id, "inc")
		}
		want := savedState(t, e, id)
		e.store.Forget(ctx, id)
		if got := savedState(t, e, id); !bytes.Equal(got, want) {
			t.Fatalf("%d actions: restored state differs:\n got %s\nwant %s", n, got, want)
		}
		e.store.Forget(ctx, id)
		e.submit(t, id, "inc")
		sc, err := e.store.GetScene(ctx, id)
		if err != nil || countOf(t, sc) != n+1 {
			t.Fatalf("%d actions: played on to %v, %v", n, countOf(t, sc), err)
		}
	}
}

func TestAnAdoptionCheckpoints(t *testing.T) {
	e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
	id := e.create(t, "p")
	e.submit(t, id, "inc", "inc")
	e.channel.set("2.0.0")
	e.submit(t, id, "inc")
	l := rawRecord(t, e, id).Log
	if l.TailCount != 0 || len(l.Segments) != 1 || l.Segments[0].Count != 4 {
		t.Fatalf("after an adoption: %d segments, tail %d", len(l.Segments), l.TailCount)
	}
	want := savedState(t, e, id)
	e.store.Forget(ctx, id)
	if got := savedState(t, e, id); !bytes.Equal(got, want) {
		t.Fatalf("restored state differs:\n got %s\nwant %s", got, want)
	}
}

func TestADamagedLogIsRefused(t *testing.T) {
	tests := []struct {
		name   string
		damage func(l *session.SessionLog)
	}{
		{"a segment's entries", func(l *session.SessionLog) {
			l.Segments[0].Entries = bytes.Replace(l.Segments[0].Entries, []byte(`"inc"`), []byte(`"end"`), 1)
		}},
		{"a segment lost", func(l *session.SessionLog) { l.Segments = l.Segments[1:] }},
		{"the checkpoint", func(l *session.SessionLog) {
			l.Checkpoint = bytes.Replace(l.Checkpoint, []byte(`"count":64`), []byte(`"count":65`), 1)
		}},
		{"the tail", func(l *session.SessionLog) {
			l.Tail = bytes.Replace(l.Tail, []byte(`"inc"`), []byte(`"end"`), 1)
		}},
		{"the tail's count", func(l *session.SessionLog) { l.TailCount++ }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			id := e.create(t, "p")
			for i := 0; i < 70; i++ {
				e.submit(t, id, "inc")
			}
			r := rawRecord(t, e, id)
			damaged := *r.Log
			damaged.Segments = append([]session.Segment(nil), r.Log.Segments...)
			tt.damage(&damaged)
			r.Log = &damaged
			r.Revision++
			if err := e.records.PutSession(ctx, r); err != nil {
				t.Fatal(err)
			}
			e.store.Forget(ctx, id)
			_, err := e.store.GetScene(ctx, id)
			wantCode(t, err, core.ReasonInvalidState)
		})
	}
}

func TestTodaysRecordsStillLoad(t *testing.T) {
	raw, err := os.ReadFile("testdata/today/session-record.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec session.SessionRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{})
	rec.Revision = 0 // a record store takes a new session at revision 0
	rec.SessionID = "today"
	if err := e.records.PutSession(ctx, rec); err != nil {
		t.Fatal(err)
	}
	sc, err := e.store.GetScene(ctx, rec.SessionID)
	if err != nil || countOf(t, sc) != 40 {
		t.Fatalf("the record in today's form: %v", err)
	}
	if got := savedState(t, e, rec.SessionID); !bytes.Equal(got, rec.Blob) {
		t.Fatalf("a save of it differs:\n got %s\nwant %s", got, rec.Blob)
	}
	e.submit(t, rec.SessionID, "inc")
	if l := rawRecord(t, e, rec.SessionID).Log; l == nil || l.Segments[0].Count != 41 {
		t.Fatal("its first write did not move it to segments")
	}
	e.store.Forget(ctx, rec.SessionID)
	if sc, err := e.store.GetScene(ctx, rec.SessionID); err != nil || countOf(t, sc) != 41 {
		t.Fatalf("after its first write: %v", err)
	}

	doc, err := os.ReadFile("testdata/today/save-file.json")
	if err != nil {
		t.Fatal(err)
	}
	h, err := e.store.ImportSave(ctx, "p", doc)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := e.store.LoadGame(ctx, h.SaveID)
	if err != nil || countOf(t, loaded.Scene) != 40 {
		t.Fatalf("the save file in today's format: %v", err)
	}
}

// A save of a segmented session holds that session's segments and tail,
// the very bytes, and an envelope whose state's log is empty: its size
// does not grow with the history, and its document is the whole save.
func TestASaveHoldsTheSessionsSegments(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	heads := map[int]int{}
	for _, n := range []int{40, 400} {
		for e.record(t, id).Revision < n {
			e.submit(t, id, "inc")
		}
		h := e.save(t, id)
		rec, _, _ := e.records.GetSave(ctx, h.SaveID)
		sl, l := rec.Log, rawRecord(t, e, id).Log
		if sl == nil || !bytes.Contains(rec.Blob, []byte(`"state":{"actionLog":[]`)) {
			t.Fatalf("%d actions: the save does not hold its log in segments: %s", n, rec.Blob)
		}
		if len(sl.Segments) != len(l.Segments) || sl.TailCount != l.TailCount || (l.TailCount > 0 && &sl.Tail[0] != &l.Tail[0]) {
			t.Fatalf("%d actions: the save's log is not the session's", n)
		}
		for i, seg := range sl.Segments {
			if &seg.Entries[0] != &l.Segments[i].Entries[0] || seg.Sum != l.Segments[i].Sum {
				t.Fatalf("%d actions: segment %d was copied", n, i)
			}
		}
		heads[n] = len(rec.Blob)
		// A load of it starts a session on the same segments.
		loaded := e.load(t, h.SaveID)
		if ll := rawRecord(t, e, loaded.SessionID).Log; len(ll.Segments) < len(sl.Segments) || &ll.Segments[0].Entries[0] != &sl.Segments[0].Entries[0] {
			t.Fatalf("%d actions: the loaded session copied the save's segments", n)
		}
		doc, err := rec.Document()
		if err != nil {
			t.Fatal(err)
		}
		env, oerr := session.OpenEnvelope(doc)
		if oerr != nil {
			t.Fatalf("%d actions: %v", n, oerr)
		}
		if want := e.record(t, id).Blob; !bytes.Equal(env.State, want) {
			t.Fatalf("%d actions: the save's state differs from the session's:\n got %s\nwant %s", n, env.State, want)
		}
	}
	if heads[400] > heads[40]+16 {
		t.Fatalf("the save's own bytes grew with the history: %d at 40 actions, %d at 400", heads[40], heads[400])
	}
}

// A save held in segments that a store damaged is refused on a store that
// must check it (one that did not take it), naming the save.
func TestADamagedSegmentedSaveIsRefused(t *testing.T) {
	tests := []struct {
		name   string
		damage func(r *session.SaveRecord)
	}{
		{"a segment's entries changed", func(r *session.SaveRecord) {
			segs := append([]session.Segment(nil), r.Log.Segments...)
			segs[0].Entries = bytes.Replace(segs[0].Entries, []byte(`"seq":3`), []byte(`"seq":4`), 1)
			r.Log = &session.SaveLog{Segments: segs, Tail: r.Log.Tail, TailCount: r.Log.TailCount}
		}},
		{"a segment lost", func(r *session.SaveRecord) {
			r.Log = &session.SaveLog{Segments: r.Log.Segments[1:], Tail: r.Log.Tail, TailCount: r.Log.TailCount}
		}},
		{"the tail lost", func(r *session.SaveRecord) {
			r.Log = &session.SaveLog{Segments: r.Log.Segments}
		}},
		{"the envelope holds its log", func(r *session.SaveRecord) {
			r.Blob = bytes.Replace(r.Blob, []byte(`"actionLog":[]`), []byte(`"actionLog":[{}]`), 1)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			records := session.NewMemoryRecords()
			e := newEnv(t, envOptions{records: records})
			id := e.create(t, "p")
			for range 40 {
				e.submit(t, id, "inc")
			}
			h := e.save(t, id)
			rec, _, _ := records.GetSave(ctx, h.SaveID)
			tt.damage(&rec)
			if err := records.PutSave(ctx, rec); err != nil {
				t.Fatal(err)
			}
			for _, store := range []*session.Store{e.store, newEnv(t, envOptions{records: records}).store} {
				_, err := store.LoadGame(ctx, h.SaveID)
				wantCode(t, err, core.ReasonInvalidState)
			}
		})
	}
}

// wholeSaves is a record store that keeps saves whole, as SQLite and
// IndexedDB do: a save holding its log in segments is stored as its
// Document.
type wholeSaves struct{ *session.MemoryRecords }

func (w wholeSaves) PutSave(ctx context.Context, rec session.SaveRecord) error {
	flat, err := rec.Flat()
	if err != nil {
		return err
	}
	return w.MemoryRecords.PutSave(ctx, flat)
}

// A store that keeps saves whole hands back the Document of the save it
// was given: the load of it is the load of the save the store remembers,
// and any byte changed makes it a save checked in full.
func TestASaveKeptWholeLoadsAsTheSegmentedOne(t *testing.T) {
	mem := session.NewMemoryRecords()
	records, ids := wholeSaves{mem}, &session.CountingRecordIDs{}
	e := newEnv(t, envOptions{records: records, ids: ids})
	id := e.create(t, "p")
	for range 40 {
		e.submit(t, id, "inc")
	}
	h := e.save(t, id)
	if rec, _, _ := mem.GetSave(ctx, h.SaveID); rec.Log != nil {
		t.Fatal("the store kept the save's segments")
	}
	got := e.load(t, h.SaveID)
	fresh := newEnv(t, envOptions{records: records, ids: ids})
	want, err := fresh.store.LoadGame(ctx, h.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	gotRec, wantRec := e.record(t, got.SessionID), fresh.record(t, want.SessionID)
	if !bytes.Equal(gotRec.Blob, wantRec.Blob) || !sameJSON(got.Scene, want.Scene) {
		t.Fatalf("the load differs:\n got %s\nwant %s", gotRec.Blob, wantRec.Blob)
	}
	if segs := rawRecord(t, e, got.SessionID).Log.Segments; len(segs) != 1 || segs[0].Count != 40 {
		t.Fatalf("the loaded session's log is not the save's, whole: %d segments", len(segs))
	}
	// The same document with one byte of its log changed is checked.
	h2 := e.save(t, id)
	rec, _, _ := mem.GetSave(ctx, h2.SaveID)
	rec.Blob = bytes.Replace(rec.Blob, []byte(`"seq":3`), []byte(`"seq":4`), 1)
	if err := mem.PutSave(ctx, rec); err != nil {
		t.Fatal(err)
	}
	_, err = e.store.LoadGame(ctx, h2.SaveID)
	wantCode(t, err, core.ReasonInvalidState)
}
