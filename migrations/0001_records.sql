-- The edge worker's hosting.Store (wasm/worker/d1.go): every record of the
-- room server and the Freeport instances, keyed as bundle/hosting lays them
-- out, with a version for optimistic concurrency. The same table as the
-- native SQLite store (bundle/hostingdb).
CREATE TABLE IF NOT EXISTS records (
	key     TEXT PRIMARY KEY,
	version INTEGER NOT NULL CHECK (version > 0),
	data    BLOB NOT NULL
) WITHOUT ROWID;

-- Always empty. A Commit's guard statement inserts ok = 0 into it exactly
-- when a record's stored version is not the one the write expected; the
-- CHECK then fails, and D1 rolls the whole batch back.
CREATE TABLE IF NOT EXISTS version_guard (
	ok INTEGER NOT NULL CHECK (ok = 1)
);
