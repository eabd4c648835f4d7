package wire

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
)

// Request carries the fields the signing string binds.
type Request struct {
	Method     string // GET or POST
	PathQuery  string // the path and, when present, "?" and the exact query bytes
	InstanceID string
	AgentID    string
	SessionID  string // "-" for a registration
	Timestamp  int64  // Unix seconds
	RequestID  string
	Body       []byte // exact body bytes; empty for GET
}

// SigningString is the message an agent signs with Ed25519: nine lines
// joined by LF, no trailing LF. Line 1 is the profile; then the method, the
// path with its exact query, the instance id, the agent id, the session id,
// the timestamp in decimal, the request id, and the lowercase hex SHA-256
// of the exact body bytes (of zero bytes for GET).
func SigningString(r Request) []byte {
	sum := sha256.Sum256(r.Body)
	out := make([]byte, 0, len(Profile)+len(r.Method)+len(r.PathQuery)+len(r.InstanceID)+len(r.AgentID)+
		len(r.SessionID)+20+len(r.RequestID)+2*len(sum)+8)
	for _, line := range [...]string{Profile, r.Method, r.PathQuery, r.InstanceID, r.AgentID, r.SessionID} {
		out = append(append(out, line...), '\n')
	}
	out = append(strconv.AppendInt(out, r.Timestamp, 10), '\n')
	out = append(append(out, r.RequestID...), '\n')
	return hex.AppendEncode(out, sum[:])
}

// AgentID derives an agent id from the SPKI DER bytes of its Ed25519 key:
// "agent_" and the first 24 lowercase hex characters of their SHA-256.
func AgentID(spki []byte) string {
	sum := sha256.Sum256(spki)
	return "agent_" + hex.EncodeToString(sum[:])[:24]
}

// Directions of a context message.
const (
	DirectionRequest  = "request"
	DirectionResponse = "response"
)

// Binding is what a context AAD binds.
type Binding struct {
	Direction  string // DirectionRequest or DirectionResponse
	Route      string // e.g. /v1/context/weather
	InstanceID string
	AgentID    string // the caller
	SessionID  string // the caller's session
	RequestID  string
	TargetID   string // the match id, or the round id for policy and results
}

// AAD is the HPKE associated data of a context message: eight lines joined
// by LF, no trailing LF. Line 1 is ContextInfo; then the direction, the
// route, the instance id, the agent id, the session id, the request id and
// the target id.
func AAD(b Binding) []byte {
	return []byte(strings.Join([]string{
		ContextInfo, b.Direction, b.Route, b.InstanceID, b.AgentID, b.SessionID, b.RequestID, b.TargetID,
	}, "\n"))
}

// ResponseSigningInput is what the context adapter signs for an encrypted
// response: the response AAD, LF, box.enc as sent, LF, box.ciphertext as
// sent, with no trailing LF.
func ResponseSigningInput(aad []byte, box Box) []byte {
	out := make([]byte, 0, len(aad)+len(box.Enc)+len(box.Ciphertext)+2)
	out = append(out, aad...)
	out = append(out, '\n')
	out = append(out, box.Enc...)
	out = append(out, '\n')
	return append(out, box.Ciphertext...)
}

// Header encoding: unpadded base64url, strict. Context encoding: standard
// padded base64, strict.
var (
	HeaderEncoding  = base64.RawURLEncoding.Strict()
	ContextEncoding = base64.StdEncoding.Strict()
)

// ValidUUID reports whether s is a UUID in lowercase canonical form.
func ValidUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// ValidAgentID reports whether s has the form of an agent id.
func ValidAgentID(s string) bool {
	rest, ok := strings.CutPrefix(s, "agent_")
	if !ok || len(rest) != 24 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
