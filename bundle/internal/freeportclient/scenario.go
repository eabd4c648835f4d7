package freeportclient

import (
	"bytes"
	"encoding/json"
	"fmt"
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
