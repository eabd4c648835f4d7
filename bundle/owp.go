package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/storyloom/storyloom/bundle/owp"
)

// runOWP is `bundle owp`: it serves the OWP market sandbox on loopback
// until stopped.
func runOWP(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("owp", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:0", "loopback address to listen on, 127.0.0.1:PORT")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	srv, err := owp.Start(owp.Options{Addr: *addr})
	if err != nil {
		fmt.Fprintln(stderr, "bundle owp:", err)
		return 1
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "OWP market sandbox (owp-market-local/0.2) at %s\n", srv.URL())
	fmt.Fprintf(stdout, "instance id %s\n", srv.InstanceID())
	fmt.Fprintf(stdout, "operator view %s/operator (read-only); Ctrl-C stops it and discards everything\n", srv.URL())
	ctx, stop := untilStopped()
	defer stop()
	<-ctx.Done()
	return 0
}
