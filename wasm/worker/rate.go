//go:build js && wasm

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/rooms"
)

// SQL of the per-session command rate limit (migrations/0002_rate.sql).
// sqlRateCount adds one to the session's counter for this second and
// returns it, in one statement, so concurrent instances count every
// request exactly once.
const (
	sqlRateCount = `INSERT INTO rate (key, sec, count) VALUES (?1, ?2, 1)
		ON CONFLICT (key, sec) DO UPDATE SET count = count + 1 RETURNING count`
	sqlRatePrune = `DELETE FROM rate WHERE sec < ?1`
	// ratePruneAge is how many seconds a counter is kept.
	ratePruneAge = 60
)

// commandsPerSecond is the room server's own limit per connection, which
// the worker enforces per session across its instances.
var commandsPerSecond = rooms.DefaultLimits().CommandsPerSecond

// rateKey is the rate table's key for a counted key (a room session
// token, or "freeport/" and a Freeport bearer token): a digest, so the
// table never holds a bearer token. bundle/edge computes the same.
func rateKey(token string) string {
	sum := sha256.Sum256([]byte("storyloom-rate\x00" + token))
	return hex.EncodeToString(sum[:16])
}

// Count implements hosting.RateCounter in D1, so every instance of the
// worker counts the same requests: one statement adds one to key's
// counter for second sec and returns it. The table holds a digest of key
// (rateKey), never a bearer token.
func (s *d1Store) Count(_ context.Context, key string, sec int64) (int64, error) {
	rows, err := s.raw(sqlRateCount, rateKey(key), sec)
	if err != nil {
		return 0, fmt.Errorf("worker: d1: rate: %w", err)
	}
	if rows.Length() == 0 {
		return 0, fmt.Errorf("worker: d1: rate: no count returned")
	}
	return int64(rows.Index(0).Index(0).Float()), nil
}

// pruneRate deletes the counters older than ratePruneAge seconds.
func (s *d1Store) pruneRate(now int64) error {
	if _, err := s.raw(sqlRatePrune, now/1000-ratePruneAge); err != nil {
		return fmt.Errorf("worker: d1: rate prune: %w", err)
	}
	return nil
}

// rateLimited enforces the per-session command rate at the edge, where
// the room server's in-memory counter restarts with every request: a
// command beyond commandsPerSecond in one second of one session is
// answered 429 with the rejection the native server sends (a lobby_error
// frame, code rate_limited) and goes no further. Commands without a
// session (a new connection) are not counted. It reports whether it
// answered.
func (wk *worker) rateLimited(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.URL.Path != "/rooms/command" {
		return false
	}
	tok := hosting.Bearer(r)
	if tok == "" {
		return false
	}
	st, err := wk.d1()
	if err != nil {
		return false // the room server reports the missing store
	}
	n, err := st.Count(r.Context(), tok, dateNow()/1000)
	if err != nil {
		// Counting is a guard, not the service: log and let it through.
		logf("rooms: %v", err)
		return false
	}
	if n <= int64(commandsPerSecond) {
		return false
	}
	frame, _ := json.Marshal(rooms.LobbyErrorFrame{LobbyError: rooms.Rejection{Code: rooms.CodeRateLimited,
		Reason: fmt.Sprintf("more than %d frames in one second", commandsPerSecond)}})
	w.Header().Set("Retry-After", "1")
	writeJSON(w, http.StatusTooManyRequests, hosting.RoomsResponse{Session: tok,
		Frames: []hosting.MailFrame{{Kind: rooms.KindError, Frame: frame}}})
	return true
}
