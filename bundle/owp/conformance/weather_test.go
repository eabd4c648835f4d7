package conformance

import (
	"encoding/base64"
	"slices"
	"sync"
	"testing"
	"time"
)

type grantMsg struct {
	GrantID     string `json:"grant_id"`
	MatchID     string `json:"match_id"`
	Field       string `json:"field"`
	Purpose     string `json:"purpose"`
	Revision    int    `json:"revision"`
	IssuedAt    string `json:"issued_at"`
	ExpiresAt   string `json:"expires_at"`
	DerivedOnly bool   `json:"derived_only"`
}

type observationMsg struct {
	ObservationID    string `json:"observation_id"`
	GrantID          string `json:"grant_id"`
	MatchID          string `json:"match_id"`
	ProviderID       string `json:"provider_id"`
	Area             string `json:"area"`
	TemperatureC     int    `json:"temperature_c"`
	Condition        string `json:"condition"`
	ObservedAt       string `json:"observed_at"`
	LocationRevision int    `json:"location_revision"`
	Synthetic        bool   `json:"synthetic"`
}

var scope = map[string]any{"field": "location.current", "purpose": "weather.current"}

// weatherRound is an owner, a weather round and two weather agents holding
// its two slots.
type weatherRound struct {
	owner, a, b *agent
	roundID     string
	ma, mb      string
}

func newWeatherRound(t *testing.T, m *market, mediaType string) *weatherRound {
	t.Helper()
	w := &weatherRound{owner: m.register("owner", weather, true)}
	w.roundID = w.owner.createRound(weather, mediaType)
	w.a, w.b = m.register("a", weather, true), m.register("b", weather, true)
	w.a.subscribe(weather, mediaType)
	w.b.subscribe(weather, mediaType)
	w.ma = w.a.match(w.roundID)["match_id"].(string)
	w.mb = w.b.match(w.roundID)["match_id"].(string)
	return w
}

// policy sets the round's context policy and returns the revision.
func (w *weatherRound) policy(t *testing.T, location, consent, provider string) int {
	t.Helper()
	r, rid := w.owner.contextCall("/v1/context/policy", w.roundID, map[string]any{"round_id": w.roundID},
		map[string]any{"location": location, "consent": consent, "provider": provider})
	var receipt struct {
		RoundID   string `json:"round_id"`
		Revision  int    `json:"revision"`
		Location  string `json:"location"`
		Consent   string `json:"consent"`
		Provider  string `json:"provider"`
		UpdatedAt string `json:"updated_at"`
	}
	if err := w.owner.openResponse(r, "/v1/context/policy", rid, w.roundID, &receipt); err != nil {
		t.Fatalf("policy: %v", err)
	}
	if receipt.Location != location || receipt.Consent != consent {
		t.Fatalf("policy receipt %+v", receipt)
	}
	return receipt.Revision
}

// requestGrant asks for the one scope; it returns the answer, and the grant
// when there is one.
func requestGrant(t *testing.T, ag *agent, matchID string) (reply, *grantMsg) {
	t.Helper()
	return matchRead[grantMsg](t, ag, "/v1/context/request", matchID, scope)
}

// readWeather reads the weather under the grant; it returns the answer,
// and the observation when there is one.
func readWeather(t *testing.T, ag *agent, matchID, grantID string) (reply, *observationMsg) {
	t.Helper()
	return matchRead[observationMsg](t, ag, "/v1/context/weather", matchID, map[string]any{"grant_id": grantID})
}

// matchRead makes the sealed context call path for the match with body;
// it returns the answer, and its opened plaintext when the call succeeded.
func matchRead[T any](t *testing.T, ag *agent, path, matchID string, body map[string]any) (reply, *T) {
	t.Helper()
	r, rid := ag.contextCall(path, matchID, map[string]any{"match_id": matchID}, body)
	if r.status != 200 {
		return r, nil
	}
	var v T
	if err := ag.openResponse(r, path, rid, matchID, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r, &v
}

func submitWeather(t *testing.T, ag *agent, matchID, grantID, obsID string, content map[string]any) reply {
	t.Helper()
	rid := newUUID()
	box := ag.seal("/v1/submit", rid, matchID, map[string]any{"grant_id": grantID, "observation_id": obsID, "content": content})
	return ag.send(req{path: "/v1/submit", requestID: rid, body: mustJSON(t, map[string]any{"profile": profile, "match_id": matchID,
		"content": map[string]any{"media_type": "application/owp-encrypted+json", "box": box}})})
}

func state(ag *agent, roundID string) string { return ag.match(roundID)["state"].(string) }

// TestWeatherFlow is the 0.2 demonstration: consent waiting, owner
// authorization, two candidates, private delivery, selection and test
// credits, and the owner's private result.
func TestWeatherFlow(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, jsonMT)
	job := w.a.match(w.roundID)["job"].(map[string]any)
	if job["result_audience"] != "private" || job["input"].(map[string]any)["facts"] != nil {
		t.Fatalf("weather job %v", job)
	}
	// Consent is required at first: the assignment waits, once.
	r, _ := requestGrant(t, w.a, w.ma)
	r.want(t, 409, "CONSENT_REQUIRED")
	requestGrant(t, w.a, w.ma)
	if state(w.a, w.roundID) != "WAITING_CONTEXT" {
		t.Fatal("not waiting")
	}
	w.a.post("/v1/submit", map[string]any{"profile": profile, "match_id": w.ma, "content": map[string]any{"media_type": jsonMT}}).want(t, 409, "INVALID_STATE")
	if rev := w.policy(t, "harbor", "granted", "available"); rev != 1 {
		t.Fatalf("revision %d", rev)
	}
	_, ga := requestGrant(t, w.a, w.ma)
	_, gb := requestGrant(t, w.b, w.mb)
	if ga == nil || gb == nil || ga.MatchID != w.ma || !ga.DerivedOnly || ga.Revision != 1 {
		t.Fatalf("grants %+v %+v", ga, gb)
	}
	evs, _ := w.a.events(0)
	if got := eventTypes(evs); !slices.Equal(got, []string{"match.assigned", "context.waiting", "context.ready"}) || evs[1]["code"] != "CONSENT_REQUIRED" {
		t.Fatalf("events %v", evs)
	}
	_, oa := readWeather(t, w.a, w.ma, ga.GrantID)
	_, ob := readWeather(t, w.b, w.mb, gb.GrantID)
	if oa.Area != "Harbor Point" || !oa.Synthetic || oa.GrantID != ga.GrantID || oa.LocationRevision != 1 || oa.ProviderID == "" {
		t.Fatalf("observation %+v", oa)
	}
	// Plaintext weather submissions are refused.
	w.a.post("/v1/submit", map[string]any{"profile": profile, "match_id": w.ma, "content": map[string]any{"media_type": jsonMT,
		"data": map[string]any{"area": oa.Area}}}).want(t, 400, "ENCRYPTION_REQUIRED")
	full := map[string]any{"media_type": jsonMT, "data": map[string]any{"area": oa.Area, "temperature_c": oa.TemperatureC, "condition": oa.Condition, "observed_at": oa.ObservedAt}}
	half := map[string]any{"media_type": jsonMT, "data": map[string]any{"area": ob.Area, "temperature_c": ob.TemperatureC + 5, "condition": "fog", "observed_at": ob.ObservedAt}}
	sb := submitWeather(t, w.b, w.mb, gb.GrantID, ob.ObservationID, half).ok(t)
	if got := sb.obj["match"].(map[string]any); got["state"] != "SUBMITTED" || got["output_id"] == nil {
		t.Fatalf("submit %s", sb.raw)
	}
	submitWeather(t, w.a, w.ma, ga.GrantID, oa.ObservationID, full).ok(t)
	win := w.a.match(w.roundID)
	if st, amt, receipt := payment(win); win["state"] != "SELECTED" || st != "SIMULATED_PAID" || amt != 25 || receipt == nil || win["score"].(float64) != 3 {
		t.Fatalf("winner %v", win)
	}
	if lose := w.b.match(w.roundID); lose["state"] != "NOT_SELECTED" || lose["score"].(float64) != 1 {
		t.Fatalf("other %v", lose)
	}
	// Only the owner reads the private result, after selection.
	w.a.post("/v1/results", map[string]any{"profile": profile, "round_id": w.roundID}).want(t, 403, "FORBIDDEN")
	rid := newUUID()
	rr := w.owner.send(req{path: "/v1/results", requestID: rid, body: mustJSON(t, map[string]any{"profile": profile, "round_id": w.roundID})})
	var result struct {
		RoundID     string         `json:"round_id"`
		MatchID     string         `json:"match_id"`
		OutputID    string         `json:"output_id"`
		AgentID     string         `json:"agent_id"`
		Score       int            `json:"score"`
		Content     map[string]any `json:"content"`
		Observation observationMsg `json:"observation"`
		SubmittedAt string         `json:"submitted_at"`
	}
	if err := w.owner.openResponse(rr, "/v1/results", rid, w.roundID, &result); err != nil {
		t.Fatal(err)
	}
	if result.MatchID != w.ma || result.Score != 3 || result.Observation.ObservationID != oa.ObservationID || result.Content["data"].(map[string]any)["area"] != "Harbor Point" {
		t.Fatalf("private result %+v", result)
	}
	// The coordinator's operator view carries no weather plaintext.
	for _, r := range m.srv.Operator().Rounds {
		if r.RoundID == w.roundID && r.Slots[0].State != "SELECTED" {
			t.Fatalf("operator %+v", r)
		}
	}
}

// TestContextRefusals: scope, ciphertext, ownership, denial, missing and
// stale locations, an unavailable owner.
func TestContextRefusals(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	r, _ := w.a.contextCall("/v1/context/request", w.ma, map[string]any{"match_id": w.ma}, map[string]any{"field": "location.home", "purpose": "weather.current"})
	r.want(t, 403, "SCOPE_DENIED")
	// The box is sealed for another target: the AAD does not match.
	rid := newUUID()
	box := w.a.seal("/v1/context/request", rid, w.mb, scope)
	w.a.send(req{path: "/v1/context/request", requestID: rid, body: mustJSON(t, map[string]any{"profile": profile, "match_id": w.ma, "box": box})}).want(t, 400, "INVALID_CONTEXT")
	w.a.send(req{path: "/v1/context/request", body: mustJSON(t, map[string]any{"profile": profile, "match_id": w.ma, "box": map[string]any{"enc": "AAAA", "ciphertext": "AAAA"}})}).want(t, 400, "INVALID_CONTEXT")
	w.b.send(req{path: "/v1/context/request", body: mustJSON(t, map[string]any{"profile": profile, "match_id": w.ma, "box": box})}).want(t, 403, "FORBIDDEN")
	if state(w.a, w.roundID) != "MATCHED" {
		t.Fatal("an invalid request made the match wait")
	}
	// Only the owner sets policy.
	r, _ = w.a.contextCall("/v1/context/policy", w.roundID, map[string]any{"round_id": w.roundID}, map[string]any{"location": "harbor", "consent": "granted", "provider": "available"})
	r.want(t, 403, "FORBIDDEN")
	r, _ = w.owner.contextCall("/v1/context/policy", w.roundID, map[string]any{"round_id": w.roundID}, map[string]any{"location": "moon", "consent": "granted", "provider": "available"})
	r.want(t, 400, "INVALID_CONTEXT")
	for _, tc := range []struct{ location, consent, code string }{
		{"harbor", "denied", "CONSENT_DENIED"},
		{"missing", "granted", "LOCATION_MISSING"},
		{"stale", "granted", "LOCATION_STALE"},
	} {
		w.policy(t, tc.location, tc.consent, "available")
		r, _ := requestGrant(t, w.a, w.ma)
		r.want(t, wantStatus(tc.code), tc.code)
	}
	if state(w.a, w.roundID) != "WAITING_CONTEXT" {
		t.Fatal("not waiting")
	}
	evs, _ := w.a.events(0)
	if n := countType(evs, "context.waiting"); n != 1 {
		t.Fatalf("%d waiting events for one transition", n)
	}
	w.policy(t, "ridge", "granted", "available")
	_, g := requestGrant(t, w.a, w.ma)
	if g == nil || state(w.a, w.roundID) != "MATCHED" {
		t.Fatal("not ready after the owner resolved it")
	}
	_, o := readWeather(t, w.a, w.ma, g.GrantID)
	if o.Area != "Ridge Hollow" {
		t.Fatalf("observation %+v", o)
	}
}

func wantStatus(code string) int {
	switch code {
	case "CONSENT_DENIED", "GRANT_REVOKED", "GRANT_EXPIRED", "SCOPE_DENIED":
		return 403
	case "CONTEXT_UNAVAILABLE", "PROVIDER_UNAVAILABLE":
		return 503
	}
	return 409
}

func countType(evs []map[string]any, typ string) int {
	n := 0
	for _, e := range evs {
		if e["type"] == typ {
			n++
		}
	}
	return n
}

// TestRevocation: revoking consent stops later deliveries and
// submissions; output accepted before stays selectable.
func TestRevocation(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	w.policy(t, "harbor", "granted", "available")
	_, ga := requestGrant(t, w.a, w.ma)
	_, gb := requestGrant(t, w.b, w.mb)
	_, oa := readWeather(t, w.a, w.ma, ga.GrantID)
	_, ob := readWeather(t, w.b, w.mb, gb.GrantID)
	text := map[string]any{"media_type": plain, "text": "Harbor Point: 14 °C, light rain."}
	submitWeather(t, w.a, w.ma, ga.GrantID, oa.ObservationID, text).ok(t)
	w.policy(t, "harbor", "revoked", "available")
	submitWeather(t, w.b, w.mb, gb.GrantID, ob.ObservationID, text).want(t, 403, "GRANT_REVOKED")
	r, _ := readWeather(t, w.b, w.mb, gb.GrantID)
	r.want(t, 403, "GRANT_REVOKED")
	if state(w.b, w.roundID) != "WAITING_CONTEXT" {
		t.Fatal("revoked read did not wait")
	}
	m.clock.Advance(120 * time.Second)
	if got := w.a.match(w.roundID); got["state"] != "SELECTED" || got["score"].(float64) != 3 {
		t.Fatalf("accepted output after revocation %v", got)
	}
	if got := w.b.match(w.roundID); got["state"] != "EXPIRED" {
		t.Fatalf("waiting at the deadline %v", got)
	}
}

// TestObservationReplacedOrStale: a second read replaces the first
// observation; a policy change after a read invalidates the grant.
func TestObservationReplacedOrStale(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	w.policy(t, "harbor", "granted", "available")
	_, g := requestGrant(t, w.a, w.ma)
	_, first := readWeather(t, w.a, w.ma, g.GrantID)
	_, second := readWeather(t, w.a, w.ma, g.GrantID)
	if first.ObservationID == second.ObservationID {
		t.Fatal("one observation for two reads")
	}
	text := map[string]any{"media_type": plain, "text": "Harbor Point, 14 °C, light rain"}
	submitWeather(t, w.a, w.ma, g.GrantID, first.ObservationID, text).want(t, 409, "CONTEXT_CHANGED")
	// A replaced grant: a new request supersedes the old grant.
	_, g2 := requestGrant(t, w.a, w.ma)
	r, _ := readWeather(t, w.a, w.ma, g.GrantID)
	r.want(t, 409, "CONTEXT_CHANGED")
	_, third := readWeather(t, w.a, w.ma, g2.GrantID)
	w.policy(t, "ridge", "granted", "available")
	submitWeather(t, w.a, w.ma, g2.GrantID, third.ObservationID, text).want(t, 409, "CONTEXT_CHANGED")
	_, g3 := requestGrant(t, w.a, w.ma)
	_, fourth := readWeather(t, w.a, w.ma, g3.GrantID)
	submitWeather(t, w.a, w.ma, g3.GrantID, fourth.ObservationID, map[string]any{"media_type": md, "text": "x"}).want(t, 422, "FORMAT_MISMATCH")
	submitWeather(t, w.a, w.ma, g3.GrantID, fourth.ObservationID, map[string]any{"media_type": plain, "text": ""}).want(t, 422, "INVALID_OUTPUT")
	submitWeather(t, w.a, w.ma, g3.GrantID, fourth.ObservationID, map[string]any{"media_type": plain, "text": "Ridge Hollow 6 °C clear", "extra": true}).want(t, 400, "INVALID_CONTEXT")
	submitWeather(t, w.a, w.ma, g3.GrantID, fourth.ObservationID, map[string]any{"media_type": plain, "text": "Ridge Hollow, 6 °C, clear"}).ok(t)
}

// TestGrantExpiry: a grant lasts 60 s.
func TestGrantExpiry(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	w.policy(t, "harbor", "granted", "available")
	_, g := requestGrant(t, w.a, w.ma)
	exp, _ := time.Parse(time.RFC3339, g.ExpiresAt)
	if !exp.Equal(m.clock.Now().Add(60 * time.Second)) {
		t.Fatalf("expires %s", g.ExpiresAt)
	}
	_, o := readWeather(t, w.a, w.ma, g.GrantID)
	m.clock.Advance(60 * time.Second)
	submitWeather(t, w.a, w.ma, g.GrantID, o.ObservationID, map[string]any{"media_type": plain, "text": "Harbor Point"}).want(t, 403, "GRANT_EXPIRED")
	r, _ := readWeather(t, w.a, w.ma, g.GrantID)
	r.want(t, 403, "GRANT_EXPIRED")
	// Near the deadline a grant ends with the job.
	m.clock.Advance(50 * time.Second)
	_, g2 := requestGrant(t, w.a, w.ma)
	if g2.ExpiresAt != w.a.match(w.roundID)["deadline"] {
		t.Fatalf("grant outlives the job: %s", g2.ExpiresAt)
	}
}

// TestProviderUnavailable: the read waits and resumes when the provider is
// back.
func TestProviderUnavailable(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	w.policy(t, "harbor", "granted", "unavailable")
	_, g := requestGrant(t, w.a, w.ma)
	r, _ := readWeather(t, w.a, w.ma, g.GrantID)
	r.want(t, 503, "PROVIDER_UNAVAILABLE")
	if state(w.a, w.roundID) != "WAITING_CONTEXT" {
		t.Fatal("not waiting")
	}
	w.policy(t, "harbor", "granted", "available")
	_, g = requestGrant(t, w.a, w.ma)
	if _, o := readWeather(t, w.a, w.ma, g.GrantID); o == nil || state(w.a, w.roundID) != "MATCHED" {
		t.Fatal("not resumed")
	}
}

// TestContextUnavailable: when the round's owner has no live session, no
// one can answer for the context.
func TestContextUnavailable(t *testing.T) {
	m := start(t)
	owner := m.register("owner", weather, true)
	m.clock.Advance(3590 * time.Second)
	w := &weatherRound{owner: owner, roundID: owner.createRound(weather, plain)}
	w.policy(t, "harbor", "granted", "available")
	w.a = m.register("a", weather, true)
	w.a.subscribe(weather, plain)
	w.ma = w.a.match(w.roundID)["match_id"].(string)
	m.clock.Advance(10 * time.Second)
	r, _ := requestGrant(t, w.a, w.ma)
	r.want(t, 503, "CONTEXT_UNAVAILABLE")
}

// TestContextReplayAndBinding: a context receipt replays only while still
// authorized; a response verifies only under its own binding.
func TestContextReplayAndBinding(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	w.policy(t, "harbor", "granted", "available")
	rid := newUUID()
	body := mustJSON(t, map[string]any{"profile": profile, "match_id": w.ma, "box": w.a.seal("/v1/context/request", rid, w.ma, scope)})
	first := w.a.send(req{path: "/v1/context/request", requestID: rid, body: body}).ok(t)
	replay := w.a.send(req{path: "/v1/context/request", requestID: rid, body: body}).ok(t)
	if string(first.raw) != string(replay.raw) {
		t.Fatal("replay differs")
	}
	var g grantMsg
	if err := w.a.openResponse(first, "/v1/context/request", rid, w.ma, &g); err != nil {
		t.Fatal(err)
	}
	// The same response checked under another request id, target, route or
	// recipient fails before decryption.
	if w.a.openResponse(first, "/v1/context/request", newUUID(), w.ma, &g) == nil ||
		w.a.openResponse(first, "/v1/context/request", rid, w.mb, &g) == nil ||
		w.a.openResponse(first, "/v1/context/weather", rid, w.ma, &g) == nil ||
		w.b.openResponse(first, "/v1/context/request", rid, w.ma, &g) == nil {
		t.Fatal("a response verified under another binding")
	}
	tampered := first
	tampered.obj = map[string]any{"box": map[string]any{"enc": first.obj["box"].(map[string]any)["enc"],
		"ciphertext": base64.StdEncoding.EncodeToString(make([]byte, 40))}, "signature": first.obj["signature"]}
	if w.a.openResponse(tampered, "/v1/context/request", rid, w.ma, &g) == nil {
		t.Fatal("a tampered box verified")
	}
	// After a policy change the old grant's receipt no longer replays.
	w.policy(t, "harbor", "granted", "available")
	w.a.send(req{path: "/v1/context/request", requestID: rid, body: body}).want(t, 409, "CONTEXT_CHANGED")
	// A policy retry returns the historical receipt, not a new revision.
	prid := newUUID()
	pbody := mustJSON(t, map[string]any{"profile": profile, "round_id": w.roundID,
		"box": w.owner.seal("/v1/context/policy", prid, w.roundID, map[string]any{"location": "ridge", "consent": "granted", "provider": "available"})})
	p1 := w.owner.send(req{path: "/v1/context/policy", requestID: prid, body: pbody}).ok(t)
	p2 := w.owner.send(req{path: "/v1/context/policy", requestID: prid, body: pbody}).ok(t)
	if string(p1.raw) != string(p2.raw) {
		t.Fatal("policy replay reapplied")
	}
}

// TestConcurrentContextDuplicates: one context request sent many times at
// once makes one grant, and one weather submission one output.
func TestConcurrentContextDuplicates(t *testing.T) {
	m := start(t)
	w := newWeatherRound(t, m, plain)
	w.policy(t, "harbor", "granted", "available")
	send := func(rid string, body []byte) []reply {
		out := make([]reply, 12)
		var wg sync.WaitGroup
		for i := range out {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i] = w.a.send(req{path: "/v1/context/request", requestID: rid, body: body})
			}()
		}
		wg.Wait()
		return out
	}
	rid := newUUID()
	answers := send(rid, mustJSON(t, map[string]any{"profile": profile, "match_id": w.ma, "box": w.a.seal("/v1/context/request", rid, w.ma, scope)}))
	for _, r := range answers {
		if r.status != 200 || string(r.raw) != string(answers[0].raw) {
			t.Fatalf("duplicate answered %d %s", r.status, r.raw)
		}
	}
	var g grantMsg
	if err := w.a.openResponse(answers[0], "/v1/context/request", rid, w.ma, &g); err != nil {
		t.Fatal(err)
	}
	// The grant is the match's current one: a second grant would have
	// superseded it and made this read CONTEXT_CHANGED.
	_, o := readWeather(t, w.a, w.ma, g.GrantID)
	if o == nil {
		t.Fatal("the one grant is not current")
	}
	srid := newUUID()
	body := mustJSON(t, map[string]any{"profile": profile, "match_id": w.ma, "content": map[string]any{"media_type": "application/owp-encrypted+json",
		"box": w.a.seal("/v1/submit", srid, w.ma, map[string]any{"grant_id": g.GrantID, "observation_id": o.ObservationID,
			"content": map[string]any{"media_type": plain, "text": "Harbor Point, 14 °C, light rain"}})}})
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := w.a.send(req{path: "/v1/submit", requestID: srid, body: body}); r.status != 200 {
				t.Errorf("duplicate submission %d %s", r.status, r.raw)
			}
		}()
	}
	wg.Wait()
	evs, _ := w.a.events(0)
	if n := countType(evs, "match.submitted"); n != 1 {
		t.Fatalf("%d submissions", n)
	}
}
