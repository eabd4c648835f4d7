package owp

import (
	"time"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// binding is what a context request from c about target binds.
func (s *Server) binding(c *call, target string) wire.Binding {
	return wire.Binding{
		Direction: wire.DirectionRequest, Route: c.route, InstanceID: s.instance, AgentID: c.agentID,
		SessionID: c.sessionID, RequestID: c.requestID, TargetID: target,
	}
}

// ownerLive reports whether a round's owner still has a live session; the
// context of a round whose owner is gone is unavailable.
func ownerLive(r *round, now time.Time) bool { return now.Before(r.owner.sess.expires) }

// ownedWeatherRound finds a weather round the caller owns.
func (s *Server) ownedWeatherRound(c *call, roundID string) (*round, string) {
	if !wire.ValidUUID(roundID) {
		return nil, wire.CodeInvalidRequest
	}
	r := s.m.roundByID[roundID]
	if r == nil || r.owner != c.ident {
		return nil, wire.CodeForbidden
	}
	if r.job.Capability != wire.CapabilityWeather {
		return nil, wire.CodeInvalidState
	}
	return r, ""
}

// contextPolicy applies the owner's sealed ContextPolicy to an open
// weather round.
func (s *Server) contextPolicy(c *call) (any, string) {
	var req wire.ContextPolicyRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	r, code := s.ownedWeatherRound(c, req.RoundID)
	if code != "" {
		return nil, code
	}
	if r.state != wire.RoundOpen {
		return nil, wire.CodeRoundClosed
	}
	return s.ctx.policy(s.binding(c, r.id), req.Box, c.ident.enc, c.now)
}

// weatherMatch finds the caller's weather assignment that may still use
// context.
func (s *Server) weatherMatch(c *call) (*assignment, wire.Box, string) {
	var req wire.ContextRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, wire.Box{}, code
	}
	if !wire.ValidUUID(req.MatchID) {
		return nil, wire.Box{}, wire.CodeInvalidRequest
	}
	a, code := s.owned(c, req.MatchID)
	if code != "" {
		return nil, wire.Box{}, code
	}
	if a.round.job.Capability != wire.CapabilityWeather {
		return nil, wire.Box{}, wire.CodeInvalidState
	}
	if a.round.state != wire.RoundOpen {
		return nil, wire.Box{}, wire.CodeRoundClosed
	}
	if a.state != wire.MatchMatched && a.state != wire.MatchWaitingContext {
		return nil, wire.Box{}, wire.CodeInvalidState
	}
	return a, req.Box, ""
}

// contextOutcome moves an assignment to WAITING_CONTEXT on an expected
// context failure and back to MATCHED on success, with one event per
// transition.
func (s *Server) contextOutcome(c *call, a *assignment, code string) {
	switch {
	case code == "" && a.state == wire.MatchWaitingContext:
		a.state = wire.MatchMatched
		s.emit(a.agent, c.now, wire.EventContextReady, a.round, a, nil)
	case wire.ContextWaiting(code) && a.state == wire.MatchMatched:
		a.state = wire.MatchWaitingContext
		s.emit(a.agent, c.now, wire.EventContextWaiting, a.round, a, func(e *wire.Event) { e.Code = ptr(code) })
	}
}

// replayable is the recheck of a context receipt: the match must still be
// MATCHED in an open round, and check must pass.
func replayable(a *assignment, check func(live bool, now time.Time) string) func(time.Time) string {
	return func(now time.Time) string {
		if a.round.state != wire.RoundOpen {
			return wire.CodeRoundClosed
		}
		if a.state != wire.MatchMatched {
			return wire.CodeInvalidState
		}
		return check(ownerLive(a.round, now), now)
	}
}

// contextRequest asks the adapter for a grant for the caller's match.
func (s *Server) contextRequest(c *call) (any, string) {
	a, box, code := s.weatherMatch(c)
	if code != "" {
		return nil, code
	}
	resp, grantID, code := s.ctx.grant(s.binding(c, a.id), box, c.ident.enc, ownerLive(a.round, c.now), c.now)
	s.contextOutcome(c, a, code)
	if code != "" {
		return nil, code
	}
	c.recheck = replayable(a, func(live bool, now time.Time) string {
		return s.ctx.grantStillValid(a.id, grantID, live, now)
	})
	return resp, ""
}

// contextWeather reads the weather under a grant for the caller's match.
func (s *Server) contextWeather(c *call) (any, string) {
	a, box, code := s.weatherMatch(c)
	if code != "" {
		return nil, code
	}
	resp, obsID, code := s.ctx.weather(s.binding(c, a.id), box, c.ident.enc, ownerLive(a.round, c.now), c.now)
	s.contextOutcome(c, a, code)
	if code != "" {
		return nil, code
	}
	grantID := s.ctx.matches[a.id].obs.GrantID
	c.recheck = replayable(a, func(live bool, now time.Time) string {
		return s.ctx.observationStillCurrent(a.id, grantID, obsID, live, now)
	})
	return resp, ""
}

// results seals the selected private answer of a closed weather round to
// its owner.
func (s *Server) results(c *call) (any, string) {
	var req wire.PrivateResultRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	r, code := s.ownedWeatherRound(c, req.RoundID)
	if code != "" {
		return nil, code
	}
	if r.state != wire.RoundClosed {
		return nil, wire.CodeResultNotReady
	}
	if r.selected == nil {
		return nil, wire.CodeNotFound
	}
	return s.ctx.result(s.binding(c, r.id), r.selected.outputID, c.ident.enc)
}
