//go:build !js

package hosting

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/freeport"
)

// TestFreeportStandingPage reads the paged Standing over a real socket: a
// page lists its slice of readStanding's board with ranks, the bearer's
// own entry and the named Players come back wherever they rank, an
// unchanged board revalidates to a 304 with no body, a change or another
// page does not, and a bad query is refused 400 with a reason code.
func TestFreeportStandingPage(t *testing.T) {
	e := newFPEnv(t, &MemStore{}, 1000)
	var toks, ids []string
	for i := range 30 {
		tok := e.Token()
		res := e.Must(tok, `{"protocolVersion":2,"action":"enroll","commandId":"e1"}`)
		toks, ids = append(toks, tok), append(ids, res["playerId"].(string))
		if i > 0 { // each gives the first a different amount: the board has an order
			e.Must(tok, fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"t","toPlayerId":%q,"assetId":"credits","quantity":%d}`, ids[0], i))
		}
	}
	_, b := e.Post(toks[0], `{"protocolVersion":2,"action":"readStanding"}`)
	var full struct {
		Result struct {
			Players []struct {
				PlayerID string `json:"playerId"`
				Wealth   int64  `json:"wealth"`
			} `json:"players"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &full); err != nil || len(full.Result.Players) != 30 {
		t.Fatalf("readStanding: %s", b)
	}
	board := full.Result.Players

	type entry struct {
		Rank     int    `json:"rank"`
		PlayerID string `json:"playerId"`
		Wealth   int64  `json:"wealth"`
	}
	type page struct {
		Total   int     `json:"total"`
		Offset  int     `json:"offset"`
		Players []entry `json:"players"`
		You     *entry  `json:"you"`
		Named   []entry `json:"named"`
	}
	get := func(tok, query, etag string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", e.srv.URL+"/freeport/harbour/standing"+query, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}

	me := toks[29]
	res, body := get(me, "?offset=10&limit=5&players="+ids[0]+","+ids[3], "")
	var p page
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &p) != nil {
		t.Fatalf("page: %d %s", res.StatusCode, body)
	}
	if p.Total != 30 || p.Offset != 10 || len(p.Players) != 5 {
		t.Fatalf("page %+v", p)
	}
	for i, got := range p.Players {
		if got.Rank != 11+i || got.PlayerID != board[10+i].PlayerID || got.Wealth != board[10+i].Wealth {
			t.Errorf("entry %d = %+v, want rank %d %+v", i, got, 11+i, board[10+i])
		}
	}
	rank := func(id string) int {
		for i, x := range board {
			if x.PlayerID == id {
				return i + 1
			}
		}
		return 0
	}
	if p.You == nil || p.You.PlayerID != ids[29] || p.You.Rank != rank(ids[29]) {
		t.Errorf("you = %+v, want %s at %d", p.You, ids[29], rank(ids[29]))
	}
	if len(p.Named) != 2 || p.Named[0].Rank != rank(p.Named[0].PlayerID) || p.Named[1].Rank != rank(p.Named[1].PlayerID) {
		t.Errorf("named = %+v", p.Named)
	}
	if strings.Contains(string(body), strings.TrimPrefix(e.f.Owner(me), "o:")) {
		t.Fatal("the page exposes the reader's Owner ID")
	}

	// Revalidation: the same query and reader on an unchanged board is a
	// 304; another page, another reader or a changed board is a 200.
	tag := res.Header.Get("ETag")
	if tag == "" || !strings.Contains(res.Header.Get("Cache-Control"), "no-cache") {
		t.Fatalf("headers %v", res.Header)
	}
	if res, body := get(me, "?offset=10&limit=5&players="+ids[0]+","+ids[3], tag); res.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Fatalf("unchanged board: %d %q", res.StatusCode, body)
	}
	if res, _ := get(me, "?offset=15&limit=5", tag); res.StatusCode != http.StatusOK {
		t.Fatalf("another page revalidated: %d", res.StatusCode)
	}
	if res, _ := get(toks[1], "?offset=10&limit=5&players="+ids[0]+","+ids[3], tag); res.StatusCode != http.StatusOK {
		t.Fatalf("another reader revalidated: %d", res.StatusCode)
	}
	e.Must(toks[5], fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":"t2","toPlayerId":%q,"assetId":"credits","quantity":1}`, ids[6]))
	if res, _ := get(me, "?offset=10&limit=5&players="+ids[0]+","+ids[3], tag); res.StatusCode != http.StatusOK {
		t.Fatalf("a changed board revalidated: %d", res.StatusCode)
	}

	// Anyone may read, without a token; the default page is the top.
	res, body = get("", "", "")
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &p) != nil || p.You != nil ||
		len(p.Players) != DefaultStandingPage || p.Players[0].Rank != 1 {
		t.Fatalf("anonymous top page: %d %s", res.StatusCode, body)
	}

	for _, q := range []string{"?limit=0", "?limit=101", "?offset=-1", "?offset=x", "?page=2", "?limit=5&limit=6",
		"?players=" + strings.Repeat("p,", freeport.MaxStandingPage)} {
		res, body := get(me, q, "")
		var he HostError
		if res.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &he) != nil || he.Error.Code != freeport.CodeMalformedRequest {
			t.Errorf("%s: %d %s", q, res.StatusCode, body)
		}
	}
	res, err := http.Get(e.srv.URL + "/freeport/nowhere/standing")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown game: %d", res.StatusCode)
	}
}
