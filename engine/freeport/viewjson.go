package freeport

import (
	"encoding/json"
	"strconv"

	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders for the views Apply answers with. Each writes
// the same bytes appendCanonical writes for the view by reflection — keys in
// canon's order (all keys are ASCII, so byte order), integers as digits,
// nil pointers and slices as null — without reflection or sorting.
// TestDirectEncodersMatchReflection checks them against appendCanonical and
// the recorded request logs check them byte for byte.

// jsonAppender is a view that writes its own canonical JSON.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// appendJSONInt writes an integer as appendCanonical does.
func appendJSONInt(b []byte, n int64) []byte {
	if n > -1<<53 && n < 1<<53 {
		return strconv.AppendInt(b, n, 10)
	}
	return canon.AppendNumber(b, float64(n))
}

// appendKey writes "key": after a comma when comma is set. key must need
// no escaping: the field names of the protocol and of this package's
// views are plain ASCII.
func appendKey(b []byte, comma bool, key string) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return canon.AppendString(b, *s)
}

func appendRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// appendList writes a slice of views; nil is null.
func appendList[T any](b []byte, xs []T, each func([]byte, *T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &xs[i])
	}
	return append(b, ']')
}

func appendItems(b []byte, items []item) []byte {
	return appendList(b, items, func(b []byte, it *item) []byte {
		b = appendKey(append(b, '{'), false, "assetId")
		b = canon.AppendString(b, it.AssetID)
		b = appendKey(b, true, "quantity")
		b = appendJSONInt(b, it.Quantity)
		return append(b, '}')
	})
}

func (e *envelope) appendJSON(b []byte) []byte {
	b = append(b, '{')
	comma := false
	if e.Error != nil {
		b = appendKey(b, false, "error")
		b = appendKey(append(b, '{'), false, "code")
		b = canon.AppendString(b, e.Error.Code)
		b = appendKey(b, true, "message")
		b = canon.AppendString(b, e.Error.Message)
		b = append(b, '}')
		comma = true
	}
	b = appendKey(b, comma, "ok")
	b = strconv.AppendBool(b, e.OK)
	b = appendKey(b, true, "protocolVersion")
	b = appendJSONInt(b, int64(e.ProtocolVersion))
	if e.Result != nil {
		b = appendKey(b, true, "result")
		b = appendView(b, e.Result)
	}
	b = appendKey(b, true, "stateVersion")
	b = appendJSONInt(b, e.StateVersion)
	return append(b, '}')
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
	b = appendKey(append(b, '{'), false, "assetId")
	b = canon.AppendString(b, h.AssetID)
	b = appendKey(b, true, "available")
	b = appendJSONInt(b, h.Available)
	b = appendKey(b, true, "quantity")
	b = appendJSONInt(b, h.Quantity)
	return append(b, '}')
}

func (v enrolmentView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "enrolledAt")
	b = canon.AppendString(b, v.EnrolledAt)
	b = appendKey(b, true, "holdings")
	b = appendList(b, v.Holdings, appendHolding)
	b = appendKey(b, true, "playerId")
	b = canon.AppendString(b, v.PlayerID)
	b = appendKey(b, true, "type")
	b = canon.AppendString(b, v.Type)
	return append(b, '}')
}

func (v inventoryView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "holdings")
	b = appendList(b, v.Holdings, appendHolding)
	b = appendKey(b, true, "playerId")
	b = canon.AppendString(b, v.PlayerID)
	return append(b, '}')
}

func (v tradingNameView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "playerId")
	b = canon.AppendString(b, v.PlayerID)
	b = appendKey(b, true, "tradingName")
	b = appendStringPtr(b, v.TradingName)
	return append(b, '}')
}

func (v transferView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "assetId")
	b = canon.AppendString(b, v.AssetID)
	b = appendKey(b, true, "quantity")
	b = appendJSONInt(b, v.Quantity)
	b = appendKey(b, true, "toPlayerId")
	b = canon.AppendString(b, v.ToPlayerID)
	b = appendKey(b, true, "transferId")
	b = canon.AppendString(b, v.TransferID)
	return append(b, '}')
}

func appendStatementEntry(b []byte, e *statementEntry) []byte {
	b = appendKey(append(b, '{'), false, "assetId")
	b = canon.AppendString(b, e.AssetID)
	b = appendKey(b, true, "at")
	b = canon.AppendString(b, e.At)
	b = appendKey(b, true, "commandId")
	b = appendStringPtr(b, e.CommandID)
	b = appendKey(b, true, "counterparty")
	b = appendStringPtr(b, e.Counterparty)
	b = appendKey(b, true, "direction")
	b = canon.AppendString(b, e.Direction)
	b = appendKey(b, true, "entryNumber")
	b = appendJSONInt(b, int64(e.EntryNumber))
	b = appendKey(b, true, "exchangeId")
	b = appendStringPtr(b, e.ExchangeID)
	b = appendKey(b, true, "quantity")
	b = appendJSONInt(b, e.Quantity)
	b = appendKey(b, true, "reason")
	b = canon.AppendString(b, e.Reason)
	b = appendKey(b, true, "ruleNote")
	b = appendStringPtr(b, e.RuleNote)
	b = appendKey(b, true, "transferId")
	b = appendStringPtr(b, e.TransferID)
	return append(b, '}')
}

func (v statementView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "entries")
	b = appendList(b, v.Entries, appendStatementEntry)
	b = appendKey(b, true, "playerId")
	b = canon.AppendString(b, v.PlayerID)
	return append(b, '}')
}

func appendApproval(b []byte, a *approvalView) []byte {
	b = appendKey(append(b, '{'), false, "approvedAt")
	b = canon.AppendString(b, a.ApprovedAt)
	b = appendKey(b, true, "playerId")
	b = canon.AppendString(b, a.PlayerID)
	b = appendKey(b, true, "roundNumber")
	b = appendJSONInt(b, int64(a.RoundNumber))
	return append(b, '}')
}

func appendRound(b []byte, r *roundView) []byte {
	b = appendKey(append(b, '{'), false, "authorPlayerId")
	b = canon.AppendString(b, r.AuthorPlayerID)
	b = appendKey(b, true, "createdAt")
	b = canon.AppendString(b, r.CreatedAt)
	b = appendKey(b, true, "expiresAt")
	b = canon.AppendString(b, r.ExpiresAt)
	b = appendKey(b, true, "outcome")
	b = appendStringPtr(b, r.Outcome)
	b = appendKey(b, true, "roundNumber")
	b = appendJSONInt(b, int64(r.RoundNumber))
	b = appendKey(b, true, "terms")
	b = appendRaw(b, r.Terms)
	b = appendKey(b, true, "termsHash")
	b = canon.AppendString(b, r.TermsHash)
	return append(b, '}')
}

func appendExchange(b []byte, v *exchangeView) []byte {
	b = appendKey(append(b, '{'), false, "answeringPlayerId")
	b = appendStringPtr(b, v.AnsweringPlayerID)
	b = appendKey(b, true, "approvals")
	b = appendList(b, v.Approvals, appendApproval)
	b = appendKey(b, true, "concludedAt")
	b = appendStringPtr(b, v.ConcludedAt)
	b = appendKey(b, true, "counterpartyPlayerId")
	b = canon.AppendString(b, v.CounterpartyPlayerID)
	b = appendKey(b, true, "createdAt")
	b = canon.AppendString(b, v.CreatedAt)
	b = appendKey(b, true, "exchangeId")
	b = canon.AppendString(b, v.ExchangeID)
	b = appendKey(b, true, "exchangeVersion")
	b = appendJSONInt(b, v.ExchangeVersion)
	b = appendKey(b, true, "expiresAt")
	b = canon.AppendString(b, v.ExpiresAt)
	b = appendKey(b, true, "liveRound")
	b = appendJSONInt(b, int64(v.LiveRound))
	b = appendKey(b, true, "nextRoundCursor")
	b = appendStringPtr(b, v.NextRoundCursor)
	b = appendKey(b, true, "proposerPlayerId")
	b = canon.AppendString(b, v.ProposerPlayerID)
	b = appendKey(b, true, "roundCount")
	b = appendJSONInt(b, int64(v.RoundCount))
	b = appendKey(b, true, "rounds")
	if v.Rounds == nil {
		b = append(b, "null"...)
	} else {
		b = appendList(b, *v.Rounds, appendRound)
	}
	b = appendKey(b, true, "ruleApplied")
	b = strconv.AppendBool(b, v.RuleApplied)
	b = appendKey(b, true, "ruleNote")
	b = appendStringPtr(b, v.RuleNote)
	b = appendKey(b, true, "status")
	b = canon.AppendString(b, v.Status)
	b = appendKey(b, true, "terms")
	b = appendRaw(b, v.Terms)
	b = appendKey(b, true, "termsHash")
	b = canon.AppendString(b, v.TermsHash)
	return append(b, '}')
}

func (v exchangeListView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "exchanges")
	b = appendList(b, v.Exchanges, appendExchange)
	b = appendKey(b, true, "nextCursor")
	b = appendStringPtr(b, v.NextCursor)
	return append(b, '}')
}

func (v standingView) appendJSON(b []byte) []byte {
	b = appendKey(append(b, '{'), false, "gameId")
	b = canon.AppendString(b, v.GameID)
	b = appendKey(b, true, "generatedAt")
	b = canon.AppendString(b, v.GeneratedAt)
	b = appendKey(b, true, "players")
	b = appendList(b, v.Players, func(b []byte, e *standingEntry) []byte {
		b = appendKey(append(b, '{'), false, "playerId")
		b = canon.AppendString(b, e.PlayerID)
		b = appendKey(b, true, "playerName")
		b = canon.AppendString(b, e.PlayerName)
		b = appendKey(b, true, "tradingName")
		b = appendStringPtr(b, e.TradingName)
		b = appendKey(b, true, "wealth")
		b = appendJSONInt(b, e.Wealth)
		return append(b, '}')
	})
	b = appendKey(b, true, "prices")
	b = appendList(b, v.Prices, func(b []byte, p *priceView) []byte {
		b = appendKey(append(b, '{'), false, "assetId")
		b = canon.AppendString(b, p.AssetID)
		b = appendKey(b, true, "unitPrice")
		b = appendJSONInt(b, p.UnitPrice)
		return append(b, '}')
	})
	b = appendKey(b, true, "stateVersion")
	b = appendJSONInt(b, v.StateVersion)
	return append(b, '}')
}

// appendTerms writes canonical Terms.
func appendTerms(b []byte, t *terms) []byte {
	b = appendKey(append(b, '{'), false, "counterpartyPlayerId")
	b = canon.AppendString(b, t.CounterpartyPlayerID)
	b = appendKey(b, true, "expiresAt")
	b = canon.AppendString(b, t.ExpiresAt)
	b = appendKey(b, true, "offered")
	b = appendItems(b, t.Offered)
	b = appendKey(b, true, "proposerPlayerId")
	b = canon.AppendString(b, t.ProposerPlayerID)
	b = appendKey(b, true, "protocolVersion")
	b = appendJSONInt(b, int64(t.ProtocolVersion))
	b = appendKey(b, true, "requested")
	b = appendItems(b, t.Requested)
	return append(b, '}')
}
