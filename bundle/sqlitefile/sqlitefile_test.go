package sqlitefile

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenIsDurable: a file opened, and opened again, is in WAL mode with
// synchronous=FULL, a busy timeout, the extra pragmas asked for, and the
// schema applied once.
func TestOpenIsDurable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.db")
	const schema = `CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;`
	for _, round := range []string{"created", "reopened"} {
		db, err := Open(path, schema, "foreign_keys(ON)")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO records (key, data) VALUES (?, ?)`, round, []byte("x")); err != nil {
			t.Fatalf("%s: %v", round, err)
		}
		for _, tc := range []struct {
			pragma string
			want   string
		}{
			{"journal_mode", "wal"},
			{"synchronous", "2"}, // FULL
			{"busy_timeout", "10000"},
			{"foreign_keys", "1"},
		} {
			var got string
			if err := db.QueryRow("PRAGMA " + tc.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s: PRAGMA %s = %s, want %s", round, tc.pragma, got, tc.want)
			}
		}
		if n := db.Stats().MaxOpenConnections; n != 1 {
			t.Errorf("%s: %d connections at most, want 1", round, n)
		}
		db.Close()
	}
}

// TestOpenRefuses: a schema that does not run, and a database that
// cannot be in WAL mode (one in memory), are refused with the reason.
func TestOpenRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, path, schema, want string
	}{
		{"a bad schema", filepath.Join(t.TempDir(), "bad.db"), `CREATE TABLE (`, "schema: "},
		{"no WAL", ":memory:", `SELECT 1`, "is not in WAL mode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(tc.path, tc.schema)
			if err == nil {
				db.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want %q in it", err, tc.want)
			}
		})
	}
}
