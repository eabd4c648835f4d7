package freeportclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/storyloom/storyloom/engine/freeport"
)

// Race sizes the concurrency scenario ConcurrentExchange plays.
type Race struct {
	// PerParty goroutines for each of the two parties send, each Tries
	// counters.
	PerParty, Tries int
	// RequireStale fails the scenario unless some loser was refused
	// stale_exchange_version: set it where the race is long enough that
	// two counters always meet one version.
	RequireStale bool
}

// ConcurrentExchange is the scenario every Freeport host must pass under
// concurrent requests. Goroutines for both parties of one Exchange send
// counters at once, each against the version it last read: every version
// is won by exactly one Command, every loser is refused
// stale_exchange_version (or not_your_turn when the turn already passed),
// and the final version counts the winners. Then one party approves, all
// at once, six Exchanges that together overspend it: exactly one settles,
// no holding goes negative, and every asset but renown is conserved.
func (c Client) ConcurrentExchange(r Race) {
	t := c.T
	t.Helper()
	ta, tb := c.Token(), c.Token()
	pa := c.Must(ta, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	pb := c.Must(tb, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	x := c.Must(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"x","counterpartyPlayerId":%q,"offered":[{"assetId":"salt","quantity":1}],"requested":[{"assetId":"credits","quantity":1}]}`, pb))
	xid := x["exchangeId"].(string)

	var mu sync.Mutex
	winners := map[float64]int{}
	refusals := map[string]int{}
	var wg sync.WaitGroup
	for g := range 2 * r.PerParty {
		tok := []string{ta, tb}[g%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range r.Tries {
				_, b := c.Post(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid))
				var cur struct {
					Result struct {
						Version float64 `json:"exchangeVersion"`
						Hash    string  `json:"termsHash"`
					} `json:"result"`
				}
				_ = json.Unmarshal(b, &cur)
				_, b = c.Post(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":"g%d-%d","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"offered":[{"assetId":"salt","quantity":%d}],"requested":[{"assetId":"credits","quantity":1}]}`,
					g, i, xid, cur.Result.Version, cur.Result.Hash, 1+g%3))
				mu.Lock()
				if code := CodeOf(b); code == "" {
					winners[cur.Result.Version]++
				} else {
					refusals[code]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for v, n := range winners {
		if n != 1 {
			t.Errorf("version %v was won %d times", v, n)
		}
	}
	final := c.Must(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid))
	if got, want := int(final["exchangeVersion"].(float64)), 1+len(winners); got != want {
		t.Errorf("exchangeVersion %d after %d winning counters", got, len(winners))
	}
	for code := range refusals {
		if code != freeport.CodeStaleExchangeVersion && code != freeport.CodeNotYourTurn {
			t.Errorf("a loser was refused %q", code)
		}
	}
	if r.RequireStale && refusals[freeport.CodeStaleExchangeVersion] == 0 {
		t.Errorf("no loser was refused stale_exchange_version: %v", refusals)
	}
	t.Logf("%d versions won, refusals %v", len(winners), refusals)

	// Double spending: b asks a for 150 credits in each of six Exchanges;
	// a holds 200 and approves all six at once.
	total := func() map[string]int64 {
		sum := map[string]int64{}
		for _, tok := range []string{ta, tb} {
			for k, v := range Holdings(c.Must(tok, `{"protocolVersion":2,"action":"readInventory"}`)) {
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
		offers = append(offers, c.Must(tb, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"ds%d","counterpartyPlayerId":%q,"offered":[{"assetId":"timber","quantity":1}],"requested":[{"assetId":"credits","quantity":150}]}`, i, pa)))
	}
	settled := 0
	for i, o := range offers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, b := c.Post(ta, fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"ok%d","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":"approve"}`,
				i, o["exchangeId"], o["exchangeVersion"], o["termsHash"]))
			if bytes.Contains(b, []byte(`"status":"settled"`)) {
				mu.Lock()
				settled++
				mu.Unlock()
			}
		}()
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

// Trade is what ThreePlayerTrade leaves for the host's own checks.
type Trade struct {
	// Tokens and IDs are each player's bearer token and playerId, by
	// name: "ann", "ben" and "cat".
	Tokens, IDs map[string]string
	// Before and After are the Standing's wealth by playerId, read before
	// and after the trade.
	Before, After map[string]float64
	// Responses are every Standing and Statement response the scenario
	// read, for the host to search for what no response may carry.
	Responses [][]byte
}

// ThreePlayerTrade is the scenario every Freeport host must pass over its
// HTTP endpoint: three players enrol with tokens the host issues; ann
// pays ben, ben sells cat salt in an exchange cat settles, and the
// Standing moves; a retried command answers the original bytes and moves
// nothing twice; an actor field in the payload is refused (the Owner
// comes from the token, never the payload); a missing or forged token is
// refused authentication_required with 401.
func (c Client) ThreePlayerTrade() Trade {
	t := c.T
	t.Helper()
	tr := Trade{Tokens: map[string]string{}, IDs: map[string]string{}}
	for _, n := range []string{"ann", "ben", "cat"} {
		tr.Tokens[n] = c.Token()
		tr.IDs[n] = c.Must(tr.Tokens[n], `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)["playerId"].(string)
	}
	standing := func() map[string]float64 {
		_, b := c.Post(tr.Tokens["cat"], `{"protocolVersion":2,"action":"readStanding"}`)
		tr.Responses = append(tr.Responses, b)
		var env struct {
			Result struct {
				Players []struct {
					PlayerID string  `json:"playerId"`
					Wealth   float64 `json:"wealth"`
				} `json:"players"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatalf("the standing: %v: %.400s", err, b)
		}
		w := map[string]float64{}
		for _, p := range env.Result.Players {
			w[p.PlayerID] = p.Wealth
		}
		return w
	}
	tr.Before = standing()
	for n, id := range tr.IDs {
		if _, ok := tr.Before[id]; !ok {
			t.Fatalf("%s is not on the standing: %v", n, tr.Before)
		}
	}
	ids, toks := tr.IDs, tr.Tokens
	pay := fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"pay","toPlayerId":%q,"assetId":"credits","quantity":50}`, ids["ben"])
	status, paid := c.Post(toks["ann"], pay)
	if status != http.StatusOK || !bytes.Contains(paid, []byte(`"ok":true`)) {
		t.Fatalf("the transfer: %d %s", status, paid)
	}
	x := c.Must(toks["ben"], fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":"offer","counterpartyPlayerId":%q,"offered":[{"assetId":"salt","quantity":5}],"requested":[{"assetId":"credits","quantity":10}]}`, ids["cat"]))
	settled := c.Must(toks["cat"], fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":"yes","exchangeId":%q,"exchangeVersion":%v,"termsHash":%q,"decision":"approve"}`,
		x["exchangeId"], x["exchangeVersion"], x["termsHash"]))
	if settled["status"] != "settled" && settled["status"] != "unfunded" {
		t.Fatalf("status %v", settled["status"])
	}
	if _, again := c.Post(toks["ann"], pay); !bytes.Equal(again, paid) {
		t.Fatalf("the retried transfer answered %s, first %s", again, paid)
	}
	tr.After = standing()
	if tr.After[ids["ann"]] >= tr.Before[ids["ann"]] || tr.After[ids["ben"]] <= tr.Before[ids["ben"]] {
		t.Fatalf("the standing did not move: %v → %v", tr.Before, tr.After)
	}
	status, b := c.Post(toks["cat"], fmt.Sprintf(`{"protocolVersion":2,"action":"readInventory","playerId":%q}`, ids["ann"]))
	if CodeOf(b) != freeport.CodeMalformedRequest || status != http.StatusOK {
		t.Fatalf("an actor field was not refused: %d %s", status, b)
	}
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef.00", "owner-ann"} {
		status, b := c.Post(tok, `{"protocolVersion":2,"action":"readInventory"}`)
		if status != http.StatusUnauthorized || CodeOf(b) != freeport.CodeAuthenticationRequired {
			t.Fatalf("token %q: %d %s", tok, status, b)
		}
	}
	for _, n := range []string{"ann", "ben", "cat"} {
		_, b := c.Post(toks[n], `{"protocolVersion":2,"action":"readStatement","limit":50}`)
		tr.Responses = append(tr.Responses, b)
	}
	return tr
}
