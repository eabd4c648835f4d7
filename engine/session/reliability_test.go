package session_test

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// countOf reads the count out of a scene's view.
func countOf(t testing.TB, sc core.Scene) int {
	var v struct{ Count int }
	if err := json.Unmarshal(sc.View.KindView, &v); err != nil {
		t.Fatal(err)
	}
	return v.Count
}

// checkSaves loads every save of profileID through a fresh store over
// records and requires each to hold the state it was taken of: its count
// equals the increments it logged, and savedAtSeq its log's length.
func checkSaves(t *testing.T, records session.RecordStore, profileID string) int {
	t.Helper()
	e := newEnv(t, envOptions{records: records})
	e.store, _ = session.New(session.Config{Engine: e.engine, Records: records, Profiles: e.profiles, Clock: e.clock, IDs: &prefixedIDs{prefix: "check"}})
	list, err := e.store.ListSaves(ctx, profileID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		h, err := e.store.LoadGame(ctx, s.SaveID)
		if err != nil {
			t.Fatalf("save %s does not load: %v", s.SaveID, err)
		}
		var st struct {
			ActionLog []struct{ ActionID string }
		}
		_ = json.Unmarshal(e.record(t, h.SessionID).Blob, &st)
		incs := 0
		for _, a := range st.ActionLog {
			if a.ActionID == "inc" {
				incs++
			}
		}
		if c := countOf(t, h.Scene); c != incs || len(st.ActionLog) != s.SavedAtSeq {
			t.Fatalf("save %s holds count %d but logged %d increments (%d entries, savedAtSeq %d)", s.SaveID, c, incs, len(st.ActionLog), s.SavedAtSeq)
		}
	}
	return len(list)
}

func TestConcurrentSubmitAndSaveOnOneStore(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	const workers, each = 16, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*each*2)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if res, err := e.store.SubmitAction(ctx, id, "inc", nil); err != nil || !res.OK {
					errs <- err
				}
				if _, err := e.store.SaveGame(ctx, id); err != nil {
					errs <- err
				}
				_, _ = e.store.GetScene(ctx, id)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("within one store no command may fail: %v", err)
	}
	rec := e.record(t, id)
	if rec.Revision != workers*each {
		t.Fatalf("revision %d, want %d: an update was lost", rec.Revision, workers*each)
	}
	sc, _ := e.store.GetScene(ctx, id)
	if countOf(t, sc) != workers*each {
		t.Fatalf("count %d", countOf(t, sc))
	}
	if n := checkSaves(t, e.records, "p"); n != workers*each {
		t.Fatalf("%d saves", n)
	}
}

func TestConcurrentSubmitAcrossStoresLosersGetConcurrentModification(t *testing.T) {
	records := session.NewMemoryRecords()
	ids := &session.CountingRecordIDs{}
	const instances, workers, each = 4, 4, 10
	stores := make([]*env, instances)
	for i := range stores {
		stores[i] = newEnv(t, envOptions{records: records, ids: ids})
	}
	id := stores[0].create(t, "p")
	var mu sync.Mutex
	won, lost := 0, 0
	var wg sync.WaitGroup
	for i := 0; i < instances; i++ {
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(st *session.Store) {
				defer wg.Done()
				for k := 0; k < each; k++ {
					res, err := st.SubmitAction(ctx, id, "inc", nil)
					mu.Lock()
					switch {
					case err == nil && res.OK:
						won++
					case session.Code(err) == core.ReasonConcurrentModification:
						lost++
					default:
						t.Errorf("unexpected outcome: %v %+v", err, res)
					}
					mu.Unlock()
					if _, err := st.SaveGame(ctx, id); err != nil {
						t.Errorf("save: %v", err)
					}
				}
			}(stores[i].store)
		}
	}
	wg.Wait()
	rec := stores[0].record(t, id)
	if rec.Revision != won {
		t.Fatalf("revision %d but %d commands won: an update was lost", rec.Revision, won)
	}
	fresh := newEnv(t, envOptions{records: records, ids: ids})
	sc, err := fresh.store.GetScene(ctx, id)
	if err != nil || countOf(t, sc) != won {
		t.Fatalf("count %d, %d won, %d lost", countOf(t, sc), won, lost)
	}
	if won+lost != instances*workers*each || won == 0 {
		t.Fatalf("won %d lost %d", won, lost)
	}
	t.Logf("won %d, lost %d", won, lost)
	checkSaves(t, records, "p")
}

// scenario is a player's afternoon: every kind of write the store makes.
func scenario(st *session.Store) {
	h, err := st.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally", ProfileID: "p"})
	if err != nil {
		return
	}
	id := h.SessionID
	_, _ = st.SubmitAction(ctx, id, "inc", nil)
	_, _ = st.SubmitAction(ctx, id, "inc", nil)
	a, _ := st.SaveGame(ctx, id)
	_, _ = st.SubmitAction(ctx, id, "inc", nil)
	b, _ := st.SaveGame(ctx, id)
	if l, err := st.LoadGame(ctx, a.SaveID); err == nil {
		_, _ = st.SubmitAction(ctx, l.SessionID, "inc", nil)
		_, _ = st.SaveGame(ctx, l.SessionID)
		_, _ = st.ResumeSession(ctx, l.SessionID)
	}
	_ = st.DeleteSave(ctx, "p", b.SaveID, b.SavedAt)
	if br, err := st.BranchSession(ctx, id, 1); err == nil {
		_, _ = st.SubmitAction(ctx, br.SessionID, "inc", nil)
		_, _ = st.SaveGame(ctx, br.SessionID)
	}
	_, _ = st.SubmitAction(ctx, id, "end", nil)
	_, _ = st.SaveGame(ctx, id)
}

func TestCrashBetweenWritesLeavesEverySaveLoadable(t *testing.T) {
	probe := &faulty{RecordStore: session.NewMemoryRecords()}
	scenario(newEnv(t, envOptions{records: probe, epochs: []epoch{v1, v2}}).store)
	total := probe.count()
	if total < 10 {
		t.Fatalf("the scenario wrote only %d times", total)
	}
	for n := 1; n <= total; n++ {
		mem := session.NewMemoryRecords()
		f := &faulty{RecordStore: mem, failAt: n}
		e := newEnv(t, envOptions{records: f, epochs: []epoch{v1, v2}})
		scenario(e.store)
		// The process restarts: a new store reads what persisted.
		checkSaves(t, mem, "p")
		for i := 1; i <= 8; i++ {
			id := "session-" + string(rune('0'+i))
			if r, ok, _ := mem.GetSession(ctx, id); ok {
				blob, err := e.store.StateOf(r)
				if err != nil {
					t.Fatalf("fail at write %d: session %s unreadable: %v", n, id, err)
				}
				if res := e.engine.Deserialize(blob); !res.OK {
					t.Fatalf("fail at write %d: session %s unreadable: %v", n, id, res.Errors)
				}
			}
		}
	}
}

func TestStorageFailureLeavesNoTrace(t *testing.T) {
	f := &faulty{RecordStore: session.NewMemoryRecords()}
	e := newEnv(t, envOptions{records: f})
	id := e.create(t, "p")
	tests := []struct {
		name string
		op   func() error
	}{
		{"submit", func() error { _, err := e.store.SubmitAction(ctx, id, "inc", nil); return err }},
		{"save", func() error { _, err := e.store.SaveGame(ctx, id); return err }},
		{"create", func() error {
			_, err := e.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally"})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.failAt = f.count() + 1
			wantCode(t, tt.op(), core.ReasonStorageFailure)
			sc, _ := e.store.GetScene(ctx, id)
			if countOf(t, sc) != 0 {
				t.Fatal("a failed write reached a read")
			}
			if l, _ := e.store.ListSaves(ctx, "p"); len(l) != 0 {
				t.Fatal("a failed save is listed")
			}
		})
	}
}

// prefixedIDs mints ids that never collide with CountingRecordIDs'.
type prefixedIDs struct {
	mu     sync.Mutex
	prefix string
	n      int
}

func (p *prefixedIDs) next(kind string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	return p.prefix + "-" + kind + "-" + strconv.Itoa(p.n)
}

func (p *prefixedIDs) NewSessionID() string { return p.next("session") }
func (p *prefixedIDs) NewSaveID() string    { return p.next("save") }
