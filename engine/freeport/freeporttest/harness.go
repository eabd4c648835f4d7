package freeporttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// resp is one decoded response.
type resp struct {
	raw []byte
	m   map[string]any
}

func (r resp) ok() bool               { return r.m["ok"] == true }
func (r resp) result() map[string]any { m, _ := r.m["result"].(map[string]any); return m }
func (r resp) version() int64         { f, _ := r.m["stateVersion"].(float64); return int64(f) }

func (r resp) code() string {
	if e, ok := r.m["error"].(map[string]any); ok {
		s, _ := e["code"].(string)
		return s
	}
	return ""
}

// harness drives one game through a Transport with a test clock and keeps
// named values (Player IDs, Exchange IDs, hashes) for later requests.
type harness struct {
	t   testing.TB
	tr  Transport
	now int64
	v   map[string]string
	n   int
	// fresh starts another, independent game instance, for a case that
	// compares two games.
	fresh func(t *testing.T) Transport
}

func newHarness(t testing.TB, tr Transport) *harness {
	return &harness{t: t, tr: tr, now: T0, v: map[string]string{}}
}

// expand replaces {{name}} with the named value.
func (h *harness) expand(body string) string {
	for k, v := range h.v {
		body = strings.ReplaceAll(body, "{{"+k+"}}", v)
	}
	return body
}

func (h *harness) call(owner, body string) resp {
	h.t.Helper()
	raw := h.tr(owner, h.now, []byte(h.expand(body)))
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		h.t.Fatalf("response is not JSON: %v: %s", err, raw)
	}
	return resp{raw: raw, m: m}
}

// must sends a request that has to succeed and returns its result.
func (h *harness) must(owner, body string) map[string]any {
	h.t.Helper()
	r := h.call(owner, body)
	if !r.ok() {
		h.t.Fatalf("%s: %s → %s", owner, h.expand(body), r.raw)
	}
	return r.result()
}

func (h *harness) cid() string {
	h.n++
	return fmt.Sprintf("c%d", h.n)
}

// enrol enrols owners and records each Player ID under the owner's name.
func (h *harness) enrol(owners ...string) {
	h.t.Helper()
	for _, o := range owners {
		res := h.must(o, `{"protocolVersion":2,"action":"enroll","commandId":"enroll-01"}`)
		h.v[o] = res["playerId"].(string)
	}
}

// remember stores an Exchange view's id, version and hash under name.
func (h *harness) remember(name string, x map[string]any) map[string]any {
	h.v[name] = x["exchangeId"].(string)
	h.v[name+".hash"] = x["termsHash"].(string)
	h.v[name+".ver"] = fmt.Sprint(x["exchangeVersion"])
	return x
}

// propose opens an Exchange from one owner to another and remembers it.
func (h *harness) propose(name, from, to, offered, requested string) map[string]any {
	h.t.Helper()
	return h.remember(name, h.must(from, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":%q,
		"counterpartyPlayerId":"{{%s}}","offered":%s,"requested":%s}`, h.cid(), to, offered, requested)))
}

func (h *harness) counter(name, who, offered, requested string) map[string]any {
	h.t.Helper()
	return h.remember(name, h.must(who, fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":%q,
		"exchangeId":"{{%s}}","exchangeVersion":{{%s.ver}},"termsHash":"{{%s.hash}}","offered":%s,"requested":%s}`,
		h.cid(), name, name, name, offered, requested)))
}

func (h *harness) respond(name, who, decision string) map[string]any {
	h.t.Helper()
	return h.remember(name, h.must(who, fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":%q,
		"exchangeId":"{{%s}}","exchangeVersion":{{%s.ver}},"termsHash":"{{%s.hash}}","decision":%q}`,
		h.cid(), name, name, name, decision)))
}

// holding returns owner's quantity and available of asset.
func (h *harness) holding(owner, asset string) (q, avail int64) {
	h.t.Helper()
	res := h.must(owner, `{"protocolVersion":2,"action":"readInventory"}`)
	for _, x := range res["holdings"].([]any) {
		m := x.(map[string]any)
		if m["assetId"] == asset {
			return int64(m["quantity"].(float64)), int64(m["available"].(float64))
		}
	}
	h.t.Fatalf("no holding of %s", asset)
	return 0, 0
}

func (h *harness) statement(owner string) []map[string]any {
	h.t.Helper()
	res := h.must(owner, `{"protocolVersion":2,"action":"readStatement","limit":100}`)
	var out []map[string]any
	for _, e := range res["entries"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

func (h *harness) version() int64 {
	h.t.Helper()
	return h.call("observer", `{"protocolVersion":2,"action":"readStanding"}`).version()
}

// contains reports whether raw contains s as a JSON string or substring.
func contains(raw []byte, s string) bool { return s != "" && bytes.Contains(raw, []byte(s)) }
