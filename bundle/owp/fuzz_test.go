package owp

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hpke"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// fuzzClock is the fixed time of the fuzz markets.
var fuzzClock = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

func fuzzServer(f *testing.F) *Server {
	s, err := Start(Options{Now: func() time.Time { return fuzzClock }})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close() })
	return s
}

// FuzzAuthHeaders feeds arbitrary values to the seven signed headers: the
// parser never panics, and what it accepts is well formed.
func FuzzAuthHeaders(f *testing.F) {
	s := fuzzServer(f)
	ts := strconv.FormatInt(fuzzClock.Unix(), 10)
	f.Add(wire.Profile, s.instance, "agent_0123456789abcdef01234567", "-", ts, "b2e4f6a8-1c3d-4e5f-8a7b-9c0d1e2f3a4b", strings.Repeat("A", 86))
	f.Add("owp-market-local/0.1", "x", "agent_", "", "01", "B2E4F6A8-1C3D-4E5F-8A7B-9C0D1E2F3A4B", "==")
	f.Fuzz(func(t *testing.T, profile, instance, agent, session, timestamp, requestID, signature string) {
		r := httptest.NewRequest(http.MethodGet, wire.RouteMatches, nil)
		for h, v := range map[string]string{
			wire.HeaderProfile: profile, wire.HeaderInstance: instance, wire.HeaderAgent: agent, wire.HeaderSession: session,
			wire.HeaderTimestamp: timestamp, wire.HeaderRequest: requestID, wire.HeaderSignature: signature,
		} {
			r.Header[h] = []string{v}
		}
		c := &call{}
		sig, code := s.authHeaders(r, c)
		if code != "" {
			if wire.Status(code) == 0 {
				t.Fatalf("unknown code %s", code)
			}
			return
		}
		if len(sig) != ed25519.SignatureSize || !wire.ValidAgentID(c.agentID) || !wire.ValidUUID(c.requestID) ||
			profile != wire.Profile || instance != s.instance || strconv.FormatInt(c.timestamp, 10) != timestamp {
			t.Fatalf("accepted %q %q %q %q %q %q", profile, instance, agent, session, timestamp, requestID)
		}
	})
}

// FuzzSignedRequests sends arbitrary bodies, correctly signed, to every
// POST route of a market holding a weather round: every answer is a
// well-formed error or success, never a panic or an INTERNAL_ERROR.
func FuzzSignedRequests(f *testing.F) {
	s := fuzzServer(f)
	owner := newFuzzAgent(f, s, wire.CapabilityWeather)
	var round wire.RoundResponse
	owner.must(f, wire.RouteRounds, `{"profile":"owp-market-local/0.2","media_type":"text/plain","capability":"weather/current"}`, &round)
	for _, seed := range []string{
		`{"profile":"owp-market-local/0.2","media_type":"application/json"}`,
		`{"profile":"owp-market-local/0.2","capability":"weather/current","media_types":["text/plain"],"min_reward":{"amount":0,"unit":"TEST_CREDIT"},"max_in_flight":2,"round_id":null}`,
		`{"profile":"owp-market-local/0.2","match_id":"b2e4f6a8-1c3d-4e5f-8a7b-9c0d1e2f3a4b","content":{"media_type":"text/plain","text":"x"}}`,
		`{"profile":"owp-market-local/0.2","round_id":"` + round.Round.RoundID + `","box":{"enc":"","ciphertext":""}}`,
		`{"profile":"owp-market-local/0.2","match_id":"b2e4f6a8-1c3d-4e5f-8a7b-9c0d1e2f3a4b","reason":"DECLINED"}`,
		`{"profile":"owp-market-local/0.2","name":"a","version":"1","public_key":"AAAA"}`,
	} {
		for route := range 10 {
			f.Add(uint8(route), []byte(seed))
		}
	}
	routes := []string{wire.RouteRegister, wire.RouteRounds, wire.RouteSubscribe, wire.RouteUnsubscribe, wire.RouteSubmit,
		wire.RouteFail, wire.RoutePolicy, wire.RouteContext, wire.RouteWeather, wire.RouteResults}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		path := routes[int(route)%len(routes)]
		sess := owner.session
		if path == wire.RouteRegister {
			sess = wire.NoSession
		}
		rec := owner.post(path, sess, body)
		var e wire.ErrorResponse
		if rec.Code != http.StatusOK {
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || wire.Status(e.Error.Code) != rec.Code || e.Error.Code == wire.CodeInternalError {
				t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
			}
		} else if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s: invalid JSON answer", path)
		}
	})
}

// FuzzSealedBox opens arbitrary boxes and seals arbitrary plaintexts for
// the context adapter: opening never panics and only a box sealed under
// the exact request binding opens; any plaintext is then refused or
// accepted cleanly.
func FuzzSealedBox(f *testing.F) {
	a, err := newAdapter(randomUUID)
	if err != nil {
		f.Fatal(err)
	}
	a.newRound("r", fuzzClock.Add(time.Minute))
	a.newMatch("m", "r")
	b := wire.Binding{Direction: wire.DirectionRequest, Route: wire.RouteContext, InstanceID: "i", AgentID: "a", SessionID: "s", RequestID: "q", TargetID: "m"}
	f.Add("BAAA", "AAAA", false, []byte(`{"field":"location.current","purpose":"weather.current"}`))
	f.Add("", "", true, []byte(`{"location":"harbor","consent":"granted","provider":"available"}`))
	recipient, err := hpke.DHKEM(ecdh.P256()).GenerateKey()
	if err != nil {
		f.Fatal(err)
	}
	policy := wire.Binding{Direction: wire.DirectionRequest, Route: wire.RoutePolicy, TargetID: "r"}
	f.Fuzz(func(t *testing.T, enc, ct string, asPolicy bool, plaintext []byte) {
		if _, code := a.open(b, wire.Box{Enc: enc, Ciphertext: ct}); code != wire.CodeInvalidContext {
			t.Fatalf("a forged box opened (%q)", code)
		}
		if asPolicy {
			if _, code := a.policy(policy, sealFor(t, a, policy, plaintext), recipient.PublicKey(), fuzzClock); code != "" && code != wire.CodeInvalidContext {
				t.Fatalf("policy code %s", code)
			}
			return
		}
		box := sealFor(t, a, b, plaintext)
		other := b
		other.TargetID = "n"
		if _, code := a.open(other, box); code != wire.CodeInvalidContext {
			t.Fatal("a box opened under another binding")
		}
		if _, _, code := a.grant(b, box, recipient.PublicKey(), true, fuzzClock); code != "" && wire.Status(code) == 0 {
			t.Fatalf("grant code %s", code)
		}
	})
}

// sealFor seals plaintext to the adapter under b's request AAD.
func sealFor(t *testing.T, a *adapter, b wire.Binding, plaintext []byte) wire.Box {
	enc, s, err := hpke.NewSender(a.encKey.PublicKey(), a.kdf, a.aead, []byte(wire.ContextInfo))
	if err != nil {
		t.Fatal(err)
	}
	ct, err := s.Seal(wire.AAD(b), plaintext)
	if err != nil {
		t.Fatal(err)
	}
	return wire.Box{Enc: wire.ContextEncoding.EncodeToString(enc), Ciphertext: wire.ContextEncoding.EncodeToString(ct)}
}

// fuzzAgent is a registered identity that signs requests for ServeHTTP.
type fuzzAgent struct {
	s       *Server
	priv    ed25519.PrivateKey
	id      string
	session string
}

func newFuzzAgent(f *testing.F, s *Server, capability string) *fuzzAgent {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	spki, _ := x509.MarshalPKIXPublicKey(pub)
	enc, _ := hpke.DHKEM(ecdh.P256()).GenerateKey()
	a := &fuzzAgent{s: s, priv: priv, id: wire.AgentID(spki)}
	body, _ := json.Marshal(wire.RegistrationRequest{Profile: wire.Profile, Name: "fuzz", Version: "1", Capability: capability,
		PublicKey: wire.HeaderEncoding.EncodeToString(spki), EncryptionPublicKey: wire.ContextEncoding.EncodeToString(enc.PublicKey().Bytes())})
	var reg wire.Registration
	a.session = wire.NoSession
	a.must(f, wire.RouteRegister, string(body), &reg)
	a.session = reg.SessionID
	return a
}

func (a *fuzzAgent) post(path, session string, body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://"+a.s.host+path, strings.NewReader(string(body)))
	rid := randomUUID()
	ts := fuzzClock.Unix()
	sig := ed25519.Sign(a.priv, wire.SigningString(wire.Request{Method: http.MethodPost, PathQuery: path, InstanceID: a.s.instance,
		AgentID: a.id, SessionID: session, Timestamp: ts, RequestID: rid, Body: body}))
	for h, v := range map[string]string{
		wire.HeaderProfile: wire.Profile, wire.HeaderInstance: a.s.instance, wire.HeaderAgent: a.id, wire.HeaderSession: session,
		wire.HeaderTimestamp: strconv.FormatInt(ts, 10), wire.HeaderRequest: rid, wire.HeaderSignature: wire.HeaderEncoding.EncodeToString(sig),
		"Content-Type": "application/json",
	} {
		r.Header.Set(h, v)
	}
	rec := httptest.NewRecorder()
	a.s.ServeHTTP(rec, r)
	return rec
}

func (a *fuzzAgent) must(f *testing.F, path, body string, out any) {
	rec := a.post(path, a.session, []byte(body))
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), out) != nil {
		f.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
	}
}
