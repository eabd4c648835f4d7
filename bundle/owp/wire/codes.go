package wire

import "net/http"

// Error codes a server answers with.
const (
	CodeInvalidRequest      = "INVALID_REQUEST"
	CodeUnsupportedProfile  = "UNSUPPORTED_PROFILE"
	CodeEncryptionRequired  = "ENCRYPTION_REQUIRED"
	CodeInvalidContext      = "INVALID_CONTEXT"
	CodeAuthRequired        = "AUTH_REQUIRED"
	CodeInvalidSignature    = "INVALID_SIGNATURE"
	CodeClockSkew           = "CLOCK_SKEW"
	CodeUnknownSession      = "UNKNOWN_SESSION"
	CodeSessionExpired      = "SESSION_EXPIRED"
	CodeForbidden           = "FORBIDDEN"
	CodeScopeDenied         = "SCOPE_DENIED"
	CodeConsentDenied       = "CONSENT_DENIED"
	CodeGrantRevoked        = "GRANT_REVOKED"
	CodeGrantExpired        = "GRANT_EXPIRED"
	CodeNotFound            = "NOT_FOUND"
	CodeMethodNotAllowed    = "METHOD_NOT_ALLOWED"
	CodeInstanceChanged     = "INSTANCE_CHANGED"
	CodeRegistrationExists  = "REGISTRATION_EXISTS"
	CodeIdempotencyConflict = "IDEMPOTENCY_CONFLICT"
	CodeInvalidState        = "INVALID_STATE"
	CodeRoundClosed         = "ROUND_CLOSED"
	CodeConsentRequired     = "CONSENT_REQUIRED"
	CodeLocationMissing     = "LOCATION_MISSING"
	CodeLocationStale       = "LOCATION_STALE"
	CodeContextChanged      = "CONTEXT_CHANGED"
	CodeResultNotReady      = "RESULT_NOT_READY"
	CodePayloadTooLarge     = "PAYLOAD_TOO_LARGE"
	CodeInvalidOutput       = "INVALID_OUTPUT"
	CodeFormatMismatch      = "FORMAT_MISMATCH"
	CodeCapacityReached     = "CAPACITY_REACHED"
	CodeInternalError       = "INTERNAL_ERROR"
	CodeContextUnavailable  = "CONTEXT_UNAVAILABLE"
	CodeProviderUnavailable = "PROVIDER_UNAVAILABLE"
)

// Client-only codes, which the Go client reports and no server sends.
const (
	CodeLoopbackRequired        = "LOOPBACK_REQUIRED"
	CodeDiscoveryFailed         = "DISCOVERY_FAILED"
	CodeResponseInvalid         = "RESPONSE_INVALID"
	CodeResponseBindingFailed   = "RESPONSE_BINDING_FAILED"
	CodeAssignmentBindingFailed = "ASSIGNMENT_BINDING_FAILED"
	CodeOutcomeUnknown          = "OUTCOME_UNKNOWN"
	CodeInvalidArgument         = "INVALID_ARGUMENT"
	CodeMatchMissing            = "MATCH_MISSING"
)

// statuses maps every server code to its HTTP status.
var statuses = map[string]int{
	CodeInvalidRequest: http.StatusBadRequest, CodeUnsupportedProfile: http.StatusBadRequest,
	CodeEncryptionRequired: http.StatusBadRequest, CodeInvalidContext: http.StatusBadRequest,
	CodeAuthRequired: http.StatusUnauthorized, CodeInvalidSignature: http.StatusUnauthorized,
	CodeClockSkew: http.StatusUnauthorized, CodeUnknownSession: http.StatusUnauthorized,
	CodeSessionExpired: http.StatusUnauthorized,
	CodeForbidden:      http.StatusForbidden, CodeScopeDenied: http.StatusForbidden,
	CodeConsentDenied: http.StatusForbidden, CodeGrantRevoked: http.StatusForbidden,
	CodeGrantExpired: http.StatusForbidden,
	CodeNotFound:     http.StatusNotFound, CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	CodeInstanceChanged: http.StatusConflict, CodeRegistrationExists: http.StatusConflict,
	CodeIdempotencyConflict: http.StatusConflict, CodeInvalidState: http.StatusConflict,
	CodeRoundClosed: http.StatusConflict, CodeConsentRequired: http.StatusConflict,
	CodeLocationMissing: http.StatusConflict, CodeLocationStale: http.StatusConflict,
	CodeContextChanged: http.StatusConflict, CodeResultNotReady: http.StatusConflict,
	CodePayloadTooLarge: http.StatusRequestEntityTooLarge,
	CodeInvalidOutput:   http.StatusUnprocessableEntity, CodeFormatMismatch: http.StatusUnprocessableEntity,
	CodeCapacityReached:    http.StatusTooManyRequests,
	CodeInternalError:      http.StatusInternalServerError,
	CodeContextUnavailable: http.StatusServiceUnavailable, CodeProviderUnavailable: http.StatusServiceUnavailable,
}

// Status is the HTTP status of a server error code, or 0 for a code no
// server sends.
func Status(code string) int { return statuses[code] }

// ServerCodes lists every code a server may answer with.
func ServerCodes() []string {
	out := make([]string, 0, len(statuses))
	for c := range statuses {
		out = append(out, c)
	}
	return out
}

// ContextWaiting reports whether code is an expected context failure: one
// that moves an assignment to WAITING_CONTEXT when a context request or a
// weather read meets it, and that the owner can resolve.
func ContextWaiting(code string) bool {
	switch code {
	case CodeConsentRequired, CodeConsentDenied, CodeGrantRevoked, CodeGrantExpired,
		CodeLocationMissing, CodeLocationStale, CodeContextChanged,
		CodeContextUnavailable, CodeProviderUnavailable:
		return true
	}
	return false
}
