package owpclient

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/owp"
	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// tripper lets a test intercept requests to a real market.
type tripper struct {
	mu     sync.Mutex
	answer func(req *http.Request, body []byte) (*http.Response, error) // nil: pass through
}

func (t *tripper) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	t.mu.Lock()
	f := t.answer
	t.mu.Unlock()
	if f != nil {
		return f(req, body)
	}
	return http.DefaultTransport.RoundTrip(req)
}

func (t *tripper) set(f func(req *http.Request, body []byte) (*http.Response, error)) {
	t.mu.Lock()
	t.answer = f
	t.mu.Unlock()
}

// passThrough sends a request to the market and returns its answer read
// whole.
func passThrough(req *http.Request) (*http.Response, []byte) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	res.Body = io.NopCloser(bytes.NewReader(raw))
	return res, raw
}

func setup(t *testing.T, opts owp.Options) (*owp.Server, *Market, *tripper) {
	t.Helper()
	srv, err := owp.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	tr := &tripper{}
	m, err := Connect(context.Background(), srv.URL(), Options{HTTPClient: &http.Client{Transport: tr}, PollInterval: 1})
	if err != nil {
		t.Fatal(err)
	}
	return srv, m, tr
}

func register(t *testing.T, m *Market, name, capability string) *Agent {
	t.Helper()
	a, err := m.Register(context.Background(), Registration{Name: name, Version: "1", Capability: capability})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// matched registers an organiser, seeds a round and gives a worker its
// slot.
func matched(t *testing.T, m *Market, capability string) (owner, worker *Agent, match wire.Match) {
	t.Helper()
	ctx := context.Background()
	owner = register(t, m, "owner", wire.CapabilityWriting)
	round, err := owner.CreateRound(ctx, capability, wire.MediaPlain)
	if err != nil {
		t.Fatal(err)
	}
	worker = register(t, m, "worker", capability)
	if _, err := worker.Subscribe(ctx, Subscription{MediaTypes: []string{wire.MediaPlain}}); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	match, err = worker.Await(wait, func(x wire.Match) bool { return x.RoundID == round.RoundID })
	if err != nil {
		t.Fatal(err)
	}
	return owner, worker, match
}

func text(s string) wire.Content { return wire.Content{MediaType: wire.MediaPlain, Text: &s} }

func TestConnectRefusesNonLoopbackAndOtherKeys(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{"http://localhost:8080", "https://127.0.0.1:8080", "http://127.0.0.1", "http://127.0.0.1:8080/v1", "http://[::1]:8080"} {
		if _, err := Connect(ctx, u, Options{}); CodeOf(err) != wire.CodeLoopbackRequired {
			t.Errorf("%s: %v", u, err)
		}
	}
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	m, err := Connect(ctx, srv.URL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	keys := m.Profile().Context.ContextKeys
	if _, err := Connect(ctx, srv.URL(), Options{ContextKeys: &keys}); err != nil {
		t.Fatalf("the published keys: %v", err)
	}
	other := keys
	other.SigningPublicKey = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	if _, err := Connect(ctx, srv.URL(), Options{ContextKeys: &other}); CodeOf(err) != wire.CodeDiscoveryFailed {
		t.Fatalf("other keys: %v", err)
	}
}

// TestLostResponseIsRetried: the first answer to a submission is lost
// after the market committed it; the client retries with the same id and
// bytes and gets the committed answer, with one submission.
func TestLostResponseIsRetried(t *testing.T) {
	_, m, tr := setup(t, owp.Options{})
	ctx := context.Background()
	_, w, match := matched(t, m, wire.CapabilityWriting)
	var ids []string
	var bodies [][]byte
	tr.set(func(req *http.Request, body []byte) (*http.Response, error) {
		if req.URL.Path != wire.RouteSubmit {
			return http.DefaultTransport.RoundTrip(req)
		}
		ids = append(ids, req.Header.Get(wire.HeaderRequest))
		bodies = append(bodies, body)
		res, _ := passThrough(req)
		if len(ids) == 1 {
			return nil, errors.New("connection reset after the market answered")
		}
		return res, nil
	})
	got, err := w.Submit(ctx, match.MatchID, text("Elm Garden on Saturday"))
	if err != nil || got.State != wire.MatchSubmitted {
		t.Fatalf("%v %+v", err, got)
	}
	if len(ids) != 2 || ids[0] != ids[1] || !bytes.Equal(bodies[0], bodies[1]) {
		t.Fatalf("retries changed the operation: %v", ids)
	}
	tr.set(nil)
	evs, err := w.Events(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs.Events {
		if e.Type == wire.EventMatchSubmitted {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d submissions", n)
	}
}

// TestOutcomeUnknown: three lost tries make OUTCOME_UNKNOWN, never a
// fourth try or a new id.
func TestOutcomeUnknown(t *testing.T) {
	_, m, tr := setup(t, owp.Options{})
	_, w, match := matched(t, m, wire.CapabilityWriting)
	var tries atomic.Int32
	tr.set(func(req *http.Request, _ []byte) (*http.Response, error) {
		if req.URL.Path == wire.RouteSubmit {
			tries.Add(1)
			return nil, errors.New("network down")
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	rid := NewRequestID()
	_, err := w.Submit(context.Background(), match.MatchID, text("Elm Garden"), rid)
	var e *Error
	if !errors.As(err, &e) || e.Code != wire.CodeOutcomeUnknown || e.RequestID != rid || tries.Load() != 3 {
		t.Fatalf("%v after %d tries", err, tries.Load())
	}
}

// TestInternalErrorIsRetried: a retryable INTERNAL_ERROR is tried again
// with the same id.
func TestInternalErrorIsRetried(t *testing.T) {
	var faults atomic.Int32
	ids := func() string {
		if faults.Add(-1) == 0 {
			panic("injected fault")
		}
		return NewRequestID()
	}
	_, m, _ := setup(t, owp.Options{NewID: ids})
	a := register(t, m, "a", wire.CapabilityWriting)
	faults.Store(1) // the next id the market makes fails once
	if _, err := a.CreateRound(context.Background(), wire.CapabilityWriting, wire.MediaPlain); err != nil {
		t.Fatal(err)
	}
}

// TestSealedBodiesAreMemoized: a context operation retried under its id
// resends the same sealed bytes; another intent under that id is refused
// before anything is sent.
func TestSealedBodiesAreMemoized(t *testing.T) {
	_, m, tr := setup(t, owp.Options{})
	ctx := context.Background()
	owner := register(t, m, "owner", wire.CapabilityWriting)
	round, err := owner.CreateRound(ctx, wire.CapabilityWeather, wire.MediaPlain)
	if err != nil {
		t.Fatal(err)
	}
	var sent [][]byte
	tr.set(func(req *http.Request, body []byte) (*http.Response, error) {
		sent = append(sent, body)
		return http.DefaultTransport.RoundTrip(req)
	})
	rid := NewRequestID()
	p := wire.ContextPolicy{Location: wire.LocationRidge, Consent: wire.ConsentGranted, Provider: wire.ProviderAvailable}
	r1, err := owner.ConfigureContext(ctx, round.RoundID, p, rid)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := owner.ConfigureContext(ctx, round.RoundID, p, rid)
	if err != nil || r2 != r1 || r1.Revision != 1 {
		t.Fatalf("replay %+v %+v %v", r1, r2, err)
	}
	if len(sent) != 2 || !bytes.Equal(sent[0], sent[1]) {
		t.Fatal("the retry was sealed again")
	}
	p.Location = wire.LocationHarbor
	if _, err := owner.ConfigureContext(ctx, round.RoundID, p, rid); CodeOf(err) != wire.CodeInvalidArgument || len(sent) != 2 {
		t.Fatalf("changed intent under one id: %v", err)
	}
}

// TestResponseBinding: an encrypted answer replayed under another request
// fails its binding check.
func TestResponseBinding(t *testing.T) {
	_, m, tr := setup(t, owp.Options{})
	ctx := context.Background()
	owner, w, match := matched(t, m, wire.CapabilityWeather)
	if _, err := owner.ConfigureContext(ctx, match.RoundID, wire.ContextPolicy{Location: wire.LocationHarbor, Consent: wire.ConsentGranted, Provider: wire.ProviderAvailable}); err != nil {
		t.Fatal(err)
	}
	var first []byte
	tr.set(func(req *http.Request, _ []byte) (*http.Response, error) {
		res, raw := passThrough(req)
		if req.URL.Path == wire.RouteContext {
			if first == nil {
				first = raw
			} else {
				res.Body = io.NopCloser(bytes.NewReader(first)) // the old answer, replayed
			}
		}
		return res, nil
	})
	if _, err := w.RequestContext(ctx, match.MatchID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RequestContext(ctx, match.MatchID); CodeOf(err) != wire.CodeResponseBindingFailed {
		t.Fatalf("a replayed answer: %v", err)
	}
	// Same request id, but the signature checked against another target.
	tr.set(func(req *http.Request, _ []byte) (*http.Response, error) {
		res, raw := passThrough(req)
		if req.URL.Path == wire.RouteContext {
			raw = bytes.Replace(raw, []byte(match.MatchID), []byte(NewRequestID()), 1)
			res.Body = io.NopCloser(bytes.NewReader(raw))
		}
		return res, nil
	})
	if _, err := w.RequestContext(ctx, match.MatchID); CodeOf(err) != wire.CodeResponseBindingFailed {
		t.Fatalf("another target: %v", err)
	}
}

// TestAssignmentBinding: a match whose output contract changes between
// polls is refused.
func TestAssignmentBinding(t *testing.T) {
	_, m, tr := setup(t, owp.Options{})
	_, w, _ := matched(t, m, wire.CapabilityWriting)
	tr.set(func(req *http.Request, _ []byte) (*http.Response, error) {
		res, raw := passThrough(req)
		if req.URL.Path == wire.RouteMatches {
			res.Body = io.NopCloser(strings.NewReader(strings.Replace(string(raw), `"max_bytes":4096`, `"max_bytes":9999`, 1)))
		}
		return res, nil
	})
	if _, err := w.Matches(context.Background()); CodeOf(err) != wire.CodeAssignmentBindingFailed {
		t.Fatalf("%v", err)
	}
}

// TestExecuteMatch: worker failures and invalid outputs are reported
// through /v1/fail; a handled match is not run twice.
func TestExecuteMatch(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		work   Worker
		reason string
	}{
		{"decline", func(context.Context, *Task) (wire.Content, error) { return wire.Content{}, ErrDecline }, wire.FailureDeclined},
		{"error", func(context.Context, *Task) (wire.Content, error) { return wire.Content{}, errors.New("model crashed") }, wire.FailureExecution},
		{"wrong format", func(context.Context, *Task) (wire.Content, error) {
			s := "# heading"
			return wire.Content{MediaType: wire.MediaMarkdown, Text: &s}, nil
		}, wire.FailureExecution},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, m, _ := setup(t, owp.Options{})
			_, w, match := matched(t, m, wire.CapabilityWriting)
			got, err := w.ExecuteMatch(ctx, match, tc.work)
			if err != nil || got.State != wire.MatchFailed || *got.FailureReason != tc.reason {
				t.Fatalf("%v %+v", err, got)
			}
			if _, err := w.ExecuteMatch(ctx, match, tc.work); CodeOf(err) != wire.CodeInvalidArgument {
				t.Fatalf("ran a handled match again: %v", err)
			}
		})
	}
}

// TestDefaultClientKeepsConnections: the default HTTP client returns every
// connection to its idle pool after a call, eight concurrent ones
// included, so that later calls reuse them rather than dial anew.
func TestDefaultClientKeepsConnections(t *testing.T) {
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	m, err := Connect(context.Background(), srv.URL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kept, refused atomic.Int64
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		PutIdleConn: func(err error) {
			if err != nil {
				refused.Add(1)
			} else {
				kept.Add(1)
			}
		},
	})
	// waitKept waits for n connections to have gone back to the pool or
	// been refused by it; the transport does that after the call returns.
	waitKept := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); kept.Load()+refused.Load() < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections kept and %d refused, want %d in all", kept.Load(), refused.Load(), n)
			}
			runtime.Gosched()
		}
	}
	a, err := m.Register(ctx, Registration{Name: "reader", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := a.Events(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	waitKept(4)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := a.Events(ctx, 0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	waitKept(12)
	if refused.Load() != 0 {
		t.Fatalf("the idle pool refused %d of %d connections", refused.Load(), kept.Load()+refused.Load())
	}
}
