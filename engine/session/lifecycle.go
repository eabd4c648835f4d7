package session

import (
	"context"
	"errors"
	"sort"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
)

// SaveSummary is one entry of a save list (§7.4): metadata only, never a
// blob, an envelope or any content.
type SaveSummary struct {
	SaveID     string `json:"saveId"`
	CampaignID string `json:"campaignId"`
	SavedAt    string `json:"savedAt"`
	SavedAtSeq int    `json:"savedAtSeq"`
}

// ListSaves returns every save of profileID, newest first, ties broken by
// save id ascending (§7.4, L1–L3). An unknown profile lists nothing.
func (s *Store) ListSaves(ctx context.Context, profileID string) ([]SaveSummary, error) {
	const op = "ListSaves"
	out := []SaveSummary{}
	if profileID == "" {
		return out, nil
	}
	recs, err := s.records.ListSaves(ctx, profileID)
	if err != nil {
		return nil, storageError(op, err)
	}
	for _, r := range recs {
		if r.ProfileID != profileID {
			continue
		}
		out = append(out, SaveSummary{SaveID: r.SaveID, CampaignID: r.CampaignID, SavedAt: r.SavedAt, SavedAtSeq: r.SavedAtSeq})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].SavedAt != out[j].SavedAt {
			return out[i].SavedAt > out[j].SavedAt
		}
		return out[i].SaveID < out[j].SaveID
	})
	return out, nil
}

// DeleteSave removes a save of profileID while its stamp still equals
// expectedSavedAt (§7.4, D1–D3). Another profile's save reads exactly as a
// missing one, unknown_save; a stale stamp is concurrent_modification; on
// any failure nothing is removed.
func (s *Store) DeleteSave(ctx context.Context, profileID, saveID, expectedSavedAt string) error {
	const op = "DeleteSave"
	unlock := s.saveLocks.lock(saveID)
	defer unlock()
	rec, ok, err := s.records.GetSave(ctx, saveID)
	if err != nil {
		return storageError(op, err)
	}
	if !ok || rec.ProfileID != profileID {
		return errorf(op, core.ReasonUnknownSave, "unknown save %q", saveID)
	}
	if rec.SavedAt != expectedSavedAt {
		return errorf(op, core.ReasonConcurrentModification, "save %q changed since it was listed", saveID)
	}
	if err := s.records.DeleteSave(ctx, saveID, expectedSavedAt); err != nil {
		if errors.Is(err, ErrNotFound) {
			return errorf(op, core.ReasonUnknownSave, "unknown save %q", saveID)
		}
		return storageError(op, err)
	}
	return nil
}

// BranchSession starts a new session from the first atActionCount log
// entries of another (§7.4): the prefix is replayed from the source's
// starting epoch and recorded initialization, keeping its game id, and
// the branch then passes its adoption point. The source is only read.
func (s *Store) BranchSession(ctx context.Context, sessionID string, atActionCount int) (SessionHandle, error) {
	const op = "BranchSession"
	c, unlock, err := s.lockedSession(ctx, op, sessionID)
	if err != nil {
		return SessionHandle{}, err
	}
	src := c
	unlock()
	if atActionCount < 0 || atActionCount > src.state.ActionLog.Len() {
		return SessionHandle{}, errorf(op, core.ReasonInvalidForkPoint, "session %q has no point %d; its log holds %d entries", sessionID, atActionCount, src.state.ActionLog.Len())
	}
	st, err := s.replay(op, src, atActionCount)
	if err != nil {
		return SessionHandle{}, err
	}
	id := s.ids.NewSessionID()
	unlockNew := s.sessionLocks.lock(id)
	defer unlockNew()
	st, _ = s.adopt(st, id, src.rec.ProfileID)
	now := s.clock.Now()
	rec := SessionRecord{
		SessionID: id, Audience: src.rec.Audience, ReplayCompatible: true, CreatedAt: now, UpdatedAt: now,
		ProfileID: src.rec.ProfileID, Initialization: src.rec.Initialization.clone(),
	}
	nc, err := s.write(ctx, op, rec, st, nil, nil, nil)
	if err != nil {
		return SessionHandle{}, err
	}
	sc, err := s.scene(op, nc.state, nc.rec.Audience)
	if err != nil {
		return SessionHandle{}, err
	}
	return SessionHandle{SessionID: id, Scene: sc}, nil
}

// admit applies the gates branchSession and captureSession share and
// returns the replay's creation config.
func (s *Store) admit(op string, src *cached) (core.NewGameConfig, *Error) {
	st := src.state
	if !src.rec.ReplayCompatible || st.ActionLog.HasMigration() {
		return core.NewGameConfig{}, errorf(op, core.ReasonInvalidState, "session %q passed through a migrated load and cannot be replayed", src.rec.SessionID)
	}
	cfg := core.NewGameConfig{CampaignID: st.CampaignID, Seed: st.Seed}
	if src.rec.Initialization == nil {
		if _, profiled := s.engine.Kind(st.KindID).(core.ProfileKind); profiled && src.rec.ProfileID != "" {
			return core.NewGameConfig{}, errorf(op, core.ReasonInvalidState, "session %q predates recorded initialization; its creation input is lost", src.rec.SessionID)
		}
	} else {
		cfg.KindProfileData = cloneBytes(src.rec.Initialization.KindProfileData)
	}
	return cfg, nil
}

// replay rebuilds src's game from its starting epoch through the first n
// log entries, with its game id pinned (§7.4).
func (s *Store) replay(op string, src *cached, n int) (*core.GameState, *Error) {
	cfg, err := s.admit(op, src)
	if err != nil {
		return nil, err
	}
	full := src.state
	start := core.StartingVersion(full)
	if !s.holds(full.CampaignID, start) {
		return nil, s.versionGone(op, full.CampaignID, start)
	}
	for i := 0; i < n; i++ {
		if e, ok := full.ActionLog.At(i).(core.LoggedContent); ok && !s.holds(full.CampaignID, e.To) {
			return nil, s.versionGone(op, full.CampaignID, e.To)
		}
	}
	// The game id is an input to the envelope, not derived from anything:
	// a replay pins it to the original (§7.4).
	created := s.quiet.WithIDs(core.FixedIDs{GameID: full.GameID, Seed: full.Seed}).CreateGame(cfg, start)
	if !created.OK {
		return nil, refusal(op, created.Errors)
	}
	st := created.Value
	for i := 0; i < n; i++ {
		switch e := full.ActionLog.At(i).(type) {
		case core.LoggedAction:
			res := s.quiet.SubmitAction(st, e.ActionID, e.Params)
			if !res.OK {
				r := errorf(op, core.ReasonInvalidState, "entry %d (%q) no longer replays", i, e.ActionID)
				r.Details = res.Errors
				return nil, r
			}
			st = res.Value
		case core.LoggedContent:
			res := s.quiet.AdoptContent(st, e.To)
			if !res.Adopted || res.State.CampaignVersion != e.To {
				return nil, errorf(op, core.ReasonInvalidState, "entry %d (adoption of %q) no longer adopts: %s", i, e.To, res.Reason)
			}
			st = res.State
		default:
			return nil, errorf(op, core.ReasonInvalidState, "entry %d cannot be replayed", i)
		}
	}
	return st, nil
}

func (s *Store) holds(campaignID, version string) bool {
	c := s.engine.Content().Resolve(campaignID, version).Campaign(campaignID)
	return c != nil && c.Version == version
}

// CaptureSession returns the session as a replay fixture (§7's
// SessionLayer.captureSession): a whole-log branch that writes nothing and
// returns its input, in the determinism harness's own form. It refuses
// what BranchSession refuses. The fixture carries the seed, so this is a
// host operation, never a client's; name must not identify anyone.
func (s *Store) CaptureSession(ctx context.Context, sessionID, name string) (harness.Fixture, error) {
	const op = "CaptureSession"
	c, unlock, err := s.lockedSession(ctx, op, sessionID)
	if err != nil {
		return harness.Fixture{}, err
	}
	defer unlock()
	cfg, err := s.admit(op, c)
	if err != nil {
		return harness.Fixture{}, err
	}
	if _, err := s.replay(op, c, c.state.ActionLog.Len()); err != nil {
		return harness.Fixture{}, err
	}
	return harness.Fixture{
		Name:            name,
		Config:          cfg,
		CampaignVersion: core.StartingVersion(c.state),
		CapturedUnder:   core.EngineVersion,
		ActionLog:       c.state.ActionLog,
	}, nil
}
