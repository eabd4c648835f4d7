package owp

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// Options configure a Server. The zero value serves on an ephemeral port
// with the real clock and random ids.
type Options struct {
	// Addr is the listen address, 127.0.0.1:PORT; empty means 127.0.0.1:0.
	Addr string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// NewID returns a new lowercase canonical UUID for the instance,
	// sessions, rounds, jobs, subscriptions, matches, grants, observations,
	// outputs and payment receipts; nil means random UUIDs. Every call must
	// return a new value.
	NewID func() string
}

// Server is one market instance: the coordinator and the context adapter,
// in memory, behind one loopback listener.
type Server struct {
	now      func() time.Time
	newID    func() string
	instance string
	host     string
	ln       net.Listener
	http     *http.Server
	done     chan struct{}
	profile  []byte

	mu  sync.Mutex // serializes every authenticated state transition
	m   market
	ctx *adapter
}

// Start binds the listener and serves the market until Close.
func Start(opts Options) (*Server, error) {
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if host, _, err := net.SplitHostPort(addr); err != nil || host != "127.0.0.1" {
		return nil, fmt.Errorf("owp: listen address %q is not 127.0.0.1:PORT", addr)
	}
	s := &Server{now: opts.Now, newID: opts.NewID, done: make(chan struct{})}
	if s.now == nil {
		s.now = time.Now
	}
	if s.newID == nil {
		s.newID = randomUUID
	}
	ctx, err := newAdapter(s.newID)
	if err != nil {
		return nil, err
	}
	s.ctx = ctx
	s.instance = s.newID()
	s.m = newMarket()
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		return nil, fmt.Errorf("owp: %w", err)
	}
	s.ln = ln
	s.host = ln.Addr().String()
	s.profile = mustJSON(wire.ProfileResponse{
		Profile:      wire.Profile,
		InstanceID:   s.instance,
		Limits:       wire.ProfileLimits(),
		Capabilities: []string{wire.CapabilityWriting, wire.CapabilityWeather},
		MediaTypes:   []string{wire.MediaPlain, wire.MediaMarkdown, wire.MediaJSON},
		SelectionPolicy: map[string]string{
			wire.CapabilityWriting: wire.PolicyWriting,
			wire.CapabilityWeather: wire.PolicyWeather,
		},
		Reward:  wire.Amount{Amount: wire.RewardAmount, Unit: wire.CreditUnit},
		Context: ctx.descriptor(),
	})
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.http.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return s, nil
}

// URL is the base URL of the market, http://127.0.0.1:PORT.
func (s *Server) URL() string { return "http://" + s.host }

// InstanceID is the instance id GET /v1/profile publishes.
func (s *Server) InstanceID() string { return s.instance }

// Close stops the listener and ends open connections; the market's state
// is gone with the Server.
func (s *Server) Close() error {
	err := s.http.Close()
	<-s.done
	return err
}

// route is one endpoint of the protocol.
type route struct {
	method string
	handle func(s *Server, c *call) (any, string)
}

// routes are the thirteen endpoints but /v1/profile, which needs no
// authentication and is answered before the pipeline.
var routes = map[string]route{
	wire.RouteRegister:    {http.MethodPost, nil},
	wire.RouteRounds:      {http.MethodPost, (*Server).createRound},
	wire.RouteSubscribe:   {http.MethodPost, (*Server).subscribe},
	wire.RouteUnsubscribe: {http.MethodPost, (*Server).unsubscribe},
	wire.RouteMatches:     {http.MethodGet, (*Server).matches},
	wire.RouteSubmit:      {http.MethodPost, (*Server).submit},
	wire.RouteFail:        {http.MethodPost, (*Server).fail},
	wire.RouteEvents:      {http.MethodGet, (*Server).events},
	wire.RoutePolicy:      {http.MethodPost, (*Server).contextPolicy},
	wire.RouteContext:     {http.MethodPost, (*Server).contextRequest},
	wire.RouteWeather:     {http.MethodPost, (*Server).contextWeather},
	wire.RouteResults:     {http.MethodPost, (*Server).results},
}

// call is one authenticated request on its way through the pipeline.
type call struct {
	route     string
	body      []byte
	now       time.Time
	timestamp int64 // the signed OWP-Timestamp
	requestID string
	agentID   string
	sessionID string
	after     int // the events cursor
	digest    [32]byte
	ident     *identity
	sess      *session
	recheck   func(now time.Time) string // set by a handler whose receipt must be revalidated on replay
}

// reply is an answer: a status and the JSON (or page) bytes.
type reply struct {
	status int
	body   []byte
	html   bool
	allow  string
}

// rawJSON is a handler result that is already encoded.
type rawJSON []byte

// ServeHTTP answers one request through the validation order of the
// profile; see docs/owp.md.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rid := parsedRequestID(r)
	rep := s.serveRecovered(r, rid)
	// The header map is filled directly, with canonical keys and shared
	// values, rather than through Set, which canonicalizes each key and
	// allocates each value on every request.
	h := w.Header()
	if rep.html {
		h["Content-Type"] = htmlType
		h["Content-Security-Policy"] = pageCSP
	} else {
		h["Content-Type"] = jsonType
	}
	h["Cache-Control"] = noStore
	h["X-Content-Type-Options"] = noSniff
	h["Content-Length"] = []string{strconv.Itoa(len(rep.body))}
	if rep.allow != "" {
		h["Allow"] = []string{rep.allow}
	}
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
}

// Header values every answer shares; net/http only reads them.
var (
	jsonType = []string{"application/json; charset=utf-8"}
	htmlType = []string{"text/html; charset=utf-8"}
	pageCSP  = []string{"default-src 'none'; style-src 'unsafe-inline'"}
	noStore  = []string{"no-store"}
	noSniff  = []string{"nosniff"}
)

// parsedRequestID is the request id an error answer names: the header's
// value when it is present once and well formed.
func parsedRequestID(r *http.Request) *string {
	v := r.Header.Values(wire.HeaderRequest)
	if len(v) == 1 && wire.ValidUUID(v[0]) {
		return &v[0]
	}
	return nil
}

// serveRecovered answers INTERNAL_ERROR, with no diagnostics, for a fault
// inside the pipeline.
func (s *Server) serveRecovered(r *http.Request, rid *string) (rep reply) {
	defer func() {
		if recover() != nil {
			rep = errorReply(rid, wire.CodeInternalError)
		}
	}()
	return s.serve(r, rid)
}

func errorReply(rid *string, code string) reply {
	return reply{status: wire.Status(code), body: mustJSON(wire.ErrorResponse{
		Profile: wire.Profile, RequestID: rid,
		Error: wire.ErrorBody{Code: code, Retryable: code == wire.CodeInternalError},
	})}
}

func (s *Server) serve(r *http.Request, rid *string) reply {
	// 1. Local Host and Origin, then the route.
	if r.Host != s.host || len(r.Header.Values("Origin")) > 0 {
		return errorReply(rid, wire.CodeForbidden)
	}
	if r.URL.Path == operatorPath && r.URL.RawPath == "" {
		if r.Method != http.MethodGet {
			return reply{status: http.StatusMethodNotAllowed, body: []byte("GET only\n"), html: true, allow: http.MethodGet}
		}
		return reply{status: http.StatusOK, body: s.operatorPage(), html: true}
	}
	rt, known := routes[r.URL.Path]
	if r.URL.Path == wire.RouteProfile {
		rt, known = route{method: http.MethodGet}, true
	}
	if !known || r.URL.RawPath != "" {
		return errorReply(rid, wire.CodeNotFound)
	}
	if r.Method != rt.method {
		rep := errorReply(rid, wire.CodeMethodNotAllowed)
		rep.allow = rt.method
		return rep
	}
	// 2. Query and body framing and size.
	c := &call{route: r.URL.Path}
	if code := s.frame(r, c); code != "" {
		return errorReply(rid, code)
	}
	if c.route == wire.RouteProfile {
		return reply{status: http.StatusOK, body: s.profile}
	}
	// 3. Authentication header format, profile, instance and timestamp.
	sig, code := s.authHeaders(r, c)
	if code != "" {
		return errorReply(rid, code)
	}
	target := r.URL.RequestURI()
	sum := sha256.New()
	sum.Write([]byte(r.Method + "\n" + target + "\n"))
	sum.Write(c.body)
	sum.Sum(c.digest[:0])
	signed := wire.SigningString(wire.Request{
		Method: r.Method, PathQuery: target, InstanceID: s.instance, AgentID: c.agentID,
		SessionID: c.sessionID, Timestamp: c.timestamp, RequestID: c.requestID, Body: c.body,
	})
	if c.route == wire.RouteRegister {
		return s.registerPipeline(c, rid, signed, sig)
	}
	// 4. Live session ownership.
	s.mu.Lock()
	sess := s.m.sessions[c.sessionID]
	switch {
	case sess == nil || sess.ident.agentID != c.agentID:
		code = wire.CodeUnknownSession
	case !c.now.Before(sess.expires):
		code = wire.CodeSessionExpired
	}
	s.mu.Unlock()
	if code != "" {
		return errorReply(rid, code)
	}
	// 5. Signature.
	if !ed25519.Verify(sess.ident.pub, signed, sig) {
		return errorReply(rid, wire.CodeInvalidSignature)
	}
	c.sess, c.ident = sess, sess.ident
	s.mu.Lock()
	defer s.mu.Unlock()
	// 6. Due-round closure.
	s.closeDue(c.now)
	post := r.Method == http.MethodPost
	if post {
		// 7. Existing receipt: conflict or replay.
		if rc := sess.receipts[c.requestID]; rc != nil {
			if rc.digest != c.digest {
				return errorReply(rid, wire.CodeIdempotencyConflict)
			}
			if rc.recheck != nil {
				if code := rc.recheck(c.now); code != "" {
					return errorReply(rid, code)
				}
			}
			return reply{status: http.StatusOK, body: rc.body}
		}
		// 8. Capacity.
		if len(sess.receipts) >= wire.MaxReceipts {
			return errorReply(rid, wire.CodeCapacityReached)
		}
	}
	// 9–12. Shape, owned resource and state, output contract, mutation.
	v, code := rt.handle(s, c)
	if code != "" {
		return errorReply(rid, code)
	}
	body := encodeResult(v)
	if post {
		sess.receipts[c.requestID] = &receipt{digest: c.digest, body: body, recheck: c.recheck}
	}
	return reply{status: http.StatusOK, body: body}
}

func encodeResult(v any) []byte {
	if raw, ok := v.(rawJSON); ok {
		return raw
	}
	return mustJSON(v)
}

// registerPipeline runs steps 4 to 12 for POST /v1/register: the
// registration's shape and key stand in for the session.
func (s *Server) registerPipeline(c *call, rid *string, signed, sig []byte) reply {
	if c.sessionID != wire.NoSession {
		return errorReply(rid, wire.CodeInvalidRequest)
	}
	reg, code := decodeRegistration(c.body)
	if code != "" {
		return errorReply(rid, code)
	}
	if reg.agentID != c.agentID {

		return errorReply(rid, wire.CodeInvalidSignature)
	}
	if !ed25519.Verify(reg.pub, signed, sig) {
		return errorReply(rid, wire.CodeInvalidSignature)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, code := s.register(c, reg)
	if code != "" {
		return errorReply(rid, code)
	}
	return reply{status: http.StatusOK, body: encodeResult(v)}
}

// frame checks step 2: the query, the body's framing, size, type and
// encoding, and reads the body.
func (s *Server) frame(r *http.Request, c *call) string {
	if c.route == wire.RouteEvents {
		after, ok := parseEventsQuery(r.URL.RawQuery, r.URL.ForceQuery)
		if !ok {
			return wire.CodeInvalidRequest
		}
		c.after = after
	} else if r.URL.RawQuery != "" || r.URL.ForceQuery {
		return wire.CodeInvalidRequest
	}
	if len(r.Header.Values("Content-Encoding")) > 0 {
		return wire.CodeInvalidRequest
	}
	if r.Method == http.MethodGet {
		if r.ContentLength != 0 || len(r.TransferEncoding) > 0 {
			return wire.CodeInvalidRequest
		}
		return ""
	}
	if r.ContentLength > wire.MaxRequestBytes {
		return wire.CodePayloadTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, wire.MaxRequestBytes+1))
	if err != nil {
		return wire.CodeInvalidRequest
	}
	if len(body) > wire.MaxRequestBytes {
		return wire.CodePayloadTooLarge
	}
	ct := r.Header.Values("Content-Type")
	if len(ct) != 1 || !jsonContentType(ct[0]) {
		return wire.CodeInvalidRequest
	}
	if !utf8.Valid(body) || !json.Valid(body) {
		return wire.CodeInvalidRequest
	}
	c.body = body
	return ""
}

// jsonContentType accepts application/json with at most a charset of
// utf-8.
func jsonContentType(v string) bool {
	if v == "application/json" || v == "application/json; charset=utf-8" {
		return true // the common spellings, without parsing
	}
	mt, params, err := mime.ParseMediaType(v)
	if err != nil || mt != "application/json" {
		return false
	}
	for k, val := range params {
		if k != "charset" || !strings.EqualFold(val, "utf-8") {
			return false
		}
	}
	return true
}

// parseEventsQuery accepts an empty query or after=N, N a decimal with no
// leading zeroes and no more than nine digits.
func parseEventsQuery(raw string, force bool) (int, bool) {
	if raw == "" {
		return 0, !force
	}
	v, ok := strings.CutPrefix(raw, "after=")
	if !ok || !canonicalDecimal(v, 9) {
		return 0, false
	}
	n, _ := strconv.Atoi(v)
	return n, true
}

// canonicalDecimal reports whether v is a nonnegative decimal of at most
// max digits with no leading zero.
func canonicalDecimal(v string, max int) bool {
	if v == "" || len(v) > max || (len(v) > 1 && v[0] == '0') {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// authHeaders checks step 3 and fills c; it returns the raw signature.
func (s *Server) authHeaders(r *http.Request, c *call) ([]byte, string) {
	var vals [len(wire.SignedHeaderKeys)]string // in the order of wire.SignedHeaders
	for i, k := range wire.SignedHeaderKeys {
		v := r.Header[k]
		if len(v) != 1 {
			return nil, wire.CodeAuthRequired
		}
		vals[i] = v[0]
	}
	profile, instance, agent, session, ts, request := vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
	sig, err := wire.HeaderEncoding.DecodeString(vals[6])
	if !wire.ValidUUID(instance) || !wire.ValidAgentID(agent) ||
		!(session == wire.NoSession || wire.ValidUUID(session)) || !canonicalDecimal(ts, 12) ||
		!wire.ValidUUID(request) || err != nil || len(sig) != ed25519.SignatureSize {
		return nil, wire.CodeInvalidRequest
	}
	if profile != wire.Profile {
		return nil, wire.CodeUnsupportedProfile
	}
	if instance != s.instance {
		return nil, wire.CodeInstanceChanged
	}
	sec, _ := strconv.ParseInt(ts, 10, 64)
	now := s.now()
	if d := now.Unix() - sec; d > wire.ClockSkewSeconds || d < -wire.ClockSkewSeconds {
		return nil, wire.CodeClockSkew
	}
	c.now, c.timestamp = now, sec
	c.agentID, c.sessionID, c.requestID = agent, session, request
	return sig, ""
}

// decodeStrict decodes a request body exactly: unknown or duplicate
// members, trailing data and invalid UTF-8 are refused.
func decodeStrict(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsonv2.RejectUnknownMembers(true))
}

// decodeRequest decodes a request body into v and checks its profile
// member: INVALID_REQUEST for a bad shape, UNSUPPORTED_PROFILE for another
// profile.
func decodeRequest(data []byte, v any, profile func() string) string {
	if err := decodeStrict(data, v); err != nil {
		return wire.CodeInvalidRequest
	}
	if profile() != wire.Profile {
		return wire.CodeUnsupportedProfile
	}
	return ""
}

// registration is a decoded, checked RegistrationRequest.
type registration struct {
	req     wire.RegistrationRequest
	pub     ed25519.PublicKey
	agentID string
	enc     []byte // raw P-256 point, or nil
}

// decodeRegistration checks a registration's shape and keys (step 4).
func decodeRegistration(body []byte) (registration, string) {
	var reg registration
	if code := decodeRequest(body, &reg.req, func() string { return reg.req.Profile }); code != "" {
		return reg, code
	}
	req := &reg.req
	if !boundedName(req.Name) || !boundedName(req.Version) {
		return reg, wire.CodeInvalidRequest
	}
	switch req.Capability {
	case "":
		req.Capability = wire.CapabilityWriting
	case wire.CapabilityWriting, wire.CapabilityWeather:
	default:
		return reg, wire.CodeInvalidRequest
	}
	der, err := wire.HeaderEncoding.DecodeString(req.PublicKey)
	if err != nil || len(req.PublicKey) != 59 {
		return reg, wire.CodeInvalidRequest
	}
	key, err := x509.ParsePKIXPublicKey(der)
	pub, ok := key.(ed25519.PublicKey)
	if err != nil || !ok {
		return reg, wire.CodeInvalidRequest
	}
	if canon, err := x509.MarshalPKIXPublicKey(pub); err != nil || !bytes.Equal(canon, der) {
		return reg, wire.CodeInvalidRequest
	}
	reg.pub, reg.agentID = pub, wire.AgentID(der)
	if req.EncryptionPublicKey != "" {
		reg.enc, ok = decodeP256(req.EncryptionPublicKey)
		if !ok {
			return reg, wire.CodeInvalidRequest
		}
	} else if req.Capability == wire.CapabilityWeather {
		return reg, wire.CodeEncryptionRequired
	}
	return reg, ""
}

// boundedName accepts 1 to 64 bytes of printable text.
func boundedName(v string) bool {
	if v == "" || len(v) > wire.MaxNameBytes {
		return false
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(errors.New("owp: encoding a response: " + err.Error()))
	}
	return b
}
