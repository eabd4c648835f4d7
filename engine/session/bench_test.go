package session_test

import (
	"strconv"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// longGame plays a 1,000-action game on e and returns its session id.
func longGame(b *testing.B, e *env) string {
	b.Helper()
	id := e.create(b, "p")
	for i := 0; i < 1000; i++ {
		if res, err := e.store.SubmitAction(ctx, id, "inc", nil); err != nil || !res.OK {
			b.Fatal(err)
		}
	}
	return id
}

// BenchmarkSaveLoad1000Memory is saveGame + loadGame of a 1,000-action game
// on the in-memory record store (target: under 2 ms together).
func BenchmarkSaveLoad1000Memory(b *testing.B) {
	BenchSaveLoad(b, session.NewMemoryRecords())
}

// BenchSaveLoad runs the save+load benchmark over records.
func BenchSaveLoad(b *testing.B, records session.RecordStore) {
	e := newEnv(b, envOptions{records: records})
	id := longGame(b, e)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h, err := e.store.SaveGame(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		l, err := e.store.LoadGame(ctx, h.SaveID)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.store.Forget(ctx, l.SessionID)
		b.StartTimer()
	}
}

// BenchmarkListCampaigns50With500Saves lists a catalog of 50 campaigns for
// a profile holding 500 saves (target: under 5 ms).
func BenchmarkListCampaigns50With500Saves(b *testing.B) {
	reg := registryOf(v1)
	base := reg.Campaigns["tally"]
	reg.Order = nil
	reg.Campaigns = map[string]*core.Campaign{}
	for i := 0; i < 50; i++ {
		c := *base
		c.ID = "tally-" + strconv.Itoa(i)
		c.TitleKey = "tally.title" + strconv.Itoa(i)
		reg.Order = append(reg.Order, c.ID)
		reg.Campaigns[c.ID] = &c
		reg.Provenance[c.ID] = &core.Provenance{Strings: map[core.LocKey]string{c.TitleKey: "Tally " + strconv.Itoa(i)}}
	}
	eng, err := core.New(core.Host{Kinds: []core.Kind{tally{}}, Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	records := session.NewMemoryRecords()
	profiles := session.NewMemoryProfiles()
	st, _ := session.New(session.Config{Engine: eng, Records: records, Profiles: profiles, Clock: &clock{}, IDs: &session.CountingRecordIDs{}})
	h, err := st.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally-0", ProfileID: "p"})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		if _, err := st.SaveGame(ctx, h.SessionID); err != nil {
			b.Fatal(err)
		}
	}
	p := session.NewProfile("p")
	for i := 0; i < 50; i++ {
		p.Terminals = append(p.Terminals, session.TerminalRecord{CampaignID: "tally-" + strconv.Itoa(i), TerminalID: "odd"})
	}
	_ = profiles.Save(ctx, p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cat, err := st.ListCampaigns(ctx, "p", "")
		if err != nil || len(cat.Campaigns) != 50 || cat.Campaigns[49].Progress.Discovered != 1 {
			b.Fatal(err)
		}
	}
}
