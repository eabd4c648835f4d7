// Package sqlitefile opens the SQLite files the native host keeps its
// records in (bundle/hostingdb, bundle/sessiondb), one way: durable, in
// WAL mode with synchronous=FULL (a commit returns only once it is synced
// to disk; docs/hosting.md, "Durability"), writers waiting for each other
// rather than failing, over one connection.
package sqlitefile

import (
	"database/sql"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Open opens (creating it if needed) the database file at path with the
// pragmas every store takes, and more (such as "foreign_keys(ON)"), and
// runs schema on it. Transactions take the write lock when they begin
// (BEGIN IMMEDIATE), and a writer waits up to 10 s for another. It fails
// unless the file is in WAL mode. Its errors do not name a package: the
// store's Open says whose database it is.
func Open(path, schema string, more ...string) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range append([]string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)"}, more...) {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One connection: SQLite serializes writers anyway, and a single
	// connection keeps every statement's view of the database current.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("schema: %w", err)
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		db.Close()
		return nil, fmt.Errorf("%s is not in WAL mode (%q, %v)", path, mode, err)
	}
	return db, nil
}
