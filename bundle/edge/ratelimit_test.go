package edge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/internal/freeportclient"
)

// rateKey is the worker's key for a token in the rate table
// (wasm/worker/rate.go): a digest of the token.
func rateKey(token string) string {
	sum := sha256.Sum256([]byte("storyloom-rate\x00" + token))
	return hex.EncodeToString(sum[:16])
}

// d1Exec runs SQL on the running worker's local D1 database. The running
// worker may hold the database's lock for a moment (SQLITE_BUSY): it tries
// again then.
func (w *wrangler) d1Exec(t *testing.T, sql string) {
	t.Helper()
	var out []byte
	err := retry(10, time.Second, func() (bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), migrateLimit)
		defer cancel()
		var err error
		out, err = npx(ctx, "d1", "execute", "DB", "--local", "--persist-to", w.persist, "--command", sql).CombinedOutput()
		if err != nil && strings.Contains(string(out), "SQLITE_BUSY") {
			return false, nil
		}
		return true, err
	})
	if err != nil {
		t.Fatalf("wrangler d1 execute: %v\n%s", err, out)
	}
}

// TestWorkerFreeportRateLimit: the Freeport endpoint's per-token limit
// holds at the edge too, counted in D1 (across games and instances). The token's
// counters are filled to the limit (straight into the local D1), so its
// next request is refused — 429, Retry-After and the host's rate_limited
// error — without reaching the game; once they are gone it goes through.
func TestWorkerFreeportRateLimit(t *testing.T) {
	w := worker(t)
	m := freeportclient.Client{T: t, Base: w.base, Game: fpGame, HTTP: httpClient}
	tok := m.Token()
	m.Must(tok, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)
	key := rateKey("freeport/" + tok)
	now := time.Now().Unix()
	var rows []string
	for sec := now - 10; sec <= now+300; sec++ {
		rows = append(rows, fmt.Sprintf("('%s', %d, 20)", key, sec))
	}
	// The enrolment was counted already: replace its row.
	w.d1Exec(t, "INSERT OR REPLACE INTO rate (key, sec, count) VALUES "+strings.Join(rows, ", "))

	status, body, err := do(http.MethodPost, w.base+"/freeport/"+fpGame+"/", tok,
		[]byte(`{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"Too Quick"}`))
	if err != nil {
		t.Fatal(err)
	}
	var refused hosting.HostError
	decodeJSON(t, body, &refused)
	if status != http.StatusTooManyRequests || refused.Error.Code != "rate_limited" {
		t.Fatalf("a request over the limit: %d %s; want 429 rate_limited", status, body)
	}

	w.d1Exec(t, fmt.Sprintf("DELETE FROM rate WHERE key = '%s'", key))
	res := m.Must(tok, `{"protocolVersion":2,"action":"readInventory"}`)
	if res["tradingName"] == "Too Quick" {
		t.Error("the refused request reached the game")
	}
}
