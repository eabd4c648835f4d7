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
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/storyloom/storyloom/bundle/nativehost"
	"github.com/storyloom/storyloom/bundle/serving"
	"github.com/storyloom/storyloom/bundle/site"
)

// runServe is `bundle serve`: it serves dist/ on 127.0.0.1:8080.
func runServe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := fl.String("dir", "", "built site to serve (default dist/ at the module root)")
	db := fl.String("db", "", "SQLite file for rooms and Freeport games (default .storyloom/host.db at the module root)")
	closed := fl.Bool("freeport-closed", false, "close the Freeport game to new players (its players play on)")
	perAddr := fl.Int("conns-per-addr", serving.ConnsPerAddr, "most connections one client IP may hold open")
	hosts := fl.String("hosts", "", "comma-separated host names the room WebSocket answers to, * for any (default: loopback names only)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		root, err := moduleRoot()
		if err != nil {
			fmt.Fprintln(stderr, "bundle serve:", err)
			return 1
		}
		*dir = filepath.Join(root, "dist")
	}
	if _, err := os.Stat(filepath.Join(*dir, site.IndexName)); err != nil {
		fmt.Fprintf(stderr, "bundle serve: %s has no built site; run `go run ./bundle build` first\n", *dir)
		return 1
	}
	nativehost.TuneGC()
	var names []string
	if *hosts != "" {
		names = strings.Split(*hosts, ",")
	}
	host, err := openHost(*db, names, *closed)
	if err != nil {
		fmt.Fprintln(stderr, "bundle serve:", err)
		return 1
	}
	defer host.Close()
	var mounts []site.Mount
	for pattern, h := range host.Handlers() {
		mounts = append(mounts, site.Mount{Pattern: pattern, Handler: serving.WithDeadlines(h, routeDeadlines(pattern))})
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "bundle serve:", err)
		return 1
	}
	fmt.Fprintf(stdout, "Storyloom is being served at http://%s/\n", ln.Addr())

	ctx, stop := untilStopped()
	defer stop()
	h := serving.WithDeadlines(site.Handler(os.DirFS(*dir), mounts...), serving.PageDeadlines)
	return serveUntil(ctx, h, serving.LimitPerAddr(ln, *perAddr), stderr, "bundle serve:")
}

// routeDeadlines are the read and write deadlines of a host route, by its
// ServeMux pattern (nativehost.Host.Handlers).
func routeDeadlines(pattern string) serving.Deadlines {
	switch pattern {
	case "GET /rooms/ws":
		return serving.SocketDeadlines
	case "GET /rooms/view":
		return serving.PollDeadlines
	}
	return serving.CommandDeadlines
}

// untilStopped is the context a long-running command (serve, mcp) runs
// in: it ends on Ctrl-C or SIGTERM.
func untilStopped() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// serveUntil serves h on ln until ctx ends, then shuts the server down,
// giving the requests in flight five seconds. It returns the command's
// exit code; a failure is written to stderr after prefix.
func serveUntil(ctx context.Context, h http.Handler, ln net.Listener, stderr io.Writer, prefix string) int {
	srv := serving.Server(h, serving.ReadHeaderTimeout, serving.IdleTimeout)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, prefix, err)
		return 1
	}
	return 0
}

// openHost opens the room server and the Freeport endpoint (bundle/hosting)
// on the SQLite file db: by default .storyloom/host.db at the module root,
// or in the user cache directory outside a checkout. hosts are the names
// the room WebSocket answers to (empty: loopback names only);
// freeportClosed closes the Freeport game to new players.
func openHost(db string, hosts []string, freeportClosed bool) (*nativehost.Host, error) {
	root, rootErr := moduleRoot()
	if db == "" {
		base := root
		if rootErr != nil {
			if base, rootErr = os.UserCacheDir(); rootErr != nil {
				return nil, rootErr
			}
		}
		db = filepath.Join(base, ".storyloom", "host.db")
	}
	return nativehost.Open(context.Background(), nativehost.Config{Path: db, Hosts: hosts, FreeportClosed: freeportClosed,
		FreeportGame: filepath.Join(root, "static", "freeport", "freeport.json")})
}
