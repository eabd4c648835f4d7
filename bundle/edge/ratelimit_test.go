package edge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
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
		_, config, err := built()
		if err != nil {
			return true, err
		}
		out, err = npx(ctx, config, "d1", "execute", "DB", "--local", "--persist-to", w.persist, "--command", sql).CombinedOutput()
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

// TestWorkerFreeportTokensPerAddress: the worker limits new Freeport
// tokens per client address (CF-Connecting-IP) to
// hosting.DefaultTokensPerMinute a minute, counted in D1 as on the native
// host: the next one is refused 429 rate_limited with Retry-After, while
// another address is still served.
func TestWorkerFreeportTokensPerAddress(t *testing.T) {
	w := worker(t)
	token := func(addr string) (*http.Response, []byte) { return issueToken(t, w, addr) }
	// An address of this run's own, so that a rerun within the minute
	// starts from nothing. The first refusal must come after the limit's
	// tokens, and within twice that (the minute may turn on the way).
	addr := fmt.Sprintf("198.51.100.%d", time.Now().UnixNano()%250+1)
	var resp *http.Response
	var b []byte
	issued := 0
	for range 2*hosting.DefaultTokensPerMinute + 1 {
		if resp, b = token(addr); resp.StatusCode != http.StatusCreated {
			break
		}
		issued++
	}
	if issued < hosting.DefaultTokensPerMinute {
		t.Fatalf("refused after %d tokens, under the limit of %d", issued, hosting.DefaultTokensPerMinute)
	}
	var refused hosting.HostError
	decodeJSON(t, b, &refused)
	if resp.StatusCode != http.StatusTooManyRequests || refused.Error.Code != "rate_limited" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a token over the limit: %d %s; want 429 rate_limited with Retry-After", resp.StatusCode, b)
	}
	if resp, b := token("203.0.113.9"); resp.StatusCode != http.StatusCreated {
		t.Fatalf("another address was refused: %d %s", resp.StatusCode, b)
	}
}

// issueToken asks w for a Freeport token as a client at addr.
func issueToken(t *testing.T, w *wrangler, addr string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, w.base+"/freeport/"+fpGame+"/token", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("CF-Connecting-IP", addr)
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestWorkerPerAddressLimitsOff: with STORYLOOM_PER_ADDRESS_LIMITS=off
// (a deployment whose clients share one address, or a benchmark) one
// address is issued tokens past the per-address limit.
func TestWorkerPerAddressLimitsOff(t *testing.T) {
	w := worker(t).fork(t, perAddressVar+":off")
	for i := range 2*hosting.DefaultTokensPerMinute + 1 {
		if resp, b := issueToken(t, w, "198.51.100.7"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("token %d refused with the per-address limits off: %d %s", i+1, resp.StatusCode, b)
		}
	}
}
