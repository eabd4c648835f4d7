package wire

import (
	"encoding/json"
	"net/textproto"
)

// Profile is the protocol profile this package speaks.
const Profile = "owp-market-local/0.2"

// ContextInfo is the HPKE info string, and the first line of every context
// AAD.
const ContextInfo = Profile + "/context"

// Capabilities a registration, subscription or round names.
const (
	CapabilityWriting = "writing/brief"
	CapabilityWeather = "weather/current"
)

// Media types of job outputs, and the outer media type of an encrypted
// weather submission.
const (
	MediaPlain     = "text/plain"
	MediaMarkdown  = "text/markdown"
	MediaJSON      = "application/json"
	MediaEncrypted = "application/owp-encrypted+json"
)

// Selection policies, by capability.
const (
	PolicyWriting = "most-facts-first-submission-v1"
	PolicyWeather = "weather-facts-v1"
)

// Units and amounts of the simulated reward.
const (
	CreditUnit   = "TEST_CREDIT"
	RewardAmount = 25
)

// Limits of this profile; ProfileResponse.Limits publishes them.
const (
	MaxRequestBytes      = 32768
	SessionSeconds       = 3600
	ClockSkewSeconds     = 300
	MaxIdentities        = 64
	MaxRounds            = 32
	MaxAssignments       = 32
	MaxReceipts          = 256
	MaxInFlight          = 2
	CandidatesPerRound   = 2
	RoundSeconds         = 120
	GrantSeconds         = 60
	MaxOutputBytes       = 4096
	MaxFieldBytes        = 128
	MaxNameBytes         = 64
	PollIntervalSeconds  = 1
	MaxSubscriptionMedia = 3
)

// Header names of a signed request.
const (
	HeaderProfile   = "OWP-Profile"
	HeaderInstance  = "OWP-Instance-Id"
	HeaderAgent     = "OWP-Agent-Id"
	HeaderSession   = "OWP-Session-Id"
	HeaderTimestamp = "OWP-Timestamp"
	HeaderRequest   = "OWP-Request-Id"
	HeaderSignature = "OWP-Signature"
)

// SignedHeaders lists the seven headers every request but discovery carries,
// exactly once each.
var SignedHeaders = []string{HeaderProfile, HeaderInstance, HeaderAgent, HeaderSession, HeaderTimestamp, HeaderRequest, HeaderSignature}

// SignedHeaderKeys are SignedHeaders, in the same order, as the keys of an
// http.Header (canonical MIME form, e.g. "Owp-Signature"), so that hot
// paths can index a header map without canonicalizing on every request.
var SignedHeaderKeys = func() (keys [7]string) {
	if len(SignedHeaders) != len(keys) {
		panic("wire: the signed headers are not seven")
	}
	for i, h := range SignedHeaders {
		keys[i] = textproto.CanonicalMIMEHeaderKey(h)
	}
	return keys
}()

// NoSession is the OWP-Session-Id of a registration.
const NoSession = "-"

// Routes of the protocol.
const (
	RouteProfile     = "/v1/profile"
	RouteRegister    = "/v1/register"
	RouteRounds      = "/v1/rounds"
	RouteSubscribe   = "/v1/subscribe"
	RouteUnsubscribe = "/v1/unsubscribe"
	RouteMatches     = "/v1/matches"
	RouteSubmit      = "/v1/submit"
	RouteFail        = "/v1/fail"
	RouteEvents      = "/v1/events"
	RoutePolicy      = "/v1/context/policy"
	RouteContext     = "/v1/context/request"
	RouteWeather     = "/v1/context/weather"
	RouteResults     = "/v1/results"
)

// Round states.
const (
	RoundOpen   = "OPEN"
	RoundClosed = "CLOSED"
)

// Subscription states.
const (
	SubscriptionActive       = "ACTIVE"
	SubscriptionUnsubscribed = "UNSUBSCRIBED"
)

// Assignment (match) states.
const (
	MatchMatched        = "MATCHED"
	MatchWaitingContext = "WAITING_CONTEXT"
	MatchSubmitted      = "SUBMITTED"
	MatchSelected       = "SELECTED"
	MatchNotSelected    = "NOT_SELECTED"
	MatchFailed         = "FAILED"
	MatchExpired        = "EXPIRED"
)

// Payment states.
const (
	PaymentPending    = "PENDING_SELECTION"
	PaymentPaid       = "SIMULATED_PAID"
	PaymentNotPayable = "NOT_PAYABLE"
)

// Failure reasons a FailureRequest may give.
const (
	FailureDeclined  = "DECLINED"
	FailureExecution = "EXECUTION_FAILED"
)

// Event types.
const (
	EventRoundCreated   = "round.created"
	EventRoundClosed    = "round.closed"
	EventMatchAssigned  = "match.assigned"
	EventMatchSubmitted = "match.submitted"
	EventMatchFailed    = "match.failed"
	EventMatchExpired   = "match.expired"
	EventNotSelected    = "result.not_selected"
	EventSelected       = "result.selected"
	EventPayment        = "payment.simulated"
	EventContextWaiting = "context.waiting"
	EventContextReady   = "context.ready"
)

// Context policy values.
const (
	LocationHarbor  = "harbor"
	LocationRidge   = "ridge"
	LocationMissing = "missing"
	LocationStale   = "stale"

	ConsentGranted  = "granted"
	ConsentRequired = "required"
	ConsentDenied   = "denied"
	ConsentRevoked  = "revoked"

	ProviderAvailable   = "available"
	ProviderUnavailable = "unavailable"
)

// The one context scope an agent may request.
const (
	ScopeField   = "location.current"
	ScopePurpose = "weather.current"
)

// Schema ids of structured outputs.
const (
	SchemaGardenFacts  = "GardenFacts"
	SchemaWeatherFacts = "WeatherFacts"
)

// Amount is a quantity of simulated test credits.
type Amount struct {
	Amount int    `json:"amount" jsonschema:"whole test credits, 0 or more"`
	Unit   string `json:"unit" jsonschema:"always TEST_CREDIT"`
}

// Limits are the published limits of an instance.
type Limits struct {
	MaxRequestBytes     int `json:"max_request_bytes"`
	SessionSeconds      int `json:"session_seconds"`
	ClockSkewSeconds    int `json:"clock_skew_seconds"`
	MaxIdentities       int `json:"max_identities"`
	MaxRounds           int `json:"max_rounds"`
	MaxAssignments      int `json:"max_assignments_per_identity"`
	MaxReceipts         int `json:"max_receipts_per_session"`
	MaxInFlight         int `json:"max_in_flight"`
	CandidatesPerRound  int `json:"candidates_per_round"`
	RoundSeconds        int `json:"round_seconds"`
	GrantSeconds        int `json:"grant_seconds"`
	MaxOutputBytes      int `json:"max_output_bytes"`
	PollIntervalSeconds int `json:"poll_interval_seconds"`
}

// ProfileLimits are the limits of this profile, as ProfileResponse carries
// them.
func ProfileLimits() Limits {
	return Limits{
		MaxRequestBytes: MaxRequestBytes, SessionSeconds: SessionSeconds, ClockSkewSeconds: ClockSkewSeconds,
		MaxIdentities: MaxIdentities, MaxRounds: MaxRounds, MaxAssignments: MaxAssignments,
		MaxReceipts: MaxReceipts, MaxInFlight: MaxInFlight, CandidatesPerRound: CandidatesPerRound,
		RoundSeconds: RoundSeconds, GrantSeconds: GrantSeconds, MaxOutputBytes: MaxOutputBytes,
		PollIntervalSeconds: PollIntervalSeconds,
	}
}

// ContextKeys are the trusted context adapter's public keys.
type ContextKeys struct {
	EncryptionPublicKey string `json:"encryption_public_key" jsonschema:"65-byte uncompressed P-256 point, standard padded base64"`
	SigningPublicKey    string `json:"signing_public_key" jsonschema:"32-byte Ed25519 public key, standard padded base64"`
}

// ContextDescriptor describes the context channel of an instance.
type ContextDescriptor struct {
	Info string `json:"info"`
	KEM  string `json:"kem"`
	KDF  string `json:"kdf"`
	AEAD string `json:"aead"`
	ContextKeys
}

// ProfileResponse answers GET /v1/profile.
type ProfileResponse struct {
	Profile         string            `json:"profile"`
	InstanceID      string            `json:"instance_id"`
	Limits          Limits            `json:"limits"`
	Capabilities    []string          `json:"capabilities"`
	MediaTypes      []string          `json:"media_types"`
	SelectionPolicy map[string]string `json:"selection_policies"`
	Reward          Amount            `json:"reward"`
	Context         ContextDescriptor `json:"context"`
}

// RegistrationRequest is the body of POST /v1/register.
type RegistrationRequest struct {
	Profile             string `json:"profile"`
	Name                string `json:"name"`
	Version             string `json:"version"`
	Capability          string `json:"capability,omitempty" jsonschema:"writing/brief (the default) or weather/current"`
	PublicKey           string `json:"public_key" jsonschema:"44-byte Ed25519 SPKI DER as 59 unpadded base64url characters"`
	EncryptionPublicKey string `json:"encryption_public_key,omitempty" jsonschema:"65-byte uncompressed P-256 point, standard padded base64"`
}

// Registration answers POST /v1/register.
type Registration struct {
	Profile    string `json:"profile"`
	AgentID    string `json:"agent_id"`
	SessionID  string `json:"session_id"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	Capability string `json:"capability"`
	Encryption bool   `json:"encryption" jsonschema:"whether an encryption_public_key was registered"`
	ExpiresAt  string `json:"expires_at"`
}

// RoundRequest is the body of POST /v1/rounds.
type RoundRequest struct {
	Profile    string `json:"profile"`
	MediaType  string `json:"media_type"`
	Capability string `json:"capability,omitempty"`
}

// GardenFacts are a writing job's fixed public facts, and the data of a
// JSON writing output.
type GardenFacts struct {
	Garden   string `json:"garden"`
	Day      string `json:"day"`
	Activity string `json:"activity"`
}

// WeatherFacts are the data of a JSON weather output.
type WeatherFacts struct {
	Area         string `json:"area"`
	TemperatureC int    `json:"temperature_c"`
	Condition    string `json:"condition"`
	ObservedAt   string `json:"observed_at"`
}

// ContextScope is the one context dependency a weather job has, and the
// plaintext of a context request.
type ContextScope struct {
	Field   string `json:"field"`
	Purpose string `json:"purpose"`
}

// JobInput is a job's input: garden facts for writing, a context
// dependency for weather.
type JobInput struct {
	Facts        *GardenFacts   `json:"facts,omitempty"`
	Dependencies []ContextScope `json:"dependencies,omitempty"`
}

// OutputContract is the immutable shape an assignment's output must have.
type OutputContract struct {
	MediaType string  `json:"media_type"`
	MaxBytes  int     `json:"max_bytes"`
	SchemaID  *string `json:"schema_id"`
}

// Job is a round's fictional work.
type Job struct {
	JobID          string         `json:"job_id"`
	Capability     string         `json:"capability"`
	Instruction    string         `json:"instruction"`
	Input          JobInput       `json:"input"`
	ResultAudience string         `json:"result_audience" jsonschema:"public for writing, private for weather"`
	OutputContract OutputContract `json:"output_contract"`
}

// ContextState is a weather round's context policy as its owner sees it.
type ContextState struct {
	Revision int    `json:"revision"`
	Location string `json:"location"`
	Consent  string `json:"consent"`
	Provider string `json:"provider"`
}

// Round is a round as its owner sees it.
type Round struct {
	RoundID         string        `json:"round_id"`
	State           string        `json:"state"`
	Capability      string        `json:"capability"`
	SelectionPolicy string        `json:"selection_policy"`
	Reward          Amount        `json:"reward"`
	CreatedAt       string        `json:"created_at"`
	Deadline        string        `json:"deadline"`
	Job             Job           `json:"job"`
	Context         *ContextState `json:"context"`
}

// RoundResponse answers POST /v1/rounds.
type RoundResponse struct {
	Profile string `json:"profile"`
	Round   Round  `json:"round"`
}

// SubscriptionRequest is the body of POST /v1/subscribe.
type SubscriptionRequest struct {
	Profile     string   `json:"profile"`
	Capability  string   `json:"capability"`
	MediaTypes  []string `json:"media_types" jsonschema:"one to three distinct output media types"`
	MinReward   Amount   `json:"min_reward"`
	MaxInFlight int      `json:"max_in_flight" jsonschema:"1 or 2"`
	RoundID     *string  `json:"round_id" jsonschema:"a specific OPEN round, or null for every round"`
}

// Subscription is an agent's subscription.
type Subscription struct {
	SubscriptionID string   `json:"subscription_id"`
	State          string   `json:"state"`
	Capability     string   `json:"capability"`
	MediaTypes     []string `json:"media_types"`
	MinReward      Amount   `json:"min_reward"`
	MaxInFlight    int      `json:"max_in_flight"`
	RoundID        *string  `json:"round_id"`
	CreatedAt      string   `json:"created_at"`
}

// SubscriptionResponse answers POST /v1/subscribe and /v1/unsubscribe.
type SubscriptionResponse struct {
	Profile      string       `json:"profile"`
	Subscription Subscription `json:"subscription"`
}

// UnsubscribeRequest is the body of POST /v1/unsubscribe.
type UnsubscribeRequest struct {
	Profile        string `json:"profile"`
	SubscriptionID string `json:"subscription_id"`
}

// Payment is an assignment's simulated payment.
type Payment struct {
	Status    string  `json:"status"`
	Amount    Amount  `json:"amount"`
	ReceiptID *string `json:"receipt_id"`
}

// Match is an assignment as its owner sees it.
type Match struct {
	MatchID        string  `json:"match_id"`
	RoundID        string  `json:"round_id"`
	SubscriptionID string  `json:"subscription_id"`
	AgentID        string  `json:"agent_id"`
	State          string  `json:"state"`
	Job            Job     `json:"job"`
	MatchedAt      string  `json:"matched_at"`
	Deadline       string  `json:"deadline"`
	SubmittedAt    *string `json:"submitted_at"`
	OutputID       *string `json:"output_id" jsonschema:"opaque id of a weather output the context adapter holds"`
	FailureReason  *string `json:"failure_reason"`
	Score          *int    `json:"score" jsonschema:"set when the round closes"`
	Payment        Payment `json:"payment"`
}

// MatchesResponse answers GET /v1/matches.
type MatchesResponse struct {
	Profile string  `json:"profile"`
	Matches []Match `json:"matches"`
}

// MatchResponse answers POST /v1/submit and /v1/fail.
type MatchResponse struct {
	Profile string `json:"profile"`
	Match   Match  `json:"match"`
}

// Content is a plaintext output: text for text/plain and text/markdown,
// data for application/json.
type Content struct {
	MediaType string          `json:"media_type"`
	Text      *string         `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// Box is one HPKE message: the encapsulated key and the ciphertext with
// its tag, both standard padded base64.
type Box struct {
	Enc        string `json:"enc"`
	Ciphertext string `json:"ciphertext"`
}

// EncryptedContent is the content of a weather submission: a sealed
// WeatherSubmission.
type EncryptedContent struct {
	MediaType string `json:"media_type" jsonschema:"application/owp-encrypted+json"`
	Box       Box    `json:"box"`
}

// SubmitRequest is the body of POST /v1/submit; content is a Content for
// writing and an EncryptedContent for weather.
type SubmitRequest struct {
	Profile string          `json:"profile"`
	MatchID string          `json:"match_id"`
	Content json.RawMessage `json:"content" jsonschema:"a Content for writing jobs, an EncryptedContent for weather jobs"`
}

// FailureRequest is the body of POST /v1/fail.
type FailureRequest struct {
	Profile string `json:"profile"`
	MatchID string `json:"match_id"`
	Reason  string `json:"reason" jsonschema:"DECLINED or EXECUTION_FAILED"`
}

// Event is one owned event.
type Event struct {
	Cursor     int      `json:"cursor"`
	Type       string   `json:"type"`
	OccurredAt string   `json:"occurred_at"`
	RoundID    string   `json:"round_id"`
	MatchID    *string  `json:"match_id"`
	Score      *int     `json:"score"`
	Payment    *Payment `json:"payment"`
	Code       *string  `json:"code" jsonschema:"the context code of a context.waiting event"`
}

// EventsResponse answers GET /v1/events.
type EventsResponse struct {
	Profile    string  `json:"profile"`
	Events     []Event `json:"events"`
	NextCursor int     `json:"next_cursor"`
}

// ContextPolicyRequest is the body of POST /v1/context/policy; its box
// seals a ContextPolicy.
type ContextPolicyRequest struct {
	Profile string `json:"profile"`
	RoundID string `json:"round_id"`
	Box     Box    `json:"box"`
}

// ContextRequest is the body of POST /v1/context/request (the box seals a
// ContextScope) and /v1/context/weather (the box seals a WeatherRequest).
type ContextRequest struct {
	Profile string `json:"profile"`
	MatchID string `json:"match_id"`
	Box     Box    `json:"box"`
}

// PrivateResultRequest is the body of POST /v1/results.
type PrivateResultRequest struct {
	Profile string `json:"profile"`
	RoundID string `json:"round_id"`
}

// EncryptedResponse answers every context route and /v1/results: a box
// sealed to the caller's registered key, signed by the context adapter.
type EncryptedResponse struct {
	Profile   string `json:"profile"`
	RequestID string `json:"request_id"`
	Route     string `json:"route"`
	TargetID  string `json:"target_id"`
	Box       Box    `json:"box"`
	Signature string `json:"signature" jsonschema:"Ed25519 over the response AAD, LF, box.enc, LF, box.ciphertext; standard padded base64"`
}

// ContextPolicy is the sealed plaintext of a policy change.
type ContextPolicy struct {
	Location string `json:"location" jsonschema:"harbor, ridge, missing or stale"`
	Consent  string `json:"consent" jsonschema:"granted, required, denied or revoked"`
	Provider string `json:"provider" jsonschema:"available or unavailable"`
}

// ContextPolicyReceipt is the sealed answer to a policy change.
type ContextPolicyReceipt struct {
	RoundID   string `json:"round_id"`
	Revision  int    `json:"revision"`
	Location  string `json:"location"`
	Consent   string `json:"consent"`
	Provider  string `json:"provider"`
	UpdatedAt string `json:"updated_at"`
}

// ContextGrant is the sealed answer to a context request.
type ContextGrant struct {
	GrantID     string `json:"grant_id"`
	MatchID     string `json:"match_id"`
	Field       string `json:"field"`
	Purpose     string `json:"purpose"`
	Revision    int    `json:"revision"`
	IssuedAt    string `json:"issued_at"`
	ExpiresAt   string `json:"expires_at"`
	DerivedOnly bool   `json:"derived_only"`
}

// WeatherRequest is the sealed plaintext of a weather read.
type WeatherRequest struct {
	GrantID string `json:"grant_id"`
}

// WeatherObservation is the sealed answer to a weather read.
type WeatherObservation struct {
	ObservationID    string `json:"observation_id"`
	GrantID          string `json:"grant_id"`
	MatchID          string `json:"match_id"`
	ProviderID       string `json:"provider_id"`
	Area             string `json:"area"`
	TemperatureC     int    `json:"temperature_c"`
	Condition        string `json:"condition"`
	ObservedAt       string `json:"observed_at"`
	LocationRevision int    `json:"location_revision"`
	Synthetic        bool   `json:"synthetic"`
}

// WeatherSubmission is the sealed plaintext of a weather submission.
type WeatherSubmission struct {
	GrantID       string  `json:"grant_id"`
	ObservationID string  `json:"observation_id"`
	Content       Content `json:"content"`
}

// PrivateResult is the sealed answer to POST /v1/results.
type PrivateResult struct {
	RoundID     string             `json:"round_id"`
	MatchID     string             `json:"match_id"`
	OutputID    string             `json:"output_id"`
	AgentID     string             `json:"agent_id"`
	Score       int                `json:"score"`
	Content     Content            `json:"content"`
	Observation WeatherObservation `json:"observation"`
	SubmittedAt string             `json:"submitted_at"`
}

// ErrorBody is the error object of an ErrorResponse.
type ErrorBody struct {
	Code      string `json:"code"`
	Retryable bool   `json:"retryable"`
}

// ErrorResponse is every error answer.
type ErrorResponse struct {
	Profile   string    `json:"profile"`
	RequestID *string   `json:"request_id"`
	Error     ErrorBody `json:"error"`
}
