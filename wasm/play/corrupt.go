//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// ReasonCorruptRecord is the bridge's reason code for a stored session or
// save that cannot be read: corrupt, not unknown. The record is kept until
// the player downloads or deletes it (listCorrupt, exportCorrupt,
// deleteCorrupt).
const ReasonCorruptRecord = "corrupt_record"

// corruptArgs names one stored record.
type corruptArgs struct {
	// Store is "sessions" or "saves".
	Store string `json:"store"`
	ID    string `json:"id"`
}

func opListCorrupt(ctx context.Context, _ json.RawMessage) (any, error) {
	h, err := current()
	if err != nil {
		return nil, err
	}
	recs, err := h.keep.Corrupt(ctx)
	if err != nil {
		return nil, failf(core.ReasonStorageFailure, "storage failed: %v", err)
	}
	return map[string]any{"records": recs}, nil
}

func opExportCorrupt(ctx context.Context, arg json.RawMessage) (any, error) {
	h, a, err := argsOf[corruptArgs](arg)
	if err != nil {
		return nil, err
	}
	recs, err := h.keep.Corrupt(ctx)
	if err != nil {
		return nil, failf(core.ReasonStorageFailure, "storage failed: %v", err)
	}
	for _, r := range recs {
		if r.Store == a.Store && r.ID == a.ID {
			doc, _ := json.Marshal(map[string]any{"format": "storyloom.corrupt-record/1", "store": r.Store, "id": r.ID,
				"problem": r.Message, "stored": json.RawMessage(r.Raw)})
			return map[string]any{"fileName": exportFileName("corrupt", r.ID, ""), "data": string(doc)}, nil
		}
	}
	return nil, failf(core.ReasonUnknownSave, "no corrupt record %q in %q", a.ID, a.Store)
}

func opDeleteCorrupt(ctx context.Context, arg json.RawMessage) (any, error) {
	h, a, err := argsOf[corruptArgs](arg)
	if err != nil {
		return nil, err
	}
	switch err := h.keep.DeleteCorrupt(ctx, a.Store, a.ID); {
	case errors.Is(err, session.ErrConflict):
		return nil, failf(core.ReasonInvalidState, "the record %q reads correctly; delete it as a save instead", a.ID)
	case errors.Is(err, session.ErrNotFound):
		return nil, failf(core.ReasonUnknownSave, "no record %q in %q", a.ID, a.Store)
	case err != nil:
		return nil, failf(core.ReasonStorageFailure, "storage failed: %v", err)
	}
	if a.Store == "saves" {
		h.keep.deleteMeta(slotKey(a.ID))
	}
	return map[string]any{"store": a.Store, "id": a.ID}, nil
}
