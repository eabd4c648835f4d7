package sessiondb

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/session"
)

// TestOpenSyncsEveryWrite checks the session store syncs every write to
// disk (synchronous=FULL), so an acknowledged action or save survives a
// power cut, also after the store is reopened.
func TestOpenSyncsEveryWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "play.db")
	for _, id := range []string{"created", "reopened"} {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.PutSession(context.Background(), session.SessionRecord{SessionID: id, Blob: []byte(`{}`), Audience: "player"}); err != nil {
			t.Fatal(err)
		}
		var level int
		if err := s.db.QueryRow("PRAGMA synchronous").Scan(&level); err != nil {
			t.Fatal(err)
		}
		if level != 2 {
			t.Errorf("%s: PRAGMA synchronous = %d, want 2 (FULL)", id, level)
		}
		s.Close()
	}
}
