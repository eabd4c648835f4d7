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

// fieldSpec is one field an action takes beyond protocolVersion, action and
// commandId.
type fieldSpec struct {
	name string
	kind fieldKind
}

// actionSpec says whether an action is a mutation and which fields it
// takes, sorted by name. It is a value with a fixed array so that looking an
// action up allocates nothing.
type actionSpec struct {
	mutation bool
	n        int
	fields   [6]fieldSpec
}

func newSpec(mutation bool, fields ...fieldSpec) actionSpec {
	s := actionSpec{mutation: mutation, n: len(fields)}
	copy(s.fields[:], fields)
	return s
}

// field returns the kind of field name and whether the action takes it.
func (s *actionSpec) field(name string) (fieldKind, bool) {
	for _, f := range s.fields[:s.n] {
		if f.name == name {
			return f.kind, true
		}
	}
	return 0, false
}

func specFor(action string) (actionSpec, bool) {
	switch action {
	case ActionEnroll:
		return newSpec(true), true
	case ActionSetTradingName:
		return newSpec(true, fieldSpec{"tradingName", fNameOrNull}), true
	case ActionReadInventory, ActionReadStanding:
		return newSpec(false), true
	case ActionReadStatement:
		return newSpec(false, fieldSpec{"limit", fPositiveOpt}), true
	case ActionGetExchange:
		return newSpec(false, fieldSpec{"exchangeId", fString}, fieldSpec{"roundCursor", fStringOpt}, fieldSpec{"roundLimit", fPositiveOpt}), true
	case ActionListExchanges:
		return newSpec(false, fieldSpec{"cursor", fStringOpt}, fieldSpec{"limit", fPositiveOpt}, fieldSpec{"status", fStringOpt}), true
	case ActionTransfer:
		return newSpec(true, fieldSpec{"assetId", fString}, fieldSpec{"quantity", fPositive}, fieldSpec{"toPlayerId", fString}), true
	case ActionProposeExchange:
		return newSpec(true, fieldSpec{"counterpartyPlayerId", fString}, fieldSpec{"expiresAt", fTimeOpt}, fieldSpec{"offered", fItems}, fieldSpec{"requested", fItems}), true
	case ActionRespondToExchange:
		return newSpec(true, fieldSpec{"decision", fString}, fieldSpec{"exchangeId", fString}, fieldSpec{"exchangeVersion", fPositive}, fieldSpec{"termsHash", fString}), true
	case ActionCounterExchange:
		return newSpec(true, fieldSpec{"exchangeId", fString}, fieldSpec{"exchangeVersion", fPositive}, fieldSpec{"expiresAt", fTimeOpt}, fieldSpec{"offered", fItems}, fieldSpec{"requested", fItems}, fieldSpec{"termsHash", fString}), true
	case ActionCancelExchange:
		return newSpec(true, fieldSpec{"exchangeId", fString}, fieldSpec{"exchangeVersion", fPositive}), true
	}
	return actionSpec{}, false
}

// item is one line of Terms: a quantity of one Asset, by assetId.
type item struct {
	AssetID  string `json:"assetId"`
	Quantity int64  `json:"quantity"`
}

// command is a decoded, normalized request: the action's string and number
// fields by name (an action has at most three of one and one of the other),
// both sides of Terms, and the deadline.
type command struct {
	action    string
	mutation  bool
	commandID string
	strs      [4]namedString
	nstrs     int
	nums      [2]namedNumber
	nnums     int
	offered   []item
	requested []item
	hasItems  bool // the action takes offered and requested
	nameNull  bool // tradingName was null
	expiresAt int64
	hasExpiry bool
	// norm is the canonical parsed Command (without caller context), whose
	// digest keys idempotency.
	norm []byte
}

type namedString struct{ name, v string }

type namedNumber struct {
	name string
	v    int64
}

// s returns string field name, or "" when it was absent.
func (c *command) s(name string) string {
	for _, f := range c.strs[:c.nstrs] {
		if f.name == name {
			return f.v
		}
	}
	return ""
}

// n returns number field name and whether it was present.
func (c *command) n(name string) (int64, bool) {
	for _, f := range c.nums[:c.nnums] {
		if f.name == name {
			return f.v, true
		}
	}
	return 0, false
}

func (c *command) setS(name, v string) {
	c.strs[c.nstrs] = namedString{name, v}
	c.nstrs++
}

func (c *command) setN(name string, v int64) {
	c.nums[c.nnums] = namedNumber{name, v}
	c.nnums++
}

func (c *command) setItems(name string, items []item) {
	c.hasItems = true
	if name == "offered" {
		c.offered = items
	} else {
		c.requested = items
	}
}

// decodeRequest parses one request body. It never looks at state: every
// refusal it returns is malformed_request or unsupported_protocol_version.
// A well-formed request takes the one-pass decoder (fastdecode.go); anything
// it is unsure of, every refusal included, takes decodeRequestSlow, the
// reference decoder, so both give the same answer on every body.
func decodeRequest(body []byte) (*command, *refusal) {
	if c, ok := decodeFast(body); ok {
		return c, nil
	}
	return decodeRequestSlow(body)
}

// decodeRequestSlow canonicalizes the body, then decodes it member by
// member. It is the reference decoder and decides every refusal.
func decodeRequestSlow(body []byte) (*command, *refusal) {
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
		if _, ok := spec.field(k); !ok {
			return nil, refuse(CodeMalformedRequest, fmt.Sprintf("unknown field %q for %s", k, action))
		}
	}
	c := &command{action: action, mutation: spec.mutation}
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
	for _, f := range spec.fields[:spec.n] {
		name := f.name
		raw, present := obj[name]
		isNull := present && string(raw) == "null"
		switch kind := f.kind; kind {
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
			c.setS(name, v)
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
			c.setS(name, v)
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
			c.setN(name, v)
			norm[name] = v
		case fItems:
			items, r := decodeItems(name, raw, present)
			if r != nil {
				return nil, r
			}
			c.setItems(name, items)
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
	if c.hasItems && len(c.offered)+len(c.requested) == 0 {
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
