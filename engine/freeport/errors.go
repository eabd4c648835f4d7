package freeport

// Error codes: the protocol's closed set (ERROR_CODES). A refusal carries
// exactly one of these in error.code.
const (
	CodeAuthenticationRequired     = "authentication_required"
	CodeMalformedRequest           = "malformed_request"
	CodeUnsupportedProtocolVersion = "unsupported_protocol_version"
	CodeNotEnrolled                = "not_enrolled"
	CodeUnknownPlayer              = "unknown_player"
	CodeCommandIDReuse             = "command_id_reuse"
	CodeInvalidTradingName         = "invalid_trading_name"
	CodeInsufficientAvailable      = "insufficient_available"
	CodeSelfDealing                = "self_dealing"
	CodeUnknownAsset               = "unknown_asset"
	CodeUnknownExchange            = "unknown_exchange"
	CodeNotAParty                  = "not_a_party"
	CodeNotYourTurn                = "not_your_turn"
	CodeExchangeNotOpen            = "exchange_not_open"
	CodeStaleExchangeVersion       = "stale_exchange_version"
	CodeTermsMismatch              = "terms_mismatch"
)

// ErrorCodes returns the closed set of error codes, sorted.
func ErrorCodes() []string {
	return []string{
		CodeAuthenticationRequired, CodeCommandIDReuse, CodeExchangeNotOpen,
		CodeInsufficientAvailable, CodeInvalidTradingName, CodeMalformedRequest,
		CodeNotAParty, CodeNotEnrolled, CodeNotYourTurn, CodeSelfDealing,
		CodeStaleExchangeVersion, CodeTermsMismatch, CodeUnknownAsset,
		CodeUnknownExchange, CodeUnknownPlayer, CodeUnsupportedProtocolVersion,
	}
}

// refusal is a request refused with a code; it never changes state.
type refusal struct {
	code    string
	message string
}

func refuse(code, message string) *refusal {
	return &refusal{code: code, message: "freeport: " + message}
}
