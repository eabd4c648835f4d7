package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
	"github.com/storyloom/storyloom/engine/session"
)

// faulty wraps a record store, counting writes and failing the write whose
// number is failAt (1-based; 0 never fails). Reads always work.
type faulty struct {
	session.RecordStore
	mu     sync.Mutex
	writes int
	failAt int
}

var errDisk = errors.New("disk on fire")

func (f *faulty) write() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	if f.writes == f.failAt {
		return errDisk
	}
	return nil
}

func (f *faulty) count() int { f.mu.Lock(); defer f.mu.Unlock(); return f.writes }

func (f *faulty) PutSession(ctx context.Context, r session.SessionRecord) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.RecordStore.PutSession(ctx, r)
}

func (f *faulty) PutSave(ctx context.Context, r session.SaveRecord) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.RecordStore.PutSave(ctx, r)
}

func (f *faulty) DeleteSave(ctx context.Context, id, at string) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.RecordStore.DeleteSave(ctx, id, at)
}

// played creates a session and plays actions, returning its id and its
// record's blob after each step (index 0: after creation).
func played(t *testing.T, e *env, profileID string, actions ...string) (string, [][]byte) {
	t.Helper()
	id := e.create(t, profileID)
	blobs := [][]byte{e.record(t, id).Blob}
	for _, a := range actions {
		e.submit(t, id, a)
		blobs = append(blobs, e.record(t, id).Blob)
	}
	return id, blobs
}

func TestL1ListSavesReturnsExactlyTheProfilesSaves(t *testing.T) {
	e := newEnv(t, envOptions{})
	mine := map[string]bool{}
	for i, p := range []string{"p", "q", "", "p", "q", "p"} {
		id := e.create(t, p)
		h, _ := e.store.SaveGame(ctx, id)
		if p == "p" {
			mine[h.SaveID] = true
		}
		_ = i
	}
	list, err := e.store.ListSaves(ctx, "p")
	if err != nil || len(list) != len(mine) {
		t.Fatalf("%v %+v", err, list)
	}
	for _, s := range list {
		if !mine[s.SaveID] {
			t.Fatalf("listed %s, not p's", s.SaveID)
		}
	}
	for _, p := range []string{"", "nobody"} {
		if l, err := e.store.ListSaves(ctx, p); err != nil || len(l) != 0 {
			t.Fatalf("profile %q listed %+v", p, l)
		}
	}
}

// fixedClock returns the same instant every time, so saves tie on savedAt.
type fixedClock struct{}

func (fixedClock) Now() string { return "2026-01-01T00:00:00.000000Z" }

func TestL2ListSavesIsTotallyOrdered(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	for i := 0; i < 3; i++ {
		e.save(t, id)
	}
	tied, _ := session.New(session.Config{Engine: e.engine, Records: e.records, Profiles: e.profiles, Clock: fixedClock{}, IDs: e.ids})
	for i := 0; i < 3; i++ {
		if _, err := tied.SaveGame(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := e.store.ListSaves(ctx, "p")
	for i := 1; i < len(list); i++ {
		a, b := list[i-1], list[i]
		if a.SavedAt < b.SavedAt || (a.SavedAt == b.SavedAt && a.SaveID >= b.SaveID) {
			t.Fatalf("out of order at %d: %+v then %+v", i, a, b)
		}
	}
	again, _ := e.store.ListSaves(ctx, "p")
	if !reflect.DeepEqual(list, again) {
		t.Fatal("two listings differ")
	}
}

func TestL3SaveSummaryCarriesOnlyRecordMetadata(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	h, _ := e.store.SaveGame(ctx, id)
	list, _ := e.store.ListSaves(ctx, "p")
	b, _ := json.Marshal(list[0])
	var fields map[string]any
	_ = json.Unmarshal(b, &fields)
	want := map[string]any{"saveId": h.SaveID, "campaignId": "tally", "savedAt": h.SavedAt, "savedAtSeq": float64(0)}
	if !reflect.DeepEqual(fields, want) {
		t.Fatalf("summary %s", b)
	}
}

func TestD1DeleteRemovesExactlyOneOrZero(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	a, _ := e.store.SaveGame(ctx, id)
	b, _ := e.store.SaveGame(ctx, id)
	if err := e.store.DeleteSave(ctx, "p", a.SaveID, a.SavedAt); err != nil {
		t.Fatal(err)
	}
	list, _ := e.store.ListSaves(ctx, "p")
	if len(list) != 1 || list[0].SaveID != b.SaveID {
		t.Fatalf("after delete: %+v", list)
	}
	err := e.store.DeleteSave(ctx, "p", a.SaveID, a.SavedAt)
	wantCode(t, err, core.ReasonUnknownSave)
	f := &faulty{RecordStore: e.records, failAt: 1}
	broken, _ := session.New(session.Config{Engine: e.engine, Records: f, Profiles: e.profiles, Clock: e.clock, IDs: e.ids})
	wantCode(t, broken.DeleteSave(ctx, "p", b.SaveID, b.SavedAt), core.ReasonStorageFailure)
	if list, _ := e.store.ListSaves(ctx, "p"); len(list) != 1 {
		t.Fatal("a failed delete removed a record")
	}
}

func TestD2DeleteWithStaleStampRefusesAndKeepsTheSave(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	h, _ := e.store.SaveGame(ctx, id)
	rec, _, _ := e.records.GetSave(ctx, h.SaveID)
	// A second writer replaces the record after the player listed it.
	rec.SavedAt = e.clock.Now()
	_ = e.records.PutSave(ctx, rec)
	err := e.store.DeleteSave(ctx, "p", h.SaveID, h.SavedAt)
	wantCode(t, err, core.ReasonConcurrentModification)
	if _, ok, _ := e.records.GetSave(ctx, h.SaveID); !ok {
		t.Fatal("a stale delete removed the save")
	}
	// The record store's own compare refuses the interleaving the store's
	// lock cannot see: another instance replacing it between read and delete.
	err = e.records.DeleteSave(ctx, h.SaveID, h.SavedAt)
	if !session.IsConflict(err) {
		t.Fatalf("record store delete with stale stamp: %v", err)
	}
	if err := e.store.DeleteSave(ctx, "p", h.SaveID, rec.SavedAt); err != nil {
		t.Fatal(err)
	}
}

func TestD3AnotherProfilesSaveReadsAsMissing(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	h, _ := e.store.SaveGame(ctx, id)
	theirs := e.store.DeleteSave(ctx, "q", h.SaveID, h.SavedAt)
	missing := e.store.DeleteSave(ctx, "q", "save-404", h.SavedAt)
	if session.Code(theirs) != core.ReasonUnknownSave || session.Code(missing) != core.ReasonUnknownSave {
		t.Fatalf("%v / %v", theirs, missing)
	}
	if strings.Replace(theirs.Error(), h.SaveID, "", 1) != strings.Replace(missing.Error(), "save-404", "", 1) {
		t.Fatalf("distinguishable: %q vs %q", theirs, missing)
	}
	if _, ok, _ := e.records.GetSave(ctx, h.SaveID); !ok {
		t.Fatal("another profile deleted the save")
	}
}

func TestB1BranchSerializesAsTheSourceAtTheForkPoint(t *testing.T) {
	e := newEnv(t, envOptions{epochs: []epoch{v1, {version: "2.0.0", step: 1, title: "Tally 2"}}})
	id, blobs := played(t, e, "p", "inc", "inc")
	// An adoption in the middle of the log is an entry a fork can fall
	// either side of.
	e.channel.set("2.0.0")
	if _, err := e.store.ResumeSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	e.channel.set("")
	blobs = append(blobs, e.record(t, id).Blob)
	e.submit(t, id, "inc", "end")
	blobs = append(blobs, nil, e.record(t, id).Blob)
	blobs[4] = nil
	for n := range blobs {
		if blobs[n] == nil {
			continue
		}
		h, err := e.store.BranchSession(ctx, id, n)
		if err != nil {
			t.Fatalf("at %d: %v", n, err)
		}
		if got := e.record(t, h.SessionID).Blob; !bytes.Equal(got, blobs[n]) {
			t.Fatalf("branch at %d:\n got %s\nwant %s", n, got, blobs[n])
		}
	}
	for _, n := range []int{-1, 6} {
		_, err := e.store.BranchSession(ctx, id, n)
		wantCode(t, err, core.ReasonInvalidForkPoint)
	}
	t.Run("an adopting offer appends exactly one content entry", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, {version: "2.0.0", step: 1, title: "Tally 2"}}})
		id, blobs := played(t, e, "", "inc")
		e.channel.set("2.0.0")
		h, err := e.store.BranchSession(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got, want map[string]any
		_ = json.Unmarshal(e.record(t, h.SessionID).Blob, &got)
		_ = json.Unmarshal(blobs[1], &want)
		log := got["actionLog"].([]any)
		if len(log) != 2 || log[1].(map[string]any)["system"] != "content" || got["campaignVersion"] != "2.0.0" {
			t.Fatalf("branch %v", got)
		}
		if !reflect.DeepEqual(log[0], want["actionLog"].([]any)[0]) {
			t.Fatal("the adoption changed the retained prefix")
		}
	})
}

func TestB2BranchNeverWritesTheSourceNorAnythingOnFailure(t *testing.T) {
	f := &faulty{RecordStore: session.NewMemoryRecords()}
	e := newEnv(t, envOptions{records: f})
	id, _ := played(t, e, "p", "inc", "inc")
	before := e.record(t, id)
	if _, err := e.store.BranchSession(ctx, id, 1); err != nil {
		t.Fatal(err)
	}
	if after := e.record(t, id); !reflect.DeepEqual(before, after) {
		t.Fatal("a branch changed its source record")
	}
	writes := f.count()
	for _, n := range []int{-1, 9} {
		if _, err := e.store.BranchSession(ctx, id, n); err == nil {
			t.Fatal("out-of-range branch succeeded")
		}
	}
	if f.count() != writes {
		t.Fatal("an out-of-range branch wrote")
	}
	rec := e.record(t, id)
	rec.ReplayCompatible = false
	rec.Revision++
	_ = e.records.PutSession(ctx, rec)
	e.store.Forget(ctx, id)
	writes = f.count()
	_, err := e.store.BranchSession(ctx, id, 1)
	wantCode(t, err, core.ReasonInvalidState)
	if f.count() != writes {
		t.Fatal("a refused branch wrote")
	}
}

func TestB3BranchMintsASessionAndKeepsTheGame(t *testing.T) {
	e := newEnv(t, envOptions{})
	id, _ := played(t, e, "", "inc")
	seen := map[string]bool{id: true}
	var gameID string
	for i := 0; i < 3; i++ {
		h, err := e.store.BranchSession(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		if seen[h.SessionID] {
			t.Fatalf("session id %s reused", h.SessionID)
		}
		seen[h.SessionID] = true
		if gameID != "" && h.Scene.GameID != gameID {
			t.Fatal("branches differ in game id")
		}
		gameID = h.Scene.GameID
	}
	src, _ := e.store.GetScene(ctx, id)
	if src.GameID != gameID {
		t.Fatalf("branch game %s, source %s", gameID, src.GameID)
	}
}

func TestB4BranchDependsOnRecordedInitializationNotTheProfileNow(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[{"data":{"best":4},"dataVersion":2,"kindId":"tally"}],"profileId":"p","terminals":[]}`))
	id, blobs := played(t, e, "p", "inc")
	if !strings.Contains(string(blobs[0]), `"bonus":4`) {
		t.Fatalf("not seeded from the profile: %s", blobs[0])
	}
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[{"data":{"best":40},"dataVersion":2,"kindId":"tally"}],"profileId":"p","terminals":[]}`))
	loaded, _ := e.profiles.Load(ctx, "p")
	loaded.Profile.KindData[0].Data[2] = 'X' // mutating what the store returned
	for n := range blobs {
		h, err := e.store.BranchSession(ctx, id, n)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.record(t, h.SessionID).Blob; !bytes.Equal(got, blobs[n]) {
			t.Fatalf("at %d the branch followed the profile: %s", n, got)
		}
	}
	t.Run("unknown initialization of a profiled session", func(t *testing.T) {
		rec := e.record(t, id)
		rec.Initialization = nil
		rec.Revision++
		_ = e.records.PutSession(ctx, rec)
		e.store.Forget(ctx, id)
		_, err := e.store.BranchSession(ctx, id, 0)
		wantCode(t, err, core.ReasonInvalidState)
		_, err = e.store.CaptureSession(ctx, id, "x")
		wantCode(t, err, core.ReasonInvalidState)
	})
}

func TestF1CaptureWritesNothing(t *testing.T) {
	f := &faulty{RecordStore: session.NewMemoryRecords()}
	e := newEnv(t, envOptions{records: f})
	id, _ := played(t, e, "p", "inc", "inc")
	writes, profileWrites := f.count(), e.profiles.Writes()
	before := e.record(t, id)
	if _, err := e.store.CaptureSession(ctx, id, "fixture"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CaptureSession(ctx, "nope", "fixture"); err == nil {
		t.Fatal("captured a missing session")
	}
	if f.count() != writes || e.profiles.Writes() != profileWrites || !reflect.DeepEqual(before, e.record(t, id)) {
		t.Fatal("a capture wrote")
	}
}

func TestF2CaptureReplaysThroughTheHarness(t *testing.T) {
	e := newEnv(t, envOptions{epochs: []epoch{v1, {version: "2.0.0", step: 3, title: "Tally 2"}}})
	id, _ := played(t, e, "p", "inc")
	e.channel.set("2.0.0")
	e.submit(t, id, "inc") // adopts after commit
	e.channel.set("")
	e.submit(t, id, "inc", "end")
	fx, err := e.store.CaptureSession(ctx, id, "fixture")
	if err != nil {
		t.Fatal(err)
	}
	if fx.CapturedUnder != core.EngineVersion {
		t.Errorf("capturedUnder %q, want %q", fx.CapturedUnder, core.EngineVersion)
	}
	rec := e.record(t, id)
	var src map[string]any
	_ = json.Unmarshal(rec.Blob, &src)
	if fx.ActionLog.Len() != len(src["actionLog"].([]any)) {
		t.Fatalf("fixture log %d entries, session %d", fx.ActionLog.Len(), len(src["actionLog"].([]any)))
	}
	run, err := harness.Verify(func(em core.Emitter) *core.Engine {
		eng, _ := core.New(core.Host{Kinds: []core.Kind{tally{}}, Registry: e.engine.Registry(), Archive: e.archive, Emitter: em,
			IDs: core.FixedIDs{GameID: src["gameId"].(string)}})
		return eng
	}, fx)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(run.Serialized, rec.Blob) {
		t.Fatalf("replay differs:\n got %s\nwant %s", run.Serialized, rec.Blob)
	}
}

func TestF3FixtureCarriesNoHostMetadata(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[{"data":{"best":2},"dataVersion":2,"kindId":"tally"}],"profileId":"p","terminals":[]}`))
	id, _ := played(t, e, "p", "inc")
	fx, _ := e.store.CaptureSession(ctx, id, "fixture")
	b, _ := json.Marshal(fx)
	for _, leak := range []string{`"p"`, id, "2026-", "audience", "profileId", "sessionId"} {
		if strings.Contains(string(b), leak) {
			t.Fatalf("fixture carries %s: %s", leak, b)
		}
	}
	var cfg map[string]any
	cb, _ := json.Marshal(fx.Config)
	_ = json.Unmarshal(cb, &cfg)
	for k := range cfg {
		if k != "campaignId" && k != "seed" && k != "kindProfileData" {
			t.Fatalf("config key %q", k)
		}
	}
	if string(fx.Config.KindProfileData) != `{"best":2}` {
		t.Fatalf("kindProfileData %s", fx.Config.KindProfileData)
	}
}

func TestF4CapturesOfAnUnchangedSessionAreEqual(t *testing.T) {
	e := newEnv(t, envOptions{})
	id, _ := played(t, e, "", "inc", "inc")
	a, _ := e.store.CaptureSession(ctx, id, "same")
	e.store.Forget(ctx, id)
	b, _ := e.store.CaptureSession(ctx, id, "same")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("%s\n%s", ja, jb)
	}
}
