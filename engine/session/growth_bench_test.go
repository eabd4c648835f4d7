package session_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/session"
)

// growthSizes are the history lengths of the growth series that `make
// bench` charts (docs/performance.md): cost must not grow faster than the
// history does.
var growthSizes = []int{10, 1000, 10000}

// grown is a store holding one session of n "inc" actions and a save of
// it, built once per size for every benchmark and count of the run: the
// 10,000-action game takes seconds to play.
type grown struct {
	e    *env
	id   string
	save session.SaveHandle
}

var grownGames = map[int]*grown{}

// gameAt returns the store of n actions, building it on first use. A
// benchmark that changes the session works on a loaded copy of the save.
func gameAt(b *testing.B, n int) (*env, string, session.SaveHandle) {
	b.Helper()
	if g := grownGames[n]; g != nil {
		return g.e, g.id, g.save
	}
	e := newEnv(b, envOptions{})
	id := e.create(b, "p")
	for i := 0; i < n; i++ {
		if res, err := e.store.SubmitAction(ctx, id, "inc", nil); err != nil || !res.OK {
			b.Fatal(err, res.Errors)
		}
	}
	h := e.save(b, id)
	grownGames[n] = &grown{e: e, id: id, save: h}
	return e, id, h
}

// atHistory runs bench as the sub-benchmark actions=n for every growth
// size, on the store of n actions, with allocations reported. bench does
// its untimed setup and then resets the timer.
func atHistory(b *testing.B, bench func(b *testing.B, e *env, id string, save session.SaveHandle)) {
	for _, n := range growthSizes {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			e, id, save := gameAt(b, n)
			b.ReportAllocs()
			bench(b, e, id, save)
		})
	}
}

// BenchmarkStoreSubmitActionAtHistory is one SubmitAction through the
// session store, autosave to the record store included, after n logged
// actions. Every 100 actions the game is reloaded (untimed) from its save
// at n, so the history stays within n..n+100.
func BenchmarkStoreSubmitActionAtHistory(b *testing.B) {
	atHistory(b, func(b *testing.B, e *env, _ string, save session.SaveHandle) {
		id := e.load(b, save.SaveID).SessionID
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i > 0 && i%100 == 0 {
				b.StopTimer()
				e.store.Forget(ctx, id)
				h, err := e.store.LoadGame(ctx, save.SaveID)
				if err != nil {
					b.Fatal(err)
				}
				id = h.SessionID
				b.StartTimer()
			}
			if res, err := e.store.SubmitAction(ctx, id, "inc", nil); err != nil || !res.OK {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		e.store.Forget(ctx, id)
	})
}

// BenchmarkSaveGameAtHistory is SaveGame of a game of n actions on the
// in-memory record store; save-bytes is the size of the exported save.
func BenchmarkSaveGameAtHistory(b *testing.B) {
	atHistory(b, func(b *testing.B, e *env, id string, first session.SaveHandle) {
		doc, err := e.store.ExportSave(ctx, "p", first.SaveID)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			h, err := e.store.SaveGame(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if err := e.store.DeleteSave(ctx, "p", h.SaveID, h.SavedAt); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(len(doc)), "save-bytes")
	})
}

// BenchmarkLoadGameAtHistory is LoadGame of a save of n actions, to a
// playable scene, on the in-memory record store.
func BenchmarkLoadGameAtHistory(b *testing.B) {
	atHistory(b, func(b *testing.B, e *env, _ string, save session.SaveHandle) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			h, err := e.store.LoadGame(ctx, save.SaveID)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			e.store.Forget(ctx, h.SessionID)
			b.StartTimer()
		}
	})
}

// BenchmarkLoadGameAtHistoryCold is LoadGame of a save of n actions by a
// store that never wrote or read it (a page reloaded, another process),
// from a copy of its bytes, as SQLite or IndexedDB hands one back: the
// whole save is checked, where BenchmarkLoadGameAtHistory loads a save its
// store remembers.
func BenchmarkLoadGameAtHistoryCold(b *testing.B) {
	atHistory(b, func(b *testing.B, e *env, _ string, save session.SaveHandle) {
		rec, _, _ := e.records.GetSave(ctx, save.SaveID)
		rec, err := rec.Flat() // the whole envelope, copied
		if err != nil {
			b.Fatal(err)
		}
		rec.Blob = bytes.Clone(rec.Blob)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			cold := newEnv(b, envOptions{})
			if err := cold.records.PutSave(ctx, rec); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := cold.store.LoadGame(ctx, save.SaveID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkExportSaveAtHistory is ExportSave of a save of n actions: the
// self-contained file, its log spliced in and its checksum taken.
func BenchmarkExportSaveAtHistory(b *testing.B) {
	atHistory(b, func(b *testing.B, e *env, _ string, save session.SaveHandle) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.store.ExportSave(ctx, "p", save.SaveID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRestoreFromFileAtHistory is ImportSave and LoadGame of the
// exported file of a save of n actions, to a playable scene: a restore
// from the saved text, as after a page reload (bundle/bench/peer.mjs's
// restore row, natively).
func BenchmarkRestoreFromFileAtHistory(b *testing.B) {
	atHistory(b, func(b *testing.B, e *env, _ string, save session.SaveHandle) {
		doc, err := e.store.ExportSave(ctx, "p", save.SaveID)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			imp, err := e.store.ImportSave(ctx, "p", doc)
			if err != nil {
				b.Fatal(err)
			}
			h, err := e.store.LoadGame(ctx, imp.SaveID)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			e.store.Forget(ctx, h.SessionID)
			if err := e.store.DeleteSave(ctx, "p", imp.SaveID, imp.SavedAt); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
}
