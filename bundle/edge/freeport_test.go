package edge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/bundle/internal/freeportclient"
	"github.com/storyloom/storyloom/engine/freeport"
)

// fpGame is the game id of static/freeport/freeport.json, which the worker
// embeds.
const fpGame = "freeport"

// TestWorkerFreeportThreePlayers: three players enrol at the worker with
// tokens it issues, pay, propose and settle an exchange, and watch the
// Standing move; the Owner comes from the token, never the payload, and
// no response carries a token.
func TestWorkerFreeportThreePlayers(t *testing.T) {
	m := freeportclient.Client{T: t, Base: worker(t).base, Game: fpGame, HTTP: httpClient, Resend: true}
	toks, ids := map[string]string{}, map[string]string{}
	var all [][]byte
	for _, n := range []string{"ann", "ben", "cat"} {
		toks[n] = m.Token()
		ids[n] = m.Must(toks[n], `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	}
	standing := func() map[string]float64 {
		_, b := m.Post(toks["cat"], `{"protocolVersion":2,"action":"readStanding"}`)
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
	m.Must(toks["ann"], fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"pay","toPlayerId":%q,"assetId":"credits","quantity":50}`, ids["ben"]))
	x := m.Must(toks["ben"], fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"offer","counterpartyPlayerId":%q,"offered":[{"assetId":"salt","quantity":5}],"requested":[{"assetId":"credits","quantity":10}]}`, ids["cat"]))
	settled := m.Must(toks["cat"], fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"yes","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":"approve"}`,
		x["exchangeId"], x["exchangeVersion"], x["termsHash"]))
	if settled["status"] != "settled" && settled["status"] != "unfunded" {
		t.Fatalf("status %v", settled["status"])
	}
	// A retried command answers the original bytes and moves nothing twice.
	_, again := m.Post(toks["ann"], fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"pay","toPlayerId":%q,"assetId":"credits","quantity":50}`, ids["ben"]))
	if !bytes.Contains(again, []byte(`"ok":true`)) {
		t.Fatalf("the retried transfer: %s", again)
	}
	after := standing()
	if after[ids["ann"]] >= before[ids["ann"]] || after[ids["ben"]] <= before[ids["ben"]] {
		t.Fatalf("the standing did not move: %v → %v", before, after)
	}
	// The paged Standing is served by the game's object too: ann's own
	// place, ben named, and the same wealth readStanding reports.
	req, _ := http.NewRequest("GET", m.Base+"/freeport/"+fpGame+"/standing?limit=1&players="+ids["ben"], nil)
	req.Header.Set("Authorization", "Bearer "+toks["ann"])
	res, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Total   int `json:"total"`
		Players []struct {
			Rank int `json:"rank"`
		} `json:"players"`
		You *struct {
			PlayerID string  `json:"playerId"`
			Wealth   float64 `json:"wealth"`
		} `json:"you"`
		Named []struct {
			PlayerID string  `json:"playerId"`
			Wealth   float64 `json:"wealth"`
		} `json:"named"`
	}
	pb, _ := io.ReadAll(res.Body)
	res.Body.Close()
	decodeJSON(t, pb, &page)
	if res.StatusCode != http.StatusOK || page.Total < 3 || len(page.Players) != 1 || page.Players[0].Rank != 1 ||
		page.You == nil || page.You.PlayerID != ids["ann"] || page.You.Wealth != after[ids["ann"]] ||
		len(page.Named) != 1 || page.Named[0].Wealth != after[ids["ben"]] {
		t.Fatalf("the standing page: %d %s", res.StatusCode, pb)
	}
	status, b := m.Post(toks["cat"], fmt.Sprintf(`{"protocolVersion":2,"action":"readInventory","playerId":%q}`, ids["ann"]))
	if freeportclient.CodeOf(b) != freeport.CodeMalformedRequest || status != http.StatusOK {
		t.Fatalf("an actor field was not refused: %d %s", status, b)
	}
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef.00"} {
		status, b := m.Post(tok, `{"protocolVersion":2,"action":"readInventory"}`)
		if status != http.StatusUnauthorized || freeportclient.CodeOf(b) != freeport.CodeAuthenticationRequired {
			t.Fatalf("token %q: %d %s", tok, status, b)
		}
	}
	for n, tok := range toks {
		_, b := m.Post(tok, `{"protocolVersion":2,"action":"readStatement","limit":50}`)
		all = append(all, b)
		for _, r := range all {
			if bytes.Contains(r, []byte(tok)) || bytes.Contains(r, []byte(tok[:32])) {
				t.Fatalf("a response exposes %s's token: %s", n, r)
			}
		}
	}
}

// TestWorkerFreeportConcurrentExchange: goroutines for both parties send
// counters at one exchange at once, each after reading its current
// version; the game's object applies them one after another, so exactly
// one counter wins each version and the others are refused
// stale_exchange_version (or not_your_turn). Then six overspending
// approvals race: one settles, and holdings are conserved.
func TestWorkerFreeportConcurrentExchange(t *testing.T) {
	w := worker(t)
	m := freeportclient.Client{T: t, Base: w.base, Game: fpGame, HTTP: httpClient, Resend: true}
	ta, tb := m.Token(), m.Token()
	pa := m.Must(ta, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	pb := m.Must(tb, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	x := m.Must(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"x","counterpartyPlayerId":%q,"offered":[{"assetId":"salt","quantity":1}],"requested":[{"assetId":"credits","quantity":1}]}`, pb))
	xid := x["exchangeId"].(string)

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
				_, b := m.Post(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid))
				var cur struct {
					Result struct {
						Version float64 `json:"exchangeVersion"`
						Hash    string  `json:"termsHash"`
					} `json:"result"`
				}
				_ = json.Unmarshal(b, &cur)
				_, b = m.Post(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":"g%d-%d","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"offered":[{"assetId":"salt","quantity":%d}],"requested":[{"assetId":"credits","quantity":1}]}`,
					g, i, xid, cur.Result.Version, cur.Result.Hash, 1+g%3))
				mu.Lock()
				if code := freeportclient.CodeOf(b); code == "" {
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
	final := m.Must(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid))
	if got, want := int(final["exchangeVersion"].(float64)), 1+len(winners); got != want {
		t.Errorf("exchangeVersion %d after %d winning counters", got, len(winners))
	}
	for code := range refusals {
		if code != freeport.CodeStaleExchangeVersion && code != freeport.CodeNotYourTurn {
			t.Errorf("a loser was refused %q", code)
		}
	}
	t.Logf("%d versions won, refusals %v", len(winners), refusals)

	// Double spending: b asks a for 150 credits in each of six Exchanges;
	// a holds 200 and approves all six at once.
	total := func() map[string]int64 {
		sum := map[string]int64{}
		for _, tok := range []string{ta, tb} {
			for k, v := range freeportclient.Holdings(m.Must(tok, `{"protocolVersion":2,"action":"readInventory"}`)) {
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
		offers = append(offers, m.Must(tb, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"ds%d","counterpartyPlayerId":%q,"offered":[{"assetId":"timber","quantity":1}],"requested":[{"assetId":"credits","quantity":150}]}`, i, pa)))
	}
	settled := 0
	for i, o := range offers {
		wg.Add(1)
		go func(i int, o map[string]any) {
			defer wg.Done()
			_, b := m.Post(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"ok%d","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":"approve"}`,
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
