package owpclient

import (
	"context"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// CreateRound seeds a round this agent owns: capability wire.CapabilityWriting
// or wire.CapabilityWeather, and an output media type.
func (a *Agent) CreateRound(ctx context.Context, capability, mediaType string, requestID ...string) (wire.Round, error) {
	var out wire.RoundResponse
	err := a.post(ctx, wire.RouteRounds, wire.RoundRequest{Profile: wire.Profile, MediaType: mediaType, Capability: capability}, requestID, &out)
	return out.Round, err
}

// Subscription is what a subscription asks for.
type Subscription struct {
	MediaTypes  []string // one to three output media types
	MinReward   int      // in test credits
	MaxInFlight int      // 1 or 2; 0 means 1
	RoundID     string   // a specific open round, or "" for every round
}

// Subscribe starts the agent's one active subscription, for its
// registered capability.
func (a *Agent) Subscribe(ctx context.Context, s Subscription, requestID ...string) (wire.Subscription, error) {
	req := wire.SubscriptionRequest{
		Profile: wire.Profile, Capability: a.capability, MediaTypes: s.MediaTypes,
		MinReward: wire.Amount{Amount: s.MinReward, Unit: wire.CreditUnit}, MaxInFlight: max(s.MaxInFlight, 1),
	}
	if s.RoundID != "" {
		req.RoundID = &s.RoundID
	}
	var out wire.SubscriptionResponse
	err := a.post(ctx, wire.RouteSubscribe, req, requestID, &out)
	return out.Subscription, err
}

// Unsubscribe stops new matches; existing work keeps its deadline.
func (a *Agent) Unsubscribe(ctx context.Context, subscriptionID string, requestID ...string) (wire.Subscription, error) {
	var out wire.SubscriptionResponse
	err := a.post(ctx, wire.RouteUnsubscribe, wire.UnsubscribeRequest{Profile: wire.Profile, SubscriptionID: subscriptionID}, requestID, &out)
	return out.Subscription, err
}

// Matches polls: the market dispatches eligible work, then lists this
// agent's assignments, history included. Each is checked against what
// this agent first saw of it (ASSIGNMENT_BINDING_FAILED otherwise).
func (a *Agent) Matches(ctx context.Context) ([]wire.Match, error) {
	var out wire.MatchesResponse
	if err := a.send(ctx, http.MethodGet, wire.RouteMatches, nil, NewRequestID(), &out); err != nil {
		return nil, err
	}
	for _, m := range out.Matches {
		if err := a.bind(m); err != nil {
			return nil, err
		}
	}
	return out.Matches, nil
}

// bind checks that a match is this agent's and that its job and output
// contract never changed.
func (a *Agent) bind(m wire.Match) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if m.AgentID != a.id {
		return clientError(wire.CodeAssignmentBindingFailed, "")
	}
	if seen, ok := a.jobs[m.MatchID]; ok && !reflect.DeepEqual(seen, m.Job) {
		return clientError(wire.CodeAssignmentBindingFailed, "")
	}
	a.jobs[m.MatchID] = m.Job
	return nil
}

// Await polls Matches, no more often than the poll interval, until pick
// returns true for one of them, and returns that match.
func (a *Agent) Await(ctx context.Context, pick func(wire.Match) bool) (wire.Match, error) {
	for {
		ms, err := a.Matches(ctx)
		if err != nil {
			return wire.Match{}, err
		}
		for _, m := range ms {
			if pick(m) {
				return m, nil
			}
		}
		select {
		case <-ctx.Done():
			return wire.Match{}, ctx.Err()
		case <-time.After(a.m.poll):
		}
	}
}

// Submit sends a writing output for a MATCHED assignment.
func (a *Agent) Submit(ctx context.Context, matchID string, c wire.Content, requestID ...string) (wire.Match, error) {
	var out wire.MatchResponse
	err := a.post(ctx, wire.RouteSubmit, wire.SubmitRequest{Profile: wire.Profile, MatchID: matchID, Content: mustJSON(c)}, requestID, &out)
	if err == nil {
		a.markHandled(matchID)
	}
	return out.Match, err
}

// Fail reports a decline (wire.FailureDeclined) or an execution failure
// (wire.FailureExecution) before submission.
func (a *Agent) Fail(ctx context.Context, matchID, reason string, requestID ...string) (wire.Match, error) {
	var out wire.MatchResponse
	err := a.post(ctx, wire.RouteFail, wire.FailureRequest{Profile: wire.Profile, MatchID: matchID, Reason: reason}, requestID, &out)
	if err == nil {
		a.markHandled(matchID)
	}
	return out.Match, err
}

func (a *Agent) markHandled(matchID string) {
	a.mu.Lock()
	a.handled[matchID] = true
	a.mu.Unlock()
}

// Handled reports whether this process already submitted or failed a
// match, so that polling never starts the same work twice.
func (a *Agent) Handled(matchID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.handled[matchID]
}

// Events lists this agent's events after a cursor; continue from
// NextCursor.
func (a *Agent) Events(ctx context.Context, after int) (wire.EventsResponse, error) {
	var out wire.EventsResponse
	err := a.send(ctx, http.MethodGet, wire.RouteEvents+"?after="+strconv.Itoa(after), nil, NewRequestID(), &out)
	return out, err
}
