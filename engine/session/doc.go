// Package session is Storyloom's session store (§7 of the core
// specification): the thin stateful layer every host calls, above the pure
// engine. It keeps games as serialized envelopes keyed by session id, takes
// and loads saves (§10.2), lists, branches and deletes them (§7.4), mirrors
// achievements, endings and kind-owned cross-game data into a player's
// profile (§7.1), lists the campaign catalog (§7.3), and offers new content
// to running sessions at the four adoption points (§7).
//
// The package does no I/O of its own. A host supplies it through
// interfaces: a RecordStore for session and save records (§7.2), a
// ProfileStore for profiles, a Clock for timestamps and a RecordIDSource for
// session and save ids, and optionally a ContentChannel. NewMemoryRecords and
// NewMemoryProfiles are in-memory implementations; bundle/sessiondb is the
// native one, and package conformance holds the suite every RecordStore
// passes.
//
// Locking follows §7: one lock per session id, one per profile id and one
// per save id, each a plain mutex, so different sessions never wait for each
// other. The package starts no goroutines. Across several Store instances
// over one database, the record store's revision compare-and-set is what
// detects a lost update; the store reports it as concurrent_modification.
//
// docs/session-store.md describes the shape of the store and sketches a
// save, a load after a content update and a branch.
package session
