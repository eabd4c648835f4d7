package edge

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/internal/freeportclient"

	_ "modernc.org/sqlite" // registers the "sqlite" driver, for d1Exec
)

// rateKey is the worker's key for a token in the rate table
// (wasm/worker/rate.go): a digest of the token.
func rateKey(token string) string {
	sum := sha256.Sum256([]byte("storyloom-rate\x00" + token))
	return hex.EncodeToString(sum[:16])
}

// d1Exec runs SQL on the running worker's local D1 database: the one
// SQLite file wrangler dev keeps it in under its --persist-to directory
// (d1File), opened beside the running worker as any second SQLite client
// opens a database in WAL mode. It does what `wrangler d1 execute --local`
// does without starting node, wrangler and a second workerd for one
// statement, which on a busy machine took most of a minute each time. The
// running worker may hold the database's write lock for a moment: the
// busy timeout waits for it.
func (w *wrangler) d1Exec(t *testing.T, query string) {
	t.Helper()
	path, err := w.d1File()
	if err != nil {
		t.Fatal(err)
	}
	db := openSQLite(t, path)
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("local D1 %s: %v", path, err)
	}
}

// openSQLite opens a SQLite file of the running worker's local state as
// a second client, waiting out the worker's write lock.
func openSQLite(t *testing.T, path string) *sql.DB {
	t.Helper()
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(30000)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// d1File is the SQLite file of w's local D1 database: miniflare keeps each
// D1 database in v3/d1/miniflare-D1DatabaseObject/<id>.sqlite beside a
// metadata.sqlite of its own. wrangler.toml binds one database, so there
// is one such file; anything else is an error, should wrangler change the
// layout.
func (w *wrangler) d1File() (string, error) {
	dir := filepath.Join(w.persist, "v3", "d1", "miniflare-D1DatabaseObject")
	all, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return "", err
	}
	var dbs []string
	for _, f := range all {
		if filepath.Base(f) != "metadata.sqlite" {
			dbs = append(dbs, f)
		}
	}
	if len(dbs) != 1 {
		return "", fmt.Errorf("local D1: want one database file in %s, found %q", dir, dbs)
	}
	return dbs[0], nil
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
// address is issued tokens past the per-address limit. It runs on the
// package's second dev server (seededServer), whose limits are off.
func TestWorkerPerAddressLimitsOff(t *testing.T) {
	w := worker(t).seededServer(t)
	for i := range 2*hosting.DefaultTokensPerMinute + 1 {
		if resp, b := issueToken(t, w, "198.51.100.7"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("token %d refused with the per-address limits off: %d %s", i+1, resp.StatusCode, b)
		}
	}
}
