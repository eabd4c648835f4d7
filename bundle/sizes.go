package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/storyloom/storyloom/bundle/site"
)

// runSizes is `bundle sizes`: it prints the raw, gzip and brotli size of
// every file of the built site, the module's, and the first load's.
func runSizes(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("sizes", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("dir", "", "built site (default dist/ at the module root)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		root, err := moduleRoot()
		if err != nil {
			fmt.Fprintln(stderr, "bundle sizes:", err)
			return 1
		}
		*dir = filepath.Join(root, "dist")
	}
	s, err := site.MeasureSizes(os.DirFS(*dir))
	if err == nil {
		err = s.Write(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bundle sizes:", err)
		return 1
	}
	return 0
}
