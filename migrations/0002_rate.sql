-- The edge worker's per-session command rate limit (docs/edge-worker.md):
-- one counter per session and second of the worker's clock. A worker
-- instance lives for one request, so the count cannot be kept in memory.
-- key is a digest of the session token, never the token itself. The cron
-- trigger deletes rows older than a minute.
CREATE TABLE rate (
	key   TEXT    NOT NULL,
	sec   INTEGER NOT NULL,
	count INTEGER NOT NULL,
	PRIMARY KEY (key, sec)
) WITHOUT ROWID;
