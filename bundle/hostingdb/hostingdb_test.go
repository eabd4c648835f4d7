package hostingdb_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/hostingdb"
)

// TestCommit checks the optimistic-concurrency contract: a write names
// the version it read, and any mismatch fails the whole Commit.
func TestCommit(t *testing.T) {
	ctx := context.Background()
	st, err := hostingdb.Open(filepath.Join(t.TempDir(), "sub", "host.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	steps := []struct {
		name   string
		writes []hosting.Write
		err    error
	}{
		{name: "create", writes: []hosting.Write{{Key: "a", Data: []byte("1")}, {Key: "b", Data: []byte("x")}}},
		{name: "create again conflicts", writes: []hosting.Write{{Key: "a", Data: []byte("2")}}, err: hosting.ErrConflict},
		{name: "update at the read version", writes: []hosting.Write{{Key: "a", Data: []byte("2"), Version: 1}}},
		{name: "stale update conflicts and writes nothing", writes: []hosting.Write{{Key: "b", Data: []byte("y"), Version: 1}, {Key: "a", Data: []byte("3"), Version: 1}}, err: hosting.ErrConflict},
		{name: "delete at the read version", writes: []hosting.Write{{Key: "b", Version: 1}}},
	}
	for _, s := range steps {
		if err := st.Commit(ctx, s.writes); !errors.Is(err, s.err) {
			t.Fatalf("%s: %v, want %v", s.name, err, s.err)
		}
	}
	a, _ := st.Load(ctx, "a")
	b, _ := st.Load(ctx, "b")
	if string(a.Data) != "2" || a.Version != 2 || b.Version != 0 || b.Data != nil {
		t.Fatalf("a = %q v%d, b = %q v%d", a.Data, a.Version, b.Data, b.Version)
	}
	recs, _ := st.List(ctx, "")
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
}
