package owp

import (
	"crypto/ed25519"
	"crypto/hpke"
	"slices"
	"time"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// market is the coordinator's state. Every field is guarded by Server.mu.
type market struct {
	identities map[string]*identity // by agent id
	sessions   map[string]*session  // by session id
	encKeys    map[string]bool      // registered encryption keys, raw bytes as a string
	rounds     []*round             // in creation order
	roundByID  map[string]*round
	matchByID  map[string]*assignment
	submitSeq  int       // order of accepted submissions, for ties
	log        []logItem // every event, for the operator
}

func newMarket() market {
	return market{
		identities: map[string]*identity{}, sessions: map[string]*session{}, encKeys: map[string]bool{},
		roundByID: map[string]*round{}, matchByID: map[string]*assignment{},
	}
}

// identity is a registered agent.
type identity struct {
	agentID    string
	pub        ed25519.PublicKey
	enc        hpke.PublicKey // nil for a writing agent registered without one
	name       string
	version    string
	capability string
	sess       *session
	regID      string   // the registration's request id
	regDigest  [32]byte // and its operation digest
	regBody    []byte   // and its answer
	subs       []*subscription
	matches    []*assignment
	events     []wire.Event
}

// session is an identity's session and its receipts.
type session struct {
	id       string
	ident    *identity
	expires  time.Time
	receipts map[string]*receipt
}

// receipt is a successful POST answer kept for replay.
type receipt struct {
	digest  [32]byte
	body    []byte
	recheck func(now time.Time) string
}

// subscription is an identity's subscription.
type subscription struct {
	view wire.Subscription
}

// round is a job with two candidate slots.
type round struct {
	id        string
	owner     *identity
	mediaType string
	created   time.Time
	deadline  time.Time
	state     string
	job       wire.Job
	slots     []*assignment
	selected  *assignment
}

// assignment is one slot of a round given to one identity.
type assignment struct {
	id        string
	round     *round
	agent     *identity
	subID     string
	state     string
	matchedAt time.Time
	submitted *time.Time
	submitSeq int
	score     int // computed at submission, published at closure
	outputID  string
	failure   string
	payment   wire.Payment
}

// logItem is one event with the identity it belongs to.
type logItem struct {
	agentID string
	event   wire.Event
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func ptr[T any](v T) *T { return &v }

func credits(n int) wire.Amount { return wire.Amount{Amount: n, Unit: wire.CreditUnit} }

// emit appends an event to an identity's ordered events.
func (s *Server) emit(to *identity, now time.Time, typ string, r *round, a *assignment, fill func(*wire.Event)) {
	e := wire.Event{Cursor: len(to.events) + 1, Type: typ, OccurredAt: stamp(now), RoundID: r.id}
	if a != nil {
		e.MatchID = ptr(a.id)
	}
	if fill != nil {
		fill(&e)
	}
	to.events = append(to.events, e)
	s.m.log = append(s.m.log, logItem{agentID: to.agentID, event: e})
}

// view is the match as its owner sees it.
func (a *assignment) view() wire.Match {
	m := wire.Match{
		MatchID: a.id, RoundID: a.round.id, SubscriptionID: a.subID, AgentID: a.agent.agentID,
		State: a.state, Job: a.round.job, MatchedAt: stamp(a.matchedAt), Deadline: stamp(a.round.deadline),
		Payment: a.payment,
	}
	if a.submitted != nil {
		m.SubmittedAt = ptr(stamp(*a.submitted))
	}
	if a.outputID != "" {
		m.OutputID = ptr(a.outputID)
	}
	if a.failure != "" {
		m.FailureReason = ptr(a.failure)
	}
	if a.round.state == wire.RoundClosed && a.submitted != nil {
		m.Score = ptr(a.score)
	}
	return m
}

func (r *round) view(ctx *wire.ContextState) wire.Round {
	pol := wire.PolicyWriting
	if r.job.Capability == wire.CapabilityWeather {
		pol = wire.PolicyWeather
	}
	return wire.Round{
		RoundID: r.id, State: r.state, Capability: r.job.Capability, SelectionPolicy: pol,
		Reward: credits(wire.RewardAmount), CreatedAt: stamp(r.created), Deadline: stamp(r.deadline),
		Job: r.job, Context: ctx,
	}
}

// register creates an identity and its session, or replays the original
// registration.
func (s *Server) register(c *call, reg registration) (any, string) {
	if id := s.m.identities[c.agentID]; id != nil {
		switch {
		case id.regID != c.requestID:
			return nil, wire.CodeRegistrationExists
		case id.regDigest != c.digest:
			return nil, wire.CodeIdempotencyConflict
		case !c.now.Before(id.sess.expires):
			return nil, wire.CodeSessionExpired
		}
		return rawJSON(id.regBody), ""
	}
	if len(s.m.identities) >= wire.MaxIdentities {
		return nil, wire.CodeCapacityReached
	}
	var enc hpke.PublicKey
	if reg.enc != nil {
		if s.m.encKeys[string(reg.enc)] || s.ctx.isOwnKey(reg.enc) {
			return nil, wire.CodeInvalidRequest
		}
		enc = mustP256(reg.enc)
		s.m.encKeys[string(reg.enc)] = true
	}
	id := &identity{
		agentID: c.agentID, pub: reg.pub, enc: enc, name: reg.req.Name, version: reg.req.Version,
		capability: reg.req.Capability, regID: c.requestID, regDigest: c.digest,
	}
	id.sess = &session{id: s.newID(), ident: id, expires: c.now.Add(wire.SessionSeconds * time.Second), receipts: map[string]*receipt{}}
	id.regBody = mustJSON(wire.Registration{
		Profile: wire.Profile, AgentID: id.agentID, SessionID: id.sess.id, Name: id.name, Version: id.version,
		Capability: id.capability, Encryption: enc != nil, ExpiresAt: stamp(id.sess.expires),
	})
	s.m.identities[id.agentID] = id
	s.m.sessions[id.sess.id] = id.sess
	return rawJSON(id.regBody), ""
}

// createRound seeds a writing or weather round owned by the caller.
func (s *Server) createRound(c *call) (any, string) {
	if len(s.m.rounds) >= wire.MaxRounds {
		return nil, wire.CodeCapacityReached
	}
	var req wire.RoundRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	capability := req.Capability
	if capability == "" {
		capability = wire.CapabilityWriting
	}
	job, ok := newJob(capability, req.MediaType)
	if !ok {
		return nil, wire.CodeInvalidRequest
	}
	if capability == wire.CapabilityWeather && c.ident.enc == nil {
		return nil, wire.CodeEncryptionRequired
	}
	job.JobID = s.newID()
	r := &round{
		id: s.newID(), owner: c.ident, mediaType: req.MediaType, created: c.now,
		deadline: c.now.Truncate(time.Second).Add(wire.RoundSeconds * time.Second),
		state:    wire.RoundOpen, job: job,
	}
	s.m.rounds = append(s.m.rounds, r)
	s.m.roundByID[r.id] = r
	var ctx *wire.ContextState
	if capability == wire.CapabilityWeather {
		ctx = s.ctx.newRound(r.id, r.deadline)
	}
	s.emit(c.ident, c.now, wire.EventRoundCreated, r, nil, nil)
	return wire.RoundResponse{Profile: wire.Profile, Round: r.view(ctx)}, ""
}

// subscribe starts the caller's one active subscription.
func (s *Server) subscribe(c *call) (any, string) {
	var req wire.SubscriptionRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	if !validSubscription(req) {
		return nil, wire.CodeInvalidRequest
	}
	if req.Capability != c.ident.capability {
		return nil, wire.CodeForbidden
	}
	if active(c.ident) != nil {
		return nil, wire.CodeInvalidState
	}
	if req.RoundID != nil {
		r := s.m.roundByID[*req.RoundID]
		if r == nil {
			return nil, wire.CodeNotFound
		}
		if r.state != wire.RoundOpen {
			return nil, wire.CodeRoundClosed
		}
	}
	sub := &subscription{view: wire.Subscription{
		SubscriptionID: s.newID(), State: wire.SubscriptionActive, Capability: req.Capability,
		MediaTypes: req.MediaTypes, MinReward: req.MinReward, MaxInFlight: req.MaxInFlight,
		RoundID: req.RoundID, CreatedAt: stamp(c.now),
	}}
	c.ident.subs = append(c.ident.subs, sub)
	return wire.SubscriptionResponse{Profile: wire.Profile, Subscription: sub.view}, ""
}

func validSubscription(req wire.SubscriptionRequest) bool {
	switch req.Capability {
	case wire.CapabilityWriting, wire.CapabilityWeather:
	default:
		return false
	}
	if len(req.MediaTypes) < 1 || len(req.MediaTypes) > wire.MaxSubscriptionMedia {
		return false
	}
	seen := map[string]bool{}
	for _, mt := range req.MediaTypes {
		if !outputMediaType(mt) || seen[mt] {
			return false
		}
		seen[mt] = true
	}
	return req.MinReward.Unit == wire.CreditUnit && req.MinReward.Amount >= 0 && req.MinReward.Amount <= 1_000_000 &&
		(req.MaxInFlight == 1 || req.MaxInFlight == 2) && (req.RoundID == nil || wire.ValidUUID(*req.RoundID))
}

func active(id *identity) *subscription {
	if n := len(id.subs); n > 0 && id.subs[n-1].view.State == wire.SubscriptionActive {
		return id.subs[n-1]
	}
	return nil
}

// unsubscribe ends the caller's active subscription; existing work keeps
// its state and deadline.
func (s *Server) unsubscribe(c *call) (any, string) {
	var req wire.UnsubscribeRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	if !wire.ValidUUID(req.SubscriptionID) {
		return nil, wire.CodeInvalidRequest
	}
	for _, sub := range c.ident.subs {
		if sub.view.SubscriptionID == req.SubscriptionID {
			if sub.view.State != wire.SubscriptionActive {
				return nil, wire.CodeInvalidState
			}
			sub.view.State = wire.SubscriptionUnsubscribed
			return wire.SubscriptionResponse{Profile: wire.Profile, Subscription: sub.view}, ""
		}
	}
	return nil, wire.CodeForbidden
}

// matches dispatches eligible work to the caller, then lists its
// assignments, history included.
func (s *Server) matches(c *call) (any, string) {
	s.dispatch(c.ident, c.now)
	out := make([]wire.Match, len(c.ident.matches))
	for i, a := range c.ident.matches {
		out[i] = a.view()
	}
	return wire.MatchesResponse{Profile: wire.Profile, Matches: out}, ""
}

func inFlight(id *identity) int {
	n := 0
	for _, a := range id.matches {
		switch a.state {
		case wire.MatchMatched, wire.MatchWaitingContext, wire.MatchSubmitted:
			n++
		}
	}
	return n
}

// dispatch gives the caller slots of open rounds in creation order, up to
// its subscription's in-flight limit: one slot per identity per round,
// never a round it owns.
func (s *Server) dispatch(id *identity, now time.Time) {
	sub := active(id)
	if sub == nil {
		return
	}
	v := sub.view
	n := inFlight(id)
	for _, r := range s.m.rounds {
		if n >= v.MaxInFlight || len(id.matches) >= wire.MaxAssignments {
			return
		}
		if r.state != wire.RoundOpen || r.owner == id || len(r.slots) >= wire.CandidatesPerRound ||
			r.job.Capability != v.Capability || !contains(v.MediaTypes, r.mediaType) ||
			wire.RewardAmount < v.MinReward.Amount || (v.RoundID != nil && *v.RoundID != r.id) || holds(r, id) {
			continue
		}
		a := &assignment{
			id: s.newID(), round: r, agent: id, subID: v.SubscriptionID, state: wire.MatchMatched, matchedAt: now,
			payment: wire.Payment{Status: wire.PaymentPending, Amount: credits(0)},
		}
		r.slots = append(r.slots, a)
		id.matches = append(id.matches, a)
		s.m.matchByID[a.id] = a
		if r.job.Capability == wire.CapabilityWeather {
			s.ctx.newMatch(a.id, r.id)
		}
		s.emit(id, now, wire.EventMatchAssigned, r, a, nil)
		n++
	}
}

func holds(r *round, id *identity) bool {
	for _, a := range r.slots {
		if a.agent == id {
			return true
		}
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// owned finds the caller's match: FORBIDDEN for an unknown or foreign id.
func (s *Server) owned(c *call, matchID string) (*assignment, string) {
	a := s.m.matchByID[matchID]
	if a == nil || a.agent != c.ident {
		return nil, wire.CodeForbidden
	}
	return a, ""
}

// ownedLive finds the caller's match as owned does, in a round still
// open (else ROUND_CLOSED) and in one of states (else INVALID_STATE).
func (s *Server) ownedLive(c *call, matchID string, states ...string) (*assignment, string) {
	a, code := s.owned(c, matchID)
	switch {
	case code != "":
		return nil, code
	case a.round.state != wire.RoundOpen:
		return nil, wire.CodeRoundClosed
	case !slices.Contains(states, a.state):
		return nil, wire.CodeInvalidState
	}
	return a, ""
}

// submit accepts an output for the caller's MATCHED assignment.
func (s *Server) submit(c *call) (any, string) {
	var req wire.SubmitRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	if !wire.ValidUUID(req.MatchID) || len(req.Content) == 0 {
		return nil, wire.CodeInvalidRequest
	}
	a, code := s.ownedLive(c, req.MatchID, wire.MatchMatched)
	if code != "" {
		return nil, code
	}
	var score int
	if a.round.job.Capability == wire.CapabilityWeather {
		box, code := decodeEncrypted(req.Content)
		if code != "" {
			return nil, code
		}
		score, a.outputID, code = s.ctx.submit(s.binding(c, a.id), box, a.round.job.OutputContract, a.agent.agentID, ownerLive(a.round, c.now), c.now)
		if code != "" {
			return nil, code
		}
	} else {
		content, code := decodeContent(req.Content, a.round.job.OutputContract)
		if code != "" {
			return nil, code
		}
		score = writingScore(content)
	}
	s.m.submitSeq++
	a.state, a.submitted, a.submitSeq, a.score = wire.MatchSubmitted, ptr(c.now), s.m.submitSeq, score
	s.emit(a.agent, c.now, wire.EventMatchSubmitted, a.round, a, nil)
	out := wire.MatchResponse{Profile: wire.Profile, Match: a.view()}
	s.closeIfDone(a.round, c.now)
	return out, ""
}

// fail records a decline or an execution failure before submission.
func (s *Server) fail(c *call) (any, string) {
	var req wire.FailureRequest
	if code := decodeRequest(c.body, &req, func() string { return req.Profile }); code != "" {
		return nil, code
	}
	if !wire.ValidUUID(req.MatchID) || (req.Reason != wire.FailureDeclined && req.Reason != wire.FailureExecution) {
		return nil, wire.CodeInvalidRequest
	}
	a, code := s.ownedLive(c, req.MatchID, wire.MatchMatched, wire.MatchWaitingContext)
	if code != "" {
		return nil, code
	}
	a.state, a.failure = wire.MatchFailed, req.Reason
	a.payment = wire.Payment{Status: wire.PaymentNotPayable, Amount: credits(0)}
	s.emit(a.agent, c.now, wire.EventMatchFailed, a.round, a, nil)
	out := wire.MatchResponse{Profile: wire.Profile, Match: a.view()}
	s.closeIfDone(a.round, c.now)
	return out, ""
}

// events lists the caller's events after a cursor.
func (s *Server) events(c *call) (any, string) {
	evs := c.ident.events
	if c.after > len(evs) {
		return nil, wire.CodeInvalidRequest
	}
	out := append([]wire.Event{}, evs[c.after:]...)
	return wire.EventsResponse{Profile: wire.Profile, Events: out, NextCursor: len(evs)}, ""
}

// closeDue closes every open round whose deadline has come.
func (s *Server) closeDue(now time.Time) {
	for _, r := range s.m.rounds {
		if r.state == wire.RoundOpen && !now.Before(r.deadline) {
			s.closeRound(r, now)
		}
	}
}

// closeIfDone closes a round once both slots have submitted or failed.
func (s *Server) closeIfDone(r *round, now time.Time) {
	if len(r.slots) < wire.CandidatesPerRound {
		return
	}
	for _, a := range r.slots {
		if a.state != wire.MatchSubmitted && a.state != wire.MatchFailed {
			return
		}
	}
	s.closeRound(r, now)
}

// closeRound expires unsubmitted work, selects at most one result (the
// highest score of at least one, the earlier submission on a tie) and
// pays it, in one transition.
func (s *Server) closeRound(r *round, now time.Time) {
	r.state = wire.RoundClosed
	var best *assignment
	for _, a := range r.slots {
		switch a.state {
		case wire.MatchMatched, wire.MatchWaitingContext:
			a.state = wire.MatchExpired
			a.payment = wire.Payment{Status: wire.PaymentNotPayable, Amount: credits(0)}
			s.emit(a.agent, now, wire.EventMatchExpired, r, a, nil)
		case wire.MatchSubmitted:
			if a.score >= 1 && (best == nil || a.score > best.score || a.score == best.score && a.submitSeq < best.submitSeq) {
				best = a
			}
		}
	}
	for _, a := range r.slots {
		if a.state != wire.MatchSubmitted {
			continue
		}
		score := ptr(a.score)
		if a == best {
			a.state = wire.MatchSelected
			a.payment = wire.Payment{Status: wire.PaymentPaid, Amount: credits(wire.RewardAmount), ReceiptID: ptr(s.newID())}
			r.selected = a
			s.emit(a.agent, now, wire.EventSelected, r, a, func(e *wire.Event) { e.Score = score })
			pay := a.payment
			s.emit(a.agent, now, wire.EventPayment, r, a, func(e *wire.Event) { e.Payment = &pay })
			continue
		}
		a.state = wire.MatchNotSelected
		a.payment = wire.Payment{Status: wire.PaymentNotPayable, Amount: credits(0)}
		s.emit(a.agent, now, wire.EventNotSelected, r, a, func(e *wire.Event) { e.Score = score })
	}
	s.emit(r.owner, now, wire.EventRoundClosed, r, best, func(e *wire.Event) {
		if best != nil {
			e.Score = ptr(best.score)
		}
	})
}
