package conformance

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRequestValidation: header format, profile, instance, skew,
// signature, session, framing, size, type, encoding and shape, each with
// its code.
func TestRequestValidation(t *testing.T) {
	m := start(t)
	a := m.register("a", writing, false)
	body := mustJSON(t, map[string]any{"profile": profile, "media_type": plain})
	cases := []struct {
		name   string
		q      req
		status int
		code   string
	}{
		{"missing header", req{mutate: func(h http.Header) { h.Del("OWP-Timestamp") }}, 401, "AUTH_REQUIRED"},
		{"repeated header", req{mutate: func(h http.Header) { h.Add("OWP-Profile", profile) }}, 401, "AUTH_REQUIRED"},
		{"old profile", req{mutate: func(h http.Header) { h.Set("OWP-Profile", "owp-market-local/0.1") }}, 400, "UNSUPPORTED_PROFILE"},
		{"uppercase request id", req{requestID: strings.ToUpper(newUUID())}, 400, "INVALID_REQUEST"},
		{"leading zero timestamp", req{mutate: func(h http.Header) { h.Set("OWP-Timestamp", "0"+h.Get("OWP-Timestamp")) }}, 400, "INVALID_REQUEST"},
		{"malformed agent id", req{mutate: func(h http.Header) { h.Set("OWP-Agent-Id", "agent_XYZ") }}, 400, "INVALID_REQUEST"},
		{"padded signature", req{mutate: func(h http.Header) { h.Set("OWP-Signature", h.Get("OWP-Signature")+"==") }}, 400, "INVALID_REQUEST"},
		{"other instance", req{mutate: func(h http.Header) { h.Set("OWP-Instance-Id", newUUID()) }}, 409, "INSTANCE_CHANGED"},
		{"past skew", req{tsOffset: -301 * time.Second}, 401, "CLOCK_SKEW"},
		{"future skew", req{tsOffset: 301 * time.Second}, 401, "CLOCK_SKEW"},
		{"unknown session", req{mutate: func(h http.Header) { h.Set("OWP-Session-Id", newUUID()) }}, 401, "UNKNOWN_SESSION"},
		{"wrong signature", req{mutate: func(h http.Header) {
			s := []byte(h.Get("OWP-Signature"))
			s[0] = map[bool]byte{true: 'B', false: 'A'}[s[0] == 'A'] // another valid character
			h.Set("OWP-Signature", string(s))
		}}, 401, "INVALID_SIGNATURE"},
		{"body not signed as sent", req{mutate: func(h http.Header) { h.Set("Content-Type", "application/json; charset=utf-8") }}, 200, ""},
		{"text content type", req{mutate: func(h http.Header) { h.Set("Content-Type", "text/plain") }}, 400, "INVALID_REQUEST"},
		{"content encoding", req{mutate: func(h http.Header) { h.Set("Content-Encoding", "gzip") }}, 400, "INVALID_REQUEST"},
		{"unknown field", req{body: mustJSON(t, map[string]any{"profile": profile, "media_type": plain, "reward": 100})}, 400, "INVALID_REQUEST"},
		{"duplicate key", req{body: []byte(`{"profile":"` + profile + `","media_type":"text/plain","media_type":"text/markdown"}`)}, 400, "INVALID_REQUEST"},
		{"body profile", req{body: mustJSON(t, map[string]any{"profile": "owp-market-local/0.1", "media_type": plain})}, 400, "UNSUPPORTED_PROFILE"},
		{"not JSON", req{body: []byte(`{"profile":`)}, 400, "INVALID_REQUEST"},
		{"invalid UTF-8", req{body: []byte("{\"profile\":\"\xff\"}")}, 400, "INVALID_REQUEST"},
		{"too large", req{body: append(append([]byte(`{"profile":"`), bytes.Repeat([]byte("x"), 32768)...), `"}`...)}, 413, "PAYLOAD_TOO_LARGE"},
		{"query on a POST route", req{path: "/v1/rounds?x=1"}, 400, "INVALID_REQUEST"},
		{"unknown media type", req{body: mustJSON(t, map[string]any{"profile": profile, "media_type": "image/png"})}, 400, "INVALID_REQUEST"},
		{"weather round without an encryption key", req{body: mustJSON(t, map[string]any{"profile": profile, "media_type": plain, "capability": weather})}, 400, "ENCRYPTION_REQUIRED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			if q.path == "" {
				q.path = "/v1/rounds"
			}
			if q.body == nil {
				q.body = body
			}
			r := a.send(q)
			if tc.code == "" {
				r.ok(t)
				return
			}
			r.want(t, tc.status, tc.code)
			if q.requestID != "" && strings.ToLower(q.requestID) == q.requestID && r.obj["request_id"] != q.requestID {
				t.Fatalf("request id not echoed: %s", r.raw)
			}
		})
	}
	gets := []struct {
		name, path string
		q          req
	}{
		{"GET with a body", "/v1/matches", req{body: []byte("{}")}},
		{"unknown query key", "/v1/events?before=1", req{}},
		{"duplicate query key", "/v1/events?after=0&after=0", req{}},
		{"leading zero cursor", "/v1/events?after=01", req{}},
		{"negative cursor", "/v1/events?after=-1", req{}},
		{"cursor past the end", "/v1/events?after=5", req{}},
		{"query on matches", "/v1/matches?all=1", req{}},
	}
	for _, tc := range gets {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			q.method, q.path = http.MethodGet, tc.path
			a.send(q).want(t, 400, "INVALID_REQUEST")
		})
	}
	t.Run("request id null when malformed", func(t *testing.T) {
		r := a.send(req{path: "/v1/rounds", body: body, requestID: "not-a-uuid"})
		if r.obj["request_id"] != nil {
			t.Fatalf("%s", r.raw)
		}
	})
}

// TestRegistration: key checks, the agent id, self-signature, replay of
// the exact registration, REGISTRATION_EXISTS for another request id.
func TestRegistration(t *testing.T) {
	m := start(t)
	a := m.newAgent(false)
	body := mustJSON(t, a.registration("a", writing))
	rid := newUUID()
	first := a.send(req{path: "/v1/register", body: body, requestID: rid}).ok(t)
	if !strings.HasPrefix(first.str("agent_id"), "agent_") || first.str("agent_id") != a.id {
		t.Fatalf("registration %s", first.raw)
	}
	again := a.send(req{path: "/v1/register", body: body, requestID: rid, tsOffset: 5 * time.Second}).ok(t)
	if !bytes.Equal(first.raw, again.raw) {
		t.Fatalf("replay differs:\n%s\n%s", first.raw, again.raw)
	}
	a.send(req{path: "/v1/register", body: body}).want(t, 409, "REGISTRATION_EXISTS")
	a.send(req{path: "/v1/register", body: mustJSON(t, a.registration("renamed", writing)), requestID: rid}).want(t, 409, "IDEMPOTENCY_CONFLICT")

	b := m.newAgent(false)
	wrongKey := b.registration("b", writing)
	wrongKey["public_key"] = m.newAgent(false).registration("x", writing)["public_key"]
	b.post("/v1/register", wrongKey).want(t, 401, "INVALID_SIGNATURE")
	bad := b.registration("b", writing)
	bad["public_key"] = "AAAA"
	b.post("/v1/register", bad).want(t, 400, "INVALID_REQUEST")
	b.post("/v1/register", b.registration("b", weather)).want(t, 400, "ENCRYPTION_REQUIRED")
	withSession := b.registration("b", writing)
	b.session = newUUID()
	b.post("/v1/register", withSession).want(t, 400, "INVALID_REQUEST")
	b.session = "-"
	// An encryption key must be distinct: not another identity's, not the adapter's.
	c := m.register("c", weather, true)
	d := m.newAgent(true)
	reg := d.registration("d", weather)
	reg["encryption_public_key"] = c.encB64
	d.post("/v1/register", reg).want(t, 400, "INVALID_REQUEST")
	reg["encryption_public_key"] = m.profile["context"].(map[string]any)["encryption_public_key"]
	d.post("/v1/register", reg).want(t, 400, "INVALID_REQUEST")
	d.post("/v1/register", d.registration("d", weather)).ok(t)
}

// TestReplayAndConflict: the same request id and bytes give the same
// answer and one effect; the same id with other bytes or another path is
// IDEMPOTENCY_CONFLICT; errors are not cached.
func TestReplayAndConflict(t *testing.T) {
	m := start(t)
	owner := m.register("owner", writing, false)
	body := mustJSON(t, map[string]any{"profile": profile, "media_type": plain})
	rid := newUUID()
	first := owner.send(req{path: "/v1/rounds", body: body, requestID: rid}).ok(t)
	m.clock.Advance(10 * time.Second)
	again := owner.send(req{path: "/v1/rounds", body: body, requestID: rid}).ok(t)
	if !bytes.Equal(first.raw, again.raw) || len(m.srv.Operator().Rounds) != 1 {
		t.Fatalf("replay made another round or another answer")
	}
	owner.send(req{path: "/v1/rounds", body: mustJSON(t, map[string]any{"profile": profile, "media_type": md}), requestID: rid}).want(t, 409, "IDEMPOTENCY_CONFLICT")
	owner.send(req{path: "/v1/subscribe", body: body, requestID: rid}).want(t, 409, "IDEMPOTENCY_CONFLICT")
	// An error is not a receipt: the same id may then succeed.
	rid2 := newUUID()
	owner.send(req{path: "/v1/rounds", body: mustJSON(t, map[string]any{"profile": profile, "media_type": "x/y"}), requestID: rid2}).want(t, 400, "INVALID_REQUEST")
	owner.send(req{path: "/v1/rounds", body: body, requestID: rid2}).ok(t)
}

// TestLostResponse: a submission whose answer was lost is sent again with
// the same id and bytes (fresh timestamp and signature) and gives the
// committed answer, with one submission.
func TestLostResponse(t *testing.T) {
	m := start(t)
	owner := m.register("owner", writing, false)
	rid := owner.createRound(writing, plain)
	a := m.register("a", writing, false)
	a.subscribe(writing, plain)
	mm := a.match(rid)
	body := mustJSON(t, map[string]any{"profile": profile, "match_id": mm["match_id"], "content": content(plain)})
	id := newUUID()
	// The first answer is lost: the connection closes before it is read.
	conn, err := net.Dial("tcp", m.host)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.build(req{path: "/v1/submit", body: body, requestID: id}).Write(conn); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	m.clock.Advance(3 * time.Second)
	retry := a.send(req{path: "/v1/submit", body: body, requestID: id}).ok(t)
	if retry.obj["match"].(map[string]any)["state"] != "SUBMITTED" {
		t.Fatalf("retry %s", retry.raw)
	}
	again := a.send(req{path: "/v1/submit", body: body, requestID: id}).ok(t)
	if !bytes.Equal(again.raw, retry.raw) {
		t.Fatalf("replays differ")
	}
	evs, _ := a.events(0)
	n := 0
	for _, e := range evs {
		if e["type"] == "match.submitted" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d submissions for one operation", n)
	}
}

// TestConcurrentDuplicates: many identical requests at once make one
// effect and the same answer.
func TestConcurrentDuplicates(t *testing.T) {
	m := start(t)
	_, a, b, rid := writingPair(m)
	ma := a.match(rid)
	b.match(rid)
	body := mustJSON(t, map[string]any{"profile": profile, "match_id": ma["match_id"], "content": content(plain)})
	id := newUUID()
	var wg sync.WaitGroup
	answers := make([][]byte, 16)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := a.send(req{path: "/v1/submit", body: body, requestID: id})
			if r.status != 200 {
				t.Errorf("duplicate %d: %d %s", i, r.status, r.raw)
			}
			answers[i] = r.raw
		}()
	}
	wg.Wait()
	for _, ans := range answers[1:] {
		if !bytes.Equal(ans, answers[0]) {
			t.Fatalf("answers differ")
		}
	}
	evs, _ := a.events(0)
	if len(evs) != 2 {
		t.Fatalf("events %v", eventTypes(evs))
	}
}

// TestAuthority: only an assignment's owner acts on it; unknown and
// foreign ids are FORBIDDEN; a subscription must match the registration.
func TestAuthority(t *testing.T) {
	m := start(t)
	owner := m.register("owner", weather, true)
	rid := owner.createRound(writing, plain)
	wr := owner.createRound(weather, plain)
	a, b := m.register("a", writing, false), m.register("b", writing, false)
	subA := a.subscribe(writing, plain)
	b.subscribe(writing, plain)
	ma := a.match(rid)
	b.submitText(ma["match_id"].(string), plain, "Elm Garden").want(t, 403, "FORBIDDEN")
	b.submitText(newUUID(), plain, "Elm Garden").want(t, 403, "FORBIDDEN")
	b.post("/v1/fail", map[string]any{"profile": profile, "match_id": ma["match_id"], "reason": "DECLINED"}).want(t, 403, "FORBIDDEN")
	b.post("/v1/unsubscribe", map[string]any{"profile": profile, "subscription_id": subA}).want(t, 403, "FORBIDDEN")
	c := m.register("c", writing, false)
	c.post("/v1/subscribe", map[string]any{"profile": profile, "capability": weather, "media_types": []string{plain},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": nil}).want(t, 403, "FORBIDDEN")
	// Knowing a round id grants no owner power.
	a.post("/v1/results", map[string]any{"profile": profile, "round_id": wr}).want(t, 403, "FORBIDDEN")
	owner.post("/v1/results", map[string]any{"profile": profile, "round_id": rid}).want(t, 409, "INVALID_STATE")
	owner.post("/v1/results", map[string]any{"profile": profile, "round_id": wr}).want(t, 409, "RESULT_NOT_READY")
	// Agents cannot set scores, winners or payment: such fields are unknown.
	a.post("/v1/submit", map[string]any{"profile": profile, "match_id": ma["match_id"], "content": content(plain), "score": 3}).want(t, 400, "INVALID_REQUEST")
}

// TestRestart: a new instance refuses the old instance's requests.
func TestRestart(t *testing.T) {
	old := start(t)
	a := old.register("a", writing, false)
	if err := old.srv.Close(); err != nil {
		t.Fatal(err)
	}
	fresh := start(t)
	if fresh.instance == old.instance {
		t.Fatal("a restart kept the instance id")
	}
	a.m = &market{t: t, srv: fresh.srv, clock: fresh.clock, base: fresh.base, host: fresh.host, instance: old.instance, http: fresh.http}
	a.get("/v1/matches").want(t, 409, "INSTANCE_CHANGED")
	a.m.instance = fresh.instance
	a.get("/v1/matches").want(t, 401, "UNKNOWN_SESSION")
}

// TestSessionExpiry: sessions last 3600 s; the registration's replay ends
// with them.
func TestSessionExpiry(t *testing.T) {
	m := start(t)
	a := m.newAgent(false)
	body := mustJSON(t, a.registration("a", writing))
	rid := newUUID()
	r := a.send(req{path: "/v1/register", body: body, requestID: rid}).ok(t)
	a.session = r.str("session_id")
	m.clock.Advance(3599 * time.Second)
	a.get("/v1/matches").ok(t)
	m.clock.Advance(time.Second)
	a.get("/v1/matches").want(t, 401, "SESSION_EXPIRED")
	a.session = "-"
	a.send(req{path: "/v1/register", body: body, requestID: rid}).want(t, 401, "SESSION_EXPIRED")
}

// TestCapacity: 32 rounds, 64 identities and 256 receipts per session.
func TestCapacity(t *testing.T) {
	m := start(t)
	owner := m.register("owner", writing, false)
	for range 32 {
		owner.createRound(writing, plain)
	}
	owner.post("/v1/rounds", map[string]any{"profile": profile, "media_type": plain}).want(t, 429, "CAPACITY_REACHED")
	for i := 1; i < 64; i++ {
		m.register("agent", writing, false)
	}
	late := m.newAgent(false)
	late.post("/v1/register", late.registration("late", writing)).want(t, 429, "CAPACITY_REACHED")
	// 256 successful POSTs per session: the owner has 32 receipts (the
	// registration is not a session receipt); subscribe and unsubscribe
	// fill the rest, and then a subscription that would succeed is refused.
	for n := 32; n < 256; n += 2 {
		sub := owner.subscribe(writing, plain)
		owner.post("/v1/unsubscribe", map[string]any{"profile": profile, "subscription_id": sub}).ok(t)
	}
	owner.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{plain},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": nil}).want(t, 429, "CAPACITY_REACHED")
}
