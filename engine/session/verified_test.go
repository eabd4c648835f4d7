package session_test

import (
	"bytes"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// A store remembers the saves it wrote and checked; loading one of them
// again must give exactly what a store that never saw it gives from the
// record's bytes, whether the record store hands back the bytes it was
// given or a copy of them (SQLite, IndexedDB).
func TestALoadOfARememberedSaveIsTheLoadOfItsBytes(t *testing.T) {
	records, profiles, ids := session.NewMemoryRecords(), session.NewMemoryProfiles(), &session.CountingRecordIDs{}
	a := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids})
	id := a.create(t, "p")
	for range 40 { // past a checkpoint, so the log has a segment and a tail
		a.submit(t, id, "inc")
	}
	h, err := a.store.SaveGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rec := storedSave(t, records, h.SaveID)
	copied := rec
	copied.SaveID, copied.Blob = "copied", bytes.Clone(rec.Blob)
	if err := records.PutSave(ctx, copied); err != nil {
		t.Fatal(err)
	}
	fresh := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids})
	want, err := fresh.store.LoadGame(ctx, h.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	wantRec := fresh.record(t, want.SessionID)
	for _, saveID := range []string{h.SaveID, "copied"} {
		t.Run(saveID, func(t *testing.T) {
			got, err := a.store.LoadGame(ctx, saveID)
			if err != nil {
				t.Fatal(err)
			}
			gotRec := a.record(t, got.SessionID)
			if !bytes.Equal(gotRec.Blob, wantRec.Blob) || gotRec.ReplayCompatible != wantRec.ReplayCompatible ||
				!sameJSON(got.Scene, want.Scene) || !sameJSON(got.Notices, want.Notices) {
				t.Fatalf("the remembered load differs:\n got %s\nwant %s", gotRec.Blob, wantRec.Blob)
			}
			// Play on and save from both: the checksum each load left
			// goes on to the same save.
			a.submit(t, got.SessionID, "inc")
			fresh.submit(t, want.SessionID, "inc")
			hg, err := a.store.SaveGame(ctx, got.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			hw, err := fresh.store.SaveGame(ctx, want.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			sg := storedSave(t, records, hg.SaveID)
			sw := storedSave(t, records, hw.SaveID)
			env, oerr := session.OpenEnvelope(sg.Blob)
			if oerr != nil || !bytes.Equal(sg.Blob, sw.Blob) || env.Checksum != session.Checksum(env.ReplayCompatible, env.State) {
				t.Fatalf("the saves after the loads differ (%v):\n got %s\nwant %s", oerr, sg.Blob, sw.Blob)
			}
			// The fresh store's session moved on; start it again from the save.
			if want, err = fresh.store.LoadGame(ctx, h.SaveID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// What the engine decides at a load (the save's epoch still held, its kind
// unchanged) is asked again at every load of a remembered save.
func TestARememberedSaveIsJudgedAgainByTheEngine(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc")
	h := e.save(t, id)
	e.load(t, h.SaveID)
	e.archive.mu.Lock()
	held := e.archive.regs[v1.version]
	delete(e.archive.regs, v1.version)
	e.archive.mu.Unlock()
	_, err := e.store.LoadGame(ctx, h.SaveID)
	wantCode(t, err, core.ReasonSaveRequiresMigration)

	e.archive.mu.Lock()
	e.archive.regs[v1.version] = held
	e.archive.mu.Unlock()
	e.load(t, h.SaveID)
}

// An import checks the file in full and the store remembers what that
// gave, so the load that follows checks nothing again: it gives what a
// store that never saw the file gives, and the caller's bytes, which the
// store copied, are the caller's to change.
func TestALoadAfterAnImportIsTheLoadOfTheFile(t *testing.T) {
	records, profiles, ids := session.NewMemoryRecords(), session.NewMemoryProfiles(), &session.CountingRecordIDs{}
	a := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids})
	id := a.create(t, "p")
	for range 40 {
		a.submit(t, id, "inc")
	}
	h, err := a.store.SaveGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := a.store.ExportSave(ctx, "p", h.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(doc)
	imp, err := a.store.ImportSave(ctx, "p", data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = ' '
	}
	got, err := a.store.LoadGame(ctx, imp.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	fresh := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids})
	want, err := fresh.store.LoadGame(ctx, imp.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	gotRec, wantRec := a.record(t, got.SessionID), fresh.record(t, want.SessionID)
	if !bytes.Equal(gotRec.Blob, wantRec.Blob) || gotRec.ReplayCompatible != wantRec.ReplayCompatible || !sameJSON(got.Scene, want.Scene) {
		t.Fatalf("the load after the import differs:\n got %s\nwant %s", gotRec.Blob, wantRec.Blob)
	}
	a.submit(t, got.SessionID, "inc")
	if sc, err := a.store.GetScene(ctx, got.SessionID); err != nil || countOf(t, sc) != 41 {
		t.Fatalf("played on to %v, %v", countOf(t, sc), err)
	}
}
