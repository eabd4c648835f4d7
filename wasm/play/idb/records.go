//go:build js && wasm

package idb

import (
	"context"
	"encoding/json"

	"github.com/hack-pad/safejs"
	"github.com/storyloom/storyloom/engine/session"
)

// Records is the IndexedDB session.RecordStore. A record is kept as an
// object {rec, blob, blobNil[, profileId]}: rec is the record's JSON
// without its blob, blob the blob's bytes as a Uint8Array (a blob need not
// be text), and profileId, on saves, what the profile index reads.
type Records struct {
	db *DB
}

var _ session.RecordStore = (*Records)(nil)

// Records returns the record store over d.
func (d *DB) Records() *Records { return &Records{db: d} }

// encodeRecord builds the stored object of a record's JSON and blob.
func encodeRecord(rec any, blob []byte, profileID *string) (safejs.Value, error) {
	meta, err := json.Marshal(rec)
	if err != nil {
		return safejs.Value{}, err
	}
	arr, err := bytesToJS(blob)
	if err != nil {
		return safejs.Value{}, err
	}
	ctor, err := safejs.Global().Get("Object")
	if err != nil {
		return safejs.Value{}, err
	}
	obj, err := ctor.New()
	if err != nil {
		return safejs.Value{}, err
	}
	fields := []struct {
		key string
		val any
	}{{"rec", string(meta)}, {"blob", arr}, {"blobNil", blob == nil}}
	if profileID != nil {
		fields = append(fields, struct {
			key string
			val any
		}{"profileId", *profileID})
	}
	for _, f := range fields {
		if err := obj.Set(f.key, f.val); err != nil {
			return safejs.Value{}, err
		}
	}
	return obj, nil
}

// decodeRecord reads a stored object into rec and returns its blob.
func decodeRecord(v safejs.Value, rec any) ([]byte, error) {
	meta, err := v.Get("rec")
	if err != nil {
		return nil, err
	}
	s, err := meta.String()
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(s), rec); err != nil {
		return nil, err
	}
	isNil, err := v.Get("blobNil")
	if err != nil {
		return nil, err
	}
	if b, _ := isNil.Bool(); b {
		return nil, nil
	}
	arr, err := v.Get("blob")
	if err != nil {
		return nil, err
	}
	return bytesFromJS(arr)
}

func present(v safejs.Value) bool { return !v.IsUndefined() && !v.IsNull() }

// GetSession implements session.RecordStore; a record that does not
// decode is a *CorruptError.
func (r *Records) GetSession(_ context.Context, sessionID string) (session.SessionRecord, bool, error) {
	const op = "GetSession"
	x, err := r.db.begin(op, "readonly", storeSessions)
	if err != nil {
		return session.SessionRecord{}, false, err
	}
	v, rerr := x.request(storeSessions, "get", sessionID)
	if err := x.wait(rerr); err != nil {
		return session.SessionRecord{}, false, err
	}
	if !present(v) {
		return session.SessionRecord{}, false, nil
	}
	var rec session.SessionRecord
	blob, err := decodeRecord(v, &rec)
	if err != nil {
		return session.SessionRecord{}, false, corrupt(storeSessions, sessionID, err)
	}
	rec.Blob = blob
	return rec, true, nil
}

// PutSession implements session.RecordStore: the stored revision is read
// and the record written in one readwrite transaction.
func (r *Records) PutSession(_ context.Context, rec session.SessionRecord) error {
	return r.putSession(rec, true)
}

// PutSessionUnchecked writes rec whatever revision is stored. The browser
// bridge uses it to bring IndexedDB level with a session that went on in
// memory while a write could not be made.
func (r *Records) PutSessionUnchecked(rec session.SessionRecord) error {
	return r.putSession(rec, false)
}

func (r *Records) putSession(rec session.SessionRecord, check bool) error {
	const op = "PutSession"
	blob := rec.Blob
	rec.Blob = nil
	obj, err := encodeRecord(rec, blob, nil)
	if err != nil {
		return jsError(op, err)
	}
	x, err := r.db.begin(op, "readwrite", storeSessions)
	if err != nil {
		return err
	}
	var cause error
	if check {
		v, rerr := x.request(storeSessions, "get", rec.SessionID)
		if rerr != nil {
			return x.wait(rerr)
		}
		if present(v) {
			var old session.SessionRecord
			if _, err := decodeRecord(v, &old); err != nil {
				x.abort()
				return x.wait(jsError(op, err))
			}
			if old.Revision != rec.Revision-1 {
				cause = session.ErrConflict
			}
		} else if rec.Revision != 0 {
			cause = session.ErrConflict
		}
	}
	if cause != nil {
		x.abort()
		return x.wait(cause)
	}
	_, rerr := x.request(storeSessions, "put", obj, rec.SessionID)
	return x.wait(rerr)
}

// GetSave implements session.RecordStore; a record that does not decode
// is a *CorruptError.
func (r *Records) GetSave(_ context.Context, saveID string) (session.SaveRecord, bool, error) {
	const op = "GetSave"
	x, err := r.db.begin(op, "readonly", storeSaves)
	if err != nil {
		return session.SaveRecord{}, false, err
	}
	v, rerr := x.request(storeSaves, "get", saveID)
	if err := x.wait(rerr); err != nil {
		return session.SaveRecord{}, false, err
	}
	if !present(v) {
		return session.SaveRecord{}, false, nil
	}
	var rec session.SaveRecord
	blob, err := decodeRecord(v, &rec)
	if err != nil {
		return session.SaveRecord{}, false, corrupt(storeSaves, saveID, err)
	}
	rec.Blob = blob
	return rec, true, nil
}

// PutSave implements session.RecordStore.
func (r *Records) PutSave(_ context.Context, rec session.SaveRecord) error {
	const op = "PutSave"
	blob := rec.Blob
	rec.Blob = nil
	pid := rec.ProfileID
	obj, err := encodeRecord(rec, blob, &pid)
	if err != nil {
		return jsError(op, err)
	}
	x, err := r.db.begin(op, "readwrite", storeSaves)
	if err != nil {
		return err
	}
	_, rerr := x.request(storeSaves, "put", obj, rec.SaveID)
	return x.wait(rerr)
}

// ListSaves implements session.RecordStore, through the profile index. A
// record that does not decode is left out, not an error: Corrupt lists it.
func (r *Records) ListSaves(_ context.Context, profileID string) ([]session.SaveRecord, error) {
	const op = "ListSaves"
	out := []session.SaveRecord{}
	if profileID == "" {
		return out, nil
	}
	x, err := r.db.begin(op, "readonly", storeSaves)
	if err != nil {
		return nil, err
	}
	s, err := x.store(storeSaves)
	if err != nil {
		return nil, x.wait(err)
	}
	idx, err := s.Call("index", indexProfile)
	if err != nil {
		x.abort()
		return nil, x.wait(jsError(op, err))
	}
	req, err := idx.Call("getAll", profileID)
	if err != nil {
		x.abort()
		return nil, x.wait(jsError(op, err))
	}
	all, rerr := await(op, req)
	if err := x.wait(rerr); err != nil {
		return nil, err
	}
	n, err := all.Length()
	if err != nil {
		return nil, jsError(op, err)
	}
	for i := 0; i < n; i++ {
		v, err := all.Index(i)
		if err != nil {
			return nil, jsError(op, err)
		}
		var rec session.SaveRecord
		blob, err := decodeRecord(v, &rec)
		if err != nil {
			continue // a corrupt record hides no other: Corrupt lists it
		}
		rec.Blob = blob
		if rec.ProfileID == profileID {
			out = append(out, rec)
		}
	}
	return out, nil
}

// DeleteSave implements session.RecordStore: the stamp is checked and the
// save removed in one readwrite transaction.
func (r *Records) DeleteSave(_ context.Context, saveID, expectedSavedAt string) error {
	const op = "DeleteSave"
	x, err := r.db.begin(op, "readwrite", storeSaves)
	if err != nil {
		return err
	}
	v, rerr := x.request(storeSaves, "get", saveID)
	if rerr != nil {
		return x.wait(rerr)
	}
	var cause error
	if !present(v) {
		cause = session.ErrNotFound
	} else {
		var rec session.SaveRecord
		if _, err := decodeRecord(v, &rec); err != nil {
			cause = jsError(op, err)
		} else if rec.SavedAt != expectedSavedAt {
			cause = session.ErrConflict
		}
	}
	if cause != nil {
		x.abort()
		return x.wait(cause)
	}
	_, rerr = x.request(storeSaves, "delete", saveID)
	return x.wait(rerr)
}
