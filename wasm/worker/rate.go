//go:build js && wasm

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
