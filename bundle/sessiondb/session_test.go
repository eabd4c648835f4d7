package sessiondb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// counter is a minimal kind for driving the session store over SQLite.
type counter struct{}

type counterState struct {
	N int `json:"n"`
}

func (counter) ID() string                                 { return "counter" }
func (counter) Version() string                            { return "1.0.0" }
func (counter) ReasonCodes() []string                      { return nil }
func (counter) ReasonMessages() map[core.LocKey]string     { return map[core.LocKey]string{} }
func (counter) EventNames() []string                       { return nil }
func (counter) DecodeContent(json.RawMessage) (any, error) { return struct{}{}, nil }
func (counter) BuildContent(json.RawMessage, string) (any, []core.AuthoredText, []core.ValidationError) {
	return struct{}{}, nil, nil
}
func (counter) ValidateCampaign(*core.Campaign, map[core.LocKey]string) core.ValidationResult {
	return core.ValidationResult{OK: true}
}
func (counter) InitialState(*core.Campaign, *core.Context, json.RawMessage) core.InitialResult {
	return core.InitialResult{State: &counterState{}, Status: core.StatusActive}
}
func (counter) AvailableActions(any, *core.ProjectionContext) []core.AvailableAction {
	return []core.AvailableAction{{ID: "inc", LabelKey: "counter.inc", Available: true}}
}
func (counter) Scene(any, *core.ProjectionContext) core.SceneBody {
	return core.SceneBody{TextKey: "counter.scene", Text: "A counter."}
}
func (counter) Advance(state any, actionID string, _ core.Params, _ *core.Context) core.AdvanceResult {
	s := state.(*counterState)
	if actionID != "inc" {
		return core.Reject(s, core.Errorf(core.ReasonUnknownAction, "actionId", "no action %q", actionID))
	}
	return core.AdvanceResult{State: &counterState{N: s.N + 1}, Status: core.StatusActive}
}
func (counter) Project(state any, _ core.Audience, _ *core.ProjectionContext) any { return state }
func (counter) DecodeState(raw json.RawMessage, _ *core.Campaign) (any, error) {
	var s counterState
	return &s, json.Unmarshal(raw, &s)
}
func (counter) Outcome(any) core.Outcome { return core.Outcome{} }

type ids struct {
	mu sync.Mutex
	n  int
}

func (i *ids) next(p string) string {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.n++
	return fmt.Sprintf("%s-%d", p, i.n)
}
func (i *ids) NewSessionID() string { return i.next("session") }
func (i *ids) NewSaveID() string    { return i.next("save") }
func (i *ids) NewGameID() string    { return i.next("game") }
func (i *ids) NewSeed() string      { return i.next("seed") }

type clock struct{ ids }

func (c *clock) Now() string { return "2026-01-01T00:00:00Z#" + c.next("t") }

func newSessionStore(t testing.TB, records session.RecordStore, profiles session.ProfileStore, id *ids) *session.Store {
	t.Helper()
	strs := map[core.LocKey]string{"counter.title": "Counter", "counter.inc": "Add", "counter.scene": "A counter."}
	reg := &core.Registry{
		Order:      []string{"counter"},
		Campaigns:  map[string]*core.Campaign{"counter": {ID: "counter", KindID: "counter", Version: "1.0.0", TitleKey: "counter.title", Content: struct{}{}}},
		Strings:    strs,
		Provenance: map[string]*core.Provenance{"counter": {Strings: strs}},
	}
	eng, err := core.New(core.Host{Kinds: []core.Kind{counter{}}, Registry: reg, IDs: id})
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.New(session.Config{Engine: eng, Records: records, Profiles: profiles, Clock: &clock{}, IDs: id})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSessionStoreOverSQLite(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	id := &ids{}
	st := newSessionStore(t, db, db, id)
	h, err := st.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "counter", ProfileID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if res, err := st.SubmitAction(ctx, h.SessionID, "inc", nil); err != nil || !res.OK {
			t.Fatal(err)
		}
	}
	sv, err := st.SaveGame(ctx, h.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	// Another process over the same database.
	other := newSessionStore(t, db, db, id)
	l, err := other.LoadGame(ctx, sv.SaveID)
	if err != nil || string(l.Scene.View.KindView) != `{"n":3}` {
		t.Fatalf("%v %s", err, l.Scene.View.KindView)
	}
	if _, err := other.SubmitAction(ctx, h.SessionID, "inc", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SubmitAction(ctx, h.SessionID, "inc", nil); session.Code(err) != "concurrent_modification" {
		t.Fatalf("a stale instance was not refused: %v", err)
	}
	if res, err := st.SubmitAction(ctx, h.SessionID, "inc", nil); err != nil || !res.OK || string(res.Scene.View.KindView) != `{"n":5}` {
		t.Fatalf("the retry did not build on the winner: %v", err)
	}
	list, _ := st.ListSaves(ctx, "p")
	if len(list) != 1 {
		t.Fatalf("%+v", list)
	}
	if err := st.DeleteSave(ctx, "p", sv.SaveID, "stale"); session.Code(err) != "concurrent_modification" {
		t.Fatalf("%v", err)
	}
	if err := st.DeleteSave(ctx, "p", sv.SaveID, sv.SavedAt); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkSaveLoad1000SQLite is saveGame + loadGame of a 1,000-action game
// on SQLite in WAL mode (target: under 10 ms together).
func BenchmarkSaveLoad1000SQLite(b *testing.B) {
	ctx := context.Background()
	db := open(b)
	st := newSessionStore(b, db, db, &ids{})
	h, err := st.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "counter", ProfileID: "p"})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		if _, err := st.SubmitAction(ctx, h.SessionID, "inc", nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sv, err := st.SaveGame(ctx, h.SessionID)
		if err != nil {
			b.Fatal(err)
		}
		l, err := st.LoadGame(ctx, sv.SaveID)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st.Forget(ctx, l.SessionID)
		b.StartTimer()
	}
}

// BenchmarkStoreSubmitActionAtHistorySQLite is one SubmitAction through the
// session store on SQLite (WAL, synchronous=FULL), autosave included,
// after n logged actions: the SQLite point of issue 21's growth target.
// The game of n actions is played on a memory store and loaded into the
// SQLite one from its save file (one write), then reloaded every 100
// actions, untimed, so the history stays within n..n+100.
func BenchmarkStoreSubmitActionAtHistorySQLite(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			mem := newSessionStore(b, session.NewMemoryRecords(), session.NewMemoryProfiles(), &ids{})
			h, err := mem.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "counter", ProfileID: "p"})
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < n; i++ {
				if _, err := mem.SubmitAction(ctx, h.SessionID, "inc", nil); err != nil {
					b.Fatal(err)
				}
			}
			sv, err := mem.SaveGame(ctx, h.SessionID)
			if err != nil {
				b.Fatal(err)
			}
			doc, err := mem.ExportSave(ctx, "p", sv.SaveID)
			if err != nil {
				b.Fatal(err)
			}
			db := open(b)
			st := newSessionStore(b, db, db, &ids{})
			imported, err := st.ImportSave(ctx, "p", doc)
			if err != nil {
				b.Fatal(err)
			}
			load := func() string {
				l, err := st.LoadGame(ctx, imported.SaveID)
				if err != nil {
					b.Fatal(err)
				}
				return l.SessionID
			}
			id := load()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%100 == 0 {
					b.StopTimer()
					st.Forget(ctx, id)
					id = load()
					b.StartTimer()
				}
				if res, err := st.SubmitAction(ctx, id, "inc", nil); err != nil || !res.OK {
					b.Fatal(err)
				}
			}
		})
	}
}
