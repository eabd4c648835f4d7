package hostingdb

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/bundle/hosting"
)

// synchronous reads the connection's PRAGMA synchronous: 1 NORMAL, 2 FULL.
func synchronous(t testing.TB, s *Store) int {
	t.Helper()
	var level int
	if err := s.db.QueryRow("PRAGMA synchronous").Scan(&level); err != nil {
		t.Fatal(err)
	}
	return level
}

// TestOpenSyncsEveryCommit checks the store syncs every commit to disk
// (synchronous=FULL), so nothing the host acknowledged after a Commit can
// be rolled back by a power cut, also after the store is reopened.
func TestOpenSyncsEveryCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.db")
	for _, round := range []string{"created", "reopened"} {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(context.Background(), []hosting.Write{{Key: round, Data: []byte("x")}}); err != nil {
			t.Fatal(err)
		}
		if got := synchronous(t, s); got != 2 {
			t.Errorf("%s: PRAGMA synchronous = %d, want 2 (FULL)", round, got)
		}
		s.Close()
	}
}

// BenchmarkCommitSync is the cost of durability: one Commit updating a
// 4 KiB record (a room's size) with synchronous=FULL, the host's setting,
// against NORMAL, which syncs only at WAL checkpoints and so can lose the
// last commits in a power cut.
func BenchmarkCommitSync(b *testing.B) {
	for _, mode := range []string{"FULL", "NORMAL"} {
		b.Run(mode, func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "host.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if _, err := s.db.Exec("PRAGMA synchronous=" + mode); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			data := []byte(strings.Repeat("r", 4096))
			if err := s.Commit(ctx, []hosting.Write{{Key: "room", Data: data}}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.Commit(ctx, []hosting.Write{{Key: "room", Data: data, Version: int64(i + 1)}}); err != nil {
					b.Fatal(fmt.Errorf("commit %d: %w", i, err))
				}
			}
		})
	}
}
