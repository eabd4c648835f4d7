package main

import (
	"fmt"
	"io"
)

// runOffline is `bundle offline`: it builds the site into dist/ as `bundle
// build` does and says where dist/storyloom-offline.html, the single file
// that plays from disk, is.
func runOffline(args []string, stdout, stderr io.Writer) int {
	res, code := buildSite("offline", args, stderr)
	if res == nil {
		return code
	}
	fmt.Fprintf(stdout, "wrote %s (%.2f MB), version %s\n", res.OfflinePath, float64(res.OfflineSize)/1e6, res.Manifest.Version)
	return 0
}
