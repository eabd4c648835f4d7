// Package hostingdb is the native host's SQLite implementation of
// hosting.Store (modernc.org/sqlite, WAL mode): one table of versioned
// records, each Commit one transaction whose every write checks the
// version it expects, so a conflicting write fails whole and never
// overwrites. bundle serve (through bundle/nativehost) keeps its rooms,
// seats, games and Freeport instances in it across restarts.
package hostingdb
