package edge

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
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

// TestWorkerFreeportConcurrentExchange plays the concurrency scenario
// (freeportclient.ConcurrentExchange) against the worker: the game's
// object applies concurrent counters one after another, so exactly one
// wins each version, and of six overspending approvals one settles. The
// race is short (wrangler dev is slow), so a stale refusal is not
// required.
func TestWorkerFreeportConcurrentExchange(t *testing.T) {
	w := worker(t)
	m := freeportclient.Client{T: t, Base: w.base, Game: fpGame, HTTP: httpClient, Resend: true}
	m.ConcurrentExchange(freeportclient.Race{PerParty: 3, Tries: 4})
}
