package freeport_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/freeport/freeporttest"
)

// TestConformanceThroughTheEndpoint runs the Game Master conformance suite
// through the native HTTP endpoint (bundle/hosting) on a real socket, each
// Owner label holding its own bearer token and the host clock the suite's:
// the example of docs/freeport.md, kept honest. It needs no browser.
func TestConformanceThroughTheEndpoint(t *testing.T) {
	freeporttest.Run(t, func(t *testing.T, game []byte) freeporttest.Transport {
		g, err := freeport.ParseGame(game)
		if err != nil {
			t.Fatal(err)
		}
		var now atomic.Int64
		fp, err := hosting.NewFreeport(context.Background(), hosting.FreeportConfig{Store: &hosting.MemStore{},
			Clock: now.Load, Games: map[string]*freeport.Game{g.ID(): g}, CommandsPerSecond: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(fp.Handler())
		t.Cleanup(srv.Close)
		tokens := map[string]string{} // owner label → bearer token
		return func(owner string, at int64, body []byte) []byte {
			now.Store(at)
			req, err := http.NewRequest("POST", srv.URL+"/freeport/"+g.ID()+"/", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(owner) != "" {
				if tokens[owner] == "" {
					tokens[owner] = fp.IssueToken()
				}
				req.Header.Set("Authorization", "Bearer "+tokens[owner])
			}
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return b // whatever the status: a 401 still carries the envelope
		}
	})
}
