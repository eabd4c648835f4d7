package session_test

import (
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

var v2 = epoch{version: "2.0.0", step: 10, title: "Tally Two", extra: map[core.LocKey]string{"tally.new": "New text."}}

func TestAdoptionPoints(t *testing.T) {
	t.Run("create starts on the offer without a log entry", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		e.channel.set("2.0.0")
		id := e.create(t, "")
		blob := string(e.record(t, id).Blob)
		if !strings.Contains(blob, `"campaignVersion":"2.0.0"`) || !strings.Contains(blob, `"actionLog":[]`) {
			t.Fatalf("%s", blob)
		}
	})
	t.Run("create with an offer the archive lacks", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.channel.set("9.9.9")
		_, err := e.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally"})
		wantCode(t, err, core.ReasonUnknownCampaign)
	})
	t.Run("submit adopts after commit; the action resolved on the old epoch", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		id := e.create(t, "p")
		e.channel.set("2.0.0")
		res, err := e.store.SubmitAction(ctx, id, "inc", nil)
		if err != nil || !res.OK {
			t.Fatal(err)
		}
		if res.Changes[0].Value != float64(1) {
			t.Fatalf("the action resolved on the new epoch: %+v", res.Changes)
		}
		rec := e.record(t, id)
		if rec.Revision != 1 || !strings.Contains(string(rec.Blob), `"system":"content"`) {
			t.Fatalf("%d %s", rec.Revision, rec.Blob)
		}
		e.submit(t, id, "inc")
		if !strings.Contains(string(e.record(t, id).Blob), `"count":11`) {
			t.Fatal("the next action did not play on the new epoch")
		}
	})
	t.Run("a rejected action never adopts", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		id := e.create(t, "")
		e.channel.set("2.0.0")
		_, _ = e.store.SubmitAction(ctx, id, "end", nil)
		if strings.Contains(string(e.record(t, id).Blob), "2.0.0") {
			t.Fatal("adopted on a rejection")
		}
	})
	t.Run("queries never adopt", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		id := e.create(t, "")
		e.channel.set("2.0.0")
		calls := e.channel.count()
		_, _ = e.store.GetScene(ctx, id)
		_, _ = e.store.GetView(ctx, id)
		_, _ = e.store.GetStrings(ctx, id, "")
		if e.channel.count() != calls {
			t.Fatal("a query consulted the channel")
		}
	})
	t.Run("resume adopts as its own revision", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		id := e.create(t, "")
		e.channel.set("2.0.0")
		if _, err := e.store.ResumeSession(ctx, id); err != nil {
			t.Fatal(err)
		}
		if r := e.record(t, id); r.Revision != 1 {
			t.Fatalf("revision %d", r.Revision)
		}
		if _, err := e.store.ResumeSession(ctx, id); err != nil {
			t.Fatal(err)
		}
		if r := e.record(t, id); r.Revision != 1 {
			t.Fatal("a resume with nothing to adopt moved the revision")
		}
	})
	t.Run("a failed adoption write at resume is not a failure", func(t *testing.T) {
		f := &faulty{RecordStore: session.NewMemoryRecords()}
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}, records: f})
		id := e.create(t, "")
		f.failAt = f.count() + 1
		e.channel.set("2.0.0")
		sc, err := e.store.ResumeSession(ctx, id)
		if err != nil || sc.Body.TextKey != "tally.scene" {
			t.Fatal(err)
		}
		if r := e.record(t, id); r.Revision != 0 || strings.Contains(string(r.Blob), "2.0.0") {
			t.Fatal("a failed write left a trace")
		}
		if _, err := e.store.ResumeSession(ctx, id); err != nil || e.record(t, id).Revision != 1 {
			t.Fatal("the next resume did not offer again")
		}
	})
	t.Run("a refused adoption pins the session", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, {version: "2.0.0", step: 1, title: "x", refuse: true}}})
		id := e.create(t, "")
		e.channel.set("2.0.0")
		e.submit(t, id, "inc")
		if strings.Contains(string(e.record(t, id).Blob), "2.0.0") {
			t.Fatal("adopted a refused epoch")
		}
	})
	t.Run("a panicking channel is no offer", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		id := e.create(t, "")
		e.channel.set("panic")
		e.submit(t, id, "inc")
		if _, err := e.store.ResumeSession(ctx, id); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("load adopts on the new session's first write", func(t *testing.T) {
		e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
		id := e.create(t, "")
		h, _ := e.store.SaveGame(ctx, id)
		e.channel.set("2.0.0")
		l := e.load(t, h.SaveID)
		r := e.record(t, l.SessionID)
		if r.Revision != 0 || !r.ReplayCompatible || !strings.Contains(string(r.Blob), `"to":"2.0.0"`) {
			t.Fatalf("%+v %s", r, r.Blob)
		}
	})
}

func TestGetStrings(t *testing.T) {
	e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
	id := e.create(t, "")
	strs, err := e.store.GetStrings(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if strs["tally.title"] != "Tally" || strs["tally.reason.too_early"] == "" || strs["core.reason.unknown_action"] == "" {
		t.Fatalf("table %v", strs)
	}
	if _, ok := strs["tally.new"]; ok {
		t.Fatal("a key of an epoch the session never ran")
	}
	e.channel.set("2.0.0")
	res, _ := e.store.SubmitAction(ctx, id, "inc", nil)
	after, _ := e.store.GetStrings(ctx, id, "")
	if after["tally.title"] != "Tally Two" || after["tally.new"] != "New text." {
		t.Fatalf("the newer epoch did not win: %v", after["tally.title"])
	}
	for _, m := range res.Messages {
		if _, ok := after[m.Key]; !ok {
			t.Fatalf("message key %s does not resolve", m.Key)
		}
	}
	for _, a := range res.Scene.Actions {
		if _, ok := after[a.LabelKey]; !ok {
			t.Fatalf("label %s does not resolve", a.LabelKey)
		}
	}
	t.Run("locale with fallback", func(t *testing.T) {
		fr, err := e.store.GetStrings(ctx, id, "fr")
		if err != nil {
			t.Fatal(err)
		}
		if fr["tally.inc"] != "Ajouter" || fr["tally.title"] != "Compteur 2.0.0" || fr["tally.end"] != "Stop" {
			t.Fatalf("fr %v %v %v", fr["tally.inc"], fr["tally.title"], fr["tally.end"])
		}
		if de, _ := e.store.GetStrings(ctx, id, "de"); de["tally.inc"] != "Add" {
			t.Fatal("an unknown locale did not fall back")
		}
	})
}

// collidingArchive holds an epoch whose authored strings include an
// engine-owned key, as only a restored epoch can.
func TestResponseAliases(t *testing.T) {
	old := epoch{version: "1.0.0", step: 1, title: "Tally", extra: map[core.LocKey]string{"tally.reason.too_early": "Authored, long ago."}}
	e := newEnv(t, envOptions{epochs: []epoch{old}})
	id := e.create(t, "")
	sc, _ := e.store.GetScene(ctx, id)
	var reasonKey core.LocKey
	for _, a := range sc.Actions {
		if a.ID == "end" {
			reasonKey = a.ReasonKey
		}
	}
	if reasonKey != "~tally.reason.too_early" {
		t.Fatalf("reason key %q", reasonKey)
	}
	res, _ := e.store.SubmitAction(ctx, id, "end", nil)
	if res.Errors[0].MessageKey != "~tally.reason.too_early" || res.Messages[0].Key != "~tally.reason.too_early" {
		t.Fatalf("%+v %+v", res.Errors, res.Messages)
	}
	strs, _ := e.store.GetStrings(ctx, id, "")
	if strs["tally.reason.too_early"] != "Authored, long ago." || strs["~tally.reason.too_early"] != "Too early to end." {
		t.Fatalf("%q %q", strs["tally.reason.too_early"], strs["~tally.reason.too_early"])
	}
}

func TestListCampaigns(t *testing.T) {
	e := newEnv(t, envOptions{})
	tests := []struct {
		name      string
		profileID string
		locale    string
		doc       string
		title     string
		progress  *session.Progress
		warning   string
	}{
		{"anonymous", "", "", "", "Tally", nil, ""},
		{"new profile", "p", "", "", "Tally", &session.Progress{Discovered: 0, Total: 2}, core.ReasonProfileMissing},
		{"played profile", "q", "", `{"achievements":[],"formatVersion":2,"profileId":"q","terminals":[{"campaignId":"tally","terminalId":"odd"},{"campaignId":"tally","terminalId":"even"},{"campaignId":"other","terminalId":"odd"}]}`,
			"Tally", &session.Progress{Discovered: 2, Total: 2}, ""},
		{"corrupt profile", "r", "", `{`, "Tally", &session.Progress{Discovered: 0, Total: 2}, core.ReasonProfileCorrupt},
		{"french", "", "fr", "", "Compteur 1.0.0", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.doc != "" {
				e.profiles.SetDocument(tt.profileID, []byte(tt.doc))
			}
			cat, err := e.store.ListCampaigns(ctx, tt.profileID, tt.locale)
			if err != nil || len(cat.Campaigns) != 1 {
				t.Fatalf("%v %+v", err, cat)
			}
			c := cat.Campaigns[0]
			if c.CampaignID != "tally" || c.KindID != "tally" || c.TitleKey != "tally.title" {
				t.Fatalf("%+v", c)
			}
			if len(cat.Strings) != 1 || cat.Strings["tally.title"] != tt.title {
				t.Fatalf("strings %v", cat.Strings)
			}
			if (tt.progress == nil) != (c.Progress == nil) || (c.Progress != nil && *c.Progress != *tt.progress) {
				t.Fatalf("progress %+v, want %+v", c.Progress, tt.progress)
			}
			if tt.warning != "" && !hasWarning(cat.Warnings, tt.warning) {
				t.Fatalf("warnings %+v", cat.Warnings)
			}
		})
	}
}

func TestContentNotices(t *testing.T) {
	refusing := epoch{version: "3.0.0", step: 1, title: "x", refuse: true}
	tests := []struct {
		name    string
		epochs  []epoch
		offer   string
		want    string // the notice's outcome, "" for none
		from    string
		to      string
		reason  string
		version string // the version the game then plays
	}{
		{"no offer", []epoch{v1, v2}, "", "", "", "", "", "1.0.0"},
		{"adopted", []epoch{v1, v2}, "2.0.0", session.NoticeAdopted, "1.0.0", "2.0.0", "", "2.0.0"},
		{"kept", []epoch{v1, refusing}, "3.0.0", session.NoticeKept, "1.0.0", "3.0.0", core.ReasonContentIncompatible, "1.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(t *testing.T, h session.SessionHandle) {
				t.Helper()
				if tt.want == "" {
					if len(h.Notices) != 0 {
						t.Fatalf("notices %+v", h.Notices)
					}
					return
				}
				if len(h.Notices) != 1 {
					t.Fatalf("notices %+v", h.Notices)
				}
				n := h.Notices[0]
				if n.Outcome != tt.want || n.From != tt.from || n.To != tt.to || n.Reason != tt.reason || n.CampaignID != "tally" {
					t.Fatalf("notice %+v", n)
				}
				if n.Message.Key != "core.notice.content_"+tt.want || n.Message.Params["from"] != tt.from || n.Message.Params["to"] != tt.to {
					t.Fatalf("message %+v", n.Message)
				}
			}
			t.Run("resume", func(t *testing.T) {
				e := newEnv(t, envOptions{epochs: tt.epochs})
				id := e.create(t, "")
				e.channel.set(tt.offer)
				h, err := e.store.Resume(ctx, id)
				if err != nil || h.SessionID != id {
					t.Fatal(err)
				}
				check(t, h)
				if blob := string(e.record(t, id).Blob); !strings.Contains(blob, `"campaignVersion":"`+tt.version+`"`) {
					t.Fatalf("%s", blob)
				}
				strs, _ := e.store.GetStrings(ctx, id, "")
				for _, n := range h.Notices {
					if strs[n.Message.Key] == "" {
						t.Fatalf("%s is not in the string table", n.Message.Key)
					}
				}
			})
			t.Run("load", func(t *testing.T) {
				e := newEnv(t, envOptions{epochs: tt.epochs})
				id := e.create(t, "")
				s, _ := e.store.SaveGame(ctx, id)
				e.channel.set(tt.offer)
				h := e.load(t, s.SaveID)
				check(t, h)
			})
		})
	}
	t.Run("a save whose epoch is gone is migrated and says so", func(t *testing.T) {
		records := session.NewMemoryRecords()
		ids := &session.CountingRecordIDs{}
		old := newEnv(t, envOptions{records: records, ids: ids})
		id := old.create(t, "")
		s, _ := old.store.SaveGame(ctx, id)
		v3 := epoch{version: "3.0.0", step: 2, title: "Tally III", migrates: []string{"1.0.0"}}
		now := newEnv(t, envOptions{records: records, ids: ids, epochs: []epoch{v3}})
		h, err := now.store.LoadGame(ctx, s.SaveID)
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Notices) != 1 || h.Notices[0].Outcome != session.NoticeMigrated || h.Notices[0].From != "1.0.0" || h.Notices[0].To != "3.0.0" {
			t.Fatalf("%+v", h.Notices)
		}
	})
}

// TestAVersionTheHostCannotRun: a session on a version the engine does not
// hold is unknown_campaign, unless the host kept that version and found it
// cannot run (Config.Unsupported): then campaign_version_unsupported.
func TestAVersionTheHostCannotRun(t *testing.T) {
	records := session.NewMemoryRecords()
	ids := &session.CountingRecordIDs{}
	id := newEnv(t, envOptions{records: records, ids: ids}).create(t, "")
	v2 := epoch{version: "2.0.0", step: 1, title: "Tally II"}
	for _, tt := range []struct {
		name        string
		unsupported func(string, string) bool
		code        string
	}{
		{"not kept", nil, core.ReasonUnknownCampaign},
		{"kept but unsupported", func(c, v string) bool { return c == "tally" && v == "1.0.0" }, core.ReasonCampaignVersionUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			now := newEnv(t, envOptions{records: records, ids: ids, epochs: []epoch{v2}, unsupported: tt.unsupported})
			_, err := now.store.Resume(ctx, id)
			if session.Code(err) != tt.code {
				t.Fatalf("resume: %v (%s), want %s", err, session.Code(err), tt.code)
			}
			if _, err := now.store.BranchSession(ctx, id, 0); session.Code(err) != tt.code {
				t.Fatalf("branch: %v, want %s", err, tt.code)
			}
		})
	}
}
