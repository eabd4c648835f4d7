// Command bundle is Storyloom's native host: it builds the site, makes the
// offline bundle, serves the game locally, validates campaigns, and hosts
// rooms, the Freeport trading endpoint, the MCP server and the OWP market
// sandbox.
//
// Usage:
//
//	go run ./bundle <command> [flags] [args]
//
// Run `go run ./bundle help` for the list of commands.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand of bundle.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is every subcommand, by name.
var commands = map[string]command{
	"build":    {"build the site into dist/ (WASM module, hashed assets, service worker)", runBuild},
	"serve":    {"serve dist/ on 127.0.0.1:8080 (-addr to change)", runServe},
	"offline":  {"build (as build does) and say where dist/storyloom-offline.html, the single offline file, is", runOffline},
	"sizes":    {"print raw, gzip and brotli sizes of the files in dist/", runSizes},
	"validate": {"validate campaigns and report findings by tier", runValidate},
	"mcp":      {"serve the session store's MCP tools on stdio (-http 127.0.0.1:PORT for HTTP)", runMCP},
	"play":     {"play a campaign in the terminal (-script FILE for a reproducible run)", runPlay},
	"table":    {"sit at a card game table of a rooms host in the terminal (-create FORMAT or -join ROOM)", runTable},
	"owp":      {"serve the OWP market sandbox on 127.0.0.1 (`owp demo` plays its demonstration)", runOWP},
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "bundle: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: go run ./bundle <command> [flags] [args]")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
