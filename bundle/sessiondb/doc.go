// Package sessiondb is the native host's persistence for the session
// store: a session.RecordStore and a session.ProfileStore on one SQLite
// database (modernc.org/sqlite, pure Go, no cgo) in WAL mode. A session's
// game is kept in segments (docs/session-store.md): its checkpoint and
// tail in its sessions row, each closed segment as a row of
// session_segments, which a write adds to and never rewrites. The session
// revision compare-and-set (with the segments it adds, in one
// transaction) and the conditional save delete are guarded in SQL, so
// several processes over one database detect each other's writes. It also keeps every campaign epoch the host published (Epochs,
// PutEpoch), so a restarted host still plays games made on older content.
// It passes the engine/session/conformance suite, and is what
// `make play` and the MCP server use.
package sessiondb
