package owp

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hpke"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// adapter is the trusted synthetic context adapter. It shares the
// Server's lock but not its state: the coordinator hands it ciphertext and
// opaque ids and gets back sealed answers, codes, scores and output ids.
// It knows two fictional locations and a deterministic weather provider,
// nothing else.
type adapter struct {
	kem     hpke.KEM
	kdf     hpke.KDF
	aead    hpke.AEAD
	encKey  hpke.PrivateKey
	encPub  []byte
	signKey ed25519.PrivateKey
	newID   func() string
	rounds  map[string]*ctxRound
	matches map[string]*ctxMatch
	outputs map[string]*wire.PrivateResult
}

// ctxRound is a weather round's context policy.
type ctxRound struct {
	policy   wire.ContextPolicy
	revision int
	deadline time.Time
}

// ctxMatch is the context state of one weather assignment.
type ctxMatch struct {
	roundID string
	grants  map[string]*grant
	current *grant                   // the latest grant
	obs     *wire.WeatherObservation // the one current observation
}

// grant is a context grant pinned to a match and a policy revision.
type grant struct {
	id       string
	revision int
	issued   time.Time
	expires  time.Time
}

// observationFixtures are the deterministic provider's answers.
var observationFixtures = map[string]wire.WeatherFacts{
	wire.LocationHarbor: {Area: "Harbor Point", TemperatureC: 14, Condition: "light rain"},
	wire.LocationRidge:  {Area: "Ridge Hollow", TemperatureC: 6, Condition: "clear"},
}

// providerID names the synthetic weather provider.
const providerID = "synthetic-weather-1"

func newAdapter(newID func() string) (*adapter, error) {
	a := &adapter{
		kem: hpke.DHKEM(ecdh.P256()), kdf: hpke.HKDFSHA256(), aead: hpke.AES256GCM(), newID: newID,
		rounds: map[string]*ctxRound{}, matches: map[string]*ctxMatch{}, outputs: map[string]*wire.PrivateResult{},
	}
	var err error
	if a.encKey, err = a.kem.GenerateKey(); err != nil {
		return nil, fmt.Errorf("owp: context key: %w", err)
	}
	a.encPub = a.encKey.PublicKey().Bytes()
	if _, a.signKey, err = ed25519.GenerateKey(rand.Reader); err != nil {
		return nil, fmt.Errorf("owp: context signing key: %w", err)
	}
	return a, nil
}

func (a *adapter) descriptor() wire.ContextDescriptor {
	return wire.ContextDescriptor{
		Info: wire.ContextInfo, KEM: "DHKEM(P-256, HKDF-SHA256)", KDF: "HKDF-SHA256", AEAD: "AES-256-GCM",
		ContextKeys: wire.ContextKeys{
			EncryptionPublicKey: wire.ContextEncoding.EncodeToString(a.encPub),
			SigningPublicKey:    wire.ContextEncoding.EncodeToString(a.signKey.Public().(ed25519.PublicKey)),
		},
	}
}

func (a *adapter) isOwnKey(raw []byte) bool { return bytes.Equal(raw, a.encPub) }

// decodeP256 reads a 65-byte uncompressed P-256 point in standard padded
// base64.
func decodeP256(v string) ([]byte, bool) {
	raw, err := wire.ContextEncoding.DecodeString(v)
	if err != nil || len(raw) != 65 || raw[0] != 4 {
		return nil, false
	}
	if _, err := ecdh.P256().NewPublicKey(raw); err != nil {
		return nil, false
	}
	return raw, true
}

// mustP256 is the HPKE public key of a point decodeP256 accepted.
func mustP256(raw []byte) hpke.PublicKey {
	pk, err := hpke.DHKEM(ecdh.P256()).NewPublicKey(raw)
	if err != nil {
		panic("owp: a checked P-256 point was refused: " + err.Error())
	}
	return pk
}

func (a *adapter) newRound(roundID string, deadline time.Time) *wire.ContextState {
	cr := &ctxRound{
		policy:   wire.ContextPolicy{Location: wire.LocationMissing, Consent: wire.ConsentRequired, Provider: wire.ProviderAvailable},
		deadline: deadline,
	}
	a.rounds[roundID] = cr
	return &wire.ContextState{Revision: 0, Location: cr.policy.Location, Consent: cr.policy.Consent, Provider: cr.policy.Provider}
}

func (a *adapter) newMatch(matchID, roundID string) {
	a.matches[matchID] = &ctxMatch{roundID: roundID, grants: map[string]*grant{}}
}

// open decrypts a request box bound to b: INVALID_CONTEXT when anything
// about it is wrong.
func (a *adapter) open(b wire.Binding, box wire.Box) ([]byte, string) {
	enc, err1 := wire.ContextEncoding.DecodeString(box.Enc)
	ct, err2 := wire.ContextEncoding.DecodeString(box.Ciphertext)
	if err1 != nil || err2 != nil || len(enc) != 65 {
		return nil, wire.CodeInvalidContext
	}
	r, err := hpke.NewRecipient(enc, a.encKey, a.kdf, a.aead, []byte(wire.ContextInfo))
	if err != nil {
		return nil, wire.CodeInvalidContext
	}
	pt, err := r.Open(wire.AAD(b), ct)
	if err != nil {
		return nil, wire.CodeInvalidContext
	}
	return pt, ""
}

// openInto opens box, sealed to the adapter under b, and decodes its
// plaintext strictly into v.
func (a *adapter) openInto(b wire.Binding, box wire.Box, v any) string {
	pt, code := a.open(b, box)
	if code != "" {
		return code
	}
	if decodeStrict(pt, v) != nil {
		return wire.CodeInvalidContext
	}
	return ""
}

// seal answers a context request: v sealed to the caller's key under the
// response AAD, signed by the adapter.
func (a *adapter) seal(b wire.Binding, to hpke.PublicKey, v any) (wire.EncryptedResponse, string) {
	b.Direction = wire.DirectionResponse
	aad := wire.AAD(b)
	enc, sender, err := hpke.NewSender(to, a.kdf, a.aead, []byte(wire.ContextInfo))
	if err != nil {
		return wire.EncryptedResponse{}, wire.CodeInternalError
	}
	ct, err := sender.Seal(aad, mustJSON(v))
	if err != nil {
		return wire.EncryptedResponse{}, wire.CodeInternalError
	}
	box := wire.Box{Enc: wire.ContextEncoding.EncodeToString(enc), Ciphertext: wire.ContextEncoding.EncodeToString(ct)}
	sig := ed25519.Sign(a.signKey, wire.ResponseSigningInput(aad, box))
	return wire.EncryptedResponse{
		Profile: wire.Profile, RequestID: b.RequestID, Route: b.Route, TargetID: b.TargetID,
		Box: box, Signature: wire.ContextEncoding.EncodeToString(sig),
	}, ""
}

// policy applies an owner's policy change: a new revision that
// invalidates every existing grant of the round.
func (a *adapter) policy(b wire.Binding, box wire.Box, to hpke.PublicKey, now time.Time) (any, string) {
	var p wire.ContextPolicy
	if code := a.openInto(b, box, &p); code != "" {
		return nil, code
	}
	if !validPolicy(p) {
		return nil, wire.CodeInvalidContext
	}
	cr := a.rounds[b.TargetID]
	cr.policy = p
	cr.revision++
	return a.seal(b, to, wire.ContextPolicyReceipt{
		RoundID: b.TargetID, Revision: cr.revision, Location: p.Location, Consent: p.Consent,
		Provider: p.Provider, UpdatedAt: stamp(now),
	})
}

func validPolicy(p wire.ContextPolicy) bool {
	switch p.Location {
	case wire.LocationHarbor, wire.LocationRidge, wire.LocationMissing, wire.LocationStale:
	default:
		return false
	}
	switch p.Consent {
	case wire.ConsentGranted, wire.ConsentRequired, wire.ConsentDenied, wire.ConsentRevoked:
	default:
		return false
	}
	return p.Provider == wire.ProviderAvailable || p.Provider == wire.ProviderUnavailable
}

// available checks that the round's context can be delivered at all:
// a live owner, granted consent and a fresh location.
func (cr *ctxRound) available(ownerLive bool) string {
	if !ownerLive {
		return wire.CodeContextUnavailable
	}
	switch cr.policy.Consent {
	case wire.ConsentRequired:
		return wire.CodeConsentRequired
	case wire.ConsentDenied:
		return wire.CodeConsentDenied
	case wire.ConsentRevoked:
		return wire.CodeGrantRevoked
	}
	switch cr.policy.Location {
	case wire.LocationMissing:
		return wire.CodeLocationMissing
	case wire.LocationStale:
		return wire.CodeLocationStale
	}
	return ""
}

// valid checks that g is still the match's current grant under the
// current policy and has not expired.
func (a *adapter) valid(m *ctxMatch, g *grant, ownerLive bool, now time.Time) string {
	cr := a.rounds[m.roundID]
	if code := cr.available(ownerLive); code != "" {
		return code
	}
	if g.revision != cr.revision || g != m.current {
		return wire.CodeContextChanged
	}
	if !now.Before(g.expires) {
		return wire.CodeGrantExpired
	}
	return ""
}

// grant answers a context request with a grant pinned to the match and
// the current revision, expiring at the earlier of 60 s and the deadline.
func (a *adapter) grant(b wire.Binding, box wire.Box, to hpke.PublicKey, ownerLive bool, now time.Time) (any, string, string) {
	var scope wire.ContextScope
	if code := a.openInto(b, box, &scope); code != "" {
		return nil, "", code
	}
	if scope.Field != wire.ScopeField || scope.Purpose != wire.ScopePurpose {
		return nil, "", wire.CodeScopeDenied
	}
	m := a.matches[b.TargetID]
	cr := a.rounds[m.roundID]
	if code := cr.available(ownerLive); code != "" {
		return nil, "", code
	}
	g := &grant{id: a.newID(), revision: cr.revision, issued: now, expires: now.Add(wire.GrantSeconds * time.Second)}
	if cr.deadline.Before(g.expires) {
		g.expires = cr.deadline
	}
	m.grants[g.id], m.current = g, g
	resp, code := a.seal(b, to, wire.ContextGrant{
		GrantID: g.id, MatchID: b.TargetID, Field: scope.Field, Purpose: scope.Purpose, Revision: g.revision,
		IssuedAt: stamp(g.issued), ExpiresAt: stamp(g.expires), DerivedOnly: true,
	})
	return resp, g.id, code
}

// grantStillValid revalidates a replayed context request.
func (a *adapter) grantStillValid(matchID, grantID string, ownerLive bool, now time.Time) string {
	m := a.matches[matchID]
	return a.valid(m, m.grants[grantID], ownerLive, now)
}

// weather answers a weather read under a current grant with a new
// observation, which replaces the match's previous one.
func (a *adapter) weather(b wire.Binding, box wire.Box, to hpke.PublicKey, ownerLive bool, now time.Time) (any, string, string) {
	var req wire.WeatherRequest
	if code := a.openInto(b, box, &req); code != "" {
		return nil, "", code
	}
	m := a.matches[b.TargetID]
	g := m.grants[req.GrantID]
	if g == nil {
		return nil, "", wire.CodeInvalidContext
	}
	if code := a.valid(m, g, ownerLive, now); code != "" {
		return nil, "", code
	}
	cr := a.rounds[m.roundID]
	if cr.policy.Provider != wire.ProviderAvailable {
		return nil, "", wire.CodeProviderUnavailable
	}
	f := observationFixtures[cr.policy.Location]
	obs := wire.WeatherObservation{
		ObservationID: a.newID(), GrantID: g.id, MatchID: b.TargetID, ProviderID: providerID,
		Area: f.Area, TemperatureC: f.TemperatureC, Condition: f.Condition, ObservedAt: stamp(now),
		LocationRevision: cr.revision, Synthetic: true,
	}
	m.obs = &obs
	resp, code := a.seal(b, to, obs)
	return resp, obs.ObservationID, code
}

// observationStillCurrent revalidates a replayed weather read.
func (a *adapter) observationStillCurrent(matchID, grantID, obsID string, ownerLive bool, now time.Time) string {
	m := a.matches[matchID]
	if code := a.valid(m, m.grants[grantID], ownerLive, now); code != "" {
		return code
	}
	if a.rounds[m.roundID].policy.Provider != wire.ProviderAvailable {
		return wire.CodeProviderUnavailable
	}
	if m.obs == nil || m.obs.ObservationID != obsID {
		return wire.CodeContextChanged
	}
	return ""
}

// submit opens a weather submission, checks that it binds the match's
// current grant and observation, scores it against that observation and
// keeps it; the coordinator gets the score and an opaque output id.
func (a *adapter) submit(b wire.Binding, box wire.Box, contract wire.OutputContract, agentID string, ownerLive bool, now time.Time) (int, string, string) {
	var sub wire.WeatherSubmission
	if code := a.openInto(b, box, &sub); code != "" {
		return 0, "", code
	}
	m := a.matches[b.TargetID]
	g := m.grants[sub.GrantID]
	if g == nil {
		return 0, "", wire.CodeInvalidContext
	}
	if code := a.valid(m, g, ownerLive, now); code != "" {
		return 0, "", code
	}
	if m.obs == nil || m.obs.ObservationID != sub.ObservationID || m.obs.GrantID != g.id {
		return 0, "", wire.CodeContextChanged
	}
	if code := checkContent(sub.Content, contract); code != "" {
		return 0, "", code
	}
	score := weatherScore(sub.Content, *m.obs)
	out := &wire.PrivateResult{
		RoundID: m.roundID, MatchID: b.TargetID, OutputID: a.newID(), AgentID: agentID, Score: score,
		Content: sub.Content, Observation: *m.obs, SubmittedAt: stamp(now),
	}
	a.outputs[out.OutputID] = out
	return score, out.OutputID, ""
}

// result seals the selected private result to its round's owner.
func (a *adapter) result(b wire.Binding, outputID string, to hpke.PublicKey) (any, string) {
	return a.seal(b, to, a.outputs[outputID])
}
