package session

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// runningChecksum is a save checksum (saveChecksum) taken as far as the end
// of a committed state's action log: SHA-256 over {"replayCompatible":…,
// "state": and the state's first n bytes, which end just before the ']'
// that closes the log. A canonical state begins with its log ("actionLog"
// sorts first), and a game's log only grows, entries never changing, so
// each accepted action hashes only the entries it appended and a save
// hashes only what follows the log (the kind state and a few fields), not
// the whole game. The work is the same as hashing the whole state at every
// save, spread over the actions that wrote it; the store keeps one per
// cached session, replaced, never changed, like the record beside it.
type runningChecksum struct {
	compatible bool
	n          int // state bytes hashed, up to the log's closing ']'
	entries    int // log entries hashed
	h          hash.Hash
}

// logStart is how every canonical serialized state begins.
const logStart = `{"actionLog":[`

func checksumHead(compatible bool) string {
	if compatible {
		return `{"replayCompatible":true,"state":`
	}
	return `{"replayCompatible":false,"state":`
}

// startChecksum hashes a canonical state as far as the end of its log of
// entries entries (any number when entries is negative), or returns nil
// when the state does not read as one.
func startChecksum(compatible bool, state []byte, entries int) *runningChecksum {
	if len(state) < len(logStart) || string(state[:len(logStart)]) != logStart {
		return nil
	}
	end, count, ok := scanEntries(state, len(logStart))
	if !ok || (entries >= 0 && count != entries) {
		return nil
	}
	entries = count
	h := sha256.New()
	h.Write([]byte(checksumHead(compatible)))
	h.Write(state[:end])
	return &runningChecksum{compatible: compatible, n: end, entries: entries, h: h}
}

// extend returns the running checksum of state, the canonical serialization
// of a game whose log of entries entries extends the one sum covers (the
// state an action or an adoption made from sum's), hashing only the new
// entries. It returns nil when state does not read as such; the next save
// then hashes the state whole.
func (sum *runningChecksum) extend(state []byte, entries int) *runningChecksum {
	if sum == nil || entries < sum.entries || len(state) <= sum.n || string(state[:len(logStart)]) != logStart {
		return nil
	}
	if entries == sum.entries {
		if state[sum.n] != ']' {
			return nil
		}
		return sum // the same log: the same running checksum
	}
	end, count, ok := scanEntries(state, sum.n)
	if !ok || sum.entries+count != entries {
		return nil
	}
	h := sum.clone()
	if h == nil {
		return nil
	}
	h.Write(state[sum.n:end])
	return &runningChecksum{compatible: sum.compatible, n: end, entries: entries, h: h}
}

// finish returns the checksum of state, whose whole log sum covers, for a
// save with the given replay compatibility; ok is false when sum does not
// fit state.
func (sum *runningChecksum) finish(compatible bool, state []byte, entries int) (string, bool) {
	if sum == nil || sum.compatible != compatible || sum.entries != entries || len(state) <= sum.n || state[sum.n] != ']' {
		return "", false
	}
	h := sum.clone()
	if h == nil {
		return "", false
	}
	h.Write(state[sum.n:])
	h.Write([]byte{'}'})
	return hex.EncodeToString(h.Sum(nil)), true
}

// count returns the number of log entries sum covers; 0 for nil.
func (sum *runningChecksum) count() int {
	if sum == nil {
		return 0
	}
	return sum.entries
}

func (sum *runningChecksum) clone() hash.Hash {
	c, ok := sum.h.(hash.Cloner)
	if !ok {
		return nil
	}
	h, err := c.Clone()
	if err != nil {
		return nil
	}
	out, _ := h.(hash.Hash)
	return out
}

// scanEntries reads the log entries of a canonical state from i, which is
// just after the log's '[' or just after an entry, to the ']' that closes
// the log. It returns that bracket's index and how many entries it passed.
// An entry is an object of strings, numbers, booleans and one flat params
// object, so the first ']' outside a string closes the log.
func scanEntries(state []byte, i int) (end, count int, ok bool) {
	depth := 0
	for ; i < len(state); i++ {
		switch state[i] {
		case '"':
			for i++; i < len(state) && state[i] != '"'; i++ {
				if state[i] == '\\' {
					i++
				}
			}
		case '{':
			if depth == 0 {
				count++
			}
			depth++
		case '}':
			depth--
		case ']':
			return i, count, depth == 0
		}
	}
	return 0, 0, false
}

// checksum returns the save checksum of c's committed state, finishing its
// running checksum; when c has none that fits, it hashes the state whole,
// once, keeping the running checksum that pass yields for the session's
// next save and actions. The caller holds the session lock.
func (s *Store) checksum(c *cached) string {
	compatible, n := c.rec.ReplayCompatible, c.state.ActionLog.Len()
	if sum, ok := c.sum.finish(compatible, c.rec.Blob, n); ok {
		return sum
	}
	run := startChecksum(compatible, c.rec.Blob, n)
	if sum, ok := run.finish(compatible, c.rec.Blob, n); ok {
		s.mu.Lock()
		if cur := s.cache[c.rec.SessionID]; cur != nil && cur.rec.Revision == c.rec.Revision {
			nc := *cur
			nc.sum = run
			s.cache[c.rec.SessionID] = &nc
		}
		s.mu.Unlock()
		return sum
	}
	return saveChecksum(compatible, c.rec.Blob)
}
