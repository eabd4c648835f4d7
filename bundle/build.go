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

// siteOptions are the build options shared by build and offline.
func siteOptions(fl *flag.FlagSet) func(stderr io.Writer) (site.Options, error) {
	out := fl.String("out", "", "output directory (default dist/ at the module root)")
	fast := fl.Bool("fast", false, "lighter, faster compression (development)")
	return func(stderr io.Writer) (site.Options, error) {
		root, err := moduleRoot()
		if err != nil {
			return site.Options{}, err
		}
		pages, err := fs.Sub(web.FS, "site")
		if err != nil {
			return site.Options{}, err
		}
		o := site.Options{Web: pages, Static: static.FS, Out: *out, ModuleDir: root, Fast: *fast, Log: stderr}
		if o.Out == "" {
			o.Out = filepath.Join(root, "dist")
		}
		return o, nil
	}
}

// runBuild is `bundle build`: it builds the site into dist/.
func runBuild(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("build", flag.ContinueOnError)
	fl.SetOutput(stderr)
	opts := siteOptions(fl)
	if err := fl.Parse(args); err != nil {
		return 2
	}
	o, err := opts(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bundle build:", err)
		return 1
	}
	res, err := site.Build(context.Background(), o)
	if err != nil {
		fmt.Fprintln(stderr, "bundle build:", err)
		return 1
	}
	fmt.Fprintf(stdout, "built %s: %d files, version %s\n", res.Out, len(res.Manifest.Files), res.Manifest.Version)
	return 0
}
