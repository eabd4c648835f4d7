package session

import (
	"bytes"
	"sync"

	"github.com/storyloom/storyloom/engine/core"
)

// keepVerifiedSaves is how many save documents a store remembers having
// written or checked (verifiedSaves).
const keepVerifiedSaves = 4

// verifiedSaves remembers the last few save documents a store wrote
// (SaveGame) or checked in full and loaded without a migration (LoadGame),
// with what reading one yields: its envelope, its state and the running
// checksum of its log. A load of a document equal to one of them, byte for
// byte, is that document: its checksum, its header and the cross-checks
// pass as they did, and its state reads as the one remembered, so the
// load compares bytes (no work at all when the record store hands back
// the very bytes it was given, as the memory stores do) instead of hashing
// and reading the whole game again. Nothing is taken on trust from the
// record: a document that differs in any byte is opened and checked in
// full, and what the engine decides at a load (whether the save's epoch is
// still held and its kind unchanged) is asked again every time.
type verifiedSaves struct {
	mu   sync.Mutex
	list []*verifiedSave // oldest first
}

// verifiedSave is one remembered save document. Like a cached session it
// is replaced, never changed.
type verifiedSave struct {
	// blob and log are the record's Blob and Log.
	blob []byte
	log  *SaveLog
	// env is the envelope the record holds; its State is the canonical
	// state, within blob, for a save held whole (log nil), and nil for
	// one that holds its log in segments.
	env SaveEnvelope
	// saved is the state as a new session's log takes it.
	saved savedState
	// state is what env.State reads as on an engine that holds its epoch
	// and kind version.
	state *core.GameState
	// sum is the running checksum of env.State's log, with its logEnd.
	sum runningChecksum
	// once is set on a save's own state (SaveGame), which is handed out
	// to one load and then forgotten: its log's entries are held in memory
	// and the saving session may go on appending to them, so a second
	// session extending the same log would copy them (core.Log.Append).
	// A state read from a save's bytes keeps its log as those bytes and is
	// shared by every load.
	once bool
}

// savedState is a loaded save's canonical state as a new session's log
// takes it: closed, the segments the save shares with the session that
// took it (none for a save held whole), and state, the canonical state
// whose log holds the entries after them.
type savedState struct {
	closed []Segment
	state  []byte
}

// add remembers v, forgetting the oldest beyond keepVerifiedSaves.
func (vs *verifiedSaves) add(v *verifiedSave) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if len(vs.list) == keepVerifiedSaves {
		copy(vs.list, vs.list[1:])
		vs.list = vs.list[:len(vs.list)-1]
	}
	vs.list = append(vs.list, v)
}

// find returns the remembered save whose document is rec's, byte for
// byte, or nil, forgetting it when it is to be handed out once.
func (vs *verifiedSaves) find(rec SaveRecord) *verifiedSave {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for i := len(vs.list) - 1; i >= 0; i-- {
		v := vs.list[i]
		same := sameBytes(v.blob, rec.Blob) && sameLog(v.log, rec.Log)
		if !same && v.log != nil && rec.Log == nil {
			// A store that keeps saves whole (SQLite, IndexedDB) hands
			// back the Document of the record it was given.
			same = sameDocument(rec.Blob, v.blob, v.log)
		}
		if same {
			if v.once {
				vs.list = append(vs.list[:i], vs.list[i+1:]...)
			}
			return v
		}
	}
	return nil
}

// whole returns v's state as doc, v's Document held whole (sameDocument),
// holds it, with the running checksum of its log: a session loaded from
// it takes its log as one segment, written as one row or object, as from
// any save held whole.
func (v *verifiedSave) whole(doc []byte) (*savedState, *runningChecksum) {
	at, _ := emptiedLogAt(v.blob) // sameDocument found it
	start := at - len(logStart)
	sum := v.sum
	sum.logEnd = len(doc) - (len(v.blob) - at) - start
	return &savedState{state: doc[start : len(doc)-1 : len(doc)-1]}, &sum
}

// sameBytes reports whether a and b are equal, comparing nothing when
// they are the same bytes (a record store that keeps what it was given
// hands them back).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0] || bytes.Equal(a, b))
}

// sameLog reports whether two save logs hold the same entries, the same
// way: then records with equal Blobs have equal Documents.
func sameLog(a, b *SaveLog) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.TailCount != b.TailCount || !sameBytes(a.Tail, b.Tail) || len(a.Segments) != len(b.Segments) {
		return false
	}
	for i, x := range a.Segments {
		y := b.Segments[i]
		if x.Seq != y.Seq || x.Count != y.Count || x.Sum != y.Sum || !sameBytes(x.Entries, y.Entries) {
			return false
		}
	}
	return true
}

// openSave opens a save record's document and resolves its state against
// the engine (openEnvelope, resolveEnvelope), or, for a record whose
// document equals one this store remembers (verifiedSaves) and whose epoch
// and kind version the engine still holds as they were, returns what
// opening it gave. compatible is the loaded lineage's replay
// compatibility, saved the state as a new session takes it when nothing
// migrated (nil otherwise), and sum the running checksum of its log when
// verifying computed one.
func (s *Store) openSave(op string, rec SaveRecord) (env SaveEnvelope, st *core.GameState, compatible bool, saved *savedState, sum *runningChecksum, err *Error) {
	if v := s.verified.find(rec); v != nil && s.loadsAsMade(v.env) {
		saved, sum := &v.saved, &v.sum
		if v.log != nil && rec.Log == nil {
			saved, sum = v.whole(rec.Blob)
		}
		return v.env, v.state, v.env.ReplayCompatible, saved, sum, nil
	}
	doc, derr := rec.Document()
	if derr != nil {
		return SaveEnvelope{}, nil, false, nil, nil, errorf(op, core.ReasonInvalidState, "save %q is damaged: %v", rec.SaveID, derr)
	}
	env, sum, err = openEnvelope(doc)
	if err != nil {
		err.Op = op
		return SaveEnvelope{}, nil, false, nil, nil, err
	}
	st, compatible, serialized, err := resolveEnvelope(op, s.engine, env)
	if err != nil {
		return SaveEnvelope{}, nil, false, nil, nil, err
	}
	if serialized == nil {
		return env, st, compatible, nil, sum, nil
	}
	v := &verifiedSave{blob: rec.Blob, log: rec.Log, env: env, saved: savedState{state: serialized}, state: st}
	if sum != nil && sum.logEnd > 0 {
		v.sum = *sum
		s.verified.add(v)
	}
	return env, st, compatible, &v.saved, sum, nil
}

// loadsAsMade reports whether a save with this envelope loads on the
// engine without a migration: its kind is registered at the version that
// wrote it and its epoch is held (core.Engine.MigrateSave's conditions).
func (s *Store) loadsAsMade(env SaveEnvelope) bool {
	k := s.engine.Kind(env.KindID)
	return k != nil && k.Version() == env.KindVersion && s.holds(env.CampaignID, env.CampaignVersion)
}
