package freeport

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/storyloom/storyloom/engine/canon"
)

// ProtocolVersion is the only protocol version this Game Master speaks.
const ProtocolVersion = 2

// Request bounds. A body larger than MaxRequestBytes, or a field beyond its
// bound, is malformed_request.
const (
	MaxRequestBytes = 64 << 10
	MaxCommandID    = 128
	MaxTermsItems   = 32
	DefaultLimit    = 50
	MaxLimit        = 100
)

// Actions, by name on the wire.
const (
	ActionEnroll            = "enroll"
	ActionSetTradingName    = "setTradingName"
	ActionReadInventory     = "readInventory"
	ActionReadStatement     = "readStatement"
	ActionGetExchange       = "getExchange"
	ActionListExchanges     = "listExchanges"
	ActionReadStanding      = "readStanding"
	ActionTransfer          = "transfer"
	ActionProposeExchange   = "proposeExchange"
	ActionRespondToExchange = "respondToExchange"
	ActionCounterExchange   = "counterExchange"
	ActionCancelExchange    = "cancelExchange"
)

type fieldKind uint8

const (
	fString      fieldKind = iota // required string
	fStringOpt                    // optional string, null as absent
	fNameOrNull                   // required string or null (tradingName)
	fPositive                     // required positive integer
	fPositiveOpt                  // optional positive integer, null as absent
	fItems                        // required array of {assetId, quantity}
	fTimeOpt                      // optional RFC 3339 timestamp, null as absent
)

type actionSpec struct {
	mutation bool
	fields   map[string]fieldKind
}

func specFor(action string) (actionSpec, bool) {
	switch action {
	case ActionEnroll:
		return actionSpec{mutation: true}, true
	case ActionSetTradingName:
		return actionSpec{true, map[string]fieldKind{"tradingName": fNameOrNull}}, true
	case ActionReadInventory, ActionReadStanding:
		return actionSpec{}, true
	case ActionReadStatement:
		return actionSpec{false, map[string]fieldKind{"limit": fPositiveOpt}}, true
	case ActionGetExchange:
		return actionSpec{false, map[string]fieldKind{"exchangeId": fString, "roundLimit": fPositiveOpt, "roundCursor": fStringOpt}}, true
	case ActionListExchanges:
		return actionSpec{false, map[string]fieldKind{"status": fStringOpt, "limit": fPositiveOpt, "cursor": fStringOpt}}, true
	case ActionTransfer:
		return actionSpec{true, map[string]fieldKind{"toPlayerId": fString, "assetId": fString, "quantity": fPositive}}, true
	case ActionProposeExchange:
		return actionSpec{true, map[string]fieldKind{"counterpartyPlayerId": fString, "offered": fItems, "requested": fItems, "expiresAt": fTimeOpt}}, true
	case ActionRespondToExchange:
		return actionSpec{true, map[string]fieldKind{"exchangeId": fString, "exchangeVersion": fPositive, "termsHash": fString, "decision": fString}}, true
	case ActionCounterExchange:
		return actionSpec{true, map[string]fieldKind{"exchangeId": fString, "exchangeVersion": fPositive, "termsHash": fString, "offered": fItems, "requested": fItems, "expiresAt": fTimeOpt}}, true
	case ActionCancelExchange:
		return actionSpec{true, map[string]fieldKind{"exchangeId": fString, "exchangeVersion": fPositive}}, true
	}
	return actionSpec{}, false
}

// item is one line of Terms: a quantity of one Asset, by assetId.
type item struct {
	AssetID  string `json:"assetId"`
	Quantity int64  `json:"quantity"`
}

// command is a decoded, normalized request. Strings hold values present;
// the present map says which optional fields were given.
type command struct {
	action    string
	mutation  bool
	commandID string
	str       map[string]string
	num       map[string]int64
	items     map[string][]item
	nameNull  bool // tradingName was null
	expiresAt int64
	hasExpiry bool
	// norm is the canonical parsed Command (without caller context), whose
	// digest keys idempotency.
	norm []byte
}

func (c *command) s(name string) string { return c.str[name] }

func (c *command) n(name string) (int64, bool) {
	v, ok := c.num[name]
	return v, ok
}

// decodeRequest parses one request body. It never looks at state: every
// refusal it returns is malformed_request or unsupported_protocol_version.
func decodeRequest(body []byte) (*command, *refusal) {
	if len(body) > MaxRequestBytes {
		return nil, refuse(CodeMalformedRequest, fmt.Sprintf("request is larger than %d bytes", MaxRequestBytes))
	}
	cb, err := canon.Canonicalize(body)
	if err != nil {
		return nil, refuse(CodeMalformedRequest, "request is not one JSON value: "+err.Error())
	}
	var obj map[string]json.RawMessage
	if len(cb) == 0 || cb[0] != '{' || json.Unmarshal(cb, &obj) != nil {
		return nil, refuse(CodeMalformedRequest, "request is not a JSON object")
	}
	pv, ok := obj["protocolVersion"]
	if !ok {
		return nil, refuse(CodeMalformedRequest, "protocolVersion is required")
	}
	if v, err := strconv.ParseInt(string(pv), 10, 64); err != nil {
		if len(pv) > 0 && (pv[0] == '-' || pv[0] >= '0' && pv[0] <= '9') {
			return nil, refuse(CodeUnsupportedProtocolVersion, fmt.Sprintf("protocolVersion %s is not supported; this Game Master speaks %d", pv, ProtocolVersion))
		}
		return nil, refuse(CodeMalformedRequest, "protocolVersion must be a number")
	} else if v != ProtocolVersion {
		return nil, refuse(CodeUnsupportedProtocolVersion, fmt.Sprintf("protocolVersion %d is not supported; this Game Master speaks %d", v, ProtocolVersion))
	}
	var action string
	if raw, ok := obj["action"]; !ok || json.Unmarshal(raw, &action) != nil {
		return nil, refuse(CodeMalformedRequest, "action must be a string")
	}
	spec, ok := specFor(action)
	if !ok {
		return nil, refuse(CodeMalformedRequest, fmt.Sprintf("unknown action %q", action))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "protocolVersion" || k == "action" || (k == "commandId" && spec.mutation) {
			continue
		}
		if _, ok := spec.fields[k]; !ok {
			return nil, refuse(CodeMalformedRequest, fmt.Sprintf("unknown field %q for %s", k, action))
		}
	}
	c := &command{action: action, mutation: spec.mutation, str: map[string]string{}, num: map[string]int64{}}
	norm := map[string]any{"protocolVersion": ProtocolVersion, "action": action}
	if spec.mutation {
		raw, ok := obj["commandId"]
		if !ok || json.Unmarshal(raw, &c.commandID) != nil || c.commandID == "" {
			return nil, refuse(CodeMalformedRequest, "commandId must be a non-empty string")
		}
		if len(c.commandID) > MaxCommandID {
			return nil, refuse(CodeMalformedRequest, fmt.Sprintf("commandId is longer than %d bytes", MaxCommandID))
		}
		norm["commandId"] = c.commandID
	}
	names := make([]string, 0, len(spec.fields))
	for k := range spec.fields {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, name := range names {
		raw, present := obj[name]
		isNull := present && string(raw) == "null"
		switch kind := spec.fields[name]; kind {
		case fString, fStringOpt:
			if !present || isNull {
				if kind == fString {
					return nil, refuse(CodeMalformedRequest, name+" must be a string")
				}
				continue
			}
			var v string
			if json.Unmarshal(raw, &v) != nil || v == "" || len(v) > 256 {
				return nil, refuse(CodeMalformedRequest, name+" must be a non-empty string of at most 256 bytes")
			}
			c.str[name] = v
			norm[name] = v
		case fNameOrNull:
			if !present {
				return nil, refuse(CodeMalformedRequest, name+" must be a string or null")
			}
			if isNull {
				c.nameNull = true
				norm[name] = nil
				continue
			}
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return nil, refuse(CodeMalformedRequest, name+" must be a string or null")
			}
			c.str[name] = v
			norm[name] = v
		case fPositive, fPositiveOpt:
			if !present || isNull {
				if kind == fPositive {
					return nil, refuse(CodeMalformedRequest, name+" must be a positive integer")
				}
				continue
			}
			v, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil || v < 1 || v > MaxQuantity {
				return nil, refuse(CodeMalformedRequest, fmt.Sprintf("%s must be an integer from 1 to %d", name, MaxQuantity))
			}
			c.num[name] = v
			norm[name] = v
		case fItems:
			items, r := decodeItems(name, raw, present)
			if r != nil {
				return nil, r
			}
			if c.items == nil {
				c.items = map[string][]item{}
			}
			c.items[name] = items
			norm[name] = items
		case fTimeOpt:
			if !present || isNull {
				continue
			}
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return nil, refuse(CodeMalformedRequest, name+" must be an RFC 3339 timestamp")
			}
			t, err := ParseTime(v)
			if err != nil {
				return nil, refuse(CodeMalformedRequest, name+": "+err.Error())
			}
			c.expiresAt, c.hasExpiry = t, true
			norm[name] = FormatTime(t)
		}
	}
	if c.items != nil && len(c.items["offered"])+len(c.items["requested"]) == 0 {
		return nil, refuse(CodeMalformedRequest, "offered and requested are both empty")
	}
	c.norm = mustMarshal(norm)
	return c, nil
}

// decodeItems parses and normalizes one side of Terms: sorted by assetId,
// one line per Asset (duplicate lines are summed), every quantity positive.
func decodeItems(name string, raw json.RawMessage, present bool) ([]item, *refusal) {
	if !present {
		return nil, refuse(CodeMalformedRequest, name+" must be an array of {assetId, quantity}")
	}
	var lines []map[string]json.RawMessage
	if json.Unmarshal(raw, &lines) != nil || raw[0] != '[' {
		return nil, refuse(CodeMalformedRequest, name+" must be an array of {assetId, quantity}")
	}
	if len(lines) > MaxTermsItems {
		return nil, refuse(CodeMalformedRequest, fmt.Sprintf("%s has more than %d lines", name, MaxTermsItems))
	}
	out := make([]item, 0, len(lines))
	for i, l := range lines {
		var it item
		if l == nil || len(l) != 2 || json.Unmarshal(l["assetId"], &it.AssetID) != nil || it.AssetID == "" || len(it.AssetID) > 256 {
			return nil, refuse(CodeMalformedRequest, fmt.Sprintf("%s[%d] must be exactly {assetId, quantity}", name, i))
		}
		q, err := strconv.ParseInt(string(l["quantity"]), 10, 64)
		if err != nil || q < 1 || q > MaxQuantity {
			return nil, refuse(CodeMalformedRequest, fmt.Sprintf("%s[%d].quantity must be an integer from 1 to %d", name, i, MaxQuantity))
		}
		it.Quantity = q
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b item) int { return canon.CompareKeys(a.AssetID, b.AssetID) })
	merged := out[:0]
	for _, it := range out {
		if n := len(merged); n > 0 && merged[n-1].AssetID == it.AssetID {
			merged[n-1].Quantity += it.Quantity
			if merged[n-1].Quantity > MaxQuantity {
				return nil, refuse(CodeMalformedRequest, fmt.Sprintf("%s names more than %d of %q", name, MaxQuantity, it.AssetID))
			}
			continue
		}
		merged = append(merged, it)
	}
	return merged, nil
}
