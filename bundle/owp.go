package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/storyloom/storyloom/bundle/owp"
	"github.com/storyloom/storyloom/bundle/owp/demo"
)

// runOWP is `bundle owp`: it serves the OWP market sandbox on loopback
// until stopped. `bundle owp demo` plays the demonstration instead.
func runOWP(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo" {
		return runOWPDemo(args[1:], stdout, stderr)
	}
	fl := flag.NewFlagSet("owp", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:0", "loopback address to listen on, 127.0.0.1:PORT")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	ctx, stop := untilStopped()
	defer stop()
	return serveOWP(ctx, *addr, stdout, stderr)
}

// serveOWP serves a market on addr until ctx ends, after printing its
// address, instance id and operator view.
func serveOWP(ctx context.Context, addr string, stdout, stderr io.Writer) int {
	srv, err := owp.Start(owp.Options{Addr: addr})
	if err != nil {
		fmt.Fprintln(stderr, "bundle owp:", err)
		return 1
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "OWP market sandbox (owp-market-local/0.2) at %s\n", srv.URL())
	fmt.Fprintf(stdout, "instance id %s\n", srv.InstanceID())
	fmt.Fprintf(stdout, "operator view %s/operator (read-only); Ctrl-C stops it and discards everything\n", srv.URL())
	<-ctx.Done()
	return 0
}

// runOWPDemo is `bundle owp demo`: a market and its agents in this
// process, playing a writing round and the weather flow.
func runOWPDemo(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "bundle owp demo: takes no arguments")
		return 2
	}
	ctx, stop := untilStopped()
	defer stop()
	if err := demo.Run(ctx, stdout); err != nil {
		fmt.Fprintln(stderr, "bundle owp demo:", err)
		return 1
	}
	return 0
}
