package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHostDatabaseIsIgnored: `make play` keeps rooms and Freeport games in
// .storyloom/host.db, which git must not offer to commit.
func TestHostDatabaseIsIgnored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	cmd := exec.Command("git", "check-ignore", "-q", "--no-index", ".storyloom/host.db")
	cmd.Dir = ".."
	if err := cmd.Run(); err != nil {
		t.Errorf("git does not ignore .storyloom/host.db: %v", err)
	}
}

// TestInstallScriptsAreDecided: every package of package-lock.json with an
// install script is allowed or denied in package.json's allowScripts, so
// that `npm ci` neither warns about scripts it did not run nor leaves a
// package the project needs half installed.
func TestInstallScriptsAreDecided(t *testing.T) {
	var lock struct {
		Packages map[string]struct {
			HasInstallScript bool `json:"hasInstallScript"`
		} `json:"packages"`
	}
	var pkg struct {
		AllowScripts map[string]bool `json:"allowScripts"`
	}
	for file, v := range map[string]any{"../package-lock.json": &lock, "../package.json": &pkg} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	n := 0
	for path, p := range lock.Packages {
		if !p.HasInstallScript {
			continue
		}
		n++
		name := path[strings.LastIndex(path, "node_modules/")+len("node_modules/"):]
		if _, ok := pkg.AllowScripts[name]; !ok {
			t.Errorf("%s has an install script that package.json's allowScripts neither allows nor denies", name)
		}
	}
	if n == 0 {
		t.Fatal("package-lock.json lists no install script: the test reads it wrong")
	}
	for _, need := range []string{"esbuild", "workerd"} {
		if !pkg.AllowScripts[need] {
			t.Errorf("wrangler needs %s's install script, which allowScripts does not allow", need)
		}
	}
}
