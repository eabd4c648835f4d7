// Package golden owns the -update flag and the compare-or-write logic of
// golden files, and runs the playthrough fixtures of a package's testdata.
// Regenerate one package at a time:
//
//	go test ./engine/kinds/story -run Golden -update
//
// and review the diff before committing it.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/harness"
)

var update = flag.Bool("update", false, "rewrite golden files instead of comparing")

// Check compares got with the golden file at path, or writes it under
// -update. A one-byte difference fails.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (run with -update to create it)", path, err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s differs at byte %d:\n got: %s\nwant: %s", path, i, excerpt(got, i), excerpt(want, i))
	}
}

func excerpt(b []byte, at int) string {
	lo, hi := at-60, at+60
	if lo < 0 {
		lo = 0
	}
	if hi > len(b) {
		hi = len(b)
	}
	return string(b[lo:hi])
}

// Fixtures runs every playthrough fixture under dir: each subdirectory
// holding fixture.json (a harness.Fixture) is verified with harness.Verify
// and its serialization compared with expected.json beside it, and its event
// stream with events.json.
func Fixtures(t *testing.T, dir string, newEngine harness.NewEngine) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, ent := range entries {
		path := filepath.Join(dir, ent.Name(), "fixture.json")
		data, err := os.ReadFile(path)
		if !ent.IsDir() || os.IsNotExist(err) {
			continue
		}
		ran++
		t.Run(ent.Name(), func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			var f harness.Fixture
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			run, err := harness.Verify(newEngine, f)
			if err != nil {
				t.Fatal(err)
			}
			Check(t, filepath.Join(dir, ent.Name(), "expected.json"), run.Serialized)
			events, err := json.MarshalIndent(run.Events, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			Check(t, filepath.Join(dir, ent.Name(), "events.json"), append(events, '\n'))
		})
	}
	if ran == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
}

// Write stores f as dir/<f.Name>/fixture.json, for tests that generate
// fixtures from play under -update.
func Write(t testing.TB, dir string, f harness.Fixture) {
	t.Helper()
	if !*update {
		return
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, f.Name, "fixture.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Updating reports whether -update was given.
func Updating() bool { return *update }
