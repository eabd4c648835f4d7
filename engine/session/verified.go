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
	blob []byte
	// env is the envelope blob holds; its State is the canonical state,
	// within blob.
	env SaveEnvelope
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

// find returns the remembered document equal to blob, or nil, forgetting
// it when it is to be handed out once.
func (vs *verifiedSaves) find(blob []byte) *verifiedSave {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for i := len(vs.list) - 1; i >= 0; i-- {
		if v := vs.list[i]; len(v.blob) == len(blob) && bytes.Equal(v.blob, blob) {
			if v.once {
				vs.list = append(vs.list[:i], vs.list[i+1:]...)
			}
			return v
		}
	}
	return nil
}

// openSave opens a save document and resolves its state against the
// engine (openEnvelope, resolveEnvelope), or, for a document equal to one
// this store remembers (verifiedSaves) whose epoch and kind version the
// engine still holds as they were, returns what opening it gave. compatible
// is the loaded lineage's replay compatibility, serialized the state's
// canonical form when nothing migrated, and sum the running checksum of
// its log when verifying computed one.
func (s *Store) openSave(op string, blob []byte) (env SaveEnvelope, st *core.GameState, compatible bool, serialized []byte, sum *runningChecksum, err *Error) {
	if v := s.verified.find(blob); v != nil && s.loadsAsMade(v.env) {
		return v.env, v.state, v.env.ReplayCompatible, v.env.State, &v.sum, nil
	}
	env, sum, err = openEnvelope(blob)
	if err != nil {
		err.Op = op
		return SaveEnvelope{}, nil, false, nil, nil, err
	}
	st, compatible, serialized, err = resolveEnvelope(op, s.engine, env)
	if err != nil {
		return SaveEnvelope{}, nil, false, nil, nil, err
	}
	if serialized != nil && sum != nil && sum.logEnd > 0 {
		s.verified.add(&verifiedSave{blob: blob, env: env, state: st, sum: *sum})
	}
	return env, st, compatible, serialized, sum, nil
}

// loadsAsMade reports whether a save with this envelope loads on the
// engine without a migration: its kind is registered at the version that
// wrote it and its epoch is held (core.Engine.MigrateSave's conditions).
func (s *Store) loadsAsMade(env SaveEnvelope) bool {
	k := s.engine.Kind(env.KindID)
	return k != nil && k.Version() == env.KindVersion && s.holds(env.CampaignID, env.CampaignVersion)
}
