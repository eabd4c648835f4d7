package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/static"
	"github.com/storyloom/storyloom/static/cardgame"
	"github.com/storyloom/storyloom/web"
)

// moduleRoot returns the directory of the main module's go.mod, so that the
// commands work from any directory of the repository.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the Storyloom module")
	}
	return filepath.Dir(mod), nil
}

// buildSite is what build and offline share: it reads the flags both take
// (name is the command's), builds the site with the single offline file,
// keeping compressed copies in .cache/site/ so that a build with nothing
// changed takes seconds, and returns the result, or nil and the command's
// exit code when the flags or the build failed; a failure is written to
// stderr as "bundle name: …".
func buildSite(name string, args []string, stderr io.Writer) (*site.Result, int) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "output directory (default dist/ at the module root)")
	fast := fl.Bool("fast", false, "lighter, faster compression (development)")
	if err := fl.Parse(args); err != nil {
		return nil, 2
	}
	fail := func(err error) (*site.Result, int) {
		fmt.Fprintf(stderr, "bundle %s: %v\n", name, err)
		return nil, 1
	}
	root, err := moduleRoot()
	if err != nil {
		return fail(err)
	}
	pages, err := fs.Sub(web.FS, "site")
	if err != nil {
		return fail(err)
	}
	decks, err := cardgame.FS.ReadFile("decks.json")
	if err != nil {
		return fail(err)
	}
	cardText, err := cardgame.Phrasebooks()
	if err != nil {
		return fail(err)
	}
	o := site.Options{Web: pages, Static: static.FS, Decks: decks, CardText: cardText, Out: *out, ModuleDir: root, Fast: *fast, Log: stderr, Offline: true,
		Kinds: registeredKinds(),
		Cache: filepath.Join(root, ".cache", "site")}
	if o.Out == "" {
		o.Out = filepath.Join(root, "dist")
	}
	res, err := site.Build(context.Background(), o)
	if err != nil {
		return fail(err)
	}
	return res, 0
}

// runBuild is `bundle build`: it builds the site into dist/, with the
// offline file, which the served library offers for download.
func runBuild(args []string, stdout, stderr io.Writer) int {
	res, code := buildSite("build", args, stderr)
	if res == nil {
		return code
	}
	fmt.Fprintf(stdout, "built %s: %d files, version %s\n", res.Out, len(res.Manifest.Files), res.Manifest.Version)
	return 0
}
