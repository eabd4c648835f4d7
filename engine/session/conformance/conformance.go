// Package conformance is the suite every session.RecordStore and
// session.ProfileStore implementation runs (§7.2): the in-memory stores,
// the native SQLite store and the browser's IndexedDB store pass the same
// assertions, so no rule of the session store is implemented twice.
//
// An implementation's test calls RunRecordStore (and RunProfileStore) with
// a constructor returning an empty store:
//
//	func TestConformance(t *testing.T) {
//		conformance.RunRecordStore(t, func(t *testing.T) session.RecordStore { return open(t) })
//	}
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// RunRecordStore runs the record store suite; newStore returns an empty
// store for each subtest.
func RunRecordStore(t *testing.T, newStore func(t *testing.T) session.RecordStore) {
	ctx := context.Background()
	sess := func(id string, rev int) session.SessionRecord {
		return session.SessionRecord{
			SessionID: id, Blob: []byte(fmt.Sprintf(`{"rev":%d}`, rev)), Audience: core.AudiencePlayer,
			AttemptCounter: rev * 2, Revision: rev, ReplayCompatible: true,
			CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: fmt.Sprintf("2026-01-01T00:00:%02dZ", rev),
			ProfileID: "p", Initialization: &session.Initialization{KindProfileData: json.RawMessage(`{"best":1}`)},
		}
	}
	save := func(id, profile, at string) session.SaveRecord {
		return session.SaveRecord{
			SaveID: id, CampaignID: "c", Blob: []byte(`{"save":"` + id + `"}`), SavedAt: at, SavedAtSeq: 3,
			Audience: core.AudiencePlayer, ProfileID: profile, Initialization: &session.Initialization{},
		}
	}

	t.Run("missing session", func(t *testing.T) {
		s := newStore(t)
		if _, ok, err := s.GetSession(ctx, "nope"); ok || err != nil {
			t.Fatalf("ok %v err %v", ok, err)
		}
	})
	t.Run("session round trip", func(t *testing.T) {
		tests := []struct {
			name string
			edit func(*session.SessionRecord)
		}{
			{"full", func(*session.SessionRecord) {}},
			{"no profile, unknown initialization", func(r *session.SessionRecord) { r.ProfileID = ""; r.Initialization = nil }},
			{"empty initialization", func(r *session.SessionRecord) { r.Initialization = &session.Initialization{} }},
			{"ai audience, not replay-compatible", func(r *session.SessionRecord) { r.Audience = core.AudienceAI; r.ReplayCompatible = false }},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newStore(t)
				want := sess("s1", 0)
				tt.edit(&want)
				if err := s.PutSession(ctx, want); err != nil {
					t.Fatal(err)
				}
				got, ok, err := s.GetSession(ctx, "s1")
				if !ok || err != nil {
					t.Fatalf("ok %v err %v", ok, err)
				}
				if !reflect.DeepEqual(normalizeSession(got), normalizeSession(want)) {
					t.Fatalf("got  %+v\nwant %+v", got, want)
				}
				if (got.Initialization == nil) != (want.Initialization == nil) {
					t.Fatal("a missing initialization and an empty one were confused")
				}
			})
		}
	})
	t.Run("segmented log", func(t *testing.T) {
		s := newStore(t)
		seg := func(seq, count int, entries string) session.Segment {
			return session.Segment{Seq: seq, Count: count, Sum: fmt.Sprintf("sum-%d", seq), Entries: []byte(entries)}
		}
		legacy := sess("s1", 0)
		steps := []session.SessionRecord{legacy}
		logs := []*session.SessionLog{
			{Segments: []session.Segment{seg(0, 2, `{"a":0},{"a":1}`)}, Checkpoint: []byte(`{"cp":2}`), CheckpointSum: "c2", TailSum: "t0"},
			{Segments: []session.Segment{seg(0, 2, `{"a":0},{"a":1}`)}, Checkpoint: []byte(`{"cp":2}`), CheckpointSum: "c2", Tail: []byte(`{"a":2}`), TailCount: 1, TailSum: "t1"},
			{Segments: []session.Segment{seg(0, 2, `{"a":0},{"a":1}`), seg(2, 2, `{"a":2},{"a":3}`)}, Checkpoint: []byte(`{"cp":4}`), CheckpointSum: "c4", TailSum: "t0"},
			{Segments: []session.Segment{seg(0, 2, `{"a":0},{"a":1}`), seg(2, 2, `{"a":2},{"a":3}`), seg(4, 1, `{"a":4}`)}, Checkpoint: []byte(`{"cp":5}`), CheckpointSum: "c5", Tail: []byte(`{"a":5},{"a":6}`), TailCount: 2, TailSum: "t2"},
		}
		for i, l := range logs {
			r := sess("s1", i+1)
			r.Blob, r.Log = nil, l
			steps = append(steps, r)
		}
		for i, want := range steps {
			if err := s.PutSession(ctx, want); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			got, ok, err := s.GetSession(ctx, "s1")
			if !ok || err != nil {
				t.Fatalf("step %d: ok %v err %v", i, ok, err)
			}
			if !reflect.DeepEqual(normalizeSession(got), normalizeSession(want)) {
				t.Fatalf("step %d:\ngot  %+v %+v\nwant %+v %+v", i, got, got.Log, want, want.Log)
			}
		}
		// A put that loses the compare-and-set leaves no segment behind.
		stale := sess("s1", len(steps)-1)
		stale.Blob, stale.Log = nil, &session.SessionLog{Segments: append(append([]session.Segment(nil), logs[3].Segments...), seg(5, 1, `{"x":1}`)), Checkpoint: []byte(`{"cp":6}`)}
		if err := s.PutSession(ctx, stale); !session.IsConflict(err) {
			t.Fatalf("stale put: %v", err)
		}
		got, _, _ := s.GetSession(ctx, "s1")
		if !reflect.DeepEqual(normalizeSession(got), normalizeSession(steps[len(steps)-1])) {
			t.Fatalf("after a lost put:\ngot  %+v\nwant %+v", got.Log, logs[3])
		}
	})
	t.Run("revision compare-and-set", func(t *testing.T) {
		tests := []struct {
			name     string
			existing []int // revisions written first, in order
			put      int
			conflict bool
		}{
			{"new at 0", nil, 0, false},
			{"new above 0", nil, 2, true},
			{"existing at 0 again", []int{0}, 0, true},
			{"next revision", []int{0}, 1, false},
			{"same revision twice", []int{0, 1}, 1, true},
			{"skipping a revision", []int{0, 1}, 3, true},
			{"going back", []int{0, 1, 2}, 1, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newStore(t)
				for _, r := range tt.existing {
					if err := s.PutSession(ctx, sess("s1", r)); err != nil {
						t.Fatalf("setup put %d: %v", r, err)
					}
				}
				err := s.PutSession(ctx, sess("s1", tt.put))
				if tt.conflict != session.IsConflict(err) || (!tt.conflict && err != nil) {
					t.Fatalf("put %d after %v: %v", tt.put, tt.existing, err)
				}
				got, ok, _ := s.GetSession(ctx, "s1")
				switch {
				case !tt.conflict && got.Revision != tt.put:
					t.Fatalf("stored revision %d", got.Revision)
				case tt.conflict && len(tt.existing) == 0 && ok:
					t.Fatal("a refused put wrote a record")
				case tt.conflict && len(tt.existing) > 0 && got.Revision != tt.existing[len(tt.existing)-1]:
					t.Fatalf("a refused put changed the record to revision %d", got.Revision)
				}
			})
		}
	})
	t.Run("attempt counter is never compared", func(t *testing.T) {
		s := newStore(t)
		r := sess("s1", 0)
		_ = s.PutSession(ctx, r)
		r = sess("s1", 1)
		r.AttemptCounter = 99
		if err := s.PutSession(ctx, r); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("concurrent writers: exactly one wins each revision", func(t *testing.T) {
		s := newStore(t)
		if err := s.PutSession(ctx, sess("s1", 0)); err != nil {
			t.Fatal(err)
		}
		const writers = 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		won, conflicts, other := 0, 0, 0
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := s.PutSession(ctx, sess("s1", 1))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case session.IsConflict(err):
					conflicts++
				default:
					other++
				}
			}()
		}
		wg.Wait()
		if won != 1 || conflicts != writers-1 || other != 0 {
			t.Fatalf("won %d conflicts %d other %d", won, conflicts, other)
		}
	})
	// Blobs are immutable and may be shared (session.RecordStore); every
	// other byte a store returns is its own.
	t.Run("initializations share no memory with the store", func(t *testing.T) {
		s := newStore(t)
		r := sess("s1", 0)
		_ = s.PutSession(ctx, r)
		r.Initialization.KindProfileData[0] = 'X'
		got, _, _ := s.GetSession(ctx, "s1")
		if got.Initialization.KindProfileData[0] != '{' {
			t.Fatal("mutating a put record's initialization changed the store")
		}
		got.Initialization.KindProfileData[0] = 'Y'
		again, _, _ := s.GetSession(ctx, "s1")
		if again.Initialization.KindProfileData[0] != '{' {
			t.Fatal("mutating a returned record's initialization changed the store")
		}
		sv := save("v1", "p", "2026-01-01T00:00:00Z")
		sv.Initialization = &session.Initialization{KindProfileData: json.RawMessage(`{"best":2}`)}
		_ = s.PutSave(ctx, sv)
		sv.Initialization.KindProfileData[0] = 'X'
		gotSave, _, _ := s.GetSave(ctx, "v1")
		if gotSave.Initialization.KindProfileData[0] != '{' {
			t.Fatal("mutating a put save's initialization changed the store")
		}
		gotSave.Initialization.KindProfileData[0] = 'Y'
		list, _ := s.ListSaves(ctx, "p")
		if len(list) != 1 || list[0].Initialization.KindProfileData[0] != '{' {
			t.Fatal("mutating a returned save's initialization changed the store")
		}
	})
	t.Run("missing save", func(t *testing.T) {
		s := newStore(t)
		if _, ok, err := s.GetSave(ctx, "nope"); ok || err != nil {
			t.Fatalf("ok %v err %v", ok, err)
		}
	})
	t.Run("save round trip under its save id", func(t *testing.T) {
		s := newStore(t)
		tests := []struct {
			name string
			rec  session.SaveRecord
		}{
			{"profiled", save("a", "p", "2026-01-01T00:00:01Z")},
			{"anonymous, unknown initialization", func() session.SaveRecord {
				r := save("b", "", "2026-01-01T00:00:02Z")
				r.Initialization = nil
				return r
			}()},
			{"with profile data", func() session.SaveRecord {
				r := save("c", "p", "2026-01-01T00:00:03Z")
				r.Initialization = &session.Initialization{KindProfileData: json.RawMessage(`{"x":[1,2]}`)}
				return r
			}()},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := s.PutSave(ctx, tt.rec); err != nil {
					t.Fatal(err)
				}
				got, ok, err := s.GetSave(ctx, tt.rec.SaveID)
				if !ok || err != nil || !reflect.DeepEqual(normalizeSave(got), normalizeSave(tt.rec)) {
					t.Fatalf("got %+v ok %v err %v\nwant %+v", got, ok, err, tt.rec)
				}
				if (got.Initialization == nil) != (tt.rec.Initialization == nil) {
					t.Fatal("a missing initialization and an empty one were confused")
				}
			})
		}
	})
	// A save may hold its log as segments (session.SaveLog); a store keeps
	// them or stores the record whole, and gives back the same document.
	t.Run("save with its log in segments", func(t *testing.T) {
		s := newStore(t)
		segs := []session.Segment{
			{Seq: 0, Count: 2, Sum: "s0", Entries: []byte(`{"a":0},{"a":1}`)},
			{Seq: 2, Count: 1, Sum: "s2", Entries: []byte(`{"a":2}`)},
		}
		head := []byte(`{"checksum":"x","state":{"actionLog":[],"k":1}}`)
		steps := []session.SaveRecord{
			func() session.SaveRecord {
				r := save("a", "p", "2026-01-01T00:00:01Z")
				r.Blob, r.Log = head, &session.SaveLog{Segments: segs, Tail: []byte(`{"a":3}`), TailCount: 1}
				return r
			}(),
			func() session.SaveRecord { // replaced by one with fewer segments and no tail
				r := save("a", "p", "2026-01-01T00:00:02Z")
				r.Blob, r.Log = head, &session.SaveLog{Segments: segs[:1]}
				return r
			}(),
			save("a", "p", "2026-01-01T00:00:03Z"), // and by a save held whole
		}
		for i, want := range steps {
			if err := s.PutSave(ctx, want); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			wantDoc, _ := want.Document()
			got, ok, err := s.GetSave(ctx, "a")
			if !ok || err != nil {
				t.Fatalf("step %d: ok %v err %v", i, ok, err)
			}
			list, lerr := s.ListSaves(ctx, "p")
			if lerr != nil || len(list) != 1 {
				t.Fatalf("step %d: list %d %v", i, len(list), lerr)
			}
			for _, r := range []session.SaveRecord{got, list[0]} {
				doc, derr := r.Document()
				if derr != nil || !bytes.Equal(doc, wantDoc) || r.SavedAt != want.SavedAt {
					t.Fatalf("step %d: got %s (%v) at %s\nwant %s", i, doc, derr, r.SavedAt, wantDoc)
				}
			}
		}
		if err := s.DeleteSave(ctx, "a", steps[len(steps)-1].SavedAt); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := s.GetSave(ctx, "a"); ok || err != nil {
			t.Fatalf("deleted save: ok %v err %v", ok, err)
		}
	})
	t.Run("put save replaces", func(t *testing.T) {
		s := newStore(t)
		_ = s.PutSave(ctx, save("a", "p", "2026-01-01T00:00:01Z"))
		r := save("a", "p", "2026-01-01T00:00:09Z")
		r.Blob = []byte(`{"v":2}`)
		if err := s.PutSave(ctx, r); err != nil {
			t.Fatal(err)
		}
		got, _, _ := s.GetSave(ctx, "a")
		if got.SavedAt != r.SavedAt || !bytes.Equal(got.Blob, r.Blob) {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("list saves by profile", func(t *testing.T) {
		s := newStore(t)
		for _, r := range []session.SaveRecord{
			save("a", "p", "1"), save("b", "q", "2"), save("c", "p", "3"), save("d", "", "4"), save("e", "pp", "5"),
		} {
			if err := s.PutSave(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		tests := []struct {
			profile string
			want    []string
		}{
			{"p", []string{"a", "c"}},
			{"q", []string{"b"}},
			{"nobody", nil},
			{"", nil},
		}
		for _, tt := range tests {
			t.Run("profile "+tt.profile, func(t *testing.T) {
				got, err := s.ListSaves(ctx, tt.profile)
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, r := range got {
					ids = append(ids, r.SaveID)
					if r.ProfileID != tt.profile {
						t.Fatalf("listed %s of profile %q", r.SaveID, r.ProfileID)
					}
				}
				sort.Strings(ids)
				if !reflect.DeepEqual(ids, tt.want) {
					t.Fatalf("got %v want %v", ids, tt.want)
				}
			})
		}
	})
	t.Run("conditional delete", func(t *testing.T) {
		tests := []struct {
			name     string
			id, at   string
			want     func(error) bool
			survives bool
		}{
			{"matching stamp", "a", "2026-01-01T00:00:01Z", func(err error) bool { return err == nil }, false},
			{"stale stamp", "a", "2026-01-01T00:00:00Z", session.IsConflict, true},
			{"missing save", "zz", "2026-01-01T00:00:01Z", func(err error) bool { return errors.Is(err, session.ErrNotFound) }, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newStore(t)
				_ = s.PutSave(ctx, save("a", "p", "2026-01-01T00:00:01Z"))
				_ = s.PutSave(ctx, save("b", "p", "2026-01-01T00:00:01Z"))
				if err := s.DeleteSave(ctx, tt.id, tt.at); !tt.want(err) {
					t.Fatalf("delete: %v", err)
				}
				_, ok, _ := s.GetSave(ctx, "a")
				if ok != tt.survives {
					t.Fatalf("save a present %v, want %v", ok, tt.survives)
				}
				if _, ok, _ := s.GetSave(ctx, "b"); !ok {
					t.Fatal("a delete removed another record")
				}
			})
		}
	})
	t.Run("delete after a replacement refuses", func(t *testing.T) {
		s := newStore(t)
		_ = s.PutSave(ctx, save("a", "p", "2026-01-01T00:00:01Z"))
		_ = s.PutSave(ctx, save("a", "p", "2026-01-01T00:00:02Z"))
		if err := s.DeleteSave(ctx, "a", "2026-01-01T00:00:01Z"); !session.IsConflict(err) {
			t.Fatalf("delete with the replaced stamp: %v", err)
		}
		if _, ok, _ := s.GetSave(ctx, "a"); !ok {
			t.Fatal("the replacement was deleted")
		}
	})
}

func normalizeSession(r session.SessionRecord) session.SessionRecord {
	if r.Initialization != nil && len(r.Initialization.KindProfileData) == 0 {
		r.Initialization = &session.Initialization{}
	}
	if r.Log != nil {
		l := *r.Log
		if len(l.Tail) == 0 {
			l.Tail = nil
		}
		if len(l.Segments) == 0 {
			l.Segments = nil
		}
		r.Log = &l
	}
	return r
}

func normalizeSave(r session.SaveRecord) session.SaveRecord {
	if r.Initialization != nil && len(r.Initialization.KindProfileData) == 0 {
		r.Initialization = &session.Initialization{}
	}
	return r
}

// RunProfileStore runs the profile store suite; newStore returns an empty
// store for each subtest.
func RunProfileStore(t *testing.T, newStore func(t *testing.T) session.ProfileStore) {
	ctx := context.Background()
	full := func() session.Profile {
		p := session.NewProfile("p")
		p.Achievements = []session.AchievementRecord{{CampaignID: "c", AchievementID: "a"}}
		p.Terminals = []session.TerminalRecord{{CampaignID: "c", TerminalID: "t"}}
		p.KindData = []session.KindProfileRecord{
			{KindID: "story-graph", DataVersion: 1, Data: json.RawMessage(`{"seen":[1,2]}`)},
			{KindID: "unknown-kind", DataVersion: 9, Data: json.RawMessage(`{"keep":"é"}`)},
		}
		return p
	}
	t.Run("missing profile", func(t *testing.T) {
		s := newStore(t)
		res, err := s.Load(ctx, "nobody")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := session.EncodeProfile(session.NewProfile("nobody"))
		got, _ := session.EncodeProfile(res.Profile)
		if !bytes.Equal(got, want) || len(res.Warnings) != 1 || res.Warnings[0].Code != core.ReasonProfileMissing {
			t.Fatalf("%s %+v", got, res.Warnings)
		}
	})
	t.Run("round trip is byte-identical", func(t *testing.T) {
		s := newStore(t)
		p := full()
		if err := s.Save(ctx, p); err != nil {
			t.Fatal(err)
		}
		res, err := s.Load(ctx, "p")
		if err != nil || len(res.Warnings) != 0 {
			t.Fatalf("%v %+v", err, res.Warnings)
		}
		want, _ := session.EncodeProfile(p)
		got, _ := session.EncodeProfile(res.Profile)
		if !bytes.Equal(got, want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("profiles are independent", func(t *testing.T) {
		s := newStore(t)
		_ = s.Save(ctx, full())
		q := session.NewProfile("q")
		_ = s.Save(ctx, q)
		res, _ := s.Load(ctx, "p")
		if len(res.Profile.Achievements) != 1 {
			t.Fatal("saving one profile changed another")
		}
	})
	t.Run("a loaded profile shares no memory with the store", func(t *testing.T) {
		s := newStore(t)
		_ = s.Save(ctx, full())
		res, _ := s.Load(ctx, "p")
		res.Profile.KindData[0].Data[0] = 'X'
		res.Profile.Achievements[0].AchievementID = "changed"
		again, _ := s.Load(ctx, "p")
		if again.Profile.KindData[0].Data[0] != '{' || again.Profile.Achievements[0].AchievementID != "a" {
			t.Fatal("mutating a loaded profile changed the store")
		}
	})
}
