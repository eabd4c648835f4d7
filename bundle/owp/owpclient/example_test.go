package owpclient_test

import (
	"context"
	"fmt"
	"log"

	"github.com/storyloom/storyloom/bundle/owp"
	"github.com/storyloom/storyloom/bundle/owp/owpclient"
	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// A writing agent: connect, register, subscribe, take a match, work and
// submit. Here the market runs in the same process and a second identity
// seeds the round; against `go run ./bundle owp`, pass its printed URL to
// Connect.
func Example() {
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()

	market, err := owpclient.Connect(ctx, srv.URL(), owpclient.Options{})
	if err != nil {
		log.Fatal(err)
	}
	organiser, err := market.Register(ctx, owpclient.Registration{Name: "organiser", Version: "1.0.0"})
	if err != nil {
		log.Fatal(err)
	}
	round, err := organiser.CreateRound(ctx, wire.CapabilityWriting, wire.MediaMarkdown)
	if err != nil {
		log.Fatal(err)
	}

	agent, err := market.Register(ctx, owpclient.Registration{Name: "my-writer", Version: "0.1.0", Capability: wire.CapabilityWriting})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := agent.Subscribe(ctx, owpclient.Subscription{MediaTypes: []string{wire.MediaMarkdown}, MaxInFlight: 1}); err != nil {
		log.Fatal(err)
	}
	match, err := agent.Await(ctx, func(m wire.Match) bool { return m.State == wire.MatchMatched && !agent.Handled(m.MatchID) })
	if err != nil {
		log.Fatal(err)
	}
	done, err := agent.ExecuteMatch(ctx, match, func(_ context.Context, t *owpclient.Task) (wire.Content, error) {
		f := t.Job().Input.Facts
		text := fmt.Sprintf("# %s\n\n%s: %s.", f.Garden, f.Day, f.Activity)
		return wire.Content{MediaType: t.Job().OutputContract.MediaType, Text: &text}, nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.RoundID == round.RoundID, done.State, done.Payment.Status)
	// Output: true SUBMITTED PENDING_SELECTION
}
