package sessiondb_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/bundle/sessiondb"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/engine/session/conformance"
)

// open opens a new database in the test's temporary directory.
func open(t testing.TB) *sessiondb.Store {
	return openAt(t, filepath.Join(t.TempDir(), "play.db"))
}

// openAt opens the database at path and closes it when the test ends
// (a store the test closed itself closes again harmlessly).
func openAt(t testing.TB, path string) *sessiondb.Store {
	t.Helper()
	s, err := sessiondb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRecordStoreConformance(t *testing.T) {
	conformance.RunRecordStore(t, func(t *testing.T) session.RecordStore { return open(t) })
}

func TestProfileStoreConformance(t *testing.T) {
	conformance.RunProfileStore(t, func(t *testing.T) session.ProfileStore { return open(t) })
}

func TestReopenKeepsRecordsAndMigratesOldProfiles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "play.db")
	s := openAt(t, path)
	if err := s.PutSession(ctx, session.SessionRecord{SessionID: "a", Blob: []byte(`{}`), Audience: "player"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetProfileDocument(ctx, "p", []byte(`{"formatVersion":1,"profileId":"p","achievements":[{"campaignId":"c","achievementId":"x"}]}`)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openAt(t, path)
	if _, ok, err := s.GetSession(ctx, "a"); !ok || err != nil {
		t.Fatalf("lost the session: %v", err)
	}
	res, err := s.Load(ctx, "p")
	if err != nil || res.Profile.FormatVersion != 3 || len(res.Profile.Achievements) != 1 || res.Profile.Terminals == nil {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestTwoHandlesDetectEachOthersWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "play.db")
	a := openAt(t, path)
	b := openAt(t, path)
	rec := session.SessionRecord{SessionID: "s", Blob: []byte(`{}`), Audience: "player"}
	if err := a.PutSession(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Revision = 1
	if err := b.PutSession(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := a.PutSession(ctx, rec); !session.IsConflict(err) {
		t.Fatalf("the second writer was not refused: %v", err)
	}
}

func TestEpochsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "play.db")
	s := openAt(t, path)
	epoch := func(id, version, digest string) content.StoredEpoch {
		return content.StoredEpoch{Digest: digest, Form: content.EpochForm{Campaign: content.StoredCampaign{ID: id, Version: version, Content: []byte(`{}`)}}}
	}
	for _, e := range []content.StoredEpoch{epoch("b", "1.0.0", "x"), epoch("a", "2.0.0", "y"), epoch("a", "1.0.0", "z"), epoch("b", "1.0.0", "w")} {
		if err := s.PutEpoch(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = openAt(t, path)
	got, err := s.Epochs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, e := range got {
		list = append(list, e.Form.Campaign.ID+"@"+e.Form.Campaign.Version+"="+e.Digest)
	}
	if strings.Join(list, " ") != "a@1.0.0=z a@2.0.0=y b@1.0.0=w" {
		t.Fatalf("epochs %v", list)
	}
}

// A database written before saves kept their logs in segments (no tail
// column on saves, no save_segments table) opens, its saves read as they
// were, and a segmented save can then be written beside them.
func TestADatabaseOfTheEarlierSchemaOpens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "play.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(`
CREATE TABLE saves (save_id TEXT PRIMARY KEY, profile_id TEXT, saved_at TEXT NOT NULL, record BLOB NOT NULL, blob BLOB NOT NULL) WITHOUT ROWID;
CREATE INDEX saves_by_profile ON saves(profile_id);
INSERT INTO saves VALUES ('v1', 'p', 't1', '{"saveId":"v1","campaignId":"c","savedAt":"t1","savedAtSeq":0,"audience":"player","profileId":"p"}', '{"whole":1}');`); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := sessiondb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, ok, err := s.GetSave(ctx, "v1")
	if err != nil || !ok || string(got.Blob) != `{"whole":1}` || got.Log != nil {
		t.Fatalf("the earlier save: %+v %v %v", got, ok, err)
	}
	seg := session.SaveRecord{SaveID: "v2", CampaignID: "c", SavedAt: "t2", ProfileID: "p",
		Blob: []byte(`{"k":1,"state":{"actionLog":[]}}`),
		Log:  &session.SaveLog{Segments: []session.Segment{{Seq: 0, Count: 1, Sum: "s", Entries: []byte(`{"a":1}`)}}}}
	if err := s.PutSave(ctx, seg); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListSaves(ctx, "p")
	if err != nil || len(list) != 2 {
		t.Fatalf("%d saves, %v", len(list), err)
	}
	for _, r := range list {
		doc, _ := r.Document()
		want := map[string]string{"v1": `{"whole":1}`, "v2": `{"k":1,"state":{"actionLog":[{"a":1}]}}`}[r.SaveID]
		if string(doc) != want {
			t.Fatalf("%s: %s, want %s", r.SaveID, doc, want)
		}
	}
}
