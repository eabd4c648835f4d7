package owpclient

import (
	"context"
	"crypto/ed25519"
	"crypto/hpke"
	"crypto/sha256"
	"net/http"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// binding is what a context exchange of this agent binds.
func (a *Agent) binding(direction, route, rid, target string) wire.Binding {
	return wire.Binding{
		Direction: direction, Route: route, InstanceID: a.m.profile.InstanceID, AgentID: a.id,
		SessionID: a.session, RequestID: rid, TargetID: target,
	}
}

// sealedRequest is the body of a context operation: plaintext sealed to
// the adapter once per request id, and wrapped by outer. A retry with the
// same id and intent reuses the bytes; another intent under the id is
// INVALID_ARGUMENT.
func (a *Agent) sealedRequest(route, rid, target string, plaintext any, outer func(wire.Box) any) ([]byte, error) {
	pt := mustJSON(plaintext)
	intent := sha256.Sum256([]byte(route + "\n" + target + "\n" + string(pt)))
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, ok := a.sealed[rid]; ok {
		if s.intent != intent {
			return nil, clientError(wire.CodeInvalidArgument, rid)
		}
		return s.body, nil
	}
	enc, sender, err := hpke.NewSender(a.m.ctxEnc, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(wire.ContextInfo))
	if err != nil {
		return nil, err
	}
	ct, err := sender.Seal(wire.AAD(a.binding(wire.DirectionRequest, route, rid, target)), pt)
	if err != nil {
		return nil, err
	}
	body := mustJSON(outer(wire.Box{Enc: wire.ContextEncoding.EncodeToString(enc), Ciphertext: wire.ContextEncoding.EncodeToString(ct)}))
	a.sealed[rid] = sealedBody{intent: intent, body: body}
	a.order = append(a.order, rid)
	if len(a.order) > maxSealed {
		delete(a.sealed, a.order[0])
		a.order = a.order[1:]
	}
	return body, nil
}

// exchange sends a sealed context operation and opens its answer into out.
func (a *Agent) exchange(ctx context.Context, route, target string, requestID []string, plaintext any, outer func(wire.Box) any, out any) error {
	rid, err := pickRequestID(requestID)
	if err != nil {
		return err
	}
	body, err := a.sealedRequest(route, rid, target, plaintext, outer)
	if err != nil {
		return err
	}
	return a.encrypted(ctx, route, target, rid, body, out)
}

// encrypted sends body and opens the EncryptedResponse: the answer must
// name this request, route and target, carry the pinned adapter's
// signature over the response AAD this agent computes, and open with this
// agent's key (RESPONSE_BINDING_FAILED otherwise).
func (a *Agent) encrypted(ctx context.Context, route, target, rid string, body []byte, out any) error {
	var resp wire.EncryptedResponse
	if err := a.send(ctx, http.MethodPost, route, body, rid, &resp); err != nil {
		return err
	}
	failed := clientError(wire.CodeResponseBindingFailed, rid)
	if resp.Profile != wire.Profile || resp.RequestID != rid || resp.Route != route || resp.TargetID != target {
		return failed
	}
	aad := wire.AAD(a.binding(wire.DirectionResponse, route, rid, target))
	sig, err := wire.ContextEncoding.DecodeString(resp.Signature)
	if err != nil || !ed25519.Verify(a.m.ctxSign, wire.ResponseSigningInput(aad, resp.Box), sig) {
		return failed
	}
	enc, err1 := wire.ContextEncoding.DecodeString(resp.Box.Enc)
	ct, err2 := wire.ContextEncoding.DecodeString(resp.Box.Ciphertext)
	if err1 != nil || err2 != nil {
		return failed
	}
	r, err := hpke.NewRecipient(enc, a.enc, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(wire.ContextInfo))
	if err != nil {
		return failed
	}
	pt, err := r.Open(aad, ct)
	if err != nil {
		return failed
	}
	if decodeStrict(pt, out) != nil {
		return clientError(wire.CodeResponseInvalid, rid)
	}
	return nil
}

// ConfigureContext sets the context policy of a weather round this agent
// owns. A retry of a committed change returns its historical receipt; a new
// change needs a new request id.
func (a *Agent) ConfigureContext(ctx context.Context, roundID string, p wire.ContextPolicy, requestID ...string) (wire.ContextPolicyReceipt, error) {
	var out wire.ContextPolicyReceipt
	err := a.exchange(ctx, wire.RoutePolicy, roundID, requestID, p, func(b wire.Box) any {
		return wire.ContextPolicyRequest{Profile: wire.Profile, RoundID: roundID, Box: b}
	}, &out)
	if err == nil && out.RoundID != roundID {
		return out, clientError(wire.CodeResponseBindingFailed, "")
	}
	return out, err
}

// RequestContext asks for the weather job's one context scope and keeps
// the grant as the match's current one.
func (a *Agent) RequestContext(ctx context.Context, matchID string, requestID ...string) (wire.ContextGrant, error) {
	var g wire.ContextGrant
	err := a.exchange(ctx, wire.RouteContext, matchID, requestID, wire.ContextScope{Field: wire.ScopeField, Purpose: wire.ScopePurpose},
		contextRequest(matchID), &g)
	if err != nil {
		return g, err
	}
	if g.MatchID != matchID {
		return g, clientError(wire.CodeResponseBindingFailed, "")
	}
	a.mu.Lock()
	a.grants[matchID] = g
	a.mu.Unlock()
	return g, nil
}

func contextRequest(matchID string) func(wire.Box) any {
	return func(b wire.Box) any { return wire.ContextRequest{Profile: wire.Profile, MatchID: matchID, Box: b} }
}

// Weather reads the weather under a grant (the match's current one when
// grantID is "", requesting one first when there is none) and keeps the
// observation as the match's one current observation.
func (a *Agent) Weather(ctx context.Context, matchID, grantID string, requestID ...string) (wire.WeatherObservation, error) {
	if grantID == "" {
		a.mu.Lock()
		g, ok := a.grants[matchID]
		a.mu.Unlock()
		if !ok {
			var err error
			if g, err = a.RequestContext(ctx, matchID); err != nil {
				return wire.WeatherObservation{}, err
			}
		}
		grantID = g.GrantID
	}
	var o wire.WeatherObservation
	err := a.exchange(ctx, wire.RouteWeather, matchID, requestID, wire.WeatherRequest{GrantID: grantID}, contextRequest(matchID), &o)
	if err != nil {
		if wire.ContextWaiting(CodeOf(err)) {
			a.forget(matchID)
		}
		return o, err
	}
	if o.MatchID != matchID || o.GrantID != grantID || !o.Synthetic {
		return o, clientError(wire.CodeResponseBindingFailed, "")
	}
	a.mu.Lock()
	a.obs[matchID] = o
	a.mu.Unlock()
	return o, nil
}

// forget drops a match's grant and observation after a context failure,
// so that the next attempt asks afresh.
func (a *Agent) forget(matchID string) {
	a.mu.Lock()
	delete(a.grants, matchID)
	delete(a.obs, matchID)
	a.mu.Unlock()
}

// SubmitWeather seals a weather answer with the match's current grant and
// observation and submits it.
func (a *Agent) SubmitWeather(ctx context.Context, matchID string, c wire.Content, requestID ...string) (wire.Match, error) {
	a.mu.Lock()
	o, ok := a.obs[matchID]
	a.mu.Unlock()
	if !ok {
		return wire.Match{}, clientError(wire.CodeInvalidArgument, "")
	}
	rid, err := pickRequestID(requestID)
	if err != nil {
		return wire.Match{}, err
	}
	body, err := a.sealedRequest(wire.RouteSubmit, rid, matchID, wire.WeatherSubmission{GrantID: o.GrantID, ObservationID: o.ObservationID, Content: c},
		func(b wire.Box) any {
			return wire.SubmitRequest{Profile: wire.Profile, MatchID: matchID, Content: mustJSON(wire.EncryptedContent{MediaType: wire.MediaEncrypted, Box: b})}
		})
	if err != nil {
		return wire.Match{}, err
	}
	var out wire.MatchResponse
	if err := a.send(ctx, http.MethodPost, wire.RouteSubmit, body, rid, &out); err != nil {
		return out.Match, err
	}
	a.markHandled(matchID)
	return out.Match, nil
}

// ReadResult reads the selected private answer of a closed weather round
// this agent owns.
func (a *Agent) ReadResult(ctx context.Context, roundID string, requestID ...string) (wire.PrivateResult, error) {
	rid, err := pickRequestID(requestID)
	if err != nil {
		return wire.PrivateResult{}, err
	}
	var out wire.PrivateResult
	err = a.encrypted(ctx, wire.RouteResults, roundID, rid, mustJSON(wire.PrivateResultRequest{Profile: wire.Profile, RoundID: roundID}), &out)
	if err == nil && out.RoundID != roundID {
		return out, clientError(wire.CodeResponseBindingFailed, rid)
	}
	return out, err
}
