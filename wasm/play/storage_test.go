//go:build js && wasm

package main

import (
	"testing"

	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/engine/session/conformance"
)

// The keeper in memory mode is the record and profile store the page uses
// when IndexedDB is unavailable, and the layer over it when it is not; it
// passes the same suite as every other store. (Its IndexedDB half is
// wasm/play/idb, whose suite runs in a browser.)

func TestKeeperRecordStoreConformance(t *testing.T) {
	conformance.RunRecordStore(t, func(t *testing.T) session.RecordStore { return newKeeper(nil, "test").Records() })
}

func TestKeeperProfileStoreConformance(t *testing.T) {
	conformance.RunProfileStore(t, func(t *testing.T) session.ProfileStore { return newKeeper(nil, "test").Profiles() })
}
