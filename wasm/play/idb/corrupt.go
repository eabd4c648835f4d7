//go:build js && wasm

package idb

import (
	"context"
	"errors"
	"fmt"

	"github.com/hack-pad/safejs"
	"github.com/storyloom/storyloom/engine/session"
)

// CorruptError is a stored session or save record that cannot be read: not
// the object Records writes, or one whose record JSON or blob does not
// decode. The record is left where it is; Corrupt lists it and
// DeleteCorrupt removes it.
type CorruptError struct {
	// Store is "sessions" or "saves".
	Store string
	// ID is the record's key: a session or save id.
	ID string
	// Reason says what could not be read.
	Reason string
}

// Error renders the failure as `idb: the stored save "x" is corrupt: …`.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("idb: the stored %s %q is corrupt: %s", storeNoun(e.Store), e.ID, e.Reason)
}

// storeNoun is what one record of a store is called.
func storeNoun(store string) string {
	if store == storeSaves {
		return "save"
	}
	return "session"
}

// IsCorrupt reports whether err is, or wraps, a *CorruptError.
func IsCorrupt(err error) bool {
	var c *CorruptError
	return errors.As(err, &c)
}

// corrupt wraps a decoding failure of the record id of store.
func corrupt(store, id string, err error) *CorruptError {
	return &CorruptError{Store: store, ID: id, Reason: err.Error()}
}

// CorruptRecord is one unreadable record Corrupt found, with what it
// holds rendered as text so that it can be kept as a file.
type CorruptRecord struct {
	Store   string `json:"store"`
	ID      string `json:"id"`
	Message string `json:"message"`
	// Raw is the stored value as JSON.stringify renders it (a Uint8Array
	// as an object of its bytes), or a note when even that fails.
	Raw string `json:"-"`
}

// Corrupt reads every record of the sessions and saves stores and returns
// those that do not decode, in store then key order.
func (r *Records) Corrupt(_ context.Context) ([]CorruptRecord, error) {
	const op = "Corrupt"
	out := []CorruptRecord{}
	for _, store := range []string{storeSessions, storeSaves} {
		x, err := r.db.begin(op, "readonly", store)
		if err != nil {
			return nil, err
		}
		keys, kerr := x.request(store, "getAllKeys")
		if kerr != nil {
			return nil, x.wait(kerr)
		}
		vals, verr := x.request(store, "getAll")
		if err := x.wait(verr); err != nil {
			return nil, err
		}
		n, err := keys.Length()
		if err != nil {
			return nil, jsError(op, err)
		}
		for i := 0; i < n; i++ {
			k, _ := keys.Index(i)
			v, _ := vals.Index(i)
			id, _ := k.String()
			var derr error
			if store == storeSaves {
				var rec session.SaveRecord
				_, derr = decodeRecord(v, &rec)
			} else {
				var rec session.SessionRecord
				_, derr = decodeRecord(v, &rec)
			}
			if derr != nil {
				c := corrupt(store, id, derr)
				out = append(out, CorruptRecord{Store: store, ID: id, Message: c.Error(), Raw: stringify(v)})
			}
		}
	}
	return out, nil
}

// stringify is JSON.stringify(v).
func stringify(v safejs.Value) string {
	j, err := safejs.Global().Get("JSON")
	if err == nil {
		if s, err := j.Call("stringify", v); err == nil && s.Type() == safejs.TypeString {
			text, _ := s.String()
			return text
		}
	}
	return `"(the record could not be rendered as JSON)"`
}

// DeleteCorrupt deletes the record id of store ("sessions" or "saves")
// when it is corrupt, in one readwrite transaction; a record that reads
// is left alone (session.ErrConflict), and a missing one is
// session.ErrNotFound.
func (r *Records) DeleteCorrupt(_ context.Context, store, id string) error {
	const op = "DeleteCorrupt"
	if store != storeSessions && store != storeSaves {
		return fmt.Errorf("idb: %s: no store %q", op, store)
	}
	x, err := r.db.begin(op, "readwrite", store, storeSegments)
	if err != nil {
		return err
	}
	v, rerr := x.request(store, "get", id)
	if rerr != nil {
		return x.wait(rerr)
	}
	var cause error
	switch {
	case !present(v):
		cause = session.ErrNotFound
	case store == storeSaves:
		var rec session.SaveRecord
		if _, derr := decodeRecord(v, &rec); derr == nil {
			cause = session.ErrConflict
		}
	default:
		var rec session.SessionRecord
		if _, derr := decodeRecord(v, &rec); derr == nil {
			cause = session.ErrConflict
		}
	}
	if cause != nil {
		x.abort()
		return x.wait(cause)
	}
	_, rerr = x.request(store, "delete", id)
	if rerr == nil && store == storeSessions {
		rerr = putSegments(x, id, nil) // its segments go with it
	}
	return x.wait(rerr)
}
