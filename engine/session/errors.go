package session

import (
	"errors"
	"fmt"

	"github.com/storyloom/storyloom/engine/core"
)

// Error is a session store failure (§7.2's SessionStoreError): the
// operation that failed, a registered reason code a client switches on and
// renders through the string table, and an English message for logs. Code
// is one of unknown_session, unknown_save, storage_failure,
// concurrent_modification, unknown_campaign, campaign_version_unsupported,
// invalid_state, unknown_kind,
// save_requires_migration, migration_failed, invalid_fork_point and
// malformed_input.
type Error struct {
	// Op is the store operation, e.g. "SubmitAction".
	Op string
	// Code is the reason code.
	Code string
	// Message is the English description, without the "session: " prefix.
	Message string
	// Details are the engine's own refusals behind Code, when there are any.
	Details []core.ValidationError
	// Err is the underlying adapter error, if any; never shown to a client.
	Err error
}

// Error renders the failure as "session: <message>".
func (e *Error) Error() string { return "session: " + e.Message }

// Unwrap returns the adapter error behind a storage failure.
func (e *Error) Unwrap() error { return e.Err }

// ValidationError returns the failure as the client-facing shape: its code,
// the core.reason.<code> message key and its message.
func (e *Error) ValidationError() core.ValidationError {
	v := core.Errorf(e.Code, "", "%s", e.Message)
	if len(e.Details) > 0 {
		v.Path = e.Details[0].Path
	}
	return v
}

// Code returns the reason code of err when it is (or wraps) an *Error, and
// "" otherwise.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func errorf(op, code, format string, args ...any) *Error {
	return &Error{Op: op, Code: code, Message: fmt.Sprintf(format, args...)}
}

// refusal wraps the engine's own validation errors.
func refusal(op string, errs []core.ValidationError) *Error {
	if len(errs) == 0 {
		return errorf(op, core.ReasonInvalidState, "the engine refused without a reason")
	}
	e := errorf(op, errs[0].Code, "%s", errs[0].Error())
	e.Details = errs
	return e
}

// ConflictBrand is the name a record store's conflict error reports (§7.2's
// SessionPersistenceConflict brand).
const ConflictBrand = "SessionPersistenceConflict"

// ErrConflict is the conflict a record store returns, or wraps, when another
// writer committed first: a session put whose revision is not the stored
// one plus one, or a conditional delete whose expectedSavedAt no longer
// matches. The store maps it to concurrent_modification.
var ErrConflict error = conflictError{}

// ErrNotFound is what RecordStore.DeleteSave returns, or wraps, when there
// is no such save.
var ErrNotFound = errors.New("session: no such record")

type conflictError struct{}

func (conflictError) Error() string { return "session: " + ConflictBrand }
func (conflictError) Name() string  { return ConflictBrand }

// IsConflict reports whether err is a record store's conflict: it is, or
// wraps, ErrConflict or any error whose Name method returns ConflictBrand.
// The brand is matched by name, not by identity, so an adapter built
// against a copy of this package still signals it.
func IsConflict(err error) bool {
	if errors.Is(err, ErrConflict) {
		return true
	}
	var named interface{ Name() string }
	return errors.As(err, &named) && named.Name() == ConflictBrand
}

// storageError maps an adapter error: a conflict is
// concurrent_modification, anything else storage_failure.
func storageError(op string, err error) *Error {
	if IsConflict(err) {
		return &Error{Op: op, Code: core.ReasonConcurrentModification, Message: "the record changed elsewhere; re-read and retry", Err: err}
	}
	return &Error{Op: op, Code: core.ReasonStorageFailure, Message: "storage failed: " + err.Error(), Err: err}
}

// versionGone is the refusal of a session that names campaignID at a
// version the engine does not hold: campaign_version_unsupported when the
// host kept that version but this build cannot run it (§4, §12), else
// unknown_campaign.
func (s *Store) versionGone(op, campaignID, version string) *Error {
	if s.unsupported != nil && s.unsupported(campaignID, version) {
		return errorf(op, core.ReasonCampaignVersionUnsupported, "campaign %q version %s was kept, but this build cannot run it", campaignID, version)
	}
	return errorf(op, core.ReasonUnknownCampaign, "campaign %q version %q is no longer available", campaignID, version)
}

// stateRefused wraps the engine's refusal of a stored game's state,
// answering a version that is gone as versionGone does.
func (s *Store) stateRefused(op string, errs []core.ValidationError) *Error {
	if len(errs) > 0 && errs[0].Code == core.ReasonUnknownCampaign {
		id, _ := errs[0].Details["campaignId"].(string)
		version, _ := errs[0].Details["campaignVersion"].(string)
		if id != "" {
			return s.versionGone(op, id, version)
		}
	}
	return refusal(op, errs)
}
