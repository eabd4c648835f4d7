// Package demo is the readable demonstration of the OWP market sandbox
// that `go run ./bundle owp demo` plays: a market in this process, an
// organiser who seeds rounds, and agents that register, subscribe, get
// matched, work, submit and get paid in test credits, first on a writing
// job and then on a weather job whose location context is sealed end to
// end. Read it as an example of writing an agent with package owpclient.
package demo

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/storyloom/storyloom/bundle/owp"
	"github.com/storyloom/storyloom/bundle/owp/owpclient"
	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// Run starts a market on 127.0.0.1, plays both rounds and writes the
// transcript to out.
func Run(ctx context.Context, out io.Writer) error {
	srv, err := owp.Start(owp.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	say := func(who, format string, args ...any) {
		if who == "" {
			fmt.Fprintln(out) // a blank line between the parts
			return
		}
		fmt.Fprintf(out, "%-11s %s\n", who+":", fmt.Sprintf(format, args...))
	}
	say("market", "serving %s, instance %s", srv.URL(), srv.InstanceID())

	m, err := owpclient.Connect(ctx, srv.URL(), owpclient.Options{})
	if err != nil {
		return err
	}
	say("market", "profile %s pinned; rounds pay %d %s", m.Profile().Profile, m.Profile().Reward.Amount, m.Profile().Reward.Unit)
	organiser, err := m.Register(ctx, owpclient.Registration{Name: "organiser", Version: "1.0.0"})
	if err != nil {
		return err
	}
	say("organiser", "registered as %s", organiser.ID())
	if err := writingRound(ctx, organiser, m, say); err != nil {
		return fmt.Errorf("writing round: %w", err)
	}
	if err := weatherRound(ctx, organiser, m, say); err != nil {
		return fmt.Errorf("weather round: %w", err)
	}
	say("market", "done; everything lived in memory and is gone with the market")
	return nil
}

type sayFunc func(who, format string, args ...any)

// worker registers an agent for a capability and subscribes it.
func worker(ctx context.Context, m *owpclient.Market, name, capability string, say sayFunc) (*owpclient.Agent, error) {
	a, err := m.Register(ctx, owpclient.Registration{Name: name, Version: "1.0.0", Capability: capability})
	if err != nil {
		return nil, err
	}
	sub, err := a.Subscribe(ctx, owpclient.Subscription{MediaTypes: []string{wire.MediaPlain, wire.MediaMarkdown, wire.MediaJSON}, MaxInFlight: 1})
	if err != nil {
		return nil, err
	}
	say(name, "registered as %s, subscribed to %s (%s)", a.ID(), capability, sub.SubscriptionID)
	return a, nil
}

// matchIn waits for the agent's assignment in a round.
func matchIn(ctx context.Context, a *owpclient.Agent, roundID string, states ...string) (wire.Match, error) {
	return a.Await(ctx, func(m wire.Match) bool {
		if m.RoundID != roundID {
			return false
		}
		for _, s := range states {
			if m.State == s {
				return true
			}
		}
		return false
	})
}

// outcome prints a closed assignment and its payment.
func outcome(say sayFunc, who string, m wire.Match) {
	line := fmt.Sprintf("%s, payment %s %d %s", m.State, m.Payment.Status, m.Payment.Amount.Amount, m.Payment.Amount.Unit)
	if m.Score != nil {
		line = fmt.Sprintf("score %d, %s", *m.Score, line)
	}
	if m.Payment.ReceiptID != nil {
		line += ", receipt " + *m.Payment.ReceiptID
	}
	say(who, "%s", line)
}

// writingRound: two writers compete on the garden notice.
func writingRound(ctx context.Context, organiser *owpclient.Agent, m *owpclient.Market, say sayFunc) error {
	say("", "")
	say("organiser", "--- a writing round ---")
	round, err := organiser.CreateRound(ctx, wire.CapabilityWriting, wire.MediaPlain)
	if err != nil {
		return err
	}
	say("organiser", "seeded round %s: %q, facts %+v, deadline %s", round.RoundID, round.Job.Instruction, *round.Job.Input.Facts, round.Deadline)
	writers := []struct {
		name string
		work owpclient.Worker
	}{
		{"alpha", func(_ context.Context, t *owpclient.Task) (wire.Content, error) {
			f := t.Job().Input.Facts
			text := fmt.Sprintf("%s opens on %s. Join the %s.", f.Garden, f.Day, f.Activity)
			return wire.Content{MediaType: wire.MediaPlain, Text: &text}, nil
		}},
		{"beta", func(_ context.Context, t *owpclient.Task) (wire.Content, error) {
			text := t.Job().Input.Facts.Garden + " welcomes you this weekend."
			return wire.Content{MediaType: wire.MediaPlain, Text: &text}, nil
		}},
	}
	agents := map[string]*owpclient.Agent{}
	for _, w := range writers {
		a, err := worker(ctx, m, w.name, wire.CapabilityWriting, say)
		if err != nil {
			return err
		}
		agents[w.name] = a
	}
	for _, w := range writers {
		a := agents[w.name]
		match, err := matchIn(ctx, a, round.RoundID, wire.MatchMatched)
		if err != nil {
			return err
		}
		say(w.name, "matched %s, output %s", match.MatchID, match.Job.OutputContract.MediaType)
		got, err := a.ExecuteMatch(ctx, match, w.work)
		if err != nil {
			return err
		}
		say(w.name, "submitted: %s", got.State)
	}
	for _, w := range writers {
		final, err := matchIn(ctx, agents[w.name], round.RoundID, wire.MatchSelected, wire.MatchNotSelected)
		if err != nil {
			return err
		}
		outcome(say, w.name, final)
	}
	evs, err := agents["alpha"].Events(ctx, 0)
	if err != nil {
		return err
	}
	say("alpha", "events: %s", eventNames(evs.Events))
	return nil
}

func eventNames(evs []wire.Event) string {
	names := make([]string, len(evs))
	for i, e := range evs {
		names[i] = e.Type
	}
	return strings.Join(names, ", ")
}

// weatherRound: consent waiting, the owner's authorization, two
// candidates, private delivery, selection and a simulated payment.
func weatherRound(ctx context.Context, organiser *owpclient.Agent, m *owpclient.Market, say sayFunc) error {
	say("", "")
	say("organiser", "--- a weather round ---")
	round, err := organiser.CreateRound(ctx, wire.CapabilityWeather, wire.MediaPlain)
	if err != nil {
		return err
	}
	say("organiser", "seeded round %s: %q; consent %s, location %s", round.RoundID, round.Job.Instruction, round.Context.Consent, round.Context.Location)
	forecasters := []struct {
		name string
		work owpclient.Worker
	}{
		{"gale", func(_ context.Context, t *owpclient.Task) (wire.Content, error) {
			o, err := t.Weather()
			if err != nil {
				return wire.Content{}, err
			}
			text := fmt.Sprintf("%s: %d °C, %s.", o.Area, o.TemperatureC, o.Condition)
			return wire.Content{MediaType: wire.MediaPlain, Text: &text}, nil
		}},
		{"drizzle", func(_ context.Context, t *owpclient.Task) (wire.Content, error) {
			o, err := t.Weather()
			if err != nil {
				return wire.Content{}, err
			}
			text := fmt.Sprintf("Mild in %s today.", o.Area)
			return wire.Content{MediaType: wire.MediaPlain, Text: &text}, nil
		}},
	}
	agents := map[string]*owpclient.Agent{}
	matches := map[string]wire.Match{}
	for _, f := range forecasters {
		a, err := worker(ctx, m, f.name, wire.CapabilityWeather, say)
		if err != nil {
			return err
		}
		agents[f.name] = a
		if matches[f.name], err = matchIn(ctx, a, round.RoundID, wire.MatchMatched); err != nil {
			return err
		}
		say(f.name, "matched %s; the job needs %s for %s", matches[f.name].MatchID, wire.ScopeField, wire.ScopePurpose)
	}
	first := forecasters[0]
	waiting, err := agents[first.name].ExecuteMatch(ctx, matches[first.name], first.work)
	if err != nil {
		return err
	}
	say(first.name, "no consent yet: the assignment is %s", waiting.State)
	receipt, err := organiser.ConfigureContext(ctx, round.RoundID, wire.ContextPolicy{Location: wire.LocationHarbor, Consent: wire.ConsentGranted, Provider: wire.ProviderAvailable})
	if err != nil {
		return err
	}
	say("organiser", "granted consent for the %s fixture (revision %d), sealed to the adapter", receipt.Location, receipt.Revision)
	matches[first.name] = waiting
	for _, f := range forecasters {
		got, err := agents[f.name].ExecuteMatch(ctx, matches[f.name], f.work)
		if err != nil {
			return err
		}
		say(f.name, "read the weather through a grant and submitted it sealed: %s, output %s", got.State, *got.OutputID)
	}
	for _, f := range forecasters {
		final, err := matchIn(ctx, agents[f.name], round.RoundID, wire.MatchSelected, wire.MatchNotSelected)
		if err != nil {
			return err
		}
		outcome(say, f.name, final)
	}
	res, err := organiser.ReadResult(ctx, round.RoundID)
	if err != nil {
		return err
	}
	say("organiser", "private result from %s (score %d): %q, observed %s by %s", res.AgentID, res.Score, *res.Content.Text, res.Observation.ObservedAt, res.Observation.ProviderID)
	return nil
}
