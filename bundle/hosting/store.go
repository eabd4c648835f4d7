package hosting

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
)

// ErrConflict is returned by Store.Commit when a record's stored version
// is not the version the write expected: another writer committed first.
// Nothing of the rejected Commit is written.
var ErrConflict = errors.New("hosting: version conflict")

// Record is one stored record: its key, its bytes and its version. A
// record that does not exist has Version 0 and nil Data.
type Record struct {
	Key     string
	Data    []byte
	Version int64
}

// Write is one change of a Commit. Version is the version the writer
// read (0: the record must not exist); the record is stored with
// Version+1. A nil Data deletes the record.
type Write struct {
	Key     string
	Data    []byte
	Version int64
}

// Store persists host state as versioned records with optimistic
// concurrency. Implementations must be safe for concurrent use.
//
// The native host uses bundle/hostingdb (SQLite); the edge worker
// implements it over D1, where Commit is one batch whose statements each
// check the version column.
type Store interface {
	// Load returns the record under key, or a Record with Version 0 and
	// nil Data when there is none.
	Load(ctx context.Context, key string) (Record, error)
	// List returns every record whose key starts with prefix, by key.
	List(ctx context.Context, prefix string) ([]Record, error)
	// Commit applies writes atomically: all of them, or none and
	// ErrConflict when any record's version is not the one its write
	// expected.
	Commit(ctx context.Context, writes []Write) error
}

// MemStore is an in-memory Store, for tests and for hosts that persist
// nothing. The zero value is ready to use.
type MemStore struct {
	mu   sync.Mutex
	recs map[string]Record
	// Commits counts successful Commits.
	Commits int64
}

// Load implements Store.
func (m *MemStore) Load(_ context.Context, key string) (Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[key]
	if !ok {
		return Record{Key: key}, nil
	}
	r.Data = append([]byte(nil), r.Data...)
	return r, nil
}

// List implements Store.
func (m *MemStore) List(_ context.Context, prefix string) ([]Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Record
	for k, r := range m.recs {
		if strings.HasPrefix(k, prefix) {
			r.Data = append([]byte(nil), r.Data...)
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// Commit implements Store.
func (m *MemStore) Commit(_ context.Context, writes []Write) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string]Record{}
	}
	for _, w := range writes {
		if m.recs[w.Key].Version != w.Version {
			return ErrConflict
		}
	}
	for _, w := range writes {
		if w.Data == nil {
			delete(m.recs, w.Key)
			continue
		}
		m.recs[w.Key] = Record{Key: w.Key, Data: append([]byte(nil), w.Data...), Version: w.Version + 1}
	}
	m.Commits++
	return nil
}
