package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/storyloom/storyloom/bundle/site"
)

// runOffline is `bundle offline`: it builds the site into dist/ and writes
// dist/storyloom-offline.html, the single file that plays from disk.
func runOffline(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("offline", flag.ContinueOnError)
	fl.SetOutput(stderr)
	opts := siteOptions(fl)
	if err := fl.Parse(args); err != nil {
		return 2
	}
	o, err := opts(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bundle offline:", err)
		return 1
	}
	o.Offline = true
	res, err := site.Build(context.Background(), o)
	if err != nil {
		fmt.Fprintln(stderr, "bundle offline:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%.2f MB), version %s\n", res.OfflinePath, float64(res.OfflineSize)/1e6, res.Manifest.Version)
	return 0
}
