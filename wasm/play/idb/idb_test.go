//go:build js && wasm

package idb

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/engine/session/conformance"
)

// This suite needs a real IndexedDB: it runs in headless Chromium, from a
// test binary built with `GOOS=js GOARCH=wasm go test -c` and loaded by
// the browser test in bundle/e2e (TestIndexedDBConformance). Under Node,
// which has no IndexedDB, it skips.

var dbSeq atomic.Int64

// fresh opens a new, empty database for one subtest and deletes it after.
func fresh(t *testing.T) *DB {
	t.Helper()
	name := fmt.Sprintf("storyloom-conformance-%d", dbSeq.Add(1))
	db, err := Open(name)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Name == "NotSupportedError" {
			t.Skip("no IndexedDB here (run this suite in a browser)")
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		if err := Delete(name); err != nil {
			t.Errorf("deleting %s: %v", name, err)
		}
	})
	return db
}

func TestRecordStoreConformance(t *testing.T) {
	conformance.RunRecordStore(t, func(t *testing.T) session.RecordStore { return fresh(t).Records() })
}

func TestProfileStoreConformance(t *testing.T) {
	conformance.RunProfileStore(t, func(t *testing.T) session.ProfileStore { return fresh(t).Profiles() })
}

func TestMetaRoundTrip(t *testing.T) {
	db := fresh(t)
	for _, kv := range [][2]string{{"slot:a", `{"name":"A"}`}, {"slot:b", `{"name":"B"}`}, {"last:x", `{}`}} {
		if err := db.PutMeta(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.ListMeta("slot:")
	if err != nil || len(got) != 2 || got["slot:b"] != `{"name":"B"}` {
		t.Fatalf("ListMeta = %v, %v", got, err)
	}
	if err := db.DeleteMeta("slot:a"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := db.GetMeta("slot:a"); ok || err != nil {
		t.Fatalf("deleted key still there: %v %v", ok, err)
	}
}

func TestPersistsAcrossConnections(t *testing.T) {
	db := fresh(t)
	rec := session.SaveRecord{SaveID: "s1", CampaignID: "c", Blob: []byte{0, 1, 2, 255}, SavedAt: "t", ProfileID: "p"}
	if err := db.Records().PutSave(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	again, err := Open(db.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got, ok, err := again.Records().GetSave(t.Context(), "s1")
	if err != nil || !ok || string(got.Blob) != string(rec.Blob) {
		t.Fatalf("reopened: %+v %v %v", got, ok, err)
	}
}
