package edge

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/storyloom/storyloom/bundle/internal/freeportclient"
)

// fpGame is the game id of static/freeport/freeport.json, which the worker
// embeds.
const fpGame = "freeport"

// TestWorkerFreeportThreePlayers plays the trade scenario
// (freeportclient.ThreePlayerTrade) against the worker, reads the paged
// Standing its game's object serves too, and checks that no response
// carries a token.
func TestWorkerFreeportThreePlayers(t *testing.T) {
	m := freeportclient.Client{T: t, Base: worker(t).base, Game: fpGame, HTTP: httpClient, Resend: true}
	tr := m.ThreePlayerTrade()
	ids, toks, after := tr.IDs, tr.Tokens, tr.After
	// The paged Standing: ann's own place, ben named, and the same wealth
	// readStanding reports.
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
	for n, tok := range toks {
		for _, r := range append(tr.Responses, pb) {
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
