package conformance

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hpke"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/owp"
)

const profile = "owp-market-local/0.2"

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// seenCodes records every error code a case produced, for TestMain.
var seenCodes = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// market is one running server under test and its discovered profile.
type market struct {
	t        *testing.T
	srv      *owp.Server
	clock    *clock
	base     string
	host     string
	instance string
	profile  map[string]any
	ctxEnc   hpke.PublicKey
	ctxSign  ed25519.PublicKey
	http     *http.Client
}

func start(t *testing.T) *market {
	return startWith(t, owp.Options{})
}

func startWith(t *testing.T, opts owp.Options) *market {
	t.Helper()
	clk := &clock{t: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)}
	if opts.Now == nil {
		opts.Now = clk.Now
	}
	srv, err := owp.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	m := &market{t: t, srv: srv, clock: clk, base: srv.URL(), host: strings.TrimPrefix(srv.URL(), "http://"), http: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	res, err := m.http.Get(m.base + "/v1/profile")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("profile: %d %s", res.StatusCode, raw)
	}
	if err := json.Unmarshal(raw, &m.profile); err != nil {
		t.Fatal(err)
	}
	m.instance = m.profile["instance_id"].(string)
	ctx := m.profile["context"].(map[string]any)
	encRaw := b64std(t, ctx["encryption_public_key"].(string))
	if m.ctxEnc, err = hpke.DHKEM(ecdh.P256()).NewPublicKey(encRaw); err != nil {
		t.Fatal(err)
	}
	m.ctxSign = ed25519.PublicKey(b64std(t, ctx["signing_public_key"].(string)))
	return m
}

func b64std(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		t.Fatalf("base64 %q: %v", s, err)
	}
	return b
}

// newUUID is a random lowercase UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// agent is one identity driven by raw signed requests.
type agent struct {
	m       *market
	priv    ed25519.PrivateKey
	spki    []byte
	id      string
	session string
	enc     hpke.PrivateKey // nil without an encryption key
	encB64  string
}

// newAgent makes keys but does not register.
func (m *market) newAgent(withEnc bool) *agent {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	spki, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		m.t.Fatal(err)
	}
	sum := sha256.Sum256(spki)
	a := &agent{m: m, priv: priv, spki: spki, id: "agent_" + hex.EncodeToString(sum[:])[:24], session: "-"}
	if withEnc {
		k, err := hpke.DHKEM(ecdh.P256()).GenerateKey()
		if err != nil {
			m.t.Fatal(err)
		}
		a.enc = k
		a.encB64 = base64.StdEncoding.EncodeToString(k.PublicKey().Bytes())
	}
	return a
}

// registration is the body a's registration sends.
func (a *agent) registration(name, capability string) map[string]any {
	body := map[string]any{"profile": profile, "name": name, "version": "1.0.0", "capability": capability,
		"public_key": base64.RawURLEncoding.EncodeToString(a.spki)}
	if a.enc != nil {
		body["encryption_public_key"] = a.encB64
	}
	return body
}

// register registers a new agent and keeps its session.
func (m *market) register(name, capability string, withEnc bool) *agent {
	m.t.Helper()
	a := m.newAgent(withEnc)
	r := a.post("/v1/register", a.registration(name, capability))
	r.ok(m.t)
	a.session = r.str("session_id")
	return a
}

// req is one raw request; fields left zero take their defaults.
type req struct {
	method    string
	path      string // with any query
	body      []byte
	requestID string
	tsOffset  time.Duration
	mutate    func(h http.Header)
}

// reply is a raw answer.
type reply struct {
	status int
	raw    []byte
	obj    map[string]any
}

func (r reply) code() string {
	if e, ok := r.obj["error"].(map[string]any); ok {
		c, _ := e["code"].(string)
		return c
	}
	return ""
}

func (r reply) str(key string) string { s, _ := r.obj[key].(string); return s }

func (r reply) ok(t *testing.T) reply {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("want 200, got %d %s", r.status, r.raw)
	}
	return r
}

func (r reply) want(t *testing.T, status int, code string) {
	t.Helper()
	if r.status != status || r.code() != code {
		t.Fatalf("want %d %s, got %d %s", status, code, r.status, r.raw)
	}
}

// signingString is the nine-line message of docs/owp.md.
func signingString(method, pathQuery, instance, agentID, session string, ts int64, requestID string, body []byte) []byte {
	sum := sha256.Sum256(body)
	return []byte(profile + "\n" + method + "\n" + pathQuery + "\n" + instance + "\n" + agentID + "\n" + session + "\n" +
		strconv.FormatInt(ts, 10) + "\n" + requestID + "\n" + hex.EncodeToString(sum[:]))
}

// send signs and sends one request.
func (a *agent) send(q req) reply {
	a.m.t.Helper()
	return a.m.do(a.build(q))
}

// build signs one request.
func (a *agent) build(q req) *http.Request {
	a.m.t.Helper()
	if q.method == "" {
		q.method = http.MethodPost
	}
	if q.requestID == "" {
		q.requestID = newUUID()
	}
	ts := a.m.clock.Now().Add(q.tsOffset).Unix()
	msg := signingString(q.method, q.path, a.m.instance, a.id, a.session, ts, q.requestID, q.body)
	sig := ed25519.Sign(a.priv, msg)
	var body io.Reader
	if q.body != nil {
		body = bytes.NewReader(q.body)
	}
	hr, err := http.NewRequest(q.method, a.m.base+q.path, body)
	if err != nil {
		a.m.t.Fatal(err)
	}
	h := hr.Header
	h.Set("OWP-Profile", profile)
	h.Set("OWP-Instance-Id", a.m.instance)
	h.Set("OWP-Agent-Id", a.id)
	h.Set("OWP-Session-Id", a.session)
	h.Set("OWP-Timestamp", strconv.FormatInt(ts, 10))
	h.Set("OWP-Request-Id", q.requestID)
	h.Set("OWP-Signature", base64.RawURLEncoding.EncodeToString(sig))
	if q.method == http.MethodPost {
		h.Set("Content-Type", "application/json")
	}
	if q.mutate != nil {
		q.mutate(h)
	}
	return hr
}

// do sends a prepared request and records its error code.
func (m *market) do(hr *http.Request) reply {
	m.t.Helper()
	res, err := m.http.Do(hr)
	if err != nil {
		m.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		m.t.Fatal(err)
	}
	if res.Header.Get("Cache-Control") != "no-store" || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		m.t.Fatalf("%s %s: headers %v", hr.Method, hr.URL, res.Header)
	}
	r := reply{status: res.StatusCode, raw: raw}
	if err := json.Unmarshal(raw, &r.obj); err != nil {
		m.t.Fatalf("%s %s: not JSON: %s", hr.Method, hr.URL, raw)
	}
	if c := r.code(); c != "" {
		e := r.obj["error"].(map[string]any)
		if e["retryable"] != (c == "INTERNAL_ERROR") || r.obj["profile"] != profile || len(r.obj) != 3 || len(e) != 2 {
			m.t.Fatalf("malformed error response %s", raw)
		}
		seenCodes.Lock()
		seenCodes.m[c] = true
		seenCodes.Unlock()
	}
	return r
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends a JSON body with a fresh request id.
func (a *agent) post(path string, v any) reply {
	a.m.t.Helper()
	return a.send(req{path: path, body: mustJSON(a.m.t, v)})
}

func (a *agent) get(pathQuery string) reply {
	a.m.t.Helper()
	return a.send(req{method: http.MethodGet, path: pathQuery})
}

// createRound seeds a round owned by a.
func (a *agent) createRound(capability, mediaType string) string {
	a.m.t.Helper()
	r := a.post("/v1/rounds", map[string]any{"profile": profile, "media_type": mediaType, "capability": capability}).ok(a.m.t)
	return r.obj["round"].(map[string]any)["round_id"].(string)
}

// subscribe subscribes a to every round of its capability and the given
// media types.
func (a *agent) subscribe(capability string, mediaTypes ...string) string {
	a.m.t.Helper()
	r := a.post("/v1/subscribe", map[string]any{"profile": profile, "capability": capability, "media_types": mediaTypes,
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 2, "round_id": nil}).ok(a.m.t)
	return r.obj["subscription"].(map[string]any)["subscription_id"].(string)
}

// matches polls and returns a's matches.
func (a *agent) matches() []map[string]any {
	a.m.t.Helper()
	r := a.get("/v1/matches").ok(a.m.t)
	var out []map[string]any
	for _, m := range r.obj["matches"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// match polls and returns a's match in a round, failing when there is none.
func (a *agent) match(roundID string) map[string]any {
	a.m.t.Helper()
	for _, m := range a.matches() {
		if m["round_id"] == roundID {
			return m
		}
	}
	a.m.t.Fatalf("%s has no match in round %s", a.id, roundID)
	return nil
}

func (a *agent) submitText(matchID, mediaType, text string) reply {
	a.m.t.Helper()
	return a.post("/v1/submit", map[string]any{"profile": profile, "match_id": matchID,
		"content": map[string]any{"media_type": mediaType, "text": text}})
}

func (a *agent) events(after int) ([]map[string]any, int) {
	a.m.t.Helper()
	r := a.get("/v1/events?after=" + strconv.Itoa(after)).ok(a.m.t)
	var out []map[string]any
	for _, e := range r.obj["events"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out, int(r.obj["next_cursor"].(float64))
}

func eventTypes(evs []map[string]any) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e["type"].(string))
	}
	return out
}

// aad is the eight-line context AAD of docs/owp.md.
func aad(direction, route, instance, agentID, session, requestID, target string) []byte {
	return []byte(strings.Join([]string{profile + "/context", direction, route, instance, agentID, session, requestID, target}, "\n"))
}

// sealTo seals plaintext for the market's context adapter under the
// request AAD.
func (a *agent) seal(route, requestID, target string, plaintext any) map[string]any {
	a.m.t.Helper()
	enc, s, err := hpke.NewSender(a.m.ctxEnc, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(profile+"/context"))
	if err != nil {
		a.m.t.Fatal(err)
	}
	ct, err := s.Seal(aad("request", route, a.m.instance, a.id, a.session, requestID, target), mustJSON(a.m.t, plaintext))
	if err != nil {
		a.m.t.Fatal(err)
	}
	return map[string]any{"enc": base64.StdEncoding.EncodeToString(enc), "ciphertext": base64.StdEncoding.EncodeToString(ct)}
}

// contextCall sends a sealed context request: body is the outer body
// without its box; target is the match or round the AAD binds.
func (a *agent) contextCall(route, target string, outer map[string]any, plaintext any) (reply, string) {
	a.m.t.Helper()
	rid := newUUID()
	outer["profile"] = profile
	outer["box"] = a.seal(route, rid, target, plaintext)
	return a.send(req{path: route, body: mustJSON(a.m.t, outer), requestID: rid}), rid
}

// openResponse verifies the adapter's signature over the response AAD
// that a expects, then opens the box into v.
func (a *agent) openResponse(r reply, route, requestID, target string, v any) error {
	if r.status != 200 {
		return fmt.Errorf("status %d %s", r.status, r.raw)
	}
	box, _ := r.obj["box"].(map[string]any)
	encB64, _ := box["enc"].(string)
	ctB64, _ := box["ciphertext"].(string)
	sig, err := base64.StdEncoding.Strict().DecodeString(r.str("signature"))
	if err != nil {
		return err
	}
	ad := aad("response", route, a.m.instance, a.id, a.session, requestID, target)
	signed := append(append(append(append([]byte{}, ad...), '\n'), encB64...), append([]byte{'\n'}, ctB64...)...)
	if !ed25519.Verify(a.m.ctxSign, signed, sig) {
		return fmt.Errorf("signature does not verify under this binding")
	}
	enc, err1 := base64.StdEncoding.Strict().DecodeString(encB64)
	ct, err2 := base64.StdEncoding.Strict().DecodeString(ctB64)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("box encoding")
	}
	rc, err := hpke.NewRecipient(enc, a.enc, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(profile+"/context"))
	if err != nil {
		return err
	}
	pt, err := rc.Open(ad, ct)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(pt))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
