package core

import (
	"fmt"
	"sort"
	"strings"
)

// LocKey is a key into a string table: stable, additive, never renamed.
type LocKey = string

// Reason codes of the base set (§12). Kinds add their own through
// Kind.ReasonCodes; a code is additive and never renamed.
const (
	ReasonActionNotAvailable = "action_not_available"
	ReasonUnknownAction      = "unknown_action"
	ReasonRequirementUnmet   = "requirement_unmet"
	ReasonSessionEnded       = "session_ended"
	ReasonReadOnlyField      = "read_only_field"
	ReasonCheckSucceeded     = "check_succeeded"
	ReasonCheckFailed        = "check_failed"

	ReasonUnknownCampaign = "unknown_campaign"
	ReasonUnknownKind     = "unknown_kind"
	ReasonInvalidState    = "invalid_state"

	ReasonStringConflict      = "string_conflict"
	ReasonProtectedStringKey  = "protected_string_key"
	ReasonDuplicateCampaignID = "duplicate_campaign_id"

	ReasonInvalidIdentifier         = "invalid_identifier"
	ReasonInvalidLocKey             = "invalid_loc_key"
	ReasonMissingStringKey          = "missing_string_key"
	ReasonMissingKindReasonMessage  = "missing_kind_reason_message"
	ReasonProfileMissing            = "profile_missing"
	ReasonProfileCorrupt            = "profile_corrupt"
	ReasonProfileWriteFailed        = "profile_write_failed"
	ReasonProfileKindDataUnreadable = "profile_kind_data_unreadable"
	ReasonProfileKindDataRejected   = "profile_kind_data_rejected"

	ReasonSaveRequiresMigration = "save_requires_migration"
	ReasonMigrationFailed       = "migration_failed"

	ReasonUnknownSession         = "unknown_session"
	ReasonUnknownSave            = "unknown_save"
	ReasonStorageFailure         = "storage_failure"
	ReasonConcurrentModification = "concurrent_modification"
	ReasonInvalidForkPoint       = "invalid_fork_point"
	ReasonAchievementUnlocked    = "achievement_unlocked"

	ReasonPackKindMismatch              = "pack_kind_mismatch"
	ReasonDuplicateCampaignIDInPack     = "duplicate_campaign_id_in_pack"
	ReasonPackDependencyMissing         = "pack_dependency_missing"
	ReasonPackDependencyVersionConflict = "pack_dependency_version_conflict"
	ReasonPackDependencyCycle           = "pack_dependency_cycle"
	ReasonPackOverrideUnexpected        = "pack_override_unexpected"

	ReasonIncludeMissing         = "include_missing"
	ReasonIncludeVersionMismatch = "include_version_mismatch"
	ReasonIncludeKindMismatch    = "include_kind_mismatch"
	ReasonIncludeCycle           = "include_cycle"
	ReasonIncludeAliasCollision  = "include_alias_collision"
	ReasonAttachmentHostMissing  = "attachment_host_missing"
	ReasonComposeUnsupported     = "compose_unsupported"

	ReasonContentVersionConflict = "content_version_conflict"
	ReasonContentKindChanged     = "content_kind_changed"
	ReasonContentNotAdoptable    = "content_not_adoptable"
	ReasonContentIncompatible    = "content_incompatible"

	ReasonContentProvenanceMissing   = "content_provenance_missing"
	ReasonHistoricalStringCollision  = "historical_string_collision"
	ReasonEpochUnsupported           = "epoch_unsupported"
	ReasonCampaignVersionUnsupported = "campaign_version_unsupported"
)

// Storyloom's own additions to the base set, each for a failure a real caller
// produces and no base code fits.
const (
	// ReasonMalformedInput: bytes that are not the expected document at all
	// (not JSON, truncated, an unknown field).
	ReasonMalformedInput = "malformed_input"
	// ReasonUnsupportedVersion: a format version this build does not read.
	ReasonUnsupportedVersion = "unsupported_version"
	// ReasonInputTooLarge: a document over the size the operation accepts.
	ReasonInputTooLarge = "input_too_large"
	// ReasonInvalidParams: action parameters that are not a flat record of
	// strings, numbers and booleans.
	ReasonInvalidParams = "invalid_params"
	// ReasonInternal: a defect caught at a host boundary (a recovered panic).
	ReasonInternal = "internal_error"
	// ReasonUnreachableContent and the codes below are validation findings.
	ReasonUnreachableContent = "unreachable_content"
	ReasonUnreachableEnding  = "unreachable_ending"
	ReasonDeadEnd            = "dead_end"
	ReasonUnwinnableState    = "unwinnable_state"
	ReasonSearchBounded      = "search_bounded"
	ReasonNoReachableChoice  = "no_reachable_choice"
	ReasonMissingTranslation = "missing_translation"
	// ReasonInvalidPlural: a plural in a string table (the default one or
	// a translation) is malformed, has a case its language never picks,
	// or counts something the default text does not show.
	ReasonInvalidPlural = "invalid_plural"
	// ReasonFactUnsupported: a path reaches content without a fact the
	// content declares it relies on.
	ReasonFactUnsupported = "fact_unsupported"
	// ReasonMigrationUnsupported: a campaign declares a migration its kind
	// cannot apply.
	ReasonMigrationUnsupported = "migration_unsupported"
)

// baseMessages is the core catalog: a default-English message for every base
// code, shipped under core.reason.<code>.
var baseMessages = map[string]string{
	ReasonActionNotAvailable:            "That action is not available right now.",
	ReasonUnknownAction:                 "There is no such action here.",
	ReasonRequirementUnmet:              "You do not meet the requirements for that.",
	ReasonSessionEnded:                  "This game has ended.",
	ReasonReadOnlyField:                 "That value cannot be changed.",
	ReasonCheckSucceeded:                "The check succeeded.",
	ReasonCheckFailed:                   "The check failed.",
	ReasonUnknownCampaign:               "That campaign, or that version of it, is not available.",
	ReasonUnknownKind:                   "This game is of a kind this build cannot play.",
	ReasonInvalidState:                  "The game data is not valid.",
	ReasonStringConflict:                "One string key was given two different texts.",
	ReasonProtectedStringKey:            "That string key is reserved by the engine.",
	ReasonDuplicateCampaignID:           "Two campaigns share one id.",
	ReasonInvalidIdentifier:             "An identifier has the wrong shape.",
	ReasonInvalidLocKey:                 "A string key has the wrong shape.",
	ReasonMissingStringKey:              "A string key has no text.",
	ReasonMissingKindReasonMessage:      "A reason code has no message.",
	ReasonProfileMissing:                "No saved profile was found; starting a new one.",
	ReasonProfileCorrupt:                "The saved profile could not be read; starting a new one.",
	ReasonProfileWriteFailed:            "Your progress could not be saved to your profile.",
	ReasonProfileKindDataUnreadable:     "Some saved progress could not be read by this version.",
	ReasonProfileKindDataRejected:       "Some progress could not be recorded in your profile.",
	ReasonSaveRequiresMigration:         "This save was made by a version that this build cannot convert.",
	ReasonMigrationFailed:               "This save could not be converted to the current version.",
	ReasonUnknownSession:                "That game session does not exist.",
	ReasonUnknownSave:                   "That save does not exist.",
	ReasonStorageFailure:                "The game could not be saved to storage.",
	ReasonConcurrentModification:        "This game changed elsewhere; refresh and try again.",
	ReasonInvalidForkPoint:              "There is no such point in this game's history.",
	ReasonAchievementUnlocked:           "Achievement unlocked.",
	ReasonPackKindMismatch:              "A content pack is of another kind.",
	ReasonDuplicateCampaignIDInPack:     "A content pack holds one campaign id twice.",
	ReasonPackDependencyMissing:         "A content pack needs a pack that is missing.",
	ReasonPackDependencyVersionConflict: "Content packs need different versions of one pack.",
	ReasonPackDependencyCycle:           "Content packs depend on each other in a cycle.",
	ReasonPackOverrideUnexpected:        "A content pack overrides content unexpectedly.",
	ReasonIncludeMissing:                "An included campaign is missing.",
	ReasonIncludeVersionMismatch:        "An included campaign has another version than the one pinned.",
	ReasonIncludeKindMismatch:           "An included campaign is of another kind.",
	ReasonIncludeCycle:                  "Campaigns include each other in a cycle.",
	ReasonIncludeAliasCollision:         "Two includes share one alias.",
	ReasonAttachmentHostMissing:         "An attachment names a campaign that is missing.",
	ReasonComposeUnsupported:            "This kind of campaign cannot include other campaigns.",
	ReasonContentVersionConflict:        "This campaign version was already published with other content.",
	ReasonContentKindChanged:            "The new version of this campaign is of another kind.",
	ReasonContentNotAdoptable:           "This game cannot move to the new version of its campaign.",
	ReasonContentIncompatible:           "The new version of the campaign is incompatible with this game.",
	ReasonContentProvenanceMissing:      "Content without provenance cannot be published.",
	ReasonHistoricalStringCollision:     "An older campaign uses a string key the engine now reserves.",
	ReasonEpochUnsupported:              "This version of the campaign is no longer supported.",
	ReasonCampaignVersionUnsupported:    "That version of the campaign is not supported.",
	ReasonMalformedInput:                "The data is malformed.",
	ReasonUnsupportedVersion:            "The data was written in a format version this build does not read.",
	ReasonInputTooLarge:                 "The data is too large.",
	ReasonInvalidParams:                 "The action's parameters are not valid.",
	ReasonInternal:                      "Something went wrong inside the engine.",
	ReasonUnreachableContent:            "No path reaches this content.",
	ReasonUnreachableEnding:             "No path reaches this ending.",
	ReasonDeadEnd:                       "The player can get stuck here with nothing to do.",
	ReasonUnwinnableState:               "From here no ending can be reached.",
	ReasonSearchBounded:                 "The reachability search hit its budget; the result is not a proof.",
	ReasonNoReachableChoice:             "The campaign ends before the player makes any choice.",
	ReasonMissingTranslation:            "A translation lacks some strings; they show in the default language.",
	ReasonInvalidPlural:                 "A plural in a text or a translation is malformed, has a case its language never uses, or counts something the text does not show.",
	ReasonFactUnsupported:               "A path reaches this text without a fact the text relies on.",
	ReasonMigrationUnsupported:          "This kind of campaign cannot declare a migration.",
}

// BaseReasonCodes returns every base reason code, sorted.
func BaseReasonCodes() []string {
	codes := make([]string, 0, len(baseMessages))
	for c := range baseMessages {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

// CoreReasonKey is the LocKey of a base reason code's message.
func CoreReasonKey(code string) LocKey { return "core.reason." + code }

// KindReasonKey is the LocKey of a kind-owned reason code's message:
// "<kindId>.reason.<code>".
func KindReasonKey(kindID, code string) LocKey { return kindID + ".reason." + code }

// KindReasonMessages builds what a kind's ReasonMessages returns: a
// "<kindId>.reason.<code>" key for every code of reasons with its text, and
// every entry of each of extra (the kind's other engine-owned keys) as it
// is. A later table wins over an earlier one on the same key.
func KindReasonMessages(kindID string, reasons map[string]string, extra ...map[LocKey]string) map[LocKey]string {
	n := len(reasons)
	for _, e := range extra {
		n += len(e)
	}
	m := make(map[LocKey]string, n)
	for code, text := range reasons {
		m[KindReasonKey(kindID, code)] = text
	}
	for _, e := range extra {
		for k, text := range e {
			m[k] = text
		}
	}
	return m
}

// Keys of the notices a session store gives a player when content changed
// under a game at resume or load (docs/session-store.md). Each takes the
// params from and to, the versions involved.
const (
	// NoticeContentAdopted: the game moved onto the campaign's new version.
	NoticeContentAdopted LocKey = "core.notice.content_adopted"
	// NoticeContentMigrated: a save was carried over to a new version by
	// the campaign's declared migration.
	NoticeContentMigrated LocKey = "core.notice.content_migrated"
	// NoticeContentKept: the new version cannot take the game over, so it
	// goes on playing the version it was on.
	NoticeContentKept LocKey = "core.notice.content_kept"
)

// noticeMessages is the core catalog's notices, beside the reason codes'
// messages.
var noticeMessages = map[LocKey]string{
	NoticeContentAdopted:  "The campaign was updated: this game now plays version {to} (it was on {from}).",
	NoticeContentMigrated: "This save was made with version {from}; it was carried over to version {to}.",
	NoticeContentKept:     "Version {to} of the campaign cannot take this game over, so it goes on playing version {from}.",
}

// CoreMessages returns the core catalog: core.reason.<code> → English
// text, and the core.notice.* keys.
func CoreMessages() map[LocKey]string {
	m := make(map[LocKey]string, len(baseMessages)+len(noticeMessages))
	for c, text := range baseMessages {
		m[CoreReasonKey(c)] = text
	}
	for k, text := range noticeMessages {
		m[k] = text
	}
	return m
}

// ValidationError is a reason a command or a piece of content was refused
// (§11, §12): a stable code a client switches on, the LocKey of its message,
// where it is, details, and an English message for logs and authors' tools.
// It implements error.
type ValidationError struct {
	Code       string         `json:"code"`
	MessageKey LocKey         `json:"messageKey"`
	Path       string         `json:"path,omitempty"`
	Details    map[string]any `json:"details,omitempty"`
	Message    string         `json:"message,omitempty"`
}

// ValidationWarning has the shape of ValidationError and does not refuse.
type ValidationWarning = ValidationError

// Error renders the error for logs: "code at path: message".
func (e ValidationError) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	if e.Path != "" {
		b.WriteString(" at ")
		b.WriteString(e.Path)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Errorf builds a ValidationError for a base code, its message key
// core.reason.<code>, and an English message formatted from format and args.
func Errorf(code, path, format string, args ...any) ValidationError {
	return ValidationError{Code: code, MessageKey: CoreReasonKey(code), Path: path, Message: fmt.Sprintf(format, args...)}
}

// KindErrorf builds a ValidationError for a kind-owned code.
func KindErrorf(kindID, code, path, format string, args ...any) ValidationError {
	return ValidationError{Code: code, MessageKey: KindReasonKey(kindID, code), Path: path, Message: fmt.Sprintf(format, args...)}
}

// Result is a command's result (§12's CommandResult): Value is set iff OK.
type Result[T any] struct {
	OK       bool                `json:"ok"`
	Value    T                   `json:"value,omitempty"`
	Errors   []ValidationError   `json:"errors"`
	Warnings []ValidationWarning `json:"warnings"`
}

// Fail returns a failed Result carrying errs.
func Fail[T any](errs ...ValidationError) Result[T] {
	return Result[T]{Errors: errs}
}

// Succeed returns a successful Result carrying v.
func Succeed[T any](v T) Result[T] {
	return Result[T]{OK: true, Value: v}
}

// StateChange is an audit record of what an action changed (§12): a path
// that names the changed thing as a Condition would read it, how, the new and
// previous values, why, and whether a client may see it.
type StateChange struct {
	Path     string `json:"path"`
	Op       string `json:"op"` // "set", "increment" or "decrement"
	Value    any    `json:"value"`
	Previous any    `json:"previous,omitempty"`
	Reason   string `json:"reason"`
	Visible  bool   `json:"visible"`
}

// Tones of an OutcomeMessage.
const (
	ToneNeutral  = "neutral"
	TonePositive = "positive"
	ToneNegative = "negative"
	ToneAbsurd   = "absurd"
)

// OutcomeMessage is a player-facing message (§12), rendered by the client
// from its key and params through the string table.
type OutcomeMessage struct {
	Key     LocKey         `json:"key"`
	Params  map[string]any `json:"params,omitempty"`
	Tone    string         `json:"tone,omitempty"`
	Visible bool           `json:"visible"`
}

// ActionResult is the result of SubmitAction and PreviewAction: the new
// envelope on success, with the action's audit records and messages.
type ActionResult struct {
	Result[*GameState]
	Changes  []StateChange    `json:"changes"`
	Messages []OutcomeMessage `json:"messages"`
}

// rejected builds a failed ActionResult with the message convention of §3: a
// rejection also returns one visible OutcomeMessage with the error's key.
func rejected(err ValidationError) ActionResult {
	return ActionResult{
		Result:   Fail[*GameState](err),
		Messages: []OutcomeMessage{{Key: err.MessageKey, Visible: true, Tone: ToneNegative}},
	}
}
