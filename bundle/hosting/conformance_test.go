//go:build !js

package hosting

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/freeport/freeporttest"
)

// TestFreeportConformance runs engine/freeport's conformance suite, one
// case per normative statement of the protocol, through the HTTP endpoint
// on a real socket: each case gets a fresh instance on its own store,
// each Owner label a bearer token the endpoint issued, a blank label no
// Authorization header, and the request's instant the injected clock.
func TestFreeportConformance(t *testing.T) {
	freeporttest.Run(t, func(t *testing.T, game []byte) freeporttest.Transport {
		g, err := freeport.ParseGame(game)
		if err != nil {
			t.Fatal(err)
		}
		clock := newTestClock()
		f, err := NewFreeport(context.Background(), FreeportConfig{Store: &MemStore{}, Clock: clock.now,
			Games: map[string]*freeport.Game{"conf": g}, CommandsPerSecond: 1 << 30,
			// One secret for every instance: the instance seed derives
			// from it, and UnfundedNamesNoPartyAndBothCausesLookAlike
			// compares two fresh instances' Player IDs.
			Secret: []byte("conformance")})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(f.Handler())
		t.Cleanup(srv.Close)
		tokens := map[string]string{}
		return func(owner string, now int64, body []byte) []byte {
			t.Helper()
			clock.ms.Store(now)
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/freeport/conf/", strings.NewReader(string(body)))
			if strings.TrimSpace(owner) != "" {
				tok, ok := tokens[owner]
				if !ok {
					tok = f.IssueToken()
					tokens[owner] = tok
				}
				req.Header.Set("Authorization", "Bearer "+tok)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	})
}
