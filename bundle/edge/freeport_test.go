package edge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/storyloom/storyloom/engine/freeport"
)

// fpGame is the game id of static/freeport/freeport.json, which the worker
// embeds.
const fpGame = "freeport"

// market is a Freeport client of one endpoint (the worker or a native
// server).
type market struct {
	t    testing.TB
	base string
}

func (m market) token() string {
	m.t.Helper()
	status, body, err := do(http.MethodPost, m.base+"/freeport/"+fpGame+"/token", "", nil)
	if err != nil || status != http.StatusCreated {
		m.t.Fatalf("token: %d %v %s", status, err, body)
	}
	var v struct{ Token string }
	decodeJSON(m.t, body, &v)
	return v.Token
}

// post sends one request envelope; a 503 (the worker could not commit
// after its retries) is sent again with the same commandId, which the
// protocol's idempotency makes safe.
func (m market) post(token, body string) (int, []byte) {
	m.t.Helper()
	var status int
	var resp []byte
	err := retry(5, 200*time.Millisecond, func() (bool, error) {
		var err error
		status, resp, err = do(http.MethodPost, m.base+"/freeport/"+fpGame+"/", token, []byte(body))
		return err == nil && status != http.StatusServiceUnavailable, err
	})
	if err != nil {
		m.t.Fatalf("post %s: %v (%d %s)", body, err, status, resp)
	}
	return status, resp
}

// must posts and returns the result of a successful envelope.
func (m market) must(token, body string) map[string]any {
	m.t.Helper()
	status, b := m.post(token, body)
	var env struct {
		OK     bool           `json:"ok"`
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal(b, &env); err != nil || !env.OK || status != http.StatusOK {
		m.t.Fatalf("%d %s → %s", status, body, b)
	}
	return env.Result
}

func codeOf(b []byte) string {
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(b, &env)
	return env.Error.Code
}

func holdings(res map[string]any) map[string]int64 {
	out := map[string]int64{}
	for _, x := range res["holdings"].([]any) {
		h := x.(map[string]any)
		out[h["assetId"].(string)] = int64(h["quantity"].(float64))
	}
	return out
}

// TestWorkerFreeportThreePlayers: three players enrol at the worker with
// tokens it issues, pay, propose and settle an exchange, and watch the
// Standing move; the Owner comes from the token, never the payload, and
// no response carries a token.
func TestWorkerFreeportThreePlayers(t *testing.T) {
	m := market{t: t, base: worker(t).base}
	toks, ids := map[string]string{}, map[string]string{}
	var all [][]byte
	for _, n := range []string{"ann", "ben", "cat"} {
		toks[n] = m.token()
		ids[n] = m.must(toks[n], `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	}
	standing := func() map[string]float64 {
		_, b := m.post(toks["cat"], `{"protocolVersion":2,"action":"readStanding"}`)
		all = append(all, b)
		var env struct {
			Result struct {
				Players []struct {
					PlayerID string  `json:"playerId"`
					Wealth   float64 `json:"wealth"`
				} `json:"players"`
			} `json:"result"`
		}
		decodeJSON(t, b, &env)
		w := map[string]float64{}
		for _, p := range env.Result.Players {
			w[p.PlayerID] = p.Wealth
		}
		return w
	}
	before := standing()
	for n, id := range ids {
		if _, ok := before[id]; !ok {
			t.Fatalf("%s is not on the standing: %v", n, before)
		}
	}
	m.must(toks["ann"], fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"pay","toPlayerId":%q,"assetId":"credits","quantity":50}`, ids["ben"]))
	x := m.must(toks["ben"], fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"offer","counterpartyPlayerId":%q,"offered":[{"assetId":"salt","quantity":5}],"requested":[{"assetId":"credits","quantity":10}]}`, ids["cat"]))
	settled := m.must(toks["cat"], fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"yes","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":"approve"}`,
		x["exchangeId"], x["exchangeVersion"], x["termsHash"]))
	if settled["status"] != "settled" && settled["status"] != "unfunded" {
		t.Fatalf("status %v", settled["status"])
	}
	// A retried command answers the original bytes and moves nothing twice.
	_, again := m.post(toks["ann"], fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"pay","toPlayerId":%q,"assetId":"credits","quantity":50}`, ids["ben"]))
	if !bytes.Contains(again, []byte(`"ok":true`)) {
		t.Fatalf("the retried transfer: %s", again)
	}
	after := standing()
	if after[ids["ann"]] >= before[ids["ann"]] || after[ids["ben"]] <= before[ids["ben"]] {
		t.Fatalf("the standing did not move: %v → %v", before, after)
	}
	status, b := m.post(toks["cat"], fmt.Sprintf(`{"protocolVersion":2,"action":"readInventory","playerId":%q}`, ids["ann"]))
	if codeOf(b) != freeport.CodeMalformedRequest || status != http.StatusOK {
		t.Fatalf("an actor field was not refused: %d %s", status, b)
	}
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef.00"} {
		status, b := m.post(tok, `{"protocolVersion":2,"action":"readInventory"}`)
		if status != http.StatusUnauthorized || codeOf(b) != freeport.CodeAuthenticationRequired {
			t.Fatalf("token %q: %d %s", tok, status, b)
		}
	}
	for n, tok := range toks {
		_, b := m.post(tok, `{"protocolVersion":2,"action":"readStatement","limit":50}`)
		all = append(all, b)
		for _, r := range all {
			if bytes.Contains(r, []byte(tok)) || bytes.Contains(r, []byte(tok[:32])) {
				t.Fatalf("a response exposes %s's token: %s", n, r)
			}
		}
	}
}

// TestWorkerFreeportConcurrentExchange: goroutines for both parties send
// counters at one exchange, each after reading its current version; every
// request is its own worker instance committing against D1, so exactly
// one counter wins each version and the others are refused
// stale_exchange_version (or not_your_turn) after a conflicting commit
// retried from fresh state. Then six overspending approvals race: one
// settles, and holdings are conserved.
func TestWorkerFreeportConcurrentExchange(t *testing.T) {
	w := worker(t)
	m := market{t: t, base: w.base}
	ta, tb := m.token(), m.token()
	pa := m.must(ta, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	pb := m.must(tb, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	x := m.must(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"x","counterpartyPlayerId":%q,"offered":[{"assetId":"salt","quantity":1}],"requested":[{"assetId":"credits","quantity":1}]}`, pb))
	xid := x["exchangeId"].(string)
	before := w.conflicts()

	var mu sync.Mutex
	winners := map[float64]int{}
	refusals := map[string]int{}
	var wg sync.WaitGroup
	const perParty, tries = 3, 4
	for g := range 2 * perParty {
		tok := []string{ta, tb}[g%2]
		wg.Add(1)
		go func(g int, tok string) {
			defer wg.Done()
			for i := range tries {
				_, b := m.post(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid))
				var cur struct {
					Result struct {
						Version float64 `json:"exchangeVersion"`
						Hash    string  `json:"termsHash"`
					} `json:"result"`
				}
				_ = json.Unmarshal(b, &cur)
				_, b = m.post(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":"g%d-%d","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"offered":[{"assetId":"salt","quantity":%d}],"requested":[{"assetId":"credits","quantity":1}]}`,
					g, i, xid, cur.Result.Version, cur.Result.Hash, 1+g%3))
				mu.Lock()
				if code := codeOf(b); code == "" {
					winners[cur.Result.Version]++
				} else {
					refusals[code]++
				}
				mu.Unlock()
			}
		}(g, tok)
	}
	wg.Wait()
	for v, n := range winners {
		if n != 1 {
			t.Errorf("version %v was won %d times", v, n)
		}
	}
	final := m.must(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid))
	if got, want := int(final["exchangeVersion"].(float64)), 1+len(winners); got != want {
		t.Errorf("exchangeVersion %d after %d winning counters", got, len(winners))
	}
	for code := range refusals {
		if code != freeport.CodeStaleExchangeVersion && code != freeport.CodeNotYourTurn {
			t.Errorf("a loser was refused %q", code)
		}
	}
	t.Logf("%d versions won, refusals %v, D1 refused %d conflicting commits", len(winners), refusals, w.conflicts()-before)

	// Double spending: b asks a for 150 credits in each of six Exchanges;
	// a holds 200 and approves all six at once.
	total := func() map[string]int64 {
		sum := map[string]int64{}
		for _, tok := range []string{ta, tb} {
			for k, v := range holdings(m.must(tok, `{"protocolVersion":2,"action":"readInventory"}`)) {
				if v < 0 {
					t.Errorf("negative holding %s %d", k, v)
				}
				sum[k] += v
			}
		}
		return sum
	}
	start := total()
	var offers []map[string]any
	for i := range 6 {
		offers = append(offers, m.must(tb, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"ds%d","counterpartyPlayerId":%q,"offered":[{"assetId":"timber","quantity":1}],"requested":[{"assetId":"credits","quantity":150}]}`, i, pa)))
	}
	settled := 0
	for i, o := range offers {
		wg.Add(1)
		go func(i int, o map[string]any) {
			defer wg.Done()
			_, b := m.post(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"ok%d","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":"approve"}`,
				i, o["exchangeId"], o["exchangeVersion"], o["termsHash"]))
			if bytes.Contains(b, []byte(`"status":"settled"`)) {
				mu.Lock()
				settled++
				mu.Unlock()
			}
		}(i, o)
	}
	wg.Wait()
	if settled != 1 {
		t.Errorf("%d of six overspending approvals settled, want 1", settled)
	}
	end := total()
	for k := range start {
		if k != "renown" && start[k] != end[k] {
			t.Errorf("%s not conserved: %d → %d", k, start[k], end[k])
		}
	}
}
