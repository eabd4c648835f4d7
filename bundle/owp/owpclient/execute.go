package owpclient

import (
	"context"
	"errors"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// ErrDecline is what a Worker returns to decline a job; ExecuteMatch
// reports it as DECLINED.
var ErrDecline = errors.New("owpclient: the worker declines this job")

// Task is what a Worker gets: the match and, for weather jobs, access to
// the weather it may use.
type Task struct {
	Match wire.Match
	agent *Agent
	ctx   context.Context
}

// Job is the match's job: its instruction, input and output contract.
func (t *Task) Job() wire.Job { return t.Match.Job }

// Weather reads the weather for a weather job, requesting a grant first
// when the match has none. A worker returns its error as is: a context
// failure then leaves the assignment waiting for the owner.
func (t *Task) Weather() (wire.WeatherObservation, error) {
	return t.agent.Weather(t.ctx, t.Match.MatchID, "")
}

// Worker is an agent's own logic: it turns a task into exactly the
// requested output.
type Worker func(ctx context.Context, t *Task) (wire.Content, error)

// ExecuteMatch runs work on a MATCHED or WAITING_CONTEXT assignment and
// submits its output (sealed, for weather). A known context failure returns
// the assignment as it now stands (WAITING_CONTEXT) with no error: call
// ExecuteMatch again on it once the owner has resolved the context. A
// worker's failure, or an output that breaks the contract, is reported
// with Fail and returns the FAILED assignment; ErrDecline is reported as
// DECLINED. A submission's failure, or an unknown outcome, is returned as
// is, with nothing contradictory sent.
func (a *Agent) ExecuteMatch(ctx context.Context, m wire.Match, work Worker) (wire.Match, error) {
	if (m.State != wire.MatchMatched && m.State != wire.MatchWaitingContext) || a.Handled(m.MatchID) {
		return m, clientError(wire.CodeInvalidArgument, "")
	}
	if err := a.bind(m); err != nil {
		return m, err
	}
	content, err := work(ctx, &Task{Match: m, agent: a, ctx: ctx})
	switch {
	case err == nil && validOutput(content, m.Job.OutputContract):
	case wire.ContextWaiting(CodeOf(err)):
		return a.current(ctx, m.MatchID)
	case CodeOf(err) != "":
		return m, err
	case errors.Is(err, ErrDecline):
		return a.Fail(ctx, m.MatchID, wire.FailureDeclined)
	default:
		return a.Fail(ctx, m.MatchID, wire.FailureExecution)
	}
	if m.Job.Capability == wire.CapabilityWeather {
		return a.SubmitWeather(ctx, m.MatchID, content)
	}
	return a.Submit(ctx, m.MatchID, content)
}

// current is a match as a fresh poll shows it (MATCH_MISSING when the
// market no longer lists it).
func (a *Agent) current(ctx context.Context, matchID string) (wire.Match, error) {
	ms, err := a.Matches(ctx)
	if err != nil {
		return wire.Match{}, err
	}
	for _, m := range ms {
		if m.MatchID == matchID {
			return m, nil
		}
	}
	return wire.Match{}, clientError(wire.CodeMatchMissing, "")
}

// validOutput checks what the client can before submitting: the media
// type, text or data as the contract asks, and the text's size.
func validOutput(c wire.Content, contract wire.OutputContract) bool {
	if c.MediaType != contract.MediaType {
		return false
	}
	if contract.SchemaID != nil {
		return c.Text == nil && len(c.Data) > 0
	}
	return c.Text != nil && *c.Text != "" && len(*c.Text) <= contract.MaxBytes && len(c.Data) == 0
}
