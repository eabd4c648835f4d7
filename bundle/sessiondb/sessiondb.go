package sessiondb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/storyloom/storyloom/bundle/sqlitefile"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/session"
)

// Store is a SQLite-backed session.RecordStore and session.ProfileStore.
// It is safe for concurrent use.
type Store struct {
	db *sql.DB
}

var (
	_ session.RecordStore  = (*Store)(nil)
	_ session.ProfileStore = (*Store)(nil)
)

const schema = `
CREATE TABLE IF NOT EXISTS sessions (
	session_id TEXT PRIMARY KEY,
	revision   INTEGER NOT NULL,
	record     BLOB NOT NULL,
	blob       BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS session_segments (
	session_id TEXT NOT NULL,
	idx        INTEGER NOT NULL,
	seq        INTEGER NOT NULL,
	count      INTEGER NOT NULL,
	sum        TEXT NOT NULL,
	entries    BLOB NOT NULL,
	PRIMARY KEY (session_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS saves (
	save_id    TEXT PRIMARY KEY,
	profile_id TEXT,
	saved_at   TEXT NOT NULL,
	record     BLOB NOT NULL,
	blob       BLOB NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS saves_by_profile ON saves(profile_id);
CREATE TABLE IF NOT EXISTS profiles (
	profile_id TEXT PRIMARY KEY,
	document   BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS epochs (
	campaign_id      TEXT NOT NULL,
	campaign_version TEXT NOT NULL,
	stored           BLOB NOT NULL,
	PRIMARY KEY (campaign_id, campaign_version)
) WITHOUT ROWID;
`

// Open opens (creating if needed) the database at path with its schema,
// in WAL mode with synchronous=FULL (as bundle/sqlitefile opens every
// store): a write returns only once it is synced to disk, so an
// acknowledged save or action survives a power cut.
func Open(path string) (*Store, error) {
	db, err := sqlitefile.Open(path, schema, "foreign_keys(ON)")
	if err != nil {
		return nil, fmt.Errorf("sessiondb: %w", err)
	}
	if err := addTailColumn(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sessiondb: schema: %w", err)
	}
	return &Store{db: db}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// addTailColumn adds the sessions table's tail column to a database
// created before session records were kept in segments.
func addTailColumn(db *sql.DB) error {
	rows, err := db.Query(`SELECT name FROM pragma_table_info('sessions')`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return err
		}
		if name == "tail" {
			return nil
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = db.Exec(`ALTER TABLE sessions ADD COLUMN tail BLOB`)
	return err
}

// GetSession implements session.RecordStore. A segmented record's
// checkpoint is in the blob column, its tail in tail and its segments in
// session_segments.
func (s *Store) GetSession(ctx context.Context, id string) (session.SessionRecord, bool, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return session.SessionRecord{}, false, fmt.Errorf("sessiondb: get session %q: %w", id, err)
	}
	defer tx.Rollback()
	var raw, blob, tail []byte
	err = tx.QueryRowContext(ctx, `SELECT record, blob, tail FROM sessions WHERE session_id = ?`, id).Scan(&raw, &blob, &tail)
	if errors.Is(err, sql.ErrNoRows) {
		return session.SessionRecord{}, false, nil
	}
	if err != nil {
		return session.SessionRecord{}, false, fmt.Errorf("sessiondb: get session %q: %w", id, err)
	}
	var rec session.SessionRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return session.SessionRecord{}, false, fmt.Errorf("sessiondb: session %q: %w", id, err)
	}
	if rec.Log == nil {
		rec.Blob = blob
		return rec, true, nil
	}
	rec.Log.Checkpoint, rec.Log.Tail = blob, tail
	rows, err := tx.QueryContext(ctx, `SELECT seq, count, sum, entries FROM session_segments WHERE session_id = ? ORDER BY idx`, id)
	if err != nil {
		return session.SessionRecord{}, false, fmt.Errorf("sessiondb: session %q: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var seg session.Segment
		if err := rows.Scan(&seg.Seq, &seg.Count, &seg.Sum, &seg.Entries); err != nil {
			return session.SessionRecord{}, false, fmt.Errorf("sessiondb: session %q: %w", id, err)
		}
		rec.Log.Segments = append(rec.Log.Segments, seg)
	}
	if err := rows.Err(); err != nil {
		return session.SessionRecord{}, false, fmt.Errorf("sessiondb: session %q: %w", id, err)
	}
	return rec, true, nil
}

// PutSession implements session.RecordStore: in one transaction, an
// insert at revision 0 or an update guarded by the stored revision, and
// for a segmented record the segments the stored one lacks. The session
// store only ever extends a session's segments, so an action writes its
// row (checkpoint and tail) and, when it closed one, one segment.
func (s *Store) PutSession(ctx context.Context, rec session.SessionRecord) error {
	fail := func(err error) error { return fmt.Errorf("sessiondb: put session %q: %w", rec.SessionID, err) }
	blob, tail := rec.Blob, []byte(nil)
	var segs []session.Segment
	if rec.Log != nil {
		blob, tail, segs = rec.Log.Checkpoint, rec.Log.Tail, rec.Log.Segments
	}
	if blob == nil {
		blob = []byte{}
	}
	rec.Blob = nil
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("sessiondb: session %q: %w", rec.SessionID, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	var res sql.Result
	if rec.Revision == 0 {
		res, err = tx.ExecContext(ctx,
			`INSERT INTO sessions (session_id, revision, record, blob, tail) VALUES (?, 0, ?, ?, ?) ON CONFLICT(session_id) DO NOTHING`,
			rec.SessionID, raw, blob, tail)
	} else {
		res, err = tx.ExecContext(ctx,
			`UPDATE sessions SET revision = ?, record = ?, blob = ?, tail = ? WHERE session_id = ? AND revision = ?`,
			rec.Revision, raw, blob, tail, rec.SessionID, rec.Revision-1)
	}
	if err != nil {
		return fail(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fail(err)
	} else if n != 1 {
		return fmt.Errorf("sessiondb: session %q is not at revision %d: %w", rec.SessionID, rec.Revision-1, session.ErrConflict)
	}
	var have int
	if rec.Revision > 0 {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(idx)+1, 0) FROM session_segments WHERE session_id = ?`, rec.SessionID).Scan(&have); err != nil {
			return fail(err)
		}
	}
	if have > len(segs) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM session_segments WHERE session_id = ? AND idx >= ?`, rec.SessionID, len(segs)); err != nil {
			return fail(err)
		}
		have = len(segs)
	}
	for i := have; i < len(segs); i++ {
		seg := segs[i]
		if _, err := tx.ExecContext(ctx,
			`INSERT OR REPLACE INTO session_segments (session_id, idx, seq, count, sum, entries) VALUES (?, ?, ?, ?, ?, ?)`,
			rec.SessionID, i, seg.Seq, seg.Count, seg.Sum, seg.Entries); err != nil {
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return nil
}

// GetSave implements session.RecordStore.
func (s *Store) GetSave(ctx context.Context, id string) (session.SaveRecord, bool, error) {
	var raw, blob []byte
	err := s.db.QueryRowContext(ctx, `SELECT record, blob FROM saves WHERE save_id = ?`, id).Scan(&raw, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		return session.SaveRecord{}, false, nil
	}
	if err != nil {
		return session.SaveRecord{}, false, fmt.Errorf("sessiondb: get save %q: %w", id, err)
	}
	var rec session.SaveRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return session.SaveRecord{}, false, fmt.Errorf("sessiondb: save %q: %w", id, err)
	}
	rec.Blob = blob
	return rec, true, nil
}

// PutSave implements session.RecordStore. A save is stored whole, one
// row: a save holding its log in segments (session.SaveLog) is stored as
// its Document. Rows of its segments beside it measured slower (a save of
// 1,000 actions and its load, 31 more rows each way, on SQLite in WAL mode
// and synchronous=FULL) than the one row of the whole envelope.
func (s *Store) PutSave(ctx context.Context, rec session.SaveRecord) error {
	rec, err := rec.Flat()
	if err != nil {
		return fmt.Errorf("sessiondb: save %q: %w", rec.SaveID, err)
	}
	blob := rec.Blob
	rec.Blob = nil
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("sessiondb: save %q: %w", rec.SaveID, err)
	}
	var profile any
	if rec.ProfileID != "" {
		profile = rec.ProfileID
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO saves (save_id, profile_id, saved_at, record, blob) VALUES (?, ?, ?, ?, ?)
		 ON CONFLICT(save_id) DO UPDATE SET profile_id = excluded.profile_id, saved_at = excluded.saved_at,
		 record = excluded.record, blob = excluded.blob`,
		rec.SaveID, profile, rec.SavedAt, raw, blob)
	if err != nil {
		return fmt.Errorf("sessiondb: put save %q: %w", rec.SaveID, err)
	}
	return nil
}

// ListSaves implements session.RecordStore.
func (s *Store) ListSaves(ctx context.Context, profileID string) ([]session.SaveRecord, error) {
	out := []session.SaveRecord{}
	if profileID == "" {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT record, blob FROM saves WHERE profile_id = ?`, profileID)
	if err != nil {
		return nil, fmt.Errorf("sessiondb: list saves: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var raw, blob []byte
		if err := rows.Scan(&raw, &blob); err != nil {
			return nil, fmt.Errorf("sessiondb: list saves: %w", err)
		}
		var rec session.SaveRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("sessiondb: list saves: %w", err)
		}
		rec.Blob = blob
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sessiondb: list saves: %w", err)
	}
	return out, nil
}

// DeleteSave implements session.RecordStore: the compare and the delete
// are one statement; only when it removes nothing does a second read say
// whether the save is missing or its stamp moved.
func (s *Store) DeleteSave(ctx context.Context, id, expectedSavedAt string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM saves WHERE save_id = ? AND saved_at = ?`, id, expectedSavedAt)
	if err != nil {
		return fmt.Errorf("sessiondb: delete save %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sessiondb: delete save %q: %w", id, err)
	} else if n == 1 {
		return nil
	}
	var one int
	err = s.db.QueryRowContext(ctx, `SELECT 1 FROM saves WHERE save_id = ?`, id).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("sessiondb: save %q: %w", id, session.ErrNotFound)
	case err != nil:
		return fmt.Errorf("sessiondb: delete save %q: %w", id, err)
	}
	return fmt.Errorf("sessiondb: save %q changed since %s: %w", id, expectedSavedAt, session.ErrConflict)
}

// Load implements session.ProfileStore: the stored document, migrated to
// format version 3 by session.DecodeProfile.
func (s *Store) Load(ctx context.Context, profileID string) (session.ProfileLoadResult, error) {
	var doc []byte
	err := s.db.QueryRowContext(ctx, `SELECT document FROM profiles WHERE profile_id = ?`, profileID).Scan(&doc)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return session.ProfileLoadResult{}, fmt.Errorf("sessiondb: load profile %q: %w", profileID, err)
	}
	p, w := session.DecodeProfile(profileID, doc)
	return session.ProfileLoadResult{Profile: p, Warnings: w}, nil
}

// Save implements session.ProfileStore.
func (s *Store) Save(ctx context.Context, p session.Profile) error {
	doc, err := session.EncodeProfile(p)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO profiles (profile_id, document) VALUES (?, ?) ON CONFLICT(profile_id) DO UPDATE SET document = excluded.document`,
		p.ProfileID, doc)
	if err != nil {
		return fmt.Errorf("sessiondb: save profile %q: %w", p.ProfileID, err)
	}
	return nil
}

// SetProfileDocument stores doc verbatim as profileID's document, as a host
// restoring an older profile export would; Load migrates it.
func (s *Store) SetProfileDocument(ctx context.Context, profileID string, doc []byte) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO profiles (profile_id, document) VALUES (?, ?) ON CONFLICT(profile_id) DO UPDATE SET document = excluded.document`,
		profileID, doc)
	return err
}

// Epochs returns every campaign epoch the database keeps (what PutEpoch
// stored, for content.Reopen), ordered by campaign and version. A row that
// does not decode is an error: the host must not start without content a
// save may need.
func (s *Store) Epochs(ctx context.Context) ([]content.StoredEpoch, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT campaign_id, campaign_version, stored FROM epochs ORDER BY campaign_id, campaign_version`)
	if err != nil {
		return nil, fmt.Errorf("sessiondb: epochs: %w", err)
	}
	defer rows.Close()
	var out []content.StoredEpoch
	for rows.Next() {
		var id, version string
		var raw []byte
		if err := rows.Scan(&id, &version, &raw); err != nil {
			return nil, fmt.Errorf("sessiondb: epochs: %w", err)
		}
		var e content.StoredEpoch
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("sessiondb: epoch %s %s: %w", id, version, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// PutEpoch keeps a published campaign epoch, replacing what was kept under
// its campaign and version.
func (s *Store) PutEpoch(ctx context.Context, e content.StoredEpoch) error {
	raw, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("sessiondb: epoch: %w", err)
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO epochs (campaign_id, campaign_version, stored) VALUES (?, ?, ?) ON CONFLICT(campaign_id, campaign_version) DO UPDATE SET stored = excluded.stored`,
		e.Form.Campaign.ID, e.Form.Campaign.Version, raw)
	if err != nil {
		return fmt.Errorf("sessiondb: put epoch %s %s: %w", e.Form.Campaign.ID, e.Form.Campaign.Version, err)
	}
	return nil
}
