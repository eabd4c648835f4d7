//go:build js && wasm

package idb

import (
	"errors"
	"fmt"

	"github.com/hack-pad/safejs"
)

// Object store names.
const (
	storeSessions = "sessions"
	storeSegments = "segments"
	storeSaves    = "saves"
	storeProfiles = "profiles"
	storeMeta     = "meta"
	indexProfile  = "profileId"
)

// schemaVersion is the IndexedDB version of the database's layout: 2 adds
// the segments store, where a session's closed log segments are kept
// under [sessionId, index] (version 1 kept a session's whole game in its
// record, which still reads).
const schemaVersion = 2

// DB is an open Storyloom database. It is safe for concurrent use: every
// call runs in its own IndexedDB transaction.
type DB struct {
	name string
	db   safejs.Value
}

// Error is a failed IndexedDB call: the DOMException's name (such as
// QuotaExceededError, InvalidStateError or UnknownError) and its message.
type Error struct {
	Op      string
	Name    string
	Message string
}

// Error renders the failure as "idb: <op>: <name>: <message>".
func (e *Error) Error() string {
	return fmt.Sprintf("idb: %s: %s: %s", e.Op, e.Name, e.Message)
}

// IsQuota reports whether err is, or wraps, an IndexedDB quota failure: the
// browser refused the write for lack of space.
func IsQuota(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Name == "QuotaExceededError"
}

// domError turns a DOMException (or anything thrown) into an *Error.
func domError(op string, v safejs.Value) *Error {
	e := &Error{Op: op, Name: "UnknownError", Message: "unknown failure"}
	if v.IsNull() || v.IsUndefined() {
		return e
	}
	if n, err := v.Get("name"); err == nil && n.Type() == safejs.TypeString {
		e.Name, _ = n.String()
	}
	if m, err := v.Get("message"); err == nil && m.Type() == safejs.TypeString {
		e.Message, _ = m.String()
	}
	return e
}

// jsError wraps a Go-side error calling into JavaScript.
func jsError(op string, err error) *Error {
	return &Error{Op: op, Name: "JSError", Message: err.Error()}
}

// Open opens (creating or upgrading when needed) the database name.
func Open(name string) (*DB, error) {
	const op = "open"
	factory, err := safejs.Global().Get("indexedDB")
	if err != nil {
		return nil, jsError(op, err)
	}
	if factory.IsUndefined() || factory.IsNull() {
		return nil, &Error{Op: op, Name: "NotSupportedError", Message: "this browser offers no IndexedDB"}
	}
	req, err := factory.Call("open", name, schemaVersion)
	if err != nil {
		return nil, jsError(op, err)
	}
	upgrade, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		db, err := req.Get("result")
		if err != nil {
			return nil
		}
		createStores(db)
		return nil
	})
	if err != nil {
		return nil, jsError(op, err)
	}
	defer upgrade.Release()
	if err := req.Set("onupgradeneeded", upgrade); err != nil {
		return nil, jsError(op, err)
	}
	blocked, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { return nil })
	if err != nil {
		return nil, jsError(op, err)
	}
	defer blocked.Release()
	_ = req.Set("onblocked", blocked)
	db, err := await(op, req)
	if err != nil {
		return nil, err
	}
	return &DB{name: name, db: db}, nil
}

// createStores lays out a new database; it runs inside versionchange.
func createStores(db safejs.Value) {
	names, _ := db.Get("objectStoreNames")
	has := func(n string) bool {
		ok, err := names.Call("contains", n)
		if err != nil {
			return false
		}
		b, _ := ok.Bool()
		return b
	}
	for _, n := range []string{storeSessions, storeSegments, storeProfiles, storeMeta} {
		if !has(n) {
			_, _ = db.Call("createObjectStore", n)
		}
	}
	if !has(storeSaves) {
		saves, err := db.Call("createObjectStore", storeSaves)
		if err == nil {
			_, _ = saves.Call("createIndex", indexProfile, indexProfile, map[string]any{"unique": false})
		}
	}
}

// Close closes the connection. Calls after Close fail.
func (d *DB) Close() {
	_, _ = d.db.Call("close")
}

// Name returns the database's name.
func (d *DB) Name() string { return d.name }

// Delete removes the database name and everything in it. Open connections
// must be closed first.
func Delete(name string) error {
	const op = "deleteDatabase"
	factory, err := safejs.Global().Get("indexedDB")
	if err != nil {
		return jsError(op, err)
	}
	req, err := factory.Call("deleteDatabase", name)
	if err != nil {
		return jsError(op, err)
	}
	_, err = await(op, req)
	return err
}

// await blocks until the IDBRequest req succeeds, returning its result, or
// fails.
func await(op string, req safejs.Value) (safejs.Value, error) {
	type outcome struct {
		v   safejs.Value
		err error
	}
	ch := make(chan outcome, 1)
	ok, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		v, err := req.Get("result")
		if err != nil {
			ch <- outcome{err: jsError(op, err)}
			return nil
		}
		ch <- outcome{v: v}
		return nil
	})
	if err != nil {
		return safejs.Value{}, jsError(op, err)
	}
	defer ok.Release()
	fail, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		// The failed request aborts its transaction as well (the default
		// action is left alone), so nothing half-written commits.
		e, _ := req.Get("error")
		ch <- outcome{err: domError(op, e)}
		return nil
	})
	if err != nil {
		return safejs.Value{}, jsError(op, err)
	}
	defer fail.Release()
	if err := req.Set("onsuccess", ok); err != nil {
		return safejs.Value{}, jsError(op, err)
	}
	if err := req.Set("onerror", fail); err != nil {
		return safejs.Value{}, jsError(op, err)
	}
	out := <-ch
	_ = req.Set("onsuccess", safejs.Null())
	_ = req.Set("onerror", safejs.Null())
	return out.v, out.err
}

// tx is one transaction and the channel its end is reported on.
type tx struct {
	op   string
	t    safejs.Value
	done chan error
	fns  []safejs.Func
}

// begin starts a transaction over stores; mode is "readonly" or
// "readwrite".
func (d *DB) begin(op, mode string, stores ...string) (*tx, error) {
	list := make([]any, len(stores))
	for i, s := range stores {
		list[i] = s
	}
	// Relaxed durability (the browser's default in Chromium, asked for
	// explicitly): a commit is reported once the write is in the
	// database, without waiting for the disk to flush. A crash of the
	// whole machine in that instant could lose the last autosave; a closed
	// tab or a reload cannot.
	t, err := d.db.Call("transaction", list, mode, map[string]any{"durability": "relaxed"})
	if err != nil {
		return nil, jsError(op, err)
	}
	x := &tx{op: op, t: t, done: make(chan error, 1)}
	finish := func(failed bool) func(safejs.Value, []safejs.Value) any {
		return func(safejs.Value, []safejs.Value) any {
			if !failed {
				x.done <- nil
				return nil
			}
			e, _ := t.Get("error")
			x.done <- domError(op, e)
			return nil
		}
	}
	for _, h := range []struct {
		event  string
		failed bool
	}{{"oncomplete", false}, {"onabort", true}} {
		fn, err := safejs.FuncOf(finish(h.failed))
		if err != nil {
			x.release()
			return nil, jsError(op, err)
		}
		x.fns = append(x.fns, fn)
		if err := t.Set(h.event, fn); err != nil {
			x.release()
			return nil, jsError(op, err)
		}
	}
	return x, nil
}

// store returns the transaction's object store name.
func (x *tx) store(name string) (safejs.Value, error) {
	s, err := x.t.Call("objectStore", name)
	if err != nil {
		return safejs.Value{}, jsError(x.op, err)
	}
	return s, nil
}

// request issues method on store name and waits for its result.
func (x *tx) request(name, method string, args ...any) (safejs.Value, error) {
	s, err := x.store(name)
	if err != nil {
		return safejs.Value{}, err
	}
	req, err := s.Call(method, args...)
	if err != nil {
		// A synchronous throw (DataError, a closed database) aborts nothing
		// by itself: abort so that wait reports and nothing half-written
		// commits.
		x.abort()
		return safejs.Value{}, jsError(x.op, err)
	}
	return await(x.op, req)
}

// abort aborts the transaction; wait then reports its end.
func (x *tx) abort() {
	_, _ = x.t.Call("abort")
}

// wait blocks until the transaction commits or aborts and releases its
// handlers. It returns the abort's error, or cause when the caller aborted
// for a reason of its own.
func (x *tx) wait(cause error) error {
	err := <-x.done
	x.release()
	if cause != nil {
		return cause
	}
	return err
}

func (x *tx) release() {
	_ = x.t.Set("oncomplete", safejs.Null())
	_ = x.t.Set("onabort", safejs.Null())
	for _, f := range x.fns {
		f.Release()
	}
	x.fns = nil
}

// bytesToJS copies b into a new Uint8Array.
func bytesToJS(b []byte) (safejs.Value, error) {
	ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return safejs.Value{}, err
	}
	arr, err := ctor.New(len(b))
	if err != nil {
		return safejs.Value{}, err
	}
	if len(b) > 0 {
		if _, err := safejs.CopyBytesToJS(arr, b); err != nil {
			return safejs.Value{}, err
		}
	}
	return arr, nil
}

// bytesFromJS copies a Uint8Array into a new slice.
func bytesFromJS(v safejs.Value) ([]byte, error) {
	n, err := v.Length()
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if n > 0 {
		if _, err := safejs.CopyBytesToGo(b, v); err != nil {
			return nil, err
		}
	}
	return b, nil
}
