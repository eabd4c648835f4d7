package conformance

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	writing = "writing/brief"
	weather = "weather/current"
	plain   = "text/plain"
	md      = "text/markdown"
	jsonMT  = "application/json"
)

func payment(m map[string]any) (string, float64, any) {
	p := m["payment"].(map[string]any)
	return p["status"].(string), p["amount"].(map[string]any)["amount"].(float64), p["receipt_id"]
}

// content is a full-score output of a writing job in each format.
func content(mediaType string) map[string]any {
	switch mediaType {
	case jsonMT:
		return map[string]any{"media_type": jsonMT, "data": map[string]any{"garden": "Elm Garden", "day": "Saturday", "activity": "planting workshop"}}
	case md:
		return map[string]any{"media_type": md, "text": "# Elm Garden\n\nSaturday: planting workshop."}
	}
	return map[string]any{"media_type": plain, "text": "Elm Garden opens on Saturday. Join the planting workshop."}
}

// writingPair is an owner, a plain-text writing round and two writing
// agents subscribed to it.
func writingPair(m *market) (owner, a, b *agent, roundID string) {
	owner = m.register("owner", writing, false)
	roundID = owner.createRound(writing, plain)
	a, b = m.register("a", writing, false), m.register("b", writing, false)
	a.subscribe(writing, plain)
	b.subscribe(writing, plain)
	return owner, a, b, roundID
}

// TestWritingRoundEveryFormat plays a writing round in each format with
// two agents working concurrently, each as an independent goroutine that
// polls, reads the job and submits.
func TestWritingRoundEveryFormat(t *testing.T) {
	for _, mt := range []string{plain, md, jsonMT} {
		t.Run(mt, func(t *testing.T) {
			m := start(t)
			owner := m.register("owner", writing, false)
			roundID := owner.createRound(writing, mt)
			a, b := m.register("alpha", writing, false), m.register("beta", writing, false)
			a.subscribe(writing, plain, md, jsonMT)
			b.subscribe(writing, mt)
			var wg sync.WaitGroup
			texts := map[*agent]map[string]any{a: content(mt), b: {"media_type": mt, "text": "Elm Garden news."}}
			if mt == jsonMT {
				texts[b] = map[string]any{"media_type": mt, "data": map[string]any{"garden": "Elm Garden", "day": "Sunday", "activity": "tea"}}
			}
			var mu sync.Mutex
			matchIDs := map[*agent]string{}
			for _, ag := range []*agent{a, b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					mm := ag.match(roundID)
					job := mm["job"].(map[string]any)
					contract := job["output_contract"].(map[string]any)
					if mm["state"] != "MATCHED" || contract["media_type"] != mt || contract["max_bytes"].(float64) != 4096 {
						t.Errorf("match %v", mm)
						return
					}
					if facts := job["input"].(map[string]any)["facts"].(map[string]any); facts["garden"] != "Elm Garden" {
						t.Errorf("facts %v", facts)
					}
					r := ag.post("/v1/submit", map[string]any{"profile": profile, "match_id": mm["match_id"], "content": texts[ag]})
					if r.status != 200 || r.obj["match"].(map[string]any)["state"] != "SUBMITTED" {
						t.Errorf("submit: %d %s", r.status, r.raw)
					}
					mu.Lock()
					matchIDs[ag] = mm["match_id"].(string)
					mu.Unlock()
				}()
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			// Both submitted: the round closed at the second submission.
			ma := a.match(roundID)
			st, amt, receipt := payment(ma)
			if ma["state"] != "SELECTED" || st != "SIMULATED_PAID" || amt != 25 || receipt == nil || ma["score"].(float64) != 3 {
				t.Fatalf("winner %v", ma)
			}
			mb := b.match(roundID)
			if st, amt, _ := payment(mb); mb["state"] != "NOT_SELECTED" || st != "NOT_PAYABLE" || amt != 0 {
				t.Fatalf("loser %v", mb)
			}
			evs, next := a.events(0)
			want := []string{"match.assigned", "match.submitted", "result.selected", "payment.simulated"}
			if !slices.Equal(eventTypes(evs), want) || next != 4 {
				t.Fatalf("events %v next %d", eventTypes(evs), next)
			}
			if more, n := a.events(next); len(more) != 0 || n != next {
				t.Fatalf("events after the cursor: %v", more)
			}
			oevs, _ := owner.events(0)
			if got := eventTypes(oevs); !slices.Equal(got, []string{"round.created", "round.closed"}) || oevs[1]["match_id"] != matchIDs[a] {
				t.Fatalf("owner events %v", oevs)
			}
			// Polls and more polls do not duplicate the payment.
			a.matches()
			if evs, _ := a.events(0); len(evs) != 4 {
				t.Fatalf("events after polling %v", eventTypes(evs))
			}
		})
	}
}

// TestFiltering: capability, media types, minimum reward and a specific
// round decide which rounds an agent is offered.
func TestFiltering(t *testing.T) {
	m := start(t)
	owner := m.register("owner", weather, true)
	wPlain := owner.createRound(writing, plain)
	wJSON := owner.createRound(writing, jsonMT)
	owner.createRound(weather, plain)

	onlyJSON := m.register("json-only", writing, false)
	onlyJSON.subscribe(writing, jsonMT)
	if ms := onlyJSON.matches(); len(ms) != 1 || ms[0]["round_id"] != wJSON {
		t.Fatalf("json-only got %v", ms)
	}
	greedy := m.register("greedy", writing, false)
	greedy.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{plain, jsonMT},
		"min_reward": map[string]any{"amount": 26, "unit": "TEST_CREDIT"}, "max_in_flight": 2, "round_id": nil}).ok(t)
	if ms := greedy.matches(); len(ms) != 0 {
		t.Fatalf("a minimum above the reward matched %v", ms)
	}
	pinned := m.register("pinned", writing, false)
	pinned.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{plain, jsonMT},
		"min_reward": map[string]any{"amount": 25, "unit": "TEST_CREDIT"}, "max_in_flight": 2, "round_id": wPlain}).ok(t)
	if ms := pinned.matches(); len(ms) != 1 || ms[0]["round_id"] != wPlain {
		t.Fatalf("pinned got %v", ms)
	}
	// The weather round goes to neither writer; the owner never gets its own.
	for _, ag := range []*agent{onlyJSON, pinned} {
		for _, mm := range ag.matches() {
			if mm["job"].(map[string]any)["capability"] != writing {
				t.Fatalf("writer got %v", mm)
			}
		}
	}
	owner.subscribe(weather, plain)
	if ms := owner.matches(); len(ms) != 0 {
		t.Fatalf("owner matched its own round: %v", ms)
	}
	// A null round id also matches rounds created later; max_in_flight caps.
	late := m.register("late", writing, false)
	late.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{md},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": nil}).ok(t)
	if ms := late.matches(); len(ms) != 0 {
		t.Fatalf("late got %v", ms)
	}
	first := owner.createRound(writing, md)
	owner.createRound(writing, md)
	if ms := late.matches(); len(ms) != 1 || ms[0]["round_id"] != first {
		t.Fatalf("late after creation got %v (want only %s)", ms, first)
	}
	late.submitText(late.match(first)["match_id"].(string), md, "Elm Garden").ok(t)
	if ms := late.matches(); len(ms) != 1 {
		t.Fatalf("a SUBMITTED assignment still counts in flight; got %v", ms)
	}
}

// TestUnsubscribe stops new matches without touching existing work; a new
// subscription may use new filters.
func TestUnsubscribe(t *testing.T) {
	m := start(t)
	owner := m.register("owner", writing, false)
	r1 := owner.createRound(writing, plain)
	a := m.register("a", writing, false)
	sub := a.subscribe(writing, plain)
	mm := a.match(r1)
	a.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{md},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": nil}).want(t, 409, "INVALID_STATE")
	r := a.post("/v1/unsubscribe", map[string]any{"profile": profile, "subscription_id": sub}).ok(t)
	if r.obj["subscription"].(map[string]any)["state"] != "UNSUBSCRIBED" {
		t.Fatalf("unsubscribe %s", r.raw)
	}
	a.post("/v1/unsubscribe", map[string]any{"profile": profile, "subscription_id": sub}).want(t, 409, "INVALID_STATE")
	r2 := owner.createRound(writing, plain)
	if ms := a.matches(); len(ms) != 1 {
		t.Fatalf("unsubscribed agent got %v", ms)
	}
	a.submitText(mm["match_id"].(string), plain, "Elm Garden on Saturday").ok(t)
	a.subscribe(writing, md)
	if ms := a.matches(); len(ms) != 1 {
		t.Fatalf("new filters matched %v", ms)
	}
	a.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{plain},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": r2}).want(t, 409, "INVALID_STATE")
}

// TestSelectionTiesAndNoWinner: equal scores go to the earlier accepted
// submission; zero points or failures select nobody and pay nothing.
func TestSelectionTiesAndNoWinner(t *testing.T) {
	t.Run("tie", func(t *testing.T) {
		m := start(t)
		_, a, b, rid := writingPair(m)
		ma, mb := a.match(rid), b.match(rid)
		b.submitText(mb["match_id"].(string), plain, "Saturday at Elm Garden").ok(t)
		a.submitText(ma["match_id"].(string), plain, "Elm Garden, Saturday").ok(t)
		if got := b.match(rid); got["state"] != "SELECTED" {
			t.Fatalf("earlier equal submission: %v", got)
		}
		if got := a.match(rid); got["state"] != "NOT_SELECTED" {
			t.Fatalf("later equal submission: %v", got)
		}
	})
	t.Run("zero points", func(t *testing.T) {
		m := start(t)
		owner, a, b, rid := writingPair(m)
		a.submitText(a.match(rid)["match_id"].(string), plain, "nothing relevant").ok(t)
		b.post("/v1/fail", map[string]any{"profile": profile, "match_id": b.match(rid)["match_id"], "reason": "DECLINED"}).ok(t)
		got := a.match(rid)
		if st, amt, receipt := payment(got); got["state"] != "NOT_SELECTED" || st != "NOT_PAYABLE" || amt != 0 || receipt != nil || got["score"].(float64) != 0 {
			t.Fatalf("zero-point result %v", got)
		}
		if evs, _ := a.events(0); slices.Contains(eventTypes(evs), "payment.simulated") {
			t.Fatalf("a payment event without a winner: %v", eventTypes(evs))
		}
		oevs, _ := owner.events(0)
		if last := oevs[len(oevs)-1]; last["type"] != "round.closed" || last["match_id"] != nil {
			t.Fatalf("owner's closure %v", last)
		}
	})
}

// TestDeadlines: a lone submission waits for the deadline; unsubmitted
// work expires; closure is lazy, on the next request of an enrolled
// session; a closed round refuses submissions.
func TestDeadlines(t *testing.T) {
	m := start(t)
	owner, a, b, rid := writingPair(m)
	ma, mb := a.match(rid), b.match(rid)
	deadline, _ := time.Parse(time.RFC3339, ma["deadline"].(string))
	if want := m.clock.Now().Add(120 * time.Second); !deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", deadline, want)
	}
	a.submitText(ma["match_id"].(string), plain, "Elm Garden planting workshop").ok(t)
	m.clock.Advance(119 * time.Second)
	if got := a.match(rid); got["state"] != "SUBMITTED" {
		t.Fatalf("before the deadline %v", got)
	}
	m.clock.Advance(time.Second)
	// Registration does not advance state; the next enrolled request does.
	m.register("bystander", writing, false)
	if got := m.srv.Operator().Rounds[0].State; got != "OPEN" {
		t.Fatalf("registration closed the round: %s", got)
	}
	b.submitText(mb["match_id"].(string), plain, "Elm Garden, Saturday, planting workshop").want(t, 409, "ROUND_CLOSED")
	if got := a.match(rid); got["state"] != "SELECTED" || got["score"].(float64) != 2 {
		t.Fatalf("after the deadline %v", got)
	}
	if got := b.match(rid); got["state"] != "EXPIRED" {
		t.Fatalf("unsubmitted at the deadline %v", got)
	} else if st, _, _ := payment(got); st != "NOT_PAYABLE" {
		t.Fatalf("expired payment %v", got)
	}
	b.post("/v1/fail", map[string]any{"profile": profile, "match_id": mb["match_id"], "reason": "DECLINED"}).want(t, 409, "ROUND_CLOSED")
	owner.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{plain},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": rid}).want(t, 409, "ROUND_CLOSED")
	owner.post("/v1/subscribe", map[string]any{"profile": profile, "capability": writing, "media_types": []string{plain},
		"min_reward": map[string]any{"amount": 0, "unit": "TEST_CREDIT"}, "max_in_flight": 1, "round_id": newUUID()}).want(t, 404, "NOT_FOUND")
}

// TestFailures: DECLINED and EXECUTION_FAILED before submission; nothing
// after it; slots of failed workers are never reassigned.
func TestFailures(t *testing.T) {
	m := start(t)
	_, a, b, rid := writingPair(m)
	ma, mb := a.match(rid), b.match(rid)
	r := a.post("/v1/fail", map[string]any{"profile": profile, "match_id": ma["match_id"], "reason": "EXECUTION_FAILED"}).ok(t)
	if got := r.obj["match"].(map[string]any); got["state"] != "FAILED" || got["failure_reason"] != "EXECUTION_FAILED" {
		t.Fatalf("fail %s", r.raw)
	}
	a.submitText(ma["match_id"].(string), plain, "Elm Garden").want(t, 409, "INVALID_STATE")
	a.post("/v1/fail", map[string]any{"profile": profile, "match_id": ma["match_id"], "reason": "MAYBE"}).want(t, 400, "INVALID_REQUEST")
	c := m.register("c", writing, false)
	c.subscribe(writing, plain)
	if ms := c.matches(); len(ms) != 0 {
		t.Fatalf("a failed slot was reassigned: %v", ms)
	}
	b.submitText(mb["match_id"].(string), plain, "Elm Garden").ok(t)
	b.post("/v1/fail", map[string]any{"profile": profile, "match_id": mb["match_id"], "reason": "DECLINED"}).want(t, 409, "ROUND_CLOSED")
	if got := b.match(rid); got["state"] != "SELECTED" {
		t.Fatalf("the remaining submission %v", got)
	}
}

// TestOutputContract: the wrong media type is FORMAT_MISMATCH; malformed
// content, extra fields and excess bytes are INVALID_OUTPUT; the
// assignment stays MATCHED.
func TestOutputContract(t *testing.T) {
	m := start(t)
	owner := m.register("owner", writing, false)
	rText := owner.createRound(writing, plain)
	rJSON := owner.createRound(writing, jsonMT)
	a := m.register("a", writing, false)
	a.subscribe(writing, plain, jsonMT)
	mt, mj := a.match(rText)["match_id"], a.match(rJSON)["match_id"]
	sub := func(id any, content any) reply {
		return a.post("/v1/submit", map[string]any{"profile": profile, "match_id": id, "content": content})
	}
	sub(mt, map[string]any{"media_type": md, "text": "Elm Garden"}).want(t, 422, "FORMAT_MISMATCH")
	sub(mt, map[string]any{"media_type": plain, "text": "Elm Garden", "extra": 1}).want(t, 422, "INVALID_OUTPUT")
	sub(mt, map[string]any{"media_type": plain, "text": strings.Repeat("x", 4097)}).want(t, 422, "INVALID_OUTPUT")
	sub(mt, map[string]any{"media_type": plain, "data": map[string]any{}}).want(t, 422, "INVALID_OUTPUT")
	sub(mj, map[string]any{"media_type": jsonMT, "data": map[string]any{"garden": "Elm Garden", "day": "Saturday"}}).want(t, 422, "INVALID_OUTPUT")
	sub(mj, map[string]any{"media_type": jsonMT, "data": map[string]any{"garden": "Elm Garden", "day": "Saturday", "activity": "x", "mood": "y"}}).want(t, 422, "INVALID_OUTPUT")
	long := strings.Repeat("\u2028", 682) // 2046 bytes as JSON.stringify writes it, 4092 as encoding/json escapes it
	sub(mj, map[string]any{"media_type": jsonMT, "data": map[string]any{"garden": long, "day": long, "activity": "x"}}).want(t, 422, "INVALID_OUTPUT")
	sub(mj, map[string]any{"media_type": jsonMT, "data": map[string]any{"garden": long, "day": "Saturday", "activity": "x"}}).ok(t)
	sub(mt, map[string]any{"media_type": plain, "text": strings.Repeat("é", 2048)}).ok(t)
}

// TestAsyncPollingGivesEachSlotOnce: many agents polling at once get each
// slot once, at most two per round and one per identity per round.
func TestAsyncPollingGivesEachSlotOnce(t *testing.T) {
	m := start(t)
	owner := m.register("owner", writing, false)
	rounds := map[string]bool{}
	for range 5 {
		rounds[owner.createRound(writing, plain)] = true
	}
	var agents []*agent
	for i := range 12 {
		ag := m.register("worker-"+string(rune('a'+i)), writing, false)
		ag.subscribe(writing, plain)
		agents = append(agents, ag)
	}
	var wg sync.WaitGroup
	for _, ag := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				if r := ag.get("/v1/matches"); r.status != 200 {
					t.Errorf("poll %d %s", r.status, r.raw)
				}
			}
		}()
	}
	wg.Wait()
	perRound := map[string]map[string]bool{}
	total := 0
	for _, ag := range agents {
		for _, mm := range ag.matches() {
			rid := mm["round_id"].(string)
			if perRound[rid] == nil {
				perRound[rid] = map[string]bool{}
			}
			if perRound[rid][ag.id] {
				t.Fatalf("%s holds two slots of %s", ag.id, rid)
			}
			perRound[rid][ag.id] = true
			total++
		}
	}
	for rid, holders := range perRound {
		if !rounds[rid] || len(holders) > 2 {
			t.Fatalf("round %s: %d holders", rid, len(holders))
		}
	}
	if total != 10 {
		t.Fatalf("%d slots handed out, want all 10", total)
	}
}

// TestProfileAndRoutes: discovery needs no authentication; Host, Origin,
// routes and methods are checked first.
func TestProfileAndRoutes(t *testing.T) {
	m := start(t)
	limits := m.profile["limits"].(map[string]any)
	if m.profile["profile"] != profile || limits["max_request_bytes"].(float64) != 32768 || limits["session_seconds"].(float64) != 3600 ||
		limits["max_identities"].(float64) != 64 || limits["max_rounds"].(float64) != 32 {
		t.Fatalf("profile %v", m.profile)
	}
	get := func(path string, mutate func(*http.Request)) reply {
		hr, _ := http.NewRequest(http.MethodGet, m.base+path, nil)
		if mutate != nil {
			mutate(hr)
		}
		return m.do(hr)
	}
	get("/v1/profile", func(r *http.Request) { r.Host = "localhost" + m.host[strings.Index(m.host, ":"):] }).want(t, 403, "FORBIDDEN")
	get("/v1/profile", func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1") }).want(t, 403, "FORBIDDEN")
	get("/v1/nothing", nil).want(t, 404, "NOT_FOUND")
	get("/v1/register", nil).want(t, 405, "METHOD_NOT_ALLOWED")
	get("/v1/profile?x=1", nil).want(t, 400, "INVALID_REQUEST")
}
