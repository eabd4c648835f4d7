//go:build js && wasm

package idb

import (
	"context"
	"encoding/json"
	"math"

	"github.com/hack-pad/safejs"
	"github.com/storyloom/storyloom/engine/session"
)

// Records is the IndexedDB session.RecordStore. A record is kept as an
// object {rec, blob, blobNil[, profileId][, tail]}: rec is the record's
// JSON without its blob, blob the blob's bytes as a Uint8Array (a blob
// need not be text), and profileId, on saves, what the profile index
// reads. A segmented session (rec carries "log") keeps its checkpoint in
// blob, its tail in tail and each closed segment as an object {seq, count,
// sum, entries} in the segments store under [sessionId, index]: an action
// rewrites the small session object and adds at most one segment.
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
	obj, err := newObject()
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
	x, err := r.db.begin(op, "readonly", storeSessions, storeSegments)
	if err != nil {
		return session.SessionRecord{}, false, err
	}
	v, rerr := x.request(storeSessions, "get", sessionID)
	var segs safejs.Value
	if rerr == nil && present(v) {
		if rng, kerr := segmentRange(sessionID, 0); kerr != nil {
			x.abort()
			rerr = jsError(op, kerr)
		} else {
			segs, rerr = x.request(storeSegments, "getAll", rng)
		}
	}
	if err := x.wait(rerr); err != nil {
		return session.SessionRecord{}, false, err
	}
	if !present(v) {
		return session.SessionRecord{}, false, nil
	}
	var rec session.SessionRecord
	blob, err := decodeRecord(v, &rec)
	if err == nil && rec.Log != nil {
		err = decodeLog(v, segs, rec.Log, blob)
		blob = nil
	}
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
	var segs []session.Segment
	if rec.Log != nil {
		blob, segs = rec.Log.Checkpoint, rec.Log.Segments
	}
	rec.Blob = nil
	obj, err := encodeRecord(rec, blob, nil)
	if err == nil && rec.Log != nil {
		err = setBytes(obj, "tail", rec.Log.Tail)
	}
	if err != nil {
		return jsError(op, err)
	}
	x, err := r.db.begin(op, "readwrite", storeSessions, storeSegments)
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
	if rerr == nil {
		rerr = putSegments(x, rec.SessionID, segs)
	}
	return x.wait(rerr)
}

// segmentRange is the key range of a session's segments from index from.
func segmentRange(sessionID string, from int) (safejs.Value, error) {
	kr, err := safejs.Global().Get("IDBKeyRange")
	if err != nil {
		return safejs.Value{}, err
	}
	return kr.Call("bound", []any{sessionID, from}, []any{sessionID, math.MaxInt32})
}

// putSegments brings the session's stored segments level with segs, in
// x: the session store only ever extends them, so it adds those past the
// stored count (and drops any stored beyond segs).
func putSegments(x *tx, sessionID string, segs []session.Segment) error {
	all, err := segmentRange(sessionID, 0)
	if err != nil {
		x.abort()
		return jsError(x.op, err)
	}
	n, err := x.request(storeSegments, "count", all)
	if err != nil {
		return err
	}
	have, err := n.Int()
	if err != nil {
		x.abort()
		return jsError(x.op, err)
	}
	if have > len(segs) {
		extra, err := segmentRange(sessionID, len(segs))
		if err != nil {
			x.abort()
			return jsError(x.op, err)
		}
		if _, err := x.request(storeSegments, "delete", extra); err != nil {
			return err
		}
		have = len(segs)
	}
	for i := have; i < len(segs); i++ {
		obj, err := segmentObject(segs[i])
		if err != nil {
			x.abort()
			return jsError(x.op, err)
		}
		if _, err := x.request(storeSegments, "put", obj, []any{sessionID, i}); err != nil {
			return err
		}
	}
	return nil
}

// newObject returns a new empty JavaScript object.
func newObject() (safejs.Value, error) {
	ctor, err := safejs.Global().Get("Object")
	if err != nil {
		return safejs.Value{}, err
	}
	return ctor.New()
}

// segmentObject is the stored object of one segment.
func segmentObject(seg session.Segment) (safejs.Value, error) {
	obj, err := newObject()
	if err != nil {
		return safejs.Value{}, err
	}
	for k, v := range map[string]any{"seq": seg.Seq, "count": seg.Count, "sum": seg.Sum} {
		if err := obj.Set(k, v); err != nil {
			return safejs.Value{}, err
		}
	}
	return obj, setBytes(obj, "entries", seg.Entries)
}

// setBytes sets obj[key] to a Uint8Array copy of b.
func setBytes(obj safejs.Value, key string, b []byte) error {
	arr, err := bytesToJS(b)
	if err != nil {
		return err
	}
	return obj.Set(key, arr)
}

// decodeLog fills a segmented session's log from its stored object v, its
// segments' objects segs and its checkpoint.
func decodeLog(v, segs safejs.Value, l *session.SessionLog, checkpoint []byte) error {
	l.Checkpoint = checkpoint
	tail, err := v.Get("tail")
	if err != nil {
		return err
	}
	if l.Tail, err = bytesFromJS(tail); err != nil {
		return err
	}
	n, err := segs.Length()
	if err != nil {
		return err
	}
	l.Segments = make([]session.Segment, n)
	for i := range l.Segments {
		o, err := segs.Index(i)
		if err != nil {
			return err
		}
		seg := &l.Segments[i]
		for _, f := range []struct {
			key string
			dst *int
		}{{"seq", &seg.Seq}, {"count", &seg.Count}} {
			x, err := o.Get(f.key)
			if err != nil {
				return err
			}
			if *f.dst, err = x.Int(); err != nil {
				return err
			}
		}
		sum, err := o.Get("sum")
		if err != nil {
			return err
		}
		if seg.Sum, err = sum.String(); err != nil {
			return err
		}
		entries, err := o.Get("entries")
		if err != nil {
			return err
		}
		if seg.Entries, err = bytesFromJS(entries); err != nil {
			return err
		}
	}
	return nil
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

// PutSave implements session.RecordStore. A save is stored whole: one
// that holds its log in segments (session.SaveLog) is stored as its
// Document.
func (r *Records) PutSave(_ context.Context, rec session.SaveRecord) error {
	const op = "PutSave"
	rec, err := rec.Flat()
	if err != nil {
		return jsError(op, err)
	}
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
