package sessiondb_test

import (
	"context"
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
