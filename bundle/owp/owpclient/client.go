package owpclient

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hpke"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// Error is a failure with a protocol code: a server's error code, or one
// of the client-only codes of package wire (OUTCOME_UNKNOWN,
// RESPONSE_BINDING_FAILED and so on).
type Error struct {
	Code      string
	Status    int    // the HTTP status, 0 for a client-only code
	RequestID string // the operation's request id, when it had one
}

func (e *Error) Error() string {
	if e.RequestID != "" {
		return "owpclient: " + e.Code + " (request " + e.RequestID + ")"
	}
	return "owpclient: " + e.Code
}

// CodeOf is the protocol code of err, or "" when it has none.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func clientError(code, requestID string) error { return &Error{Code: code, RequestID: requestID} }

// Options configure Connect. The zero value is ready to use.
type Options struct {
	// HTTPClient sends the requests; nil means a client of its own that
	// never follows redirects and keeps up to 32 idle keep-alive
	// connections to the market. A custom one should not follow redirects
	// either.
	HTTPClient *http.Client
	// ContextKeys, when set, are the adapter keys the operator obtained
	// independently; Connect refuses a market publishing others.
	ContextKeys *wire.ContextKeys
	// Now is the clock for OWP-Timestamp; nil means time.Now.
	Now func() time.Time
	// PollInterval is the least time between two polls of Await; zero
	// means the profile's one second.
	PollInterval time.Duration
}

// maxTries is how many times an operation is sent before its outcome is
// unknown.
const maxTries = 3

// maxIdleConns is how many idle keep-alive connections the default HTTP
// client keeps to the market.
const maxIdleConns = 32

// maxSealed is how many sealed request bodies an agent keeps for retries.
const maxSealed = 256

// Market is a discovered, pinned market.
type Market struct {
	base    string
	http    *http.Client
	now     func() time.Time
	poll    time.Duration
	profile wire.ProfileResponse
	ctxEnc  hpke.PublicKey
	ctxSign ed25519.PublicKey
}

// Connect discovers the market at baseURL (http://127.0.0.1:PORT) and pins
// its instance id, limits and context keys for the life of the Market.
func Connect(ctx context.Context, baseURL string, opts Options) (*Market, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, clientError(wire.CodeLoopbackRequired, "")
	}
	m := &Market{base: "http://" + u.Host, http: opts.HTTPClient, now: opts.Now, poll: opts.PollInterval}
	if m.http == nil {
		m.http = &http.Client{
			Transport: &http.Transport{
				// Loopback only: no proxy, no compression (the market
				// sends none), and enough idle connections that
				// concurrent calls reuse theirs rather than dial anew.
				DisableCompression:  true,
				MaxIdleConns:        maxIdleConns,
				MaxIdleConnsPerHost: maxIdleConns,
				IdleConnTimeout:     90 * time.Second,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	if m.now == nil {
		m.now = time.Now
	}
	if m.poll == 0 {
		m.poll = wire.PollIntervalSeconds * time.Second
	}
	if err := m.discover(ctx, opts.ContextKeys); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Market) discover(ctx context.Context, expect *wire.ContextKeys) error {
	failed := clientError(wire.CodeDiscoveryFailed, "")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.base+wire.RouteProfile, nil)
	if err != nil {
		return failed
	}
	res, err := m.http.Do(req)
	if err != nil {
		return failed
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, wire.MaxRequestBytes))
	if err != nil || res.StatusCode != http.StatusOK || decodeStrict(raw, &m.profile) != nil {
		return failed
	}
	p := m.profile
	if p.Profile != wire.Profile || !wire.ValidUUID(p.InstanceID) || p.Limits != wire.ProfileLimits() ||
		p.Context.Info != wire.ContextInfo || (expect != nil && *expect != p.Context.ContextKeys) {
		return failed
	}
	enc, err1 := wire.ContextEncoding.DecodeString(p.Context.EncryptionPublicKey)
	sign, err2 := wire.ContextEncoding.DecodeString(p.Context.SigningPublicKey)
	if err1 != nil || err2 != nil || len(sign) != ed25519.PublicKeySize {
		return failed
	}
	if m.ctxEnc, err = hpke.DHKEM(ecdh.P256()).NewPublicKey(enc); err != nil {
		return failed
	}
	m.ctxSign = ed25519.PublicKey(sign)
	return nil
}

// Profile is the pinned profile.
func (m *Market) Profile() wire.ProfileResponse { return m.profile }

// Registration names a new identity.
type Registration struct {
	Name       string
	Version    string
	Capability string // wire.CapabilityWriting (the default) or wire.CapabilityWeather
}

// Agent is one registered identity. Its Ed25519 and P-256 private keys
// exist only in this value. An Agent is safe for concurrent use.
type Agent struct {
	m          *Market
	id         string
	session    string
	capability string
	priv       ed25519.PrivateKey
	enc        hpke.PrivateKey

	mu      sync.Mutex
	sealed  map[string]sealedBody // by request id
	order   []string              // request ids of sealed, oldest first
	jobs    map[string]wire.Job   // the job first seen for each match
	grants  map[string]wire.ContextGrant
	obs     map[string]wire.WeatherObservation // the one current observation per match
	handled map[string]bool                    // matches submitted or failed from this process
}

// sealedBody is a request body whose box was sealed once for a request id.
type sealedBody struct {
	intent [32]byte
	body   []byte
}

// Register generates the agent's key pairs and registers it. It never
// re-registers by itself: REGISTRATION_EXISTS or OUTCOME_UNKNOWN are for
// the caller to judge.
func (m *Market) Register(ctx context.Context, reg Registration, requestID ...string) (*Agent, error) {
	rid, err := pickRequestID(requestID)
	if err != nil {
		return nil, err
	}
	if reg.Capability == "" {
		reg.Capability = wire.CapabilityWriting
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	spki, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	enc, err := hpke.DHKEM(ecdh.P256()).GenerateKey()
	if err != nil {
		return nil, err
	}
	a := &Agent{
		m: m, id: wire.AgentID(spki), session: wire.NoSession, capability: reg.Capability, priv: priv, enc: enc,
		sealed: map[string]sealedBody{}, jobs: map[string]wire.Job{}, grants: map[string]wire.ContextGrant{},
		obs: map[string]wire.WeatherObservation{}, handled: map[string]bool{},
	}
	body := mustJSON(wire.RegistrationRequest{
		Profile: wire.Profile, Name: reg.Name, Version: reg.Version, Capability: reg.Capability,
		PublicKey: wire.HeaderEncoding.EncodeToString(spki), EncryptionPublicKey: wire.ContextEncoding.EncodeToString(enc.PublicKey().Bytes()),
	})
	var out wire.Registration
	if err := a.send(ctx, http.MethodPost, wire.RouteRegister, body, rid, &out); err != nil {
		return nil, err
	}
	if out.AgentID != a.id || !wire.ValidUUID(out.SessionID) {
		return nil, clientError(wire.CodeResponseInvalid, rid)
	}
	a.session = out.SessionID
	return a, nil
}

// ID is the agent id.
func (a *Agent) ID() string { return a.id }

// Capability is the registered capability.
func (a *Agent) Capability() string { return a.capability }

// pickRequestID is the caller's request id, or a new one.
func pickRequestID(ids []string) (string, error) {
	if len(ids) > 0 && ids[0] != "" {
		if !wire.ValidUUID(ids[0]) {
			return "", clientError(wire.CodeInvalidArgument, "")
		}
		return ids[0], nil
	}
	return NewRequestID(), nil
}

// NewRequestID returns a new random request id, to pass to a mutating
// call that may have to be retried later in this process.
func NewRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// send performs one operation: up to three tries with the same request id
// and body, each freshly timestamped and signed.
func (a *Agent) send(ctx context.Context, method, pathQuery string, body []byte, rid string, out any) error {
	for try := 0; try < maxTries; try++ {
		status, raw, err := a.try(ctx, method, pathQuery, body, rid)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			continue // transport loss or an interrupted answer
		}
		if status == http.StatusOK {
			if decodeStrict(raw, out) != nil {
				return clientError(wire.CodeResponseInvalid, rid)
			}
			return nil
		}
		var e wire.ErrorResponse
		if decodeStrict(raw, &e) != nil || e.Profile != wire.Profile || wire.Status(e.Error.Code) != status {
			return clientError(wire.CodeResponseInvalid, rid)
		}
		if !e.Error.Retryable {
			return &Error{Code: e.Error.Code, Status: status, RequestID: rid}
		}
	}
	return clientError(wire.CodeOutcomeUnknown, rid)
}

func (a *Agent) try(ctx context.Context, method, pathQuery string, body []byte, rid string) (int, []byte, error) {
	var rd io.Reader
	if method == http.MethodPost {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.m.base+pathQuery, rd)
	if err != nil {
		return 0, nil, err
	}
	ts := a.m.now().Unix()
	sig := ed25519.Sign(a.priv, wire.SigningString(wire.Request{
		Method: method, PathQuery: pathQuery, InstanceID: a.m.profile.InstanceID, AgentID: a.id,
		SessionID: a.session, Timestamp: ts, RequestID: rid, Body: body,
	}))
	// Filled directly: the keys are canonical already, so Set's
	// canonicalization on every request is saved.
	h := req.Header
	h[wire.SignedHeaderKeys[0]] = []string{wire.Profile}
	h[wire.SignedHeaderKeys[1]] = []string{a.m.profile.InstanceID}
	h[wire.SignedHeaderKeys[2]] = []string{a.id}
	h[wire.SignedHeaderKeys[3]] = []string{a.session}
	h[wire.SignedHeaderKeys[4]] = []string{strconv.FormatInt(ts, 10)}
	h[wire.SignedHeaderKeys[5]] = []string{rid}
	h[wire.SignedHeaderKeys[6]] = []string{wire.HeaderEncoding.EncodeToString(sig)}
	if method == http.MethodPost {
		h["Content-Type"] = jsonType
	}
	res, err := a.m.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := readBody(res)
	if err != nil {
		return 0, nil, err
	}
	return res.StatusCode, raw, nil
}

// maxAnswerBytes bounds an answer the client reads.
const maxAnswerBytes = 1 << 20

// readBody reads an answer of at most maxAnswerBytes, into a buffer sized
// from its Content-Length when it has one.
func readBody(res *http.Response) ([]byte, error) {
	if n := res.ContentLength; n >= 0 && n <= maxAnswerBytes {
		buf := make([]byte, n)
		if _, err := io.ReadFull(res.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(io.LimitReader(res.Body, maxAnswerBytes))
}

// jsonType is the Content-Type of every request body.
var jsonType = []string{"application/json"}

// post performs a mutating operation with the caller's request id or a
// new one.
func (a *Agent) post(ctx context.Context, route string, v any, requestID []string, out any) error {
	rid, err := pickRequestID(requestID)
	if err != nil {
		return err
	}
	return a.send(ctx, http.MethodPost, route, mustJSON(v), rid, out)
}

// decodeStrict decodes an answer exactly: unknown or duplicate members
// and trailing data are RESPONSE_INVALID.
func decodeStrict(raw []byte, v any) error {
	return jsonv2.Unmarshal(raw, v, jsonv2.RejectUnknownMembers(true))
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("owpclient: encoding a request: " + err.Error())
	}
	return b
}
