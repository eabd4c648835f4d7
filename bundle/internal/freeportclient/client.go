// Package freeportclient is a test client of one Freeport HTTP endpoint
// (docs/freeport.md): it asks for bearer tokens and posts request
// envelopes. The native host's tests and the edge worker's use it, so both
// speak to their endpoint the same way.
package freeportclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// Client speaks to the game Game of the host at Base (an http:// URL
// without a trailing slash), failing T on a transport error.
type Client struct {
	T    testing.TB
	Base string
	Game string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// Resend sends a request again, with the same body, when the host
	// answers 429 (the token's rate limit), after the seconds its
	// Retry-After names and up to four times, as a real client does. The
	// protocol's idempotency on commandId makes resending safe. Any other
	// refusal is answered to the caller.
	Resend bool
}

// Token asks the endpoint for a bearer token.
func (c Client) Token() string {
	c.T.Helper()
	status, body, _ := c.do(c.Base+"/freeport/"+c.Game+"/token", "", nil)
	var v struct{ Token string }
	if err := json.Unmarshal(body, &v); err != nil || status != http.StatusCreated || v.Token == "" {
		c.T.Fatalf("token: %d %v %s", status, err, body)
	}
	return v.Token
}

// Post sends one request body with token (none when "") and returns the
// status and body.
func (c Client) Post(token, body string) (int, []byte) {
	c.T.Helper()
	status, resp, wait := c.do(c.Base+"/freeport/"+c.Game+"/", token, []byte(body))
	for try := 0; c.Resend && try < 4 && status == http.StatusTooManyRequests; try++ {
		time.Sleep(wait)
		status, resp, wait = c.do(c.Base+"/freeport/"+c.Game+"/", token, []byte(body))
	}
	return status, resp
}

// Must posts and returns the result of a successful envelope, failing T
// on any other answer.
func (c Client) Must(token, body string) map[string]any {
	c.T.Helper()
	status, b := c.Post(token, body)
	var env struct {
		OK     bool           `json:"ok"`
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal(b, &env); err != nil || !env.OK || status != http.StatusOK {
		c.T.Fatalf("%d %s → %s", status, body, b)
	}
	return env.Result
}

// do posts body (none when nil) to url with token as its bearer, and
// returns the status, the body and how long the host asks a client to
// wait before sending again (its Retry-After, else 200 ms).
func (c Client) do(url, token string, body []byte) (int, []byte, time.Duration) {
	c.T.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		c.T.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		c.T.Fatalf("post %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Fatalf("post %s: %v", url, err)
	}
	wait := 200 * time.Millisecond
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
		wait = time.Duration(secs) * time.Second
	}
	return resp.StatusCode, b, wait
}

// CodeOf is the error code of a response envelope, or "".
func CodeOf(b []byte) string {
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(b, &env)
	return env.Error.Code
}

// Holdings maps a readInventory result's assets to their quantities.
func Holdings(res map[string]any) map[string]int64 {
	out := map[string]int64{}
	for _, x := range res["holdings"].([]any) {
		h := x.(map[string]any)
		out[h["assetId"].(string)] = int64(h["quantity"].(float64))
	}
	return out
}
