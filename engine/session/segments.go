package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/storyloom/storyloom/engine/core"
)

// checkpointEvery is how many actions a session's log tail holds at most:
// the write that would make it longer closes the tail into a segment and
// checkpoints the game instead. A restore replays at most this many
// actions less one on top of the checkpoint.
const checkpointEvery = 32

// Segment is a closed run of a session's action log as a record store
// keeps it: Count canonical entries from log position Seq, comma
// separated, and Sum, the chain checksum: the SHA-256 (64 hex digits) of
// the log up to the segment's end, every segment before it included, taken
// as a save's checksum is (the bytes {"replayCompatible":…,"state":
// {"actionLog":[ and the entries), so that each covers the chain before
// it and costs nothing to compute: it is the session's running save
// checksum at that point. A segment never changes once written.
type Segment struct {
	Seq     int    `json:"seq"`
	Count   int    `json:"count"`
	Sum     string `json:"sum"`
	Entries []byte `json:"entries"`
}

// SessionLog is a session's game in segmented form: the log in closed
// segments, a checkpoint of the game at the end of them, and the tail of
// actions logged since, which a restore replays on the checkpoint. An
// accepted action writes the tail again (at most checkpointEvery entries),
// never the whole log; every checkpointEvery actions, and at every entry
// that is not an action (an adoption), the tail closes into a new segment
// and the checkpoint moves. Sums chain segment to segment and on to the
// tail; the checkpoint's is chained to its segment's, so a store that lost
// or damaged any part is found out on restore.
//
// The byte fields are not in the record's JSON: a record store keeps them
// beside it (Segments as rows or objects of their own, appended to, never
// rewritten) and gives them back. Like a Blob, their bytes are immutable.
type SessionLog struct {
	// Segments are the closed segments, in log order.
	Segments []Segment `json:"-"`
	// Checkpoint is the canonical serialization of the game at the end of
	// Segments with its log emptied: it begins {"actionLog":[],.
	Checkpoint []byte `json:"-"`
	// CheckpointSum is the SHA-256 of the log's sum at the checkpoint (the
	// last segment's Sum, or an empty log's) followed by Checkpoint.
	CheckpointSum string `json:"checkpointSum"`
	// Tail is the canonical entries logged since the checkpoint, comma
	// separated, every one an action; TailCount counts them.
	Tail      []byte `json:"-"`
	TailCount int    `json:"tailCount"`
	// TailSum is the sum of the whole log, tail included, as a Segment's.
	TailSum string `json:"tailSum"`
}

// entries returns the number of log entries held: the segments' and the
// tail's.
func (l *SessionLog) entries() int {
	return l.checkpointAt() + l.TailCount
}

// checkpointAt returns the log length at the checkpoint.
func (l *SessionLog) checkpointAt() int {
	return segmentsEnd(l.Segments)
}

// logPiece is a run of n canonical log entries, comma separated.
type logPiece struct {
	b []byte
	n int
}

// pieces returns the log's canonical entries as runs to be joined with
// commas: every segment's, then the tail.
func (l *SessionLog) pieces() []logPiece {
	return logPieces(l.Segments, l.Tail, l.TailCount)
}

// logPieces returns the runs of a log held as segments and a tail of
// tailCount entries.
func logPieces(segs []Segment, tail []byte, tailCount int) []logPiece {
	out := make([]logPiece, 0, len(segs)+1)
	for _, s := range segs {
		out = append(out, logPiece{s.Entries, s.Count})
	}
	if tailCount > 0 {
		out = append(out, logPiece{tail, tailCount})
	}
	return out
}

// chainSum returns the SHA-256 of prev followed by b, as hex.
func chainSum(prev string, b []byte) string {
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// verify checks the segments' positions and the chain of sums, for a
// session of the given replay compatibility, and returns the running
// checksum of the whole log that checking it computed.
func (l *SessionLog) verify(compatible bool) (*runningChecksum, error) {
	sum, at := newChecksum(compatible), 0
	for i, s := range l.Segments {
		if s.Seq != at || s.Count <= 0 {
			return nil, fmt.Errorf("segment %d starts at %d with %d entries; the log had %d", i, s.Seq, s.Count, at)
		}
		if sum = sum.extend(s.Entries, s.Count); sum.digest() != s.Sum {
			return nil, fmt.Errorf("segment %d does not match its checksum", i)
		}
		at += s.Count
	}
	if !bytes.HasPrefix(l.Checkpoint, []byte(emptyLogStart)) {
		return nil, fmt.Errorf("the checkpoint is not a game state with an emptied log")
	}
	if chainSum(sum.digest(), l.Checkpoint) != l.CheckpointSum {
		return nil, fmt.Errorf("the checkpoint does not match its checksum")
	}
	if l.TailCount < 0 || (l.TailCount == 0) != (len(l.Tail) == 0) {
		return nil, fmt.Errorf("the tail's count does not fit it")
	}
	if sum = sum.extend(l.Tail, l.TailCount); sum.digest() != l.TailSum {
		return nil, fmt.Errorf("the tail does not match its checksum")
	}
	return sum, nil
}

// emptyLogStart is how a canonical state with an empty log begins.
const emptyLogStart = `{"actionLog":[]`

// appendState appends the canonical state whose log is the pieces joined
// by commas and whose other members are rest, the bytes of a canonical
// state from its log's closing ']' on.
func appendState(b []byte, pieces []logPiece, rest []byte) []byte {
	b = append(b, logStart...)
	for i, p := range pieces {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p.b...)
	}
	return append(b, rest...)
}

// stateSize is len(appendState(nil, pieces, rest)).
func stateSize(pieces []logPiece, rest []byte) int {
	n := len(logStart) + len(rest)
	if len(pieces) > 0 {
		n += len(pieces) - 1 // the commas between them
	}
	for _, p := range pieces {
		n += len(p.b)
	}
	return n
}

// head returns st's canonical serialization with its log emptied: a
// checkpoint, and the members of st's serialization after the log.
func (s *Store) head(st *core.GameState) ([]byte, error) {
	h := *st
	h.ActionLog = core.Log{}
	return s.engine.Serialize(&h)
}

// restore decodes a session record's game: a Blob as it is, a segmented
// log by replaying its tail on its checkpoint, after checking every sum.
// It also returns the running checksum of the game's log when checking
// the sums computed it (nil for a Blob).
func (s *Store) restore(op string, rec SessionRecord) (*core.GameState, *runningChecksum, *Error) {
	l := rec.Log
	if l == nil {
		res := s.engine.Deserialize(rec.Blob)
		if !res.OK {
			return nil, nil, s.stateRefused(op, res.Errors)
		}
		return res.Value, nil, nil
	}
	sum, verr := l.verify(rec.ReplayCompatible)
	if verr != nil {
		return nil, nil, errorf(op, core.ReasonInvalidState, "session %q is damaged: %v", rec.SessionID, verr)
	}
	blob := appendState(make([]byte, 0, stateSize(l.pieces(), l.Checkpoint)), l.pieces(), l.Checkpoint[len(logStart):])
	res := s.engine.Deserialize(blob)
	if !res.OK {
		return nil, nil, s.stateRefused(op, res.Errors)
	}
	full := res.Value
	k, n := l.checkpointAt(), l.entries()
	if full.ActionLog.Len() != n {
		return nil, nil, errorf(op, core.ReasonInvalidState, "session %q holds %d log entries, not %d", rec.SessionID, full.ActionLog.Len(), n)
	}
	st := *full
	st.ActionLog = full.ActionLog.Prefix(k)
	cur := &st
	for i := k; i < n; i++ {
		a, ok := full.ActionLog.At(i).(core.LoggedAction)
		if !ok {
			return nil, nil, errorf(op, core.ReasonInvalidState, "session %q: entry %d after the checkpoint is not an action", rec.SessionID, i)
		}
		res := s.quiet.SubmitAction(cur, a.ActionID, a.Params)
		if !res.OK {
			r := errorf(op, core.ReasonInvalidState, "session %q: entry %d (%q) does not replay on its checkpoint", rec.SessionID, i, a.ActionID)
			r.Details = res.Errors
			return nil, nil, r
		}
		cur = res.Value
	}
	return cur, sum, nil
}

// nextLog returns the segmented form of st, a game whose log extends the
// one prev holds (prev is nil for a new session), where added is the
// canonical bytes of the entries st added to prev's log (all of st's for
// a new session but those of closed, the segments a loaded save shares),
// comma separated, and sum the running checksum of st's whole log, for a
// session of sum's replay compatibility. rest, when not nil, is st's
// canonical serialization from the ']' closing its log on (a loaded
// save's), which a checkpoint then takes instead of encoding st.
func (s *Store) nextLog(prev *cached, st *core.GameState, closed []Segment, added []byte, sum *runningChecksum, rest []byte) (*SessionLog, error) {
	from, n := 0, st.ActionLog.Len()
	if prev != nil {
		from = prev.state.ActionLog.Len()
	}
	if prev != nil && prev.rec.Log != nil {
		pl := prev.rec.Log
		if onlyActions(st.ActionLog, from, n) && pl.TailCount+n-from < checkpointEvery {
			next := *pl
			if n > from {
				next.Tail = joinEntries(pl.Tail, added)
				next.TailCount += n - from
				next.TailSum = sum.digest()
			}
			return &next, nil
		}
		return s.checkpoint(pl.Segments, joinEntries(pl.Tail, added), pl.TailCount+n-from, st, sum, rest)
	}
	// No segmented log to extend: the whole log becomes the first segment.
	if prev != nil && prev.rec.Blob != nil {
		pieces, _, err := s.stateParts(prev)
		if err != nil {
			return nil, err
		}
		if len(pieces) > 0 {
			added = joinEntries(pieces[0].b, added)
		}
	}
	return s.checkpoint(closed, added, n-segmentsEnd(closed), st, sum, rest)
}

// segmentsEnd returns the log length at the end of segs.
func segmentsEnd(segs []Segment) int {
	if len(segs) == 0 {
		return 0
	}
	last := segs[len(segs)-1]
	return last.Seq + last.Count
}

// checkpoint returns the log of the closed segments with one more of
// count entries (none when count is 0) and a checkpoint of st, whose
// whole log's running checksum is sum. rest, when not nil, is st's
// canonical serialization from the ']' closing its log on: a canonical
// state's log comes first, so the checkpoint is the log's opening and
// rest, as a restore splices it back (restore).
func (s *Store) checkpoint(closed []Segment, entries []byte, count int, st *core.GameState, sum *runningChecksum, rest []byte) (*SessionLog, error) {
	var head []byte
	if rest != nil {
		head = append(append(make([]byte, 0, len(logStart)+len(rest)), logStart...), rest...)
	} else {
		var err error
		if head, err = s.head(st); err != nil {
			return nil, err
		}
	}
	l := &SessionLog{Checkpoint: head, TailSum: sum.digest()}
	at := segmentsEnd(closed)
	l.Segments = closed[:len(closed):len(closed)] // an append copies: closed is shared
	if count > 0 {
		l.Segments = append(l.Segments, Segment{Seq: at, Count: count, Entries: entries, Sum: l.TailSum})
	}
	l.CheckpointSum = chainSum(l.TailSum, head)
	return l, nil
}

// joinEntries returns a new slice of a and b joined by a comma (either may
// be empty); it never writes to a's or b's storage.
func joinEntries(a, b []byte) []byte {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	}
	out := make([]byte, 0, len(a)+1+len(b))
	out = append(out, a...)
	out = append(out, ',')
	return append(out, b...)
}

// onlyActions reports whether entries from to to-1 of l are all actions.
func onlyActions(l core.Log, from, to int) bool {
	for i := from; i < to; i++ {
		if _, ok := l.At(i).(core.LoggedAction); !ok {
			return false
		}
	}
	return true
}

// stateParts returns c's committed state as its log's canonical entries,
// in runs, and the bytes of its serialization after the log.
func (s *Store) stateParts(c *cached) ([]logPiece, []byte, error) {
	if c.rec.Log == nil {
		blob := c.rec.Blob
		if !bytes.HasPrefix(blob, []byte(logStart)) {
			return nil, nil, fmt.Errorf("the stored state does not begin with its log")
		}
		end, count, ok := scanEntries(blob, len(logStart))
		if !ok {
			return nil, nil, fmt.Errorf("the stored state's log does not close")
		}
		var pieces []logPiece
		if count > 0 {
			pieces = []logPiece{{blob[len(logStart):end], count}}
		}
		return pieces, blob[end:], nil
	}
	head := c.rec.Log.Checkpoint
	if c.rec.Log.TailCount > 0 {
		var err error
		if head, err = s.head(c.state); err != nil {
			return nil, nil, err
		}
	}
	return c.rec.Log.pieces(), head[len(logStart):], nil
}

// Header reads the kind, campaign and epoch of the game the record holds
// without decoding it: from its checkpoint when it is segmented (an
// adoption, which changes the epoch, always checkpoints), else from its
// Blob.
func (r SessionRecord) Header() (StateHeader, error) {
	if r.Log != nil {
		return ReadStateHeader(r.Log.Checkpoint)
	}
	return ReadStateHeader(r.Blob)
}
