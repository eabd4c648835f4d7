package session_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/session"
)

// witnessRecords is a record store that shares every blob it is handed or
// hands out, as session.RecordStore allows, and remembers a copy of each,
// so that a test can check no one wrote to a blob afterwards.
type witnessRecords struct {
	*session.MemoryRecords
	mu   sync.Mutex
	seen [][2][]byte // the shared blob and its bytes when first seen
}

func (w *witnessRecords) witness(b []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, [2][]byte{b, bytes.Clone(b)})
}

func (w *witnessRecords) PutSession(ctx context.Context, rec session.SessionRecord) error {
	w.witness(rec.Blob)
	if l := rec.Log; l != nil {
		w.witness(l.Checkpoint)
		w.witness(l.Tail)
		for _, s := range l.Segments {
			w.witness(s.Entries)
		}
	}
	return w.MemoryRecords.PutSession(ctx, rec)
}

func (w *witnessRecords) PutSave(ctx context.Context, rec session.SaveRecord) error {
	w.witness(rec.Blob)
	return w.MemoryRecords.PutSave(ctx, rec)
}

// check fails t for every blob whose bytes changed since it was seen.
func (w *witnessRecords) check(t *testing.T) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, s := range w.seen {
		if !bytes.Equal(s[0], s[1]) {
			t.Errorf("blob %d was written to after it was handed to the record store", i)
		}
	}
}

// TestStoreNeverWritesToABlob plays every operation that reads or writes a
// blob over a store that shares them, and checks none changed: the session
// store keeps the record-store contract that blobs are immutable.
func TestStoreNeverWritesToABlob(t *testing.T) {
	w := &witnessRecords{MemoryRecords: session.NewMemoryRecords()}
	e := newEnv(t, envOptions{records: w})
	id := e.create(t, "p")
	e.submit(t, id, "inc", "inc", "inc")
	saved := e.save(t, id)
	e.submit(t, id, "inc")
	e.save(t, id)
	loaded := e.load(t, saved.SaveID)
	e.submit(t, loaded.SessionID, "inc", "inc")
	doc, err := e.store.ExportSave(ctx, "p", saved.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	imported, err := e.store.ImportSave(ctx, "p", doc)
	if err != nil {
		t.Fatal(err)
	}
	e.load(t, imported.SaveID)
	branched, err := e.store.BranchSession(ctx, id, 2)
	if err != nil {
		t.Fatal(err)
	}
	e.submit(t, branched.SessionID, "inc")
	for i := 0; i < 40; i++ { // past a checkpoint
		e.submit(t, id, "inc")
	}
	e.store.Forget(ctx, id)
	if _, err := e.store.ResumeSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	e.submit(t, id, "inc")
	if _, err := e.store.CaptureSession(ctx, id, "x"); err != nil {
		t.Fatal(err)
	}
	w.check(t)
	if len(w.seen) < 12 {
		t.Fatalf("only %d blobs were written", len(w.seen))
	}
}
