package session_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

func hasWarning(ws []core.ValidationWarning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

func TestDecodeProfileMigratesOlderFormats(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		want    string
		warning string
	}{
		{"missing", "", `{"achievements":[],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[]}`, core.ReasonProfileMissing},
		{"version 1", `{"formatVersion":1,"profileId":"p","achievements":[{"campaignId":"c","achievementId":"a"}]}`,
			`{"achievements":[{"achievementId":"a","campaignId":"c"}],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[]}`, ""},
		{"version 2", `{"formatVersion":2,"profileId":"p","achievements":[],"terminals":[{"campaignId":"c","terminalId":"t"}]}`,
			`{"achievements":[],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[{"campaignId":"c","terminalId":"t"}]}`, ""},
		{"version 3", `{"formatVersion":3,"profileId":"p","achievements":[],"terminals":[],"kindData":[{"kindId":"z","dataVersion":1,"data":1},{"kindId":"a","dataVersion":1,"data":2}]}`,
			`{"achievements":[],"formatVersion":3,"kindData":[{"data":2,"dataVersion":1,"kindId":"a"},{"data":1,"dataVersion":1,"kindId":"z"}],"profileId":"p","terminals":[]}`, ""},
		{"not json", `{{`, `{"achievements":[],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[]}`, core.ReasonProfileCorrupt},
		{"unknown version", `{"formatVersion":9,"profileId":"p","achievements":[]}`, `{"achievements":[],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[]}`, core.ReasonProfileCorrupt},
		{"a key in another case", `{"formatVersion":1,"profileId":"p","achievements":[{"campaignId":"c","AchievementId":"a"}]}`,
			`{"achievements":[],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[]}`, core.ReasonProfileCorrupt},
		{"two records of one kind", `{"formatVersion":3,"profileId":"p","achievements":[],"terminals":[],"kindData":[{"kindId":"a","dataVersion":1,"data":1},{"kindId":"a","dataVersion":1,"data":2}]}`,
			`{"achievements":[],"formatVersion":3,"kindData":[],"profileId":"p","terminals":[]}`, core.ReasonProfileCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc []byte
			if tt.doc != "" {
				doc = []byte(tt.doc)
			}
			p, ws := session.DecodeProfile("p", doc)
			got, err := session.EncodeProfile(p)
			if err != nil || string(got) != tt.want {
				t.Fatalf("%v\n got %s\nwant %s", err, got, tt.want)
			}
			if (tt.warning == "") != (len(ws) == 0) || (tt.warning != "" && ws[0].Code != tt.warning) {
				t.Fatalf("warnings %+v, want %q", ws, tt.warning)
			}
		})
	}
}

func TestProfileMirrorsAchievementsAndTerminals(t *testing.T) {
	e := newEnv(t, envOptions{})
	id, _ := played(t, e, "p", "inc", "inc", "inc", "end")
	p, _ := e.profiles.Load(ctx, "p")
	if len(p.Profile.Achievements) != 1 || p.Profile.Achievements[0] != (session.AchievementRecord{CampaignID: "tally", AchievementID: "three"}) {
		t.Fatalf("achievements %+v", p.Profile.Achievements)
	}
	if len(p.Profile.Terminals) != 1 || p.Profile.Terminals[0].TerminalID != "odd" {
		t.Fatalf("terminals %+v", p.Profile.Terminals)
	}
	// A branch re-earning both records changes nothing (idempotent upsert).
	h, _ := e.store.BranchSession(ctx, id, 3)
	e.submit(t, h.SessionID, "end")
	again, _ := e.profiles.Load(ctx, "p")
	if len(again.Profile.Achievements) != 1 || len(again.Profile.Terminals) != 1 {
		t.Fatalf("duplicated: %+v", again.Profile)
	}
	cat, _ := e.store.ListCampaigns(ctx, "p", "")
	if pr := cat.Campaigns[0].Progress; pr == nil || *pr != (session.Progress{Discovered: 1, Total: 2}) {
		t.Fatalf("progress %+v", pr)
	}
}

func TestP1ProfileIsOnlyReadAtInitialState(t *testing.T) {
	// The seam gives a kind the profile nowhere but InitialState's third
	// argument; here the store's behaviour is checked: changing the profile
	// after creation changes no scene, view or action of the session.
	e := newEnv(t, envOptions{})
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[{"data":{"best":2},"dataVersion":2,"kindId":"tally"}],"profileId":"p","terminals":[]}`))
	id := e.create(t, "p")
	before, _ := e.store.GetScene(ctx, id)
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[{"data":{"best":99},"dataVersion":2,"kindId":"tally"}],"profileId":"p","terminals":[]}`))
	e.store.Forget(ctx, id)
	after, _ := e.store.ResumeSession(ctx, id)
	if !sameJSON(before, after) {
		t.Fatal("the profile reached a projection")
	}
}

func TestP2ProfiledSessionWithoutSliceSerializesAsAnonymous(t *testing.T) {
	e := newEnv(t, envOptions{})
	anon, _ := played(t, e, "", "inc")
	prof, _ := played(t, e, "p", "inc")
	a, p := e.record(t, anon).Blob, e.record(t, prof).Blob
	// Game ids differ by construction; everything else is equal.
	a = bytes.Replace(a, []byte(`"gameId":"game-1"`), []byte(`"gameId":"g"`), 1)
	p = bytes.Replace(p, []byte(`"gameId":"game-2"`), []byte(`"gameId":"g"`), 1)
	if !bytes.Equal(a, p) {
		t.Fatalf("\n%s\n%s", a, p)
	}
}

func TestP3UnknownKindRecordSurvivesByteForByte(t *testing.T) {
	e := newEnv(t, envOptions{})
	alien := `{"data":{"z":[1,2,{"y":"\u00e9"}]},"dataVersion":7,"kindId":"world-graph"}`
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[`+alien+`],"profileId":"p","terminals":[]}`))
	_, _ = played(t, e, "p", "inc", "inc", "inc")
	doc := string(e.profiles.Document("p"))
	if !strings.Contains(doc, `{"data":{"z":[1,2,{"y":"é"}]},"dataVersion":7,"kindId":"world-graph"}`) {
		t.Fatalf("alien record changed: %s", doc)
	}
	if !strings.Contains(doc, `"kindId":"tally"`) {
		t.Fatalf("no tally slice: %s", doc)
	}
}

// brokenProfiles fails every operation.
type brokenProfiles struct{ loadFails bool }

func (b brokenProfiles) Load(_ context.Context, id string) (session.ProfileLoadResult, error) {
	if b.loadFails {
		return session.ProfileLoadResult{}, errors.New("gone")
	}
	return session.ProfileLoadResult{Profile: session.NewProfile(id)}, nil
}
func (brokenProfiles) Save(context.Context, session.Profile) error { return errors.New("read-only") }

func TestP4ProfileFailuresNeverChangeTheAction(t *testing.T) {
	reference := newEnv(t, envOptions{})
	refID, refBlobs := played(t, reference, "", "inc", "inc", "inc")
	_ = refID
	tests := []struct {
		name     string
		profiles session.ProfileStore
		action   string
		params   core.Params
		warning  string
	}{
		{"write fails", brokenProfiles{}, "inc", nil, core.ReasonProfileWriteFailed},
		{"read fails", brokenProfiles{loadFails: true}, "inc", nil, core.ReasonProfileWriteFailed},
		{"fold panics", nil, "boom", nil, core.ReasonProfileKindDataRejected},
		{"slice too large", nil, "note", core.Params{"text": strings.Repeat("x", session.MaxKindDataBytes)}, core.ReasonProfileKindDataRejected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			if tt.profiles != nil {
				e.store, _ = session.New(session.Config{Engine: e.engine, Records: e.records, Profiles: tt.profiles, Clock: e.clock, IDs: e.ids})
			}
			id := e.create(t, "p")
			res, err := e.store.SubmitAction(ctx, id, tt.action, tt.params)
			if err != nil || !res.OK {
				t.Fatalf("%v %+v", err, res)
			}
			if !hasWarning(res.Warnings, tt.warning) {
				t.Fatalf("warnings %+v, want %s", res.Warnings, tt.warning)
			}
			if tt.action == "inc" {
				e.submit(t, id, "inc", "inc")
				if got := e.record(t, id).Blob; !bytes.Equal(got, refBlobs[3]) {
					t.Fatalf("state differs from an anonymous game:\n%s\n%s", got, refBlobs[3])
				}
			}
		})
	}
}

func TestP5KindDataHasOneRecordPerKindInOrder(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.profiles.SetDocument("p", []byte(`{"achievements":[],"formatVersion":3,"kindData":[{"data":1,"dataVersion":1,"kindId":"zeta"},{"data":1,"dataVersion":1,"kindId":"alpha"}],"profileId":"p","terminals":[]}`))
	_, _ = played(t, e, "p", "inc", "inc")
	p, _ := e.profiles.Load(ctx, "p")
	var kinds []string
	for _, r := range p.Profile.KindData {
		kinds = append(kinds, r.KindID)
	}
	if strings.Join(kinds, ",") != "alpha,tally,zeta" {
		t.Fatalf("kinds %v", kinds)
	}
	dup := session.NewProfile("p")
	dup.KindData = []session.KindProfileRecord{{KindID: "a", DataVersion: 1, Data: []byte("1")}, {KindID: "a", DataVersion: 1, Data: []byte("2")}}
	if _, err := session.EncodeProfile(dup); err == nil {
		t.Fatal("encoded two records of one kind")
	}
}

func TestP6ProfileIsWrittenOnlyWhenItChanges(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc")
	w := e.profiles.Writes()
	if w != 1 {
		t.Fatalf("first fold wrote %d times", w)
	}
	// note "" folds to the same slice: no write.
	e.submit(t, id, "note")
	if e.profiles.Writes() != w {
		t.Fatal("an unchanged fold wrote")
	}
	e.submit(t, id, "inc")
	if e.profiles.Writes() != w+1 {
		t.Fatal("a changed fold did not write")
	}
}

func TestP7FoldIsPure(t *testing.T) {
	k := tally{}
	changes := []core.StateChange{{Path: "var.count", Value: float64(5)}, {Path: "var.note", Value: "n"}}
	a, _ := k.FoldProfile([]byte(`{"best":2}`), nil, changes)
	b, _ := k.FoldProfile([]byte(`{"best":2}`), nil, changes)
	if !bytes.Equal(a, b) {
		t.Fatal("the same fold gave two results")
	}
}

func TestP8FoldIsIdempotent(t *testing.T) {
	k := tally{}
	changes := []core.StateChange{{Path: "var.count", Value: float64(5)}}
	once, _ := k.FoldProfile(nil, nil, changes)
	twice, _ := k.FoldProfile(once, nil, changes)
	if !bytes.Equal(once, twice) {
		t.Fatalf("%s vs %s", once, twice)
	}
	// Observable through the store (P6): replaying an action's changes
	// writes nothing the second time.
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc")
	h, _ := e.store.BranchSession(ctx, id, 0)
	w := e.profiles.Writes()
	e.submit(t, h.SessionID, "inc")
	if e.profiles.Writes() != w {
		t.Fatal("re-folding the same changes wrote the profile")
	}
}

func TestProfileSliceVersions(t *testing.T) {
	tests := []struct {
		name      string
		record    string
		wantBonus string
		warning   string
	}{
		{"current", `{"data":{"best":3},"dataVersion":2,"kindId":"tally"}`, `"bonus":3`, ""},
		{"older, migrated", `{"data":{"b":5},"dataVersion":1,"kindId":"tally"}`, `"bonus":5`, ""},
		{"older, migration fails", `{"data":{"b":5},"dataVersion":0,"kindId":"tally"}`, `"bonus":0`, core.ReasonProfileKindDataUnreadable},
		{"newer", `{"data":{"best":7},"dataVersion":3,"kindId":"tally"}`, `"bonus":0`, core.ReasonProfileKindDataUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			doc := `{"achievements":[],"formatVersion":3,"kindData":[` + tt.record + `],"profileId":"p","terminals":[]}`
			e.profiles.SetDocument("p", []byte(doc))
			h, err := e.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally", ProfileID: "p"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(e.record(t, h.SessionID).Blob), tt.wantBonus) {
				t.Fatalf("blob %s", e.record(t, h.SessionID).Blob)
			}
			if (tt.warning != "") != hasWarning(h.Warnings, tt.warning) {
				t.Fatalf("warnings %+v", h.Warnings)
			}
			if tt.name == "newer" {
				e.submit(t, h.SessionID, "inc")
				if !strings.Contains(string(e.profiles.Document("p")), tt.record) {
					t.Fatal("a newer slice was folded over")
				}
			}
		})
	}
}

func TestANewProfileIsNotReportedMissingOnEveryAction(t *testing.T) {
	e := newEnv(t, envOptions{})
	h, err := e.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally", ProfileID: "new"})
	if err != nil || !hasWarning(h.Warnings, core.ReasonProfileMissing) {
		t.Fatalf("creation should say the profile is new: %v %+v", err, h.Warnings)
	}
	for i := 0; i < 3; i++ {
		res, err := e.store.SubmitAction(ctx, h.SessionID, "inc", nil)
		if err != nil || !res.OK {
			t.Fatal(err, res.Errors)
		}
		if hasWarning(res.Warnings, core.ReasonProfileMissing) {
			t.Fatalf("action %d warns profile_missing: %+v", i, res.Warnings)
		}
	}
}
