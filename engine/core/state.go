package core

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Format versions of the GameState envelope (§2): 1, or 2 exactly when the
// action log carries an epoch entry.
const (
	FormatVersion       = 1
	FormatVersionEpochs = 2
)

// Status is a game's lifecycle status.
type Status string

// The statuses of a game. Advance never yields StatusAbandoned; that is a
// session-level status.
const (
	StatusActive    Status = "active"
	StatusEnded     Status = "ended"
	StatusAbandoned Status = "abandoned"
)

// GameState is the kind-agnostic envelope every game lives in (§2). It is
// immutable: every engine operation returns a new envelope and never changes
// the one it was given. KindState holds the kind's own typed state, opaque to
// the core, and must encode to JSON.
type GameState struct {
	FormatVersion   int    `json:"formatVersion"`
	GameID          string `json:"gameId"`
	KindID          string `json:"kindId"`
	CampaignID      string `json:"campaignId"`
	CampaignVersion string `json:"campaignVersion"`
	Seed            string `json:"seed"`
	Status          Status `json:"status"`
	KindState       any    `json:"kindState"`
	ActionLog       Log    `json:"actionLog"`
}

// with returns a shallow copy of s, the starting point of every new envelope.
func (s *GameState) with() *GameState {
	c := *s
	return &c
}

// LoggedEntry is one entry of the action log: a LoggedAction, a
// LoggedContent or a LoggedMigration. The set is closed.
type LoggedEntry interface {
	// Sequence is the entry's 0-based position, monotonic across every entry
	// type.
	Sequence() int
	loggedEntry()
}

// LoggedAction is an action the player submitted and the engine accepted.
type LoggedAction struct {
	Seq      int    `json:"seq"`
	ActionID string `json:"actionId"`
	Params   Params `json:"params,omitempty"`
}

// LoggedContent records an adoption of another published version of the
// campaign (§2, §10.4).
type LoggedContent struct {
	Seq  int    `json:"seq"`
	From string `json:"from"`
	To   string `json:"to"`
}

// LoggedMigration records a migrated load that changed campaignVersion on a
// log already carrying an epoch entry (§10.2). It is never replayed.
type LoggedMigration struct {
	Seq  int    `json:"seq"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Sequence implements LoggedEntry.
func (a LoggedAction) Sequence() int { return a.Seq }

// Sequence implements LoggedEntry.
func (c LoggedContent) Sequence() int { return c.Seq }

// Sequence implements LoggedEntry.
func (m LoggedMigration) Sequence() int { return m.Seq }

func (LoggedAction) loggedEntry()    {}
func (LoggedContent) loggedEntry()   {}
func (LoggedMigration) loggedEntry() {}

// MarshalJSON writes the entry with its "system" discriminator.
func (c LoggedContent) MarshalJSON() ([]byte, error) {
	return appendEntry(nil, c), nil
}

// MarshalJSON writes the entry with its "system" discriminator.
func (m LoggedMigration) MarshalJSON() ([]byte, error) {
	return appendEntry(nil, m), nil
}

// Log is the action log: an immutable, append-only sequence of entries.
// Appending shares storage with the log it extends whenever no other log has
// already been extended from the same point, so a game's n-th action costs
// the same as its first; a log that was extended twice from one point copies
// once, so no extension ever changes another. The zero Log is empty.
//
// A log read from a state may begin with a prefix kept as the canonical
// bytes it was read from (see logPrefix): reading checks every entry but
// allocates none, and an entry of the prefix is decoded when something
// asks for it (a branch, the history), not when a game is restored.
type Log struct {
	pre *logPrefix  // entries [0, pre.n), or nil
	b   *logBacking // entries [pre.n, n)
	n   int
}

type logBacking struct {
	claimed atomic.Int64 // entries written to items; only ever grows
	items   []LoggedEntry

	// The canonical encoding of the first len(ends) entries, comma
	// separated, kept so that serializing a log re-encodes only what was
	// appended since the last time: entries never change once written.
	mu   sync.Mutex
	enc  []byte
	ends []int // ends[k] is len(enc) just after entry k
}

// logPrefix is the start of a log as a state held it: n entries, every one
// checked as it was read and its bytes canonical, kept as those bytes. Its
// epoch entries (content, migration) are decoded when read, since the
// engine asks for them on every load; its actions on first need.
type logPrefix struct {
	n      int
	raw    []byte       // the n entries' canonical bytes, comma separated
	ends   []int        // ends[k] is len(raw[:…]) just after entry k
	epochs []epochEntry // the entries that are not actions, in order

	once  sync.Once
	items []LoggedEntry
}

// epochEntry is an entry of a prefix that is not an action, and where.
type epochEntry struct {
	at int
	e  LoggedEntry
}

// start returns where entry k of the prefix begins in raw.
func (p *logPrefix) start(k int) int {
	if k == 0 {
		return 0
	}
	return p.ends[k-1] + 1
}

// entries returns the prefix's entries, decoding them the first time.
func (p *logPrefix) entries() []LoggedEntry {
	p.once.Do(func() {
		items := make([]LoggedEntry, p.n)
		for _, ep := range p.epochs {
			items[ep.at] = ep.e
		}
		r := &reader{b: p.raw} // one reader: its action names are shared
		for k := range items {
			if items[k] != nil {
				continue
			}
			r.i = p.start(k)
			e, err := r.entry()
			if err != nil {
				panic(fmt.Sprintf("core: log entry %d no longer reads: %v", k, err))
			}
			items[k] = e
		}
		p.items = items
	})
	return p.items
}

// at returns entry k, decoding that one entry: a restore replays the few
// actions after its checkpoint this way, and a walk over the whole log
// decodes each entry once either way.
func (p *logPrefix) at(k int) LoggedEntry {
	for _, ep := range p.epochs {
		if ep.at == k {
			return ep.e
		}
	}
	r := &reader{b: p.raw, i: p.start(k)}
	e, err := r.entry()
	if err != nil {
		// Every entry was checked when the prefix was read.
		panic(fmt.Sprintf("core: log entry %d no longer reads: %v", k, err))
	}
	return e
}

// cut returns the prefix of p's first n entries, 0 < n ≤ p.n, sharing
// p's bytes.
func (p *logPrefix) cut(n int) *logPrefix {
	c := &logPrefix{n: n, raw: p.raw[:p.ends[n-1]:p.ends[n-1]], ends: p.ends[:n:n]}
	for _, ep := range p.epochs {
		if ep.at < n {
			c.epochs = append(c.epochs, ep)
		}
	}
	return c
}

// NewLog returns a log holding entries, in order.
func NewLog(entries ...LoggedEntry) Log {
	var l Log
	for _, e := range entries {
		l = l.Append(e)
	}
	return l
}

// base returns how many entries the prefix holds (0 without one).
func (l Log) base() int {
	if l.pre == nil {
		return 0
	}
	return l.pre.n
}

// Len returns the number of entries.
func (l Log) Len() int { return l.n }

// At returns entry i, 0 ≤ i < Len.
func (l Log) At(i int) LoggedEntry {
	if i < 0 || i >= l.n {
		panic(fmt.Sprintf("core: log index %d out of range [0,%d)", i, l.n))
	}
	base := l.base()
	if i < base {
		return l.pre.at(i)
	}
	return l.b.items[i-base]
}

// Entries returns a copy of the entries.
func (l Log) Entries() []LoggedEntry {
	if l.n == 0 {
		return nil
	}
	base := l.base()
	out := make([]LoggedEntry, 0, l.n)
	if base > 0 {
		out = append(out, l.pre.entries()[:min(base, l.n)]...)
	}
	if l.n > base {
		out = append(out, l.b.items[:l.n-base]...)
	}
	return out
}

// Epochs returns the entries that are not actions (content and migration
// entries), in order, without decoding the actions of a prefix.
func (l Log) Epochs() []LoggedEntry {
	var out []LoggedEntry
	base := l.base()
	if base > 0 {
		for _, ep := range l.pre.epochs {
			if ep.at < l.n {
				out = append(out, ep.e)
			}
		}
	}
	for i := base; i < l.n; i++ {
		if _, ok := l.b.items[i-base].(LoggedAction); !ok {
			out = append(out, l.b.items[i-base])
		}
	}
	return out
}

// Prefix returns the log of the first n entries.
func (l Log) Prefix(n int) Log {
	if n < 0 || n > l.n {
		panic(fmt.Sprintf("core: log prefix %d out of range [0,%d]", n, l.n))
	}
	if n == 0 {
		return Log{}
	}
	if n <= l.base() {
		return Log{pre: l.pre, n: n}
	}
	return Log{pre: l.pre, b: l.b, n: n}
}

// Append returns l with e added at the end; l itself is unchanged.
func (l Log) Append(e LoggedEntry) Log {
	base := l.base()
	if l.n < base {
		// A log cut inside its prefix (a restore replaying the actions
		// after its checkpoint, a branch) grows from a shorter prefix
		// over the same bytes.
		l = Log{pre: l.pre.cut(l.n), n: l.n}
		base = l.n
	}
	k := l.n - base // e's index in the backing
	if l.b != nil && k < cap(l.b.items) && l.b.claimed.CompareAndSwap(int64(k), int64(k+1)) {
		l.b.items[k] = e
		return Log{pre: l.pre, b: l.b, n: l.n + 1}
	}
	size := 2 * k
	if size < 8 {
		size = 8
	}
	nb := &logBacking{items: make([]LoggedEntry, size)}
	if k > 0 {
		copy(nb.items, l.b.items[:k])
	}
	nb.items[k] = e
	nb.claimed.Store(int64(k + 1))
	return Log{pre: l.pre, b: nb, n: l.n + 1}
}

// lastEpoch returns the last content or migration entry, if any.
func (l Log) lastEpoch() (from, to string, ok bool) {
	es := l.Epochs()
	if len(es) == 0 {
		return "", "", false
	}
	return epochOf(es[len(es)-1])
}

// firstEpoch returns the first content or migration entry, if any.
func (l Log) firstEpoch() (from, to string, ok bool) {
	es := l.Epochs()
	if len(es) == 0 {
		return "", "", false
	}
	return epochOf(es[0])
}

// epochOf returns an epoch entry's versions.
func epochOf(e LoggedEntry) (from, to string, ok bool) {
	switch e := e.(type) {
	case LoggedContent:
		return e.From, e.To, true
	case LoggedMigration:
		return e.From, e.To, true
	}
	return "", "", false
}

// HasMigration reports whether the log carries a migration entry.
func (l Log) HasMigration() bool {
	for _, e := range l.Epochs() {
		if _, ok := e.(LoggedMigration); ok {
			return true
		}
	}
	return false
}

// MarshalJSON writes the log as a canonical JSON array.
func (l Log) MarshalJSON() ([]byte, error) {
	return appendLog(nil, l), nil
}

// AppendEntries appends the canonical form of entries from to to-1 of l,
// comma separated, with no brackets: the bytes a serialized state holds
// for them inside its log. 0 ≤ from ≤ to ≤ Len.
func (l Log) AppendEntries(b []byte, from, to int) []byte {
	if from < 0 || from > to || to > l.n {
		panic(fmt.Sprintf("core: log range [%d,%d) out of range [0,%d]", from, to, l.n))
	}
	if from == to {
		return b
	}
	base := l.base()
	if from < base {
		// The prefix's bytes, copied as they are.
		end := min(to, base)
		b = append(b, l.pre.raw[l.pre.start(from):l.pre.ends[end-1]]...)
		if to <= base {
			return b
		}
		b = append(b, ',')
		from = base
	}
	if from == base && to == l.n {
		return append(b, l.b.encoded(l.n-base)...)
	}
	for i := from; i < to; i++ {
		if i > from {
			b = append(b, ',')
		}
		b = appendEntry(b, l.b.items[i-base])
	}
	return b
}

// appendLog appends the canonical form of l: every entry's keys in sorted
// order, params sorted by key.
func appendLog(b []byte, l Log) []byte {
	b = append(b, '[')
	b = l.AppendEntries(b, 0, l.n)
	return append(b, ']')
}

// encoded returns the canonical encoding of the backing's first n entries,
// comma separated. Entries encoded for an earlier serialization of a log
// sharing this storage are reused, so a game's n-th save encodes one
// entry, not n. The result must not be modified; later appends to the
// cache write only past its end.
func (lb *logBacking) encoded(n int) []byte {
	if n == 0 {
		return nil
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for k := len(lb.ends); k < n; k++ {
		if k > 0 {
			lb.enc = append(lb.enc, ',')
		}
		lb.enc = appendEntry(lb.enc, lb.items[k])
		lb.ends = append(lb.ends, len(lb.enc))
	}
	return lb.enc[:lb.ends[n-1]:lb.ends[n-1]]
}

// appendEntry appends one entry's canonical form.
func appendEntry(b []byte, entry LoggedEntry) []byte {
	switch e := entry.(type) {
	case LoggedAction:
		o := canon.OpenObject(b)
		o.String("actionId", e.ActionID)
		if len(e.Params) > 0 {
			o.Key("params")
			o.B, _ = appendParams(o.B, e.Params) // logged params were validated: they encode
		}
		o.Int("seq", int64(e.Seq))
		return o.Close()
	case LoggedContent:
		return appendEpoch(b, e.Seq, "content", e.From, e.To)
	case LoggedMigration:
		return appendEpoch(b, e.Seq, "migration", e.From, e.To)
	}
	return append(b, "{}"...)
}

func appendEpoch(b []byte, seq int, system, from, to string) []byte {
	o := canon.OpenObject(b)
	o.String("from", from)
	o.Int("seq", int64(seq))
	o.String("system", system)
	o.String("to", to)
	return o.Close()
}

// entryJSON is a log entry as read; which fields are present says which
// kind of entry it is. An empty string reads as absent: no entry may carry
// one.
type entryJSON struct {
	Seq      int // -1 when absent
	ActionID string
	Params   Params
	System   string
	From     string
	To       string
}

// UnmarshalJSON reads a JSON array of entries, refusing unknown fields, an
// unknown system, mixed entry shapes, and an entry whose seq is not its
// position.
func (l *Log) UnmarshalJSON(data []byte) error {
	r := &reader{b: data}
	out, err := r.log()
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return err
	}
	*l = out
	return nil
}

// logOf returns the log holding entries, sharing their slice.
func logOf(entries []LoggedEntry) Log {
	if len(entries) == 0 {
		return Log{}
	}
	b := &logBacking{items: entries[:cap(entries)]}
	b.claimed.Store(int64(len(entries)))
	return Log{b: b, n: len(entries)}
}

func (r entryJSON) entry() (LoggedEntry, error) {
	if r.Seq < 0 {
		return nil, fmt.Errorf("missing seq")
	}
	if r.System == "" {
		if r.ActionID == "" || r.From != "" || r.To != "" {
			return nil, fmt.Errorf("an action entry has exactly seq, actionId and optional params")
		}
		if err := r.Params.Validate(); err != nil {
			return nil, err
		}
		return LoggedAction{Seq: r.Seq, ActionID: r.ActionID, Params: r.Params}, nil
	}
	if r.ActionID != "" || r.Params != nil || r.From == "" || r.To == "" {
		return nil, fmt.Errorf("an epoch entry has exactly seq, system, from and to")
	}
	switch r.System {
	case "content":
		return LoggedContent{Seq: r.Seq, From: r.From, To: r.To}, nil
	case "migration":
		return LoggedMigration{Seq: r.Seq, From: r.From, To: r.To}, nil
	}
	return nil, fmt.Errorf("unknown system %q", r.System)
}

// DecodeChecked decodes the JSON document data strictly (strictjson.Decode)
// into a new T and runs check on it, which may also finish it (compile an
// index, fill defaults). It returns the *T, or nil and the error as
// "<prefix>: <error>": the shape of a kind's DecodeContent and DecodeState,
// as in DecodeChecked(raw, "sim: state", content.checkState).
func DecodeChecked[T any](data []byte, prefix string, check func(*T) error) (any, error) {
	v := new(T)
	if err := strictjson.Decode(data, v); err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	if err := check(v); err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	return v, nil
}

// encodedSize returns the size of l's canonical entries, comma separated,
// encoding (and caching) the appended ones not yet encoded.
func (l Log) encodedSize() int {
	size, base := 0, l.base()
	if base > 0 {
		size = l.pre.ends[min(base, l.n)-1] + 1
	}
	if l.n > base {
		size += len(l.b.encoded(l.n - base))
	}
	return size
}
