package session

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// runningChecksum is a save checksum (saveChecksum) taken as far as the end
// of a committed state's action log: SHA-256 over {"replayCompatible":…,
// "state": and the state's bytes up to the ']' that closes its log. A
// canonical state begins with its log ("actionLog" sorts first), and a
// game's log only grows, entries never changing, so each accepted action
// hashes only the entries it appended and a save hashes only what follows
// the log (the kind state and a few fields), not the whole game. The work
// is the same as hashing the whole state at every save, spread over the
// actions that wrote it; the store keeps one per cached session, replaced,
// never changed, like the record beside it.
type runningChecksum struct {
	compatible bool
	entries    int // log entries hashed
	h          hash.Hash
	// logEnd, in one startChecksum made, is the index of the ']' closing
	// the log in the state it hashed; 0 otherwise.
	logEnd int
}

// logStart is how every canonical serialized state begins.
const logStart = `{"actionLog":[`

func checksumHead(compatible bool) string {
	if compatible {
		return `{"replayCompatible":true,"state":`
	}
	return `{"replayCompatible":false,"state":`
}

// newChecksum returns the running checksum of a state with an empty log.
func newChecksum(compatible bool) *runningChecksum {
	h := sha256.New()
	h.Write([]byte(checksumHead(compatible)))
	h.Write([]byte(logStart))
	return &runningChecksum{compatible: compatible, h: h}
}

// startChecksum hashes a canonical state as far as the end of its log of
// entries entries (any number when entries is negative) and returns the
// index of the ']' closing the log, or nil when the state does not read
// as one.
func startChecksum(compatible bool, state []byte, entries int) (*runningChecksum, int) {
	if len(state) < len(logStart) || string(state[:len(logStart)]) != logStart {
		return nil, 0
	}
	end, count, ok := scanEntries(state, len(logStart))
	if !ok || (entries >= 0 && count != entries) {
		return nil, 0
	}
	h := sha256.New()
	h.Write([]byte(checksumHead(compatible)))
	h.Write(state[:end])
	return &runningChecksum{compatible: compatible, entries: count, h: h, logEnd: end}, end
}

// extend returns the running checksum of a log that is sum's followed by
// count more entries, added (canonical, comma separated). It returns nil
// when sum is nil; the next save then hashes the state whole.
func (sum *runningChecksum) extend(added []byte, count int) *runningChecksum {
	if sum == nil {
		return nil
	}
	if count == 0 {
		return sum // the same log: the same running checksum
	}
	h := sum.clone()
	if h == nil {
		return nil
	}
	if sum.entries > 0 {
		h.Write([]byte{','})
	}
	h.Write(added)
	return &runningChecksum{compatible: sum.compatible, entries: sum.entries + count, h: h}
}

// finish returns the checksum of a state whose whole log sum covers and
// whose bytes after the log are rest (from the ']' closing it), for a save
// with the given replay compatibility; ok is false when sum does not fit.
func (sum *runningChecksum) finish(compatible bool, rest []byte, entries int) (string, bool) {
	if sum == nil || sum.compatible != compatible || sum.entries != entries || len(rest) == 0 || rest[0] != ']' {
		return "", false
	}
	h := sum.clone()
	if h == nil {
		return "", false
	}
	h.Write(rest)
	h.Write([]byte{'}'})
	return hex.EncodeToString(h.Sum(nil)), true
}

// digest returns the SHA-256 of what sum has hashed so far, as hex: a
// segment's chain checksum.
func (sum *runningChecksum) digest() string {
	h := sum.clone()
	if h == nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
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

// checksum returns the save checksum of c's committed state, whose log is
// the pieces joined by commas and whose bytes after the log are rest,
// finishing its running checksum; when c has none that fits, it hashes the
// state whole, once, keeping the running checksum that pass yields for the
// session's next save and actions. It also returns the running checksum
// of the state's whole log it finished, or nil when it hashed the state
// whole. The caller holds the session lock.
func (s *Store) checksum(c *cached, pieces []logPiece, rest []byte) (string, *runningChecksum) {
	compatible, n := c.rec.ReplayCompatible, c.state.ActionLog.Len()
	if sum, ok := c.sum.finish(compatible, rest, n); ok {
		return sum, c.sum
	}
	run := newChecksum(compatible)
	for _, p := range pieces {
		run = run.extend(p.b, p.n)
	}
	sum, ok := run.finish(compatible, rest, n)
	if !ok {
		return saveChecksum(compatible, appendState(nil, pieces, rest)), nil
	}
	s.mu.Lock()
	if cur := s.cache[c.rec.SessionID]; cur != nil && cur.rec.Revision == c.rec.Revision {
		nc := *cur
		nc.sum = run
		s.cache[c.rec.SessionID] = &nc
	}
	s.mu.Unlock()
	return sum, run
}
