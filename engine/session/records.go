package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/storyloom/storyloom/engine/core"
)

// SessionRecord is what the record store keeps per session (§7.2's
// StoredSessionRecord): the game and the host metadata that lives outside
// it. The store writes the game as Log, in segments; Blob, the canonical
// serialization of the whole game, is the form records had before, which
// still reads. Exactly one of the two is set.
type SessionRecord struct {
	SessionID string `json:"sessionId"`
	Blob      []byte `json:"blob"`
	// Log is the game in segmented form (nil in a record of the older,
	// whole-Blob form); its bytes are kept beside the record's JSON.
	Log      *SessionLog   `json:"log,omitempty"`
	Audience core.Audience `json:"audience"`
	// AttemptCounter counts submissions, accepted or not, for telemetry. A
	// record store never compares it.
	AttemptCounter int `json:"attemptCounter"`
	// Revision counts committed writes: 0 when first written, one more on
	// every accepted action and every adopting resume. A record store
	// accepts a put of an existing session only when the stored revision is
	// Revision-1, and a put of a new one only when Revision is 0.
	Revision         int    `json:"revision"`
	ReplayCompatible bool   `json:"replayCompatible"`
	CreatedAt        string `json:"createdAt"`
	UpdatedAt        string `json:"updatedAt"`
	ProfileID        string `json:"profileId,omitempty"`
	// Initialization is what createSession handed the kind beyond the
	// campaign and seed; nil means unknown (a record older than the field).
	Initialization *Initialization `json:"initialization,omitempty"`
}

// Initialization records a session's creation input (§7.2's
// SessionInitialization). A nil KindProfileData inside a present
// Initialization means the game was created with none.
type Initialization struct {
	KindProfileData json.RawMessage `json:"kindProfileData,omitempty"`
}

func (i *Initialization) clone() *Initialization {
	if i == nil {
		return nil
	}
	return &Initialization{KindProfileData: cloneBytes(i.KindProfileData)}
}

// SaveRecord is what the record store keeps per save (§7.2's
// StoredSaveRecord). CampaignID is a routing copy; the authority is the
// envelope Document returns.
type SaveRecord struct {
	SaveID     string `json:"saveId"`
	CampaignID string `json:"campaignId"`
	// Blob is the canonical serialization of a SaveEnvelope or, when Log
	// is set, of the envelope with its state's log emptied: the save's log
	// is then Log's, spliced back by Document.
	Blob []byte `json:"blob"`
	// Log, when set, holds the save's log as the segments of the session
	// that took it and that session's tail, so that a save never copies
	// the log (nil for a save held whole, as every save before December
	// 2026 and every imported one is).
	Log *SaveLog `json:"log,omitempty"`
	// SavedAt is the Clock's stamp: the list order and delete precondition.
	SavedAt        string          `json:"savedAt"`
	SavedAtSeq     int             `json:"savedAtSeq"`
	Audience       core.Audience   `json:"audience"`
	ProfileID      string          `json:"profileId,omitempty"`
	Initialization *Initialization `json:"initialization,omitempty"`
}

// SaveLog is a save's action log as the session that took it held it:
// that session's closed segments, shared with it, and its tail. Like a
// Blob, its bytes are immutable; a record store keeps them beside the
// record's JSON (SQLite as rows, the memory stores by reference) or
// stores the record whole, its Document in Blob and Log nil.
type SaveLog struct {
	// Segments are the closed segments, in log order.
	Segments []Segment `json:"-"`
	// Tail is the canonical entries after them, comma separated;
	// TailCount counts them.
	Tail      []byte `json:"-"`
	TailCount int    `json:"tailCount"`
}

// savedStateOpen is how a save's Blob with an emptied log holds its state:
// the envelope's last member (sealEnvelope writes it last) and its log's
// opening, where Document splices the log in. Inside a canonical string a
// quote is escaped, so the first match is the member.
const savedStateOpen = `,"state":` + emptyLogStart

// Document returns the save's whole envelope: Blob, or Blob with Log's
// entries spliced into its emptied log. It copies the log; only an export
// and the load of a save this store does not remember need it.
func (r SaveRecord) Document() ([]byte, error) {
	if r.Log == nil {
		return r.Blob, nil
	}
	at, err := emptiedLogAt(r.Blob)
	if err != nil {
		return nil, err
	}
	pieces := logPieces(r.Log.Segments, r.Log.Tail, r.Log.TailCount)
	out := make([]byte, 0, stateSize(pieces, r.Blob)-len(logStart))
	out = append(out, r.Blob[:at]...)
	for i, p := range pieces {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p.b...)
	}
	return append(out, r.Blob[at:]...), nil
}

// emptiedLogAt returns where, in an envelope whose state's log is empty,
// the log's entries go: the index of the log's ']'.
func emptiedLogAt(blob []byte) (int, error) {
	at := bytes.Index(blob, []byte(savedStateOpen))
	if at < 0 {
		return 0, errors.New("the save's envelope has no emptied log to hold its segments")
	}
	return at + len(savedStateOpen) - 1, nil
}

// sameDocument reports whether doc is the Document of a record whose Blob
// is head and whose Log is log, comparing it part by part, never
// assembling it: a store that keeps saves whole hands back that Document.
func sameDocument(doc, head []byte, log *SaveLog) bool {
	at, err := emptiedLogAt(head)
	if err != nil {
		return false
	}
	pieces := logPieces(log.Segments, log.Tail, log.TailCount)
	if len(doc) != stateSize(pieces, head)-len(logStart) || !bytes.Equal(doc[:at], head[:at]) {
		return false
	}
	i := at
	for k, p := range pieces {
		if k > 0 {
			if doc[i] != ',' {
				return false
			}
			i++
		}
		if !bytes.Equal(doc[i:i+len(p.b)], p.b) {
			return false
		}
		i += len(p.b)
	}
	return bytes.Equal(doc[i:], head[at:])
}

// Flat returns r with its whole envelope in Blob and no Log: the record
// as a store that keeps saves whole stores it.
func (r SaveRecord) Flat() (SaveRecord, error) {
	doc, err := r.Document()
	if err != nil {
		return SaveRecord{}, err
	}
	r.Blob, r.Log = doc, nil
	return r, nil
}

// RecordStore reads and writes the records beneath the session store (§7.2's
// SessionPersistence). Implementations must be safe for concurrent use.
//
// A record's Blob is immutable: once handed to PutSession or PutSave, or
// returned by GetSession, GetSave or ListSaves, no one writes to its bytes
// again, so a store may keep the Blob it was given and return those same
// bytes, and a save or a load never copies a game's whole serialization to
// hand it over. Everything else a store returns (the Initialization's
// bytes) shares no memory with what it keeps. Any error
// other than a conflict (IsConflict) or, from DeleteSave, ErrNotFound is
// reported to clients as storage_failure. package conformance holds the
// suite an implementation passes.
type RecordStore interface {
	// GetSession returns the session record, or ok false when there is none.
	GetSession(ctx context.Context, sessionID string) (rec SessionRecord, ok bool, err error)
	// PutSession writes rec with compare-and-set on Revision: a new session
	// only at revision 0, an existing one only when its stored revision is
	// rec.Revision-1. Anything else returns ErrConflict and writes nothing.
	PutSession(ctx context.Context, rec SessionRecord) error
	// GetSave returns the save record, or ok false when there is none.
	GetSave(ctx context.Context, saveID string) (rec SaveRecord, ok bool, err error)
	// PutSave writes rec under rec.SaveID, replacing any record there, as
	// one atomic step.
	PutSave(ctx context.Context, rec SaveRecord) error
	// ListSaves returns every save record whose ProfileID is profileID, in
	// any order.
	ListSaves(ctx context.Context, profileID string) ([]SaveRecord, error)
	// DeleteSave removes saveID only while its stored SavedAt equals
	// expectedSavedAt, as one step: ErrNotFound when there is no such save,
	// ErrConflict when the stamp differs, and nothing removed either way.
	DeleteSave(ctx context.Context, saveID, expectedSavedAt string) error
}

// Clock stamps records (06 §5.4). It returns a string that sorts in time
// order, conventionally RFC 3339 in UTC with a fixed number of fractional
// digits. The engine never reads a clock; a host passes one in.
type Clock interface {
	Now() string
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() string

// Now implements Clock.
func (f ClockFunc) Now() string { return f() }

// RecordIDSource mints session and save ids (06 §5.7). These ids key
// records and never enter a GameState.
type RecordIDSource interface {
	NewSessionID() string
	NewSaveID() string
}

// CountingRecordIDs is a deterministic RecordIDSource for tests and tools:
// session-1, session-2, … and save-1, save-2, …. It is safe for concurrent
// use.
type CountingRecordIDs struct {
	mu              sync.Mutex
	sessions, saves int
}

// NewSessionID implements RecordIDSource.
func (c *CountingRecordIDs) NewSessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions++
	return "session-" + strconv.Itoa(c.sessions)
}

// NewSaveID implements RecordIDSource.
func (c *CountingRecordIDs) NewSaveID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.saves++
	return "save-" + strconv.Itoa(c.saves)
}

// MemoryRecords is an in-memory RecordStore, the MVP default and the
// reference the conformance suite is written against. It is safe for
// concurrent use.
type MemoryRecords struct {
	mu       sync.Mutex
	sessions map[string]SessionRecord
	saves    map[string]SaveRecord
}

// NewMemoryRecords returns an empty in-memory record store.
func NewMemoryRecords() *MemoryRecords {
	return &MemoryRecords{sessions: map[string]SessionRecord{}, saves: map[string]SaveRecord{}}
}

// GetSession implements RecordStore.
func (m *MemoryRecords) GetSession(_ context.Context, id string) (SessionRecord, bool, error) {
	return getRecord(m, m.sessions, id)
}

// getRecord returns a copy of the record id of recs, one of m's maps.
func getRecord[R interface{ clone() R }](m *MemoryRecords, recs map[string]R, id string) (R, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := recs[id]
	return r.clone(), ok, nil
}

// PutSession implements RecordStore. The record's Blob is kept, not
// copied (blobs are immutable).
func (m *MemoryRecords) PutSession(_ context.Context, rec SessionRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, exists := m.sessions[rec.SessionID]
	if (!exists && rec.Revision != 0) || (exists && old.Revision != rec.Revision-1) {
		return ErrConflict
	}
	m.sessions[rec.SessionID] = rec.clone()
	return nil
}

// GetSave implements RecordStore.
func (m *MemoryRecords) GetSave(_ context.Context, id string) (SaveRecord, bool, error) {
	return getRecord(m, m.saves, id)
}

// PutSave implements RecordStore. The record's Blob is kept, not copied.
func (m *MemoryRecords) PutSave(_ context.Context, rec SaveRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saves[rec.SaveID] = rec.clone()
	return nil
}

// ListSaves implements RecordStore.
func (m *MemoryRecords) ListSaves(_ context.Context, profileID string) ([]SaveRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []SaveRecord{}
	for _, r := range m.saves {
		if r.ProfileID == profileID && profileID != "" {
			out = append(out, r.clone())
		}
	}
	return out, nil
}

// DeleteSave implements RecordStore.
func (m *MemoryRecords) DeleteSave(_ context.Context, id, expectedSavedAt string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.saves[id]
	switch {
	case !ok:
		return ErrNotFound
	case r.SavedAt != expectedSavedAt:
		return ErrConflict
	}
	delete(m.saves, id)
	return nil
}

// clone returns r sharing no memory with it but its Blob, which is
// immutable (RecordStore).
func (r SessionRecord) clone() SessionRecord {
	r.Initialization = r.Initialization.clone()
	return r
}

// clone returns r sharing no memory with it but its Blob, which is
// immutable (RecordStore).
func (r SaveRecord) clone() SaveRecord {
	r.Initialization = r.Initialization.clone()
	return r
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}
