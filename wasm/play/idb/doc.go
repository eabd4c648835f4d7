//go:build js && wasm

// Package idb keeps Storyloom's session records, saves and player profiles
// in the browser's IndexedDB, so that they survive reloads and browser
// restarts. Records implements session.RecordStore and Profiles implements
// session.ProfileStore; both are reached from Go through
// github.com/hack-pad/safejs, without any JavaScript of their own.
//
// One database holds five object stores: sessions (by session id), segments
// (a session's closed log segments, by [session id, index]), saves
// (by save id, indexed by profile id), profiles (by profile id, the
// canonical document session.EncodeProfile writes) and meta (small JSON
// documents the browser bridge keeps beside the records: slot names, the
// last session of each campaign).
//
// A compare-and-set (PutSession, DeleteSave) reads and writes inside one
// readwrite transaction. The Go goroutine waiting on a request resumes
// before control returns to JavaScript (the js/wasm runtime runs every
// ready goroutine before it leaves an event handler), so the transaction is
// still active when the write is issued. Every write waits for its
// transaction to commit, so a quota failure, which IndexedDB reports as an
// aborted transaction, is an error of the call that caused it.
//
// Every call blocks its goroutine until IndexedDB answers; call it from a
// goroutine of its own, never from inside a JavaScript callback.
package idb
