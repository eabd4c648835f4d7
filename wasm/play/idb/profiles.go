//go:build js && wasm

package idb

import (
	"context"

	"github.com/hack-pad/safejs"
	"github.com/storyloom/storyloom/engine/session"
)

// Profiles is the IndexedDB session.ProfileStore: each profile is kept as
// the one document session.EncodeProfile writes, and read back through
// session.DecodeProfile, which migrates older format versions.
type Profiles struct {
	db *DB
}

var _ session.ProfileStore = (*Profiles)(nil)

// Profiles returns the profile store over d.
func (d *DB) Profiles() *Profiles { return &Profiles{db: d} }

// Load implements session.ProfileStore.
func (p *Profiles) Load(_ context.Context, profileID string) (session.ProfileLoadResult, error) {
	doc, ok, err := p.db.getString("LoadProfile", storeProfiles, profileID)
	if err != nil {
		return session.ProfileLoadResult{}, err
	}
	var data []byte
	if ok {
		data = []byte(doc)
	}
	prof, warnings := session.DecodeProfile(profileID, data)
	return session.ProfileLoadResult{Profile: prof, Warnings: warnings}, nil
}

// Save implements session.ProfileStore.
func (p *Profiles) Save(_ context.Context, prof session.Profile) error {
	doc, err := session.EncodeProfile(prof)
	if err != nil {
		return err
	}
	return p.db.putString("SaveProfile", storeProfiles, prof.ProfileID, string(doc))
}

// GetMeta returns the meta document key, or ok false when there is none.
func (d *DB) GetMeta(key string) (doc string, ok bool, err error) {
	return d.getString("GetMeta", storeMeta, key)
}

// PutMeta stores doc under key.
func (d *DB) PutMeta(key, doc string) error {
	return d.putString("PutMeta", storeMeta, key, doc)
}

// DeleteMeta removes key; a missing key is not an error.
func (d *DB) DeleteMeta(key string) error {
	const op = "DeleteMeta"
	x, err := d.begin(op, "readwrite", storeMeta)
	if err != nil {
		return err
	}
	_, rerr := x.request(storeMeta, "delete", key)
	return x.wait(rerr)
}

// ListMeta returns every meta document whose key starts with prefix.
func (d *DB) ListMeta(prefix string) (map[string]string, error) {
	const op = "ListMeta"
	ctor, err := safejs.Global().Get("IDBKeyRange")
	if err != nil {
		return nil, jsError(op, err)
	}
	rng, err := ctor.Call("bound", prefix, prefix+"\uffff")
	if err != nil {
		return nil, jsError(op, err)
	}
	x, err := d.begin(op, "readonly", storeMeta)
	if err != nil {
		return nil, err
	}
	keys, rerr := x.request(storeMeta, "getAllKeys", rng)
	var vals safejs.Value
	if rerr == nil {
		vals, rerr = x.request(storeMeta, "getAll", rng)
	}
	if err := x.wait(rerr); err != nil {
		return nil, err
	}
	n, err := keys.Length()
	if err != nil {
		return nil, jsError(op, err)
	}
	out := make(map[string]string, n)
	for i := 0; i < n; i++ {
		k, err1 := keys.Index(i)
		v, err2 := vals.Index(i)
		if err1 != nil || err2 != nil {
			return nil, &Error{Op: op, Name: "DataError", Message: "unreadable meta entry"}
		}
		ks, err1 := k.String()
		vs, err2 := v.String()
		if err1 != nil || err2 != nil {
			continue
		}
		out[ks] = vs
	}
	return out, nil
}

// getString reads a string value of store by key.
func (d *DB) getString(op, store, key string) (string, bool, error) {
	x, err := d.begin(op, "readonly", store)
	if err != nil {
		return "", false, err
	}
	v, rerr := x.request(store, "get", key)
	if err := x.wait(rerr); err != nil {
		return "", false, err
	}
	if !present(v) {
		return "", false, nil
	}
	s, err := v.String()
	if err != nil {
		return "", false, &Error{Op: op, Name: "DataError", Message: "stored value is not text"}
	}
	return s, true, nil
}

// putString writes a string value of store under key.
func (d *DB) putString(op, store, key, val string) error {
	x, err := d.begin(op, "readwrite", store)
	if err != nil {
		return err
	}
	_, rerr := x.request(store, "put", val, key)
	return x.wait(rerr)
}
