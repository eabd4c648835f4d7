package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storyloom/storyloom/bundle/mcpserver"
)

// mcpVersion is the version the server reports in the MCP handshake.
const mcpVersion = "0.1.0"

// runMCP is `bundle mcp`: the session store's MCP tools (docs/mcp.md) over
// stdio, or over streamable HTTP on a loopback address with -http. Logs go
// to stderr; on stdio, stdout carries only the protocol.
func runMCP(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var sf storeFlags
	sf.register(fl)
	httpAddr := fl.String("http", "", "serve streamable HTTP on this loopback address (e.g. 127.0.0.1:8090) instead of stdio")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bundle mcp [flags]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	if *httpAddr != "" {
		if err := checkLoopback(*httpAddr); err != nil {
			fmt.Fprintln(stderr, "bundle mcp:", err)
			return 2
		}
	}
	h, err := openStore(sf, storeOptions{})
	if err != nil {
		fmt.Fprintln(stderr, "bundle mcp:", err)
		return 1
	}
	defer func() { _ = h.close() }()
	h.printKeptWarnings(stderr, "bundle mcp: warning:")
	srv := mcpserver.New(h.store, mcpVersion)

	ctx, stop := untilStopped()
	defer stop()
	if *httpAddr == "" {
		fmt.Fprintf(stderr, "bundle mcp: serving MCP on stdio (records: %s)\n", h.where)
		if err := srv.Run(ctx, &mcpserver.LineTransport{In: os.Stdin, Out: stdout}); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr, "bundle mcp:", err)
			return 1
		}
		return 0
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		fmt.Fprintln(stderr, "bundle mcp:", err)
		return 1
	}
	return serveMCPHTTP(ctx, ln, srv, stdout, stderr, h.where)
}

// serveMCPHTTP serves srv as streamable HTTP on ln until ctx ends.
func serveMCPHTTP(ctx context.Context, ln net.Listener, srv *mcp.Server, stdout, stderr io.Writer, where string) int {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	fmt.Fprintf(stdout, "MCP (streamable HTTP) at http://%s/ (records: %s)\n", ln.Addr(), where)
	return serveUntil(ctx, handler, ln, stderr, "bundle mcp:")
}

// checkLoopback refuses an address whose host is not a loopback IP or
// localhost: the MCP server has no authentication of its own.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-http %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-http %q: only a loopback address (127.0.0.1, ::1, localhost) is served; the MCP server has no authentication", addr)
}
