//go:build js && wasm

package main

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/wasm/play/idb"
)

// keeper is where the bridge keeps records, profiles and meta documents: a
// memory layer that is always written and always answers, over IndexedDB
// when the page chose it and it opened. A durable write that fails (the
// quota is full, private browsing, the database was deleted underneath us)
// never stops the game: the memory layer keeps it going, the failure is
// reported with every response until a durable write succeeds again, and
// the page offers a save file instead. Nothing is dropped silently.
type keeper struct {
	db *idb.DB // nil in memory mode

	mu       sync.Mutex
	sessions map[string]session.SessionRecord
	saves    map[string]session.SaveRecord
	deleted  map[string]bool // saves deleted here, hidden from durable lists
	profiles map[string][]byte
	meta     map[string]string
	metaGen  map[string]int
	status   storageStatus

	metaMu sync.Mutex // orders the write-behind of meta documents
}

// storageStatus is what the page is told about storage.
type storageStatus struct {
	// Backend is "indexeddb" or "memory".
	Backend string `json:"backend"`
	// Durable is true while everything written so far reached IndexedDB.
	Durable bool `json:"durable"`
	// Code is "" when durable, else why not: "unavailable" (no IndexedDB,
	// or the page chose memory), "quota" (the browser is out of space for
	// this site) or "write_failed" (any other refusal).
	Code string `json:"code,omitempty"`
	// Message is a plain English sentence for the player.
	Message string `json:"message,omitempty"`
	// Detail is the browser's own error, for the console.
	Detail string `json:"detail,omitempty"`
}

// newKeeper returns a keeper over db, or a memory-only keeper when db is
// nil; why says why there is no database, for the page.
func newKeeper(db *idb.DB, why string) *keeper {
	k := &keeper{
		db:       db,
		sessions: map[string]session.SessionRecord{},
		saves:    map[string]session.SaveRecord{},
		deleted:  map[string]bool{},
		profiles: map[string][]byte{},
		meta:     map[string]string{},
		metaGen:  map[string]int{},
	}
	if db != nil {
		k.status = storageStatus{Backend: "indexeddb", Durable: true}
	} else {
		k.status = storageStatus{Backend: "memory", Code: "unavailable",
			Message: "This browser is not keeping Storyloom's saves (storage is unavailable here, as in some private windows). You can play on; download a save file to keep your progress.",
			Detail:  why}
	}
	return k
}

// Status returns the current storage status.
func (k *keeper) Status() storageStatus {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.status
}

// durable reports the result of a durable write.
func (k *keeper) durable(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.db == nil {
		return
	}
	if err == nil {
		k.status = storageStatus{Backend: "indexeddb", Durable: true}
		return
	}
	k.status = storageStatus{Backend: "indexeddb", Code: "write_failed",
		Message: "Storyloom could not write to this browser's storage. Your game goes on in this tab; download a save file to keep your progress.",
		Detail:  err.Error()}
	if idb.IsQuota(err) {
		k.status.Code = "quota"
		k.status.Message = "This browser's storage for Storyloom is full, so your latest progress is not being kept. Your game goes on in this tab; download a save file, or free some space."
	}
}

// Corrupt lists the stored records that cannot be read (none in memory
// mode: memory holds only what this tab wrote).
func (k *keeper) Corrupt(ctx context.Context) ([]idb.CorruptRecord, error) {
	if k.db == nil {
		return []idb.CorruptRecord{}, nil
	}
	return k.db.Records().Corrupt(ctx)
}

// DeleteCorrupt deletes a stored record that cannot be read.
func (k *keeper) DeleteCorrupt(ctx context.Context, store, id string) error {
	if k.db == nil {
		return session.ErrNotFound
	}
	return k.db.Records().DeleteCorrupt(ctx, store, id)
}

// Records returns the keeper as a session.RecordStore.
func (k *keeper) Records() session.RecordStore { return keeperRecords{k} }

// Profiles returns the keeper as a session.ProfileStore.
func (k *keeper) Profiles() session.ProfileStore { return keeperProfiles{k} }

// keeperRecords is the keeper as a session.RecordStore.
type keeperRecords struct{ k *keeper }

// GetSession implements session.RecordStore: memory first, then IndexedDB.
func (r keeperRecords) GetSession(ctx context.Context, id string) (session.SessionRecord, bool, error) {
	k := r.k
	k.mu.Lock()
	rec, ok := k.sessions[id]
	k.mu.Unlock()
	if ok {
		return cloneSession(rec), true, nil
	}
	if k.db == nil {
		return session.SessionRecord{}, false, nil
	}
	rec, ok, err := k.db.Records().GetSession(ctx, id)
	if err != nil || !ok {
		return rec, ok, err
	}
	k.mu.Lock()
	if cur, have := k.sessions[id]; have {
		rec = cur
	} else {
		k.sessions[id] = cloneSession(rec)
	}
	k.mu.Unlock()
	return cloneSession(rec), true, nil
}

// PutSession implements session.RecordStore: compare-and-set in memory,
// then the write to IndexedDB, whose failure is reported, not returned.
func (r keeperRecords) PutSession(ctx context.Context, rec session.SessionRecord) error {
	k := r.k
	k.mu.Lock()
	old, exists := k.sessions[rec.SessionID]
	if (!exists && rec.Revision != 0) || (exists && old.Revision != rec.Revision-1) {
		k.mu.Unlock()
		return session.ErrConflict
	}
	k.sessions[rec.SessionID] = cloneSession(rec)
	k.mu.Unlock()
	if k.db != nil {
		k.durable(k.db.Records().PutSessionUnchecked(rec))
	}
	return nil
}

// GetSave implements session.RecordStore.
func (r keeperRecords) GetSave(ctx context.Context, id string) (session.SaveRecord, bool, error) {
	k := r.k
	k.mu.Lock()
	rec, ok := k.saves[id]
	gone := k.deleted[id]
	k.mu.Unlock()
	if ok {
		return cloneSave(rec), true, nil
	}
	if gone || k.db == nil {
		return session.SaveRecord{}, false, nil
	}
	return k.db.Records().GetSave(ctx, id)
}

// PutSave implements session.RecordStore.
func (r keeperRecords) PutSave(ctx context.Context, rec session.SaveRecord) error {
	k := r.k
	k.mu.Lock()
	k.saves[rec.SaveID] = cloneSave(rec)
	delete(k.deleted, rec.SaveID)
	k.mu.Unlock()
	if k.db != nil {
		k.durable(k.db.Records().PutSave(ctx, rec))
	}
	return nil
}

// ListSaves implements session.RecordStore: IndexedDB's saves with this
// tab's own writes and deletes laid over them.
func (r keeperRecords) ListSaves(ctx context.Context, profileID string) ([]session.SaveRecord, error) {
	k := r.k
	byID := map[string]session.SaveRecord{}
	if k.db != nil {
		list, err := k.db.Records().ListSaves(ctx, profileID)
		if err != nil {
			k.durable(err)
		}
		for _, rec := range list {
			byID[rec.SaveID] = rec
		}
	}
	k.mu.Lock()
	for id := range k.deleted {
		delete(byID, id)
	}
	for id, rec := range k.saves {
		if rec.ProfileID == profileID && profileID != "" {
			byID[id] = cloneSave(rec)
		}
	}
	k.mu.Unlock()
	out := make([]session.SaveRecord, 0, len(byID))
	for _, rec := range byID {
		out = append(out, rec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SaveID < out[j].SaveID })
	return out, nil
}

// DeleteSave implements session.RecordStore.
func (r keeperRecords) DeleteSave(ctx context.Context, id, expectedSavedAt string) error {
	k := r.k
	rec, ok, err := r.GetSave(ctx, id)
	switch {
	case err != nil:
		return err
	case !ok:
		return session.ErrNotFound
	case rec.SavedAt != expectedSavedAt:
		return session.ErrConflict
	}
	k.mu.Lock()
	delete(k.saves, id)
	k.deleted[id] = true
	k.mu.Unlock()
	if k.db != nil {
		derr := k.db.Records().DeleteSave(ctx, id, expectedSavedAt)
		if derr != nil && !errors.Is(derr, session.ErrNotFound) {
			k.durable(derr)
		} else {
			k.durable(nil)
		}
	}
	return nil
}

// keeperProfiles is the keeper as a session.ProfileStore.
type keeperProfiles struct{ k *keeper }

// Load implements session.ProfileStore.
func (p keeperProfiles) Load(ctx context.Context, profileID string) (session.ProfileLoadResult, error) {
	k := p.k
	k.mu.Lock()
	doc, ok := k.profiles[profileID]
	k.mu.Unlock()
	if ok {
		prof, w := session.DecodeProfile(profileID, doc)
		return session.ProfileLoadResult{Profile: prof, Warnings: w}, nil
	}
	if k.db == nil {
		prof, w := session.DecodeProfile(profileID, nil)
		return session.ProfileLoadResult{Profile: prof, Warnings: w}, nil
	}
	res, err := k.db.Profiles().Load(ctx, profileID)
	if err == nil && len(res.Warnings) == 0 {
		// Keep it: later loads of this tab read memory, which every
		// Save updates first.
		if doc, eerr := session.EncodeProfile(res.Profile); eerr == nil {
			k.mu.Lock()
			if _, have := k.profiles[profileID]; !have {
				k.profiles[profileID] = doc
			}
			k.mu.Unlock()
		}
	}
	return res, err
}

// Save implements session.ProfileStore.
func (p keeperProfiles) Save(ctx context.Context, prof session.Profile) error {
	k := p.k
	doc, err := session.EncodeProfile(prof)
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.profiles[prof.ProfileID] = doc
	k.mu.Unlock()
	if k.db != nil {
		k.durable(k.db.Profiles().Save(ctx, prof))
	}
	return nil
}

// getMeta returns the meta document key.
func (k *keeper) getMeta(key string) (string, bool) {
	k.mu.Lock()
	doc, ok := k.meta[key]
	k.mu.Unlock()
	if ok || k.db == nil {
		return doc, ok && doc != ""
	}
	doc, ok, err := k.db.GetMeta(key)
	if err != nil {
		return "", false
	}
	return doc, ok
}

// putMeta stores the meta document key.
func (k *keeper) putMeta(key, doc string) {
	k.mu.Lock()
	k.meta[key] = doc
	k.mu.Unlock()
	if k.db != nil {
		k.durable(k.db.PutMeta(key, doc))
	}
}

// putMetaBehind stores the meta document key in memory now and in
// IndexedDB from a goroutine of its own, for documents (the library's
// "last played") that are not worth a wait on the action path. Writes of
// one key land in order.
func (k *keeper) putMetaBehind(key, doc string) {
	k.mu.Lock()
	k.meta[key] = doc
	k.metaGen[key]++
	gen := k.metaGen[key]
	k.mu.Unlock()
	if k.db == nil {
		return
	}
	go func() {
		k.metaMu.Lock()
		defer k.metaMu.Unlock()
		k.mu.Lock()
		stale := k.metaGen[key] != gen
		k.mu.Unlock()
		if !stale {
			k.durable(k.db.PutMeta(key, doc))
		}
	}()
}

// deleteMeta removes the meta document key.
func (k *keeper) deleteMeta(key string) {
	k.mu.Lock()
	k.meta[key] = ""
	k.mu.Unlock()
	if k.db != nil {
		k.durable(k.db.DeleteMeta(key))
	}
}

// listMeta returns every meta document under prefix.
func (k *keeper) listMeta(prefix string) map[string]string {
	out := map[string]string{}
	if k.db != nil {
		if m, err := k.db.ListMeta(prefix); err == nil {
			out = m
		}
	}
	k.mu.Lock()
	for key, doc := range k.meta {
		if strings.HasPrefix(key, prefix) {
			out[key] = doc
		}
	}
	k.mu.Unlock()
	for key, doc := range out {
		if doc == "" {
			delete(out, key)
		}
	}
	return out
}

// cloneSession returns r sharing no memory with it but its Blob, which is
// immutable (session.RecordStore): a choice never copies the game's whole
// serialization into the keeper.
func cloneSession(r session.SessionRecord) session.SessionRecord {
	r.Initialization = cloneInit(r.Initialization)
	return r
}

// cloneSave is cloneSession for a save.
func cloneSave(r session.SaveRecord) session.SaveRecord {
	r.Initialization = cloneInit(r.Initialization)
	return r
}

func cloneInit(i *session.Initialization) *session.Initialization {
	if i == nil {
		return nil
	}
	c := *i
	c.KindProfileData = append([]byte(nil), i.KindProfileData...)
	return &c
}
