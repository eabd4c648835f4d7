//go:build unix

package owp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/owp"
	"github.com/storyloom/storyloom/bundle/owp/owpclient"
	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// BenchmarkSignedReadLoopback measures signed GET /v1/events requests
// from the Go client over loopback HTTP, in parallel: the client signs,
// the market verifies the Ed25519 signature, checks the session and
// answers the read.
func BenchmarkSignedReadLoopback(b *testing.B) {
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	m, err := owpclient.Connect(ctx, srv.URL(), owpclient.Options{HTTPClient: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}})
	if err != nil {
		b.Fatal(err)
	}
	a, err := m.Register(ctx, owpclient.Registration{Name: "reader", Version: "1"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cpuTime(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := a.Events(ctx, 0); err != nil {
				b.Error(err)
				return
			}
		}
	})
	reportRate(b, cpu, "req/s")
}

// BenchmarkSignedReadHandler measures the market alone on the same signed
// read: verification and the answer, through ServeHTTP with no socket.
func BenchmarkSignedReadHandler(b *testing.B) {
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	var signed *http.Request
	capture := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == wire.RouteEvents {
			signed = r.Clone(ctx)
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	m, err := owpclient.Connect(ctx, srv.URL(), owpclient.Options{HTTPClient: &http.Client{Transport: capture}})
	if err != nil {
		b.Fatal(err)
	}
	a, err := m.Register(ctx, owpclient.Registration{Name: "reader", Version: "1"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := a.Events(ctx, 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cpuTime(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, signed)
			if rec.Code != http.StatusOK {
				b.Errorf("%d %s", rec.Code, rec.Body)
				return
			}
		}
	})
	reportRate(b, cpu, "req/s")
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRate reports the rate per second of wall time, and the CPU time
// per operation (client and market together), which a busy machine
// inflates far less than wall time: 1 s divided by it is about the rate one
// otherwise idle core would sustain.
func reportRate(b *testing.B, startCPU time.Duration, unit string) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), unit)
	b.ReportMetric(float64((cpuTime(b)-startCPU).Microseconds())/float64(b.N), "cpu-µs/op")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// roundsPerMarket is how many three-identity rounds one market holds
// within its 64-identity and 32-round limits.
const roundsPerMarket = 16

// benchRounds runs play b.N times, on a fresh market every
// roundsPerMarket rounds (started and closed outside the timer), and
// reports rounds per second and the CPU time of the timed part per round.
func benchRounds(b *testing.B, play func(m *owpclient.Market)) {
	var srv *owp.Server
	var m *owpclient.Market
	var cpu time.Duration
	n := 0
	for b.Loop() {
		if n%roundsPerMarket == 0 {
			b.StopTimer()
			if srv != nil {
				_ = srv.Close()
			}
			var err error
			if srv, err = owp.Start(owp.Options{}); err != nil {
				b.Fatal(err)
			}
			m = connect(b, srv)
			b.StartTimer()
		}
		c0 := cpuTime(b)
		play(m)
		cpu += cpuTime(b) - c0
		n++
	}
	b.StopTimer()
	_ = srv.Close()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkWritingRound measures one full writing round through the Go
// client over loopback: an owner and two writers register, the owner seeds
// the round, both writers subscribe, poll, submit, and the first polls the
// selection.
func BenchmarkWritingRound(b *testing.B) {
	ctx := context.Background()
	text := "Elm Garden opens on Saturday. Join the planting workshop."
	benchRounds(b, func(m *owpclient.Market) {
		owner, err := m.Register(ctx, owpclient.Registration{Name: "owner", Version: "1"})
		if err != nil {
			b.Fatal(err)
		}
		round, err := owner.CreateRound(ctx, wire.CapabilityWriting, wire.MediaPlain)
		if err != nil {
			b.Fatal(err)
		}
		var writers []*owpclient.Agent
		for range 2 {
			w, err := m.Register(ctx, owpclient.Registration{Name: "writer", Version: "1"})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := w.Subscribe(ctx, owpclient.Subscription{MediaTypes: []string{wire.MediaPlain}}); err != nil {
				b.Fatal(err)
			}
			match, err := w.Await(ctx, func(x wire.Match) bool { return x.RoundID == round.RoundID })
			if err != nil {
				b.Fatal(err)
			}
			if _, err := w.Submit(ctx, match.MatchID, wire.Content{MediaType: wire.MediaPlain, Text: &text}); err != nil {
				b.Fatal(err)
			}
			writers = append(writers, w)
		}
		if got, err := writers[0].Await(ctx, func(x wire.Match) bool { return x.RoundID == round.RoundID }); err != nil || got.State != wire.MatchSelected {
			b.Fatalf("%v %+v", err, got)
		}
	})
}

// BenchmarkWeatherRound measures a weather round the same way, with the
// owner's policy, two grants, two sealed weather reads, two sealed
// submissions and the selection.
func BenchmarkWeatherRound(b *testing.B) {
	benchRounds(b, func(m *owpclient.Market) { playWeather(b, m) })
}
