package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/site"
)

// TestAnImportedSaveOfAVersionNotHeld exports a save of version 1 of the
// ferry story and imports it, through the library's file input, into
// browsers that never held version 1: one served version 2, whose
// migration from 1.0.0 renames the save's variable, loads it migrated
// and says so; one served version 3, which declares no migration, refuses
// it with save_requires_migration; one served a version 3.1.0 that
// declares a migration from 1.0.0 but has dropped the node the save
// stands on refuses it with migration_failed. A refused file changes
// nothing.
func TestAnImportedSaveOfAVersionNotHeld(t *testing.T) {
	t.Parallel()
	need(t)
	dir := t.TempDir()
	v1, v2, v3 := buildVersion(t, "1.0.0"), buildVersion(t, "2.0.0"), buildVersion(t, "3.0.0")
	v31 := buildMigratingV3(t, dir)

	// A save of version 1, standing on the deck, exported to a file.
	p := served(t, v1)
	startStory(t, p, "ferry")
	firstChoice(t, p)
	saveID := eval[string](p, `storyloom.saveGame({sessionId: decodeURIComponent(location.hash.split("/")[2])}).then((r) => r.saveId)`)
	data := eval[string](p, `storyloom.exportSave({saveId: `+jsString(saveID)+`}).then((r) => r.data)`)
	file := filepath.Join(dir, "ferry-1.0.0.json")
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// importFile picks the file in the library's import field; the page
	// shows the library already (served opened it).
	importFile := func(p *page) {
		p.screen("library")
		p.do(chromedp.SetUploadFiles(chromedp.CSS(`.import input[type="file"]`), []string{file}))
	}

	t.Run("migrated onto version 2", func(t *testing.T) {
		p := served(t, v2)
		importFile(p)
		p.screen("play")
		if got := p.notice("migrated"); !strings.Contains(got, "2.0.0") || !strings.Contains(got, "1.0.0") {
			t.Errorf("the notice reads %q", got)
		}
		p.waitJS(`document.querySelector(".scene-text")?.textContent === "The deck rolls under a grey sky."`)
	})
	for _, tc := range []struct {
		name string
		res  *site.Result
		code string
	}{
		{"refused by version 3", v3, "save_requires_migration"},
		{"refused by a migration that cannot apply", v31, "migration_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := served(t, tc.res)
			code := eval[string](p, `storyloom.importSave({data: `+jsString(data)+`}).then((r) => r.ok ? "imported" : r.error.code)`)
			if code != tc.code {
				t.Errorf("importSave answered %s, want %s", code, tc.code)
			}
			// A fresh library, so the refusal below is the file's.
			p.visit("")
			importFile(p)
			p.waitJS(`document.querySelector(".import .note.error") !== null`)
			if got := p.text(".import .note.error"); !strings.Contains(got, "That save was refused and nothing was changed") {
				t.Errorf("the library says %q", got)
			}
			if n := eval[int](p, `storyloom.listSaves({}).then((r) => r.saves.length)`); n != 0 {
				t.Errorf("%d saves after a refused import", n)
			}
		})
	}
}

// served serves a built site on an origin of its own, with a fresh
// IndexedDB, and opens a tab on it.
func served(t *testing.T, res *site.Result) *page {
	t.Helper()
	p := origin(t, res)
	p.attach(nil)
	p.visit("")
	return p
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// buildMigratingV3 builds version 3 of the test campaigns with the ferry
// at 3.1.0 declaring a migration from 1.0.0 (its variable renamed): the
// migration is valid, but a game standing on the deck, which 3.x dropped,
// cannot be carried over.
func buildMigratingV3(t *testing.T, dir string) *site.Result {
	t.Helper()
	res, err := buildCampaigns(dir, "3.1.0", "3.0.0", false, func(campaigns string) error {
		path := filepath.Join(campaigns, "ferry", "campaign.json")
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		edited := strings.Replace(string(src), `"version":"3.0.0",`, `"version":"3.1.0","migration":{"from":["1.0.0"],"renames":{"variable":{"coins":"fare"}}},`, 1)
		if edited == string(src) {
			return fmt.Errorf("the ferry at 3.0.0 names no version to edit: %.200s", src)
		}
		return os.WriteFile(path, []byte(edited), 0o644)
	})
	if err != nil {
		t.Fatalf("building the site with the ferry at 3.1.0: %v", err)
	}
	return res
}
