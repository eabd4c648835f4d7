package freeport

import (
	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders for the views Apply answers with, written with
// package canon's writers. Each writes the same bytes appendCanonical
// writes for the view by reflection — keys in canon's order (all keys are
// ASCII, so byte order), integers as digits, nil pointers and slices as
// null — without reflection or sorting. TestDirectEncodersMatchReflection
// checks them against appendCanonical and the recorded request logs check
// them byte for byte.

// jsonAppender is a view that writes its own canonical JSON.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

func appendItem(b []byte, it *item) []byte {
	o := canon.OpenObject(b)
	o.String("assetId", it.AssetID)
	o.Int("quantity", it.Quantity)
	return o.Close()
}

func (e *envelope) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	if e.Error != nil {
		o.Key("error")
		eo := canon.OpenObject(o.B)
		eo.String("code", e.Error.Code)
		eo.String("message", e.Error.Message)
		o.B = eo.Close()
	}
	o.Bool("ok", e.OK)
	o.Int("protocolVersion", int64(e.ProtocolVersion))
	if e.Result != nil {
		o.Key("result")
		o.B = appendView(o.B, e.Result)
	}
	o.Int("stateVersion", e.StateVersion)
	return o.Close()
}

// appendView writes a view, directly when it can and by reflection
// otherwise.
func appendView(b []byte, v any) []byte {
	switch v := v.(type) {
	case jsonAppender:
		return v.appendJSON(b)
	case exchangeView: // no method: adminExchange embeds it
		return appendExchange(b, &v)
	}
	return appendCanonicalAny(b, v)
}

func appendHolding(b []byte, h *holdingView) []byte {
	o := canon.OpenObject(b)
	o.String("assetId", h.AssetID)
	o.Int("available", h.Available)
	o.Int("quantity", h.Quantity)
	return o.Close()
}

func (v enrolmentView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	o.String("enrolledAt", v.EnrolledAt)
	canon.List(&o, "holdings", v.Holdings, appendHolding)
	o.String("playerId", v.PlayerID)
	o.String("type", v.Type)
	return o.Close()
}

func (v inventoryView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	canon.List(&o, "holdings", v.Holdings, appendHolding)
	o.String("playerId", v.PlayerID)
	return o.Close()
}

func (v tradingNameView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	o.String("playerId", v.PlayerID)
	o.StringPtr("tradingName", v.TradingName)
	return o.Close()
}

func (v transferView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	o.String("assetId", v.AssetID)
	o.Int("quantity", v.Quantity)
	o.String("toPlayerId", v.ToPlayerID)
	o.String("transferId", v.TransferID)
	return o.Close()
}

func appendStatementEntry(b []byte, e *statementEntry) []byte {
	o := canon.OpenObject(b)
	o.String("assetId", e.AssetID)
	o.String("at", e.At)
	o.StringPtr("commandId", e.CommandID)
	o.StringPtr("counterparty", e.Counterparty)
	o.String("direction", e.Direction)
	o.Int("entryNumber", int64(e.EntryNumber))
	o.StringPtr("exchangeId", e.ExchangeID)
	o.Int("quantity", e.Quantity)
	o.String("reason", e.Reason)
	o.StringPtr("ruleNote", e.RuleNote)
	o.StringPtr("transferId", e.TransferID)
	return o.Close()
}

func (v statementView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	canon.List(&o, "entries", v.Entries, appendStatementEntry)
	o.String("playerId", v.PlayerID)
	return o.Close()
}

func appendApproval(b []byte, a *approvalView) []byte {
	o := canon.OpenObject(b)
	o.String("approvedAt", a.ApprovedAt)
	o.String("playerId", a.PlayerID)
	o.Int("roundNumber", int64(a.RoundNumber))
	return o.Close()
}

func appendRound(b []byte, r *roundView) []byte {
	o := canon.OpenObject(b)
	o.String("authorPlayerId", r.AuthorPlayerID)
	o.String("createdAt", r.CreatedAt)
	o.String("expiresAt", r.ExpiresAt)
	o.StringPtr("outcome", r.Outcome)
	o.Int("roundNumber", int64(r.RoundNumber))
	o.Raw("terms", r.Terms)
	o.String("termsHash", r.TermsHash)
	return o.Close()
}

func appendExchange(b []byte, v *exchangeView) []byte {
	o := canon.OpenObject(b)
	o.StringPtr("answeringPlayerId", v.AnsweringPlayerID)
	canon.List(&o, "approvals", v.Approvals, appendApproval)
	o.StringPtr("concludedAt", v.ConcludedAt)
	o.String("counterpartyPlayerId", v.CounterpartyPlayerID)
	o.String("createdAt", v.CreatedAt)
	o.String("exchangeId", v.ExchangeID)
	o.Int("exchangeVersion", v.ExchangeVersion)
	o.String("expiresAt", v.ExpiresAt)
	o.Int("liveRound", int64(v.LiveRound))
	o.StringPtr("nextRoundCursor", v.NextRoundCursor)
	o.String("proposerPlayerId", v.ProposerPlayerID)
	o.Int("roundCount", int64(v.RoundCount))
	if v.Rounds == nil {
		o.Null("rounds")
	} else {
		canon.List(&o, "rounds", *v.Rounds, appendRound)
	}
	o.Bool("ruleApplied", v.RuleApplied)
	o.StringPtr("ruleNote", v.RuleNote)
	o.String("status", v.Status)
	o.Raw("terms", v.Terms)
	o.String("termsHash", v.TermsHash)
	return o.Close()
}

func (v exchangeListView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	canon.List(&o, "exchanges", v.Exchanges, appendExchange)
	o.StringPtr("nextCursor", v.NextCursor)
	return o.Close()
}

func (v standingView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	o.String("gameId", v.GameID)
	o.String("generatedAt", v.GeneratedAt)
	o.Key("players")
	o.B = canon.AppendList(o.B, v.Players, func(b []byte, e *standingEntry) []byte {
		eo := canon.OpenObject(b)
		eo.String("playerId", e.PlayerID)
		eo.String("playerName", e.PlayerName)
		eo.StringPtr("tradingName", e.TradingName)
		eo.Int("wealth", e.Wealth)
		return eo.Close()
	})
	o.Key("prices")
	o.B = canon.AppendList(o.B, v.Prices, func(b []byte, p *priceView) []byte {
		po := canon.OpenObject(b)
		po.String("assetId", p.AssetID)
		po.Int("unitPrice", p.UnitPrice)
		return po.Close()
	})
	o.Int("stateVersion", v.StateVersion)
	return o.Close()
}

// appendTerms writes canonical Terms.
func appendTerms(b []byte, t *terms) []byte {
	o := canon.OpenObject(b)
	o.String("counterpartyPlayerId", t.CounterpartyPlayerID)
	o.String("expiresAt", t.ExpiresAt)
	canon.List(&o, "offered", t.Offered, appendItem)
	o.String("proposerPlayerId", t.ProposerPlayerID)
	o.Int("protocolVersion", int64(t.ProtocolVersion))
	canon.List(&o, "requested", t.Requested, appendItem)
	return o.Close()
}
