package owp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/bundle/owp"
	"github.com/storyloom/storyloom/bundle/owp/owpclient"
	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// connect connects the Go client to srv, polling without pause.
func connect(t testing.TB, srv *owp.Server) *owpclient.Market {
	t.Helper()
	m, err := owpclient.Connect(context.Background(), srv.URL(), owpclient.Options{PollInterval: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// playWeather plays a weather round to a paid selection through the Go
// client (three new identities) and returns the winning match.
func playWeather(m *owpclient.Market) (wire.Match, error) {
	ctx := context.Background()
	owner, err := m.Register(ctx, owpclient.Registration{Name: "owner", Version: "1"})
	if err != nil {
		return wire.Match{}, err
	}
	round, err := owner.CreateRound(ctx, wire.CapabilityWeather, wire.MediaPlain)
	if err != nil {
		return wire.Match{}, err
	}
	if _, err := owner.ConfigureContext(ctx, round.RoundID, wire.ContextPolicy{Location: wire.LocationRidge, Consent: wire.ConsentGranted, Provider: wire.ProviderAvailable}); err != nil {
		return wire.Match{}, err
	}
	var win wire.Match
	for i, words := range []string{"Ridge Hollow, 6 °C, clear", "Ridge Hollow"} {
		a, err := m.Register(ctx, owpclient.Registration{Name: "forecaster", Version: "1", Capability: wire.CapabilityWeather})
		if err != nil {
			return wire.Match{}, err
		}
		if _, err := a.Subscribe(ctx, owpclient.Subscription{MediaTypes: []string{wire.MediaPlain}}); err != nil {
			return wire.Match{}, err
		}
		match, err := a.Await(ctx, func(x wire.Match) bool { return x.RoundID == round.RoundID })
		if err != nil {
			return wire.Match{}, err
		}
		got, err := a.ExecuteMatch(ctx, match, func(_ context.Context, task *owpclient.Task) (wire.Content, error) {
			if _, err := task.Weather(); err != nil {
				return wire.Content{}, err
			}
			return wire.Content{MediaType: wire.MediaPlain, Text: &words}, nil
		})
		if err != nil {
			return wire.Match{}, err
		}
		if got.State != wire.MatchSubmitted {
			return wire.Match{}, fmt.Errorf("forecaster %d: match %s after submission", i, got.State)
		}
		if i == 0 {
			win = got
		}
	}
	return win, nil
}

// TestOperatorView: the operator page lists rounds, assignments, payments
// and events, read-only, and never a weather plaintext.
func TestOperatorView(t *testing.T) {
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	win, err := playWeather(connect(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	v := srv.Operator()
	if len(v.Rounds) != 1 || len(v.Rounds[0].Slots) != 2 || v.Rounds[0].State != wire.RoundClosed {
		t.Fatalf("snapshot %+v", v)
	}
	slot := v.Rounds[0].Slots[0]
	if slot.MatchID != win.MatchID || slot.State != wire.MatchSelected || slot.Receipt == "" || slot.Score != "3" {
		t.Fatalf("winner %+v", slot)
	}
	res, err := http.Get(srv.URL() + "/operator")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	body := string(page)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
	for _, want := range []string{v.InstanceID, win.RoundID, win.MatchID, slot.Receipt, "SIMULATED_PAID 25 TEST_CREDIT", "payment.simulated", "match.submitted", "consent granted, location ridge"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, private := range []string{"Ridge Hollow", "6 °C", "clear"} {
		if strings.Contains(body, private) {
			t.Errorf("page shows private %q", private)
		}
	}
	post, err := http.Post(srv.URL()+"/operator", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /operator: %d", post.StatusCode)
	}
}
