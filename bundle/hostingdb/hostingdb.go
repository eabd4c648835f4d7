package hostingdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/sqlitefile"
)

// Store is a SQLite-backed hosting.Store. It is safe for concurrent use.
type Store struct {
	db *sql.DB
	// Statements prepared once: the host runs them on every batch.
	load, insert, update, remove *sql.Stmt
}

var _ hosting.Store = (*Store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS records (
	key     TEXT PRIMARY KEY,
	version INTEGER NOT NULL,
	data    BLOB NOT NULL
) WITHOUT ROWID;
`

// Open opens (creating it and its directory if needed) the database at
// path with its schema, in WAL mode with synchronous=FULL (as
// bundle/sqlitefile opens every store): a Commit returns only once its
// transaction is synced to disk, so what the host acknowledges after it
// survives a power cut (the host's group commit shares one sync among a
// batch of requests; docs/hosting.md).
func Open(path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("hostingdb: %w", err)
		}
	}
	db, err := sqlitefile.Open(path, schema)
	if err != nil {
		return nil, fmt.Errorf("hostingdb: %w", err)
	}
	s := &Store{db: db}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.load, `SELECT version, data FROM records WHERE key = ?`},
		{&s.insert, `INSERT INTO records (key, version, data) VALUES (?, 1, ?) ON CONFLICT (key) DO NOTHING`},
		{&s.update, `UPDATE records SET data = ?, version = version + 1 WHERE key = ? AND version = ?`},
		{&s.remove, `DELETE FROM records WHERE key = ? AND version = ?`},
	} {
		if *p.stmt, err = db.Prepare(p.sql); err != nil {
			db.Close()
			return nil, fmt.Errorf("hostingdb: prepare: %w", err)
		}
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Load implements hosting.Store.
func (s *Store) Load(ctx context.Context, key string) (hosting.Record, error) {
	r := hosting.Record{Key: key}
	err := s.load.QueryRowContext(ctx, key).Scan(&r.Version, &r.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return hosting.Record{Key: key}, nil
	}
	if err != nil {
		return r, fmt.Errorf("hostingdb: load %s: %w", key, err)
	}
	return r, nil
}

// List implements hosting.Store.
func (s *Store) List(ctx context.Context, prefix string) ([]hosting.Record, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT key, version, data FROM records WHERE key >= ? AND key < ? ORDER BY key`, prefix, prefix+"\U0010FFFF")
	if err != nil {
		return nil, fmt.Errorf("hostingdb: list %s: %w", prefix, err)
	}
	defer rows.Close()
	var out []hosting.Record
	for rows.Next() {
		var r hosting.Record
		if err := rows.Scan(&r.Key, &r.Version, &r.Data); err != nil {
			return nil, fmt.Errorf("hostingdb: list %s: %w", prefix, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("hostingdb: list %s: %w", prefix, err)
	}
	return out, nil
}

// Commit implements hosting.Store: one transaction in which each write
// affects exactly one row or the whole transaction rolls back with
// hosting.ErrConflict.
func (s *Store) Commit(ctx context.Context, writes []hosting.Write) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("hostingdb: begin: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	for _, w := range writes {
		var res sql.Result
		switch {
		case w.Data == nil:
			res, err = tx.StmtContext(ctx, s.remove).ExecContext(ctx, w.Key, w.Version)
		case w.Version == 0:
			res, err = tx.StmtContext(ctx, s.insert).ExecContext(ctx, w.Key, w.Data)
		default:
			res, err = tx.StmtContext(ctx, s.update).ExecContext(ctx, w.Data, w.Key, w.Version)
		}
		if err != nil {
			return fmt.Errorf("hostingdb: write %s: %w", w.Key, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return hosting.ErrConflict
		}
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("hostingdb: commit: %w", err)
	}
	return nil
}
