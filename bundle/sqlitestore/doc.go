// Package sqlitestore is the native host's persistence for the session
// store: a session.RecordStore and a session.ProfileStore on one SQLite
// database (modernc.org/sqlite, pure Go, no cgo) in WAL mode. The session
// revision compare-and-set and the conditional save delete are single SQL
// statements, so several processes over one database detect each other's
// writes. It also keeps every campaign epoch the host published (Epochs,
// PutEpoch), so a restarted host still plays games made on older content.
// It passes the engine/session/conformance suite, and is what
// `make play` and the MCP server use.
package sqlitestore
