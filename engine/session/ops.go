package session

import (
	"context"

	"github.com/storyloom/storyloom/engine/core"
)

// CreateSessionConfig starts a session (§7): the game's configuration and,
// for a profiled session, the profile it belongs to.
type CreateSessionConfig struct {
	CampaignID string `json:"campaignId"`
	// Seed is the game's seed; "" means the engine mints one and records it.
	Seed string `json:"seed,omitempty"`
	// Audience is who the session's views are for; "" means player.
	Audience core.Audience `json:"audience,omitempty"`
	// ProfileID is "" for an anonymous session.
	ProfileID string `json:"profileId,omitempty"`
}

// SessionHandle is a session and its current scene.
type SessionHandle struct {
	SessionID string     `json:"sessionId"`
	Scene     core.Scene `json:"scene"`
	// Warnings are profile degradations met while creating the session.
	Warnings []core.ValidationWarning `json:"warnings,omitempty"`
	// Notices say what a content update did to the game at Resume or
	// LoadGame: adopted, migrated or kept on its version.
	Notices []ContentNotice `json:"notices,omitempty"`
}

// SaveHandle is a save just taken.
type SaveHandle struct {
	SaveID     string `json:"saveId"`
	SavedAt    string `json:"savedAt"`
	SavedAtSeq int    `json:"savedAtSeq"`
}

// ActionResult is what a client gets back from an action (§7's
// SessionActionResult): the new scene on success, never the envelope, and
// only the changes and messages marked visible.
type ActionResult struct {
	OK       bool                     `json:"ok"`
	Scene    *core.Scene              `json:"scene,omitempty"`
	Errors   []core.ValidationError   `json:"errors"`
	Warnings []core.ValidationWarning `json:"warnings"`
	Changes  []core.StateChange       `json:"changes"`
	Messages []core.OutcomeMessage    `json:"messages"`
	// News is what the action unlocked (achievements, the ending it
	// reached), with titles and whether each is new to the profile; nil
	// when it unlocked nothing.
	News *News `json:"news,omitempty"`
}

// News is what one accepted action unlocked.
type News struct {
	// Achievements unlocked by the action, in the order it unlocked them.
	Achievements []Unlocked `json:"achievements"`
	// Ending is the ending the game reached, when it ended.
	Ending *Unlocked `json:"ending,omitempty"`
}

// Unlocked is one milestone an action reached, and whether the player's
// profile held it before (with no profile, everything is new).
type Unlocked struct {
	core.Milestone
	New bool `json:"new"`
}

// GetScene returns the session's current scene. It never adopts content.
func (s *Store) GetScene(ctx context.Context, sessionID string) (core.Scene, error) {
	const op = "GetScene"
	c, err := s.readSession(ctx, op, sessionID)
	if err != nil {
		return core.Scene{}, err
	}
	sc, err := s.scene(op, c.state, c.rec.Audience)
	if err != nil {
		return core.Scene{}, err
	}
	return sc, nil
}

// SessionSummary is what a host needs to route and label a session
// without rendering it: the campaign and kind it plays and its log's
// length.
type SessionSummary struct {
	SessionID   string `json:"sessionId"`
	CampaignID  string `json:"campaignId"`
	KindID      string `json:"kindId"`
	ActionCount int    `json:"actionCount"`
}

// Summary returns the session's summary, from its last committed state.
// It never adopts content.
func (s *Store) Summary(ctx context.Context, sessionID string) (SessionSummary, error) {
	c, err := s.readSession(ctx, "Summary", sessionID)
	if err != nil {
		return SessionSummary{}, err
	}
	return SessionSummary{SessionID: sessionID, CampaignID: c.state.CampaignID, KindID: c.state.KindID, ActionCount: c.state.ActionLog.Len()}, nil
}

// GetView returns the session's projection for its audience (§9).
func (s *Store) GetView(ctx context.Context, sessionID string) (core.PlayerView, error) {
	const op = "GetView"
	c, err := s.readSession(ctx, op, sessionID)
	if err != nil {
		return core.PlayerView{}, err
	}
	v, verr := s.engine.View(c.state, c.rec.Audience)
	if verr != nil {
		return core.PlayerView{}, asError(op, verr)
	}
	return v, nil
}

// CreateSession starts a game (§7). The content channel, when there is one,
// names the epoch it starts on; a profiled session of a kind with profile
// data is seeded from the profile's slice, recorded as the session's
// initialization.
func (s *Store) CreateSession(ctx context.Context, cfg CreateSessionConfig) (SessionHandle, error) {
	const op = "CreateSession"
	audience := cfg.Audience
	if audience == "" {
		audience = core.AudiencePlayer
	}
	if !audience.Valid() {
		return SessionHandle{}, errorf(op, core.ReasonInvalidState, "unknown audience %q", audience)
	}
	id := s.ids.NewSessionID()
	unlock := s.sessionLocks.lock(id)
	defer unlock()

	version := s.engine.DefaultVersion(cfg.CampaignID)
	if v, ok := s.offer(ContentScope{CampaignID: cfg.CampaignID, SessionID: id, ProfileID: cfg.ProfileID}, ""); ok {
		version = v
	}
	campaign := s.engine.Content().Resolve(cfg.CampaignID, version).Campaign(cfg.CampaignID)
	if version == "" || campaign == nil || campaign.Version != version {
		return SessionHandle{}, errorf(op, core.ReasonUnknownCampaign, "unknown campaign %q", cfg.CampaignID)
	}
	kind := s.engine.Kind(campaign.KindID)
	if kind == nil {
		return SessionHandle{}, errorf(op, core.ReasonUnknownKind, "kind %q is not registered", campaign.KindID)
	}
	init := &Initialization{}
	var warnings []core.ValidationWarning
	if pk, ok := kind.(core.ProfileKind); ok && cfg.ProfileID != "" {
		data, w := s.profileSlice(ctx, cfg.ProfileID, kind.ID(), pk)
		init.KindProfileData = data
		warnings = w
	}
	res := s.engine.CreateGame(core.NewGameConfig{CampaignID: cfg.CampaignID, Seed: cfg.Seed, KindProfileData: cloneBytes(init.KindProfileData)}, version)
	if !res.OK {
		return SessionHandle{}, refusal(op, res.Errors)
	}
	now := s.clock.Now()
	rec := SessionRecord{
		SessionID: id, Audience: audience, ReplayCompatible: true,
		CreatedAt: now, UpdatedAt: now, ProfileID: cfg.ProfileID, Initialization: init,
	}
	c, err := s.write(ctx, op, rec, res.Value, nil, nil, nil)
	if err != nil {
		return SessionHandle{}, err
	}
	sc, err := s.scene(op, c.state, c.rec.Audience)
	if err != nil {
		return SessionHandle{}, err
	}
	return SessionHandle{SessionID: id, Scene: sc, Warnings: s.aliasErrors(warnings)}, nil
}

// ResumeSession returns the session's scene after its adoption point (§7);
// Resume also says what the adoption point did.
func (s *Store) ResumeSession(ctx context.Context, sessionID string) (core.Scene, error) {
	h, err := s.Resume(ctx, sessionID)
	return h.Scene, err
}

// Resume passes the session's adoption point and returns its scene with a
// notice of what happened: an offered epoch the engine adopts is written as
// its own revision (adopted); one it refuses leaves the game on its epoch
// (kept). A failed adoption write is not a failure: the scene of the
// unadopted state comes back with no notice, and the next adoption point
// offers again.
func (s *Store) Resume(ctx context.Context, sessionID string) (SessionHandle, error) {
	const op = "ResumeSession"
	c, unlock, err := s.lockedSession(ctx, op, sessionID)
	if err != nil {
		return SessionHandle{}, err
	}
	defer unlock()
	st, notice := s.adopt(c.state, sessionID, c.rec.ProfileID)
	if st != c.state {
		next := c.rec
		next.Revision++
		next.UpdatedAt = s.clock.Now()
		if nc, werr := s.write(ctx, op, next, st, c, nil, c.sum); werr == nil {
			c = nc
		} else {
			notice = nil
			if werr.Code == core.ReasonConcurrentModification {
				// Another writer committed: serve what it wrote.
				if fresh, ferr := s.session(ctx, op, sessionID); ferr == nil {
					c = fresh
				}
			}
		}
	}
	sc, serr := s.scene(op, c.state, c.rec.Audience)
	if serr != nil {
		return SessionHandle{}, serr
	}
	return SessionHandle{SessionID: sessionID, Scene: sc, Notices: notices(notice)}, nil
}

// PreviewAction resolves an action prospectively and discards the result
// (§7): ordered like a command on the session's lock, recorded like a read.
// It counts no attempt, writes nothing, folds no profile and never consults
// the content channel.
func (s *Store) PreviewAction(ctx context.Context, sessionID, actionID string, params core.Params) (ActionResult, error) {
	const op = "PreviewAction"
	c, unlock, err := s.lockedSession(ctx, op, sessionID)
	if err != nil {
		return ActionResult{}, err
	}
	defer unlock()
	res := s.quiet.PreviewAction(c.state, actionID, params)
	out := s.actionResult(res, nil)
	if res.OK {
		sc, serr := s.scene(op, res.Value, c.rec.Audience)
		if serr != nil {
			return ActionResult{}, serr
		}
		out.Scene = &sc
	}
	return out, nil
}

// SubmitAction resolves one action (§7). A rejection is a result with OK
// false and no write. An accepted action passes the adoption point, is
// written as the next revision, and is then folded into the profile; a
// profile failure is a warning and never undoes the action. Another writer
// committing first is concurrent_modification, and the session is re-read
// on the next operation.
func (s *Store) SubmitAction(ctx context.Context, sessionID, actionID string, params core.Params) (ActionResult, error) {
	const op = "SubmitAction"
	c, unlock, err := s.lockedSession(ctx, op, sessionID)
	if err != nil {
		return ActionResult{}, err
	}
	defer unlock()
	s.countAttempt(c)
	res := s.engine.SubmitAction(c.state, actionID, params)
	if !res.OK {
		return s.actionResult(res, nil), nil
	}
	acted := res.Value
	st, _ := s.adopt(acted, sessionID, c.rec.ProfileID)
	next := s.cachedSession(sessionID)
	if next == nil {
		next = c
	}
	rec := next.rec
	rec.Revision++
	rec.UpdatedAt = s.clock.Now()
	if _, werr := s.write(ctx, op, rec, st, next, nil, next.sum); werr != nil {
		return ActionResult{}, werr
	}
	warnings, news := s.foldProfile(ctx, rec.ProfileID, c.state, acted, res.Changes)
	out := s.actionResult(res, warnings)
	out.News = news
	sc, serr := s.scene(op, st, rec.Audience)
	if serr != nil {
		return ActionResult{}, serr
	}
	out.Scene = &sc
	return out, nil
}

// countAttempt advances the cached record's attempt counter, which is
// telemetry and travels with the next write.
func (s *Store) countAttempt(c *cached) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.cache[c.rec.SessionID]; cur != nil {
		n := *cur
		n.rec.AttemptCounter++
		s.cache[c.rec.SessionID] = &n
	}
}

// actionResult builds the client's result: visible changes and messages
// only, engine-owned keys under their response aliases.
func (s *Store) actionResult(res core.ActionResult, warnings []core.ValidationWarning) ActionResult {
	out := ActionResult{
		OK:       res.OK,
		Errors:   s.aliasErrors(res.Errors),
		Warnings: s.aliasErrors(append(append([]core.ValidationWarning{}, res.Warnings...), warnings...)),
		Changes:  []core.StateChange{},
		Messages: []core.OutcomeMessage{},
	}
	rejection := map[string]bool{}
	for _, e := range res.Errors {
		rejection[e.MessageKey] = true
	}
	for _, ch := range res.Changes {
		if ch.Visible {
			out.Changes = append(out.Changes, ch)
		}
	}
	for _, m := range res.Messages {
		if !m.Visible {
			continue
		}
		if rejection[m.Key] && s.engine.IsEngineKey(m.Key) {
			m.Key = s.engine.Alias(m.Key)
		}
		out.Messages = append(out.Messages, m)
	}
	return out
}

// aliasErrors returns copies of errs with engine-owned message keys under
// their response aliases (§7).
func (s *Store) aliasErrors(errs []core.ValidationError) []core.ValidationError {
	out := make([]core.ValidationError, len(errs))
	for i, e := range errs {
		if s.engine.IsEngineKey(e.MessageKey) {
			e.MessageKey = s.engine.Alias(e.MessageKey)
		}
		out[i] = e
	}
	return out
}

// SaveGame takes a save of the session's last committed state (§10.2). The
// save keeps the session's profile and initialization on its record, never
// in the envelope. A save the record store refused is never listed.
func (s *Store) SaveGame(ctx context.Context, sessionID string) (SaveHandle, error) {
	const op = "SaveGame"
	c, unlock, err := s.lockedSession(ctx, op, sessionID)
	if err != nil {
		return SaveHandle{}, err
	}
	defer unlock()
	kind := s.engine.Kind(c.state.KindID)
	if kind == nil {
		return SaveHandle{}, errorf(op, core.ReasonUnknownKind, "kind %q is not registered", c.state.KindID)
	}
	pieces, rest, perr := s.stateParts(c)
	if perr != nil {
		return SaveHandle{}, errorf(op, core.ReasonInvalidState, "%v", perr)
	}
	sum, run := s.checksum(c, pieces, rest)
	// A segmented session's save holds its segments and tail, shared, and
	// an envelope whose state's log is empty: the save copies no history.
	var log *SaveLog
	held := pieces
	if l := c.rec.Log; l != nil {
		log = &SaveLog{Segments: l.Segments[:len(l.Segments):len(l.Segments)], Tail: l.Tail, TailCount: l.TailCount}
		held = nil
	}
	size := stateSize(held, rest)
	blob := sealEnvelope(size, func(b []byte) []byte { return appendState(b, held, rest) },
		c.state, kind.Version(), c.rec.ReplayCompatible, sum)
	id := s.ids.NewSaveID()
	unlockSave := s.saveLocks.lock(id)
	defer unlockSave()
	rec := SaveRecord{
		SaveID: id, CampaignID: c.state.CampaignID, Blob: blob, Log: log, SavedAt: s.clock.Now(),
		SavedAtSeq: c.state.ActionLog.Len(), Audience: c.rec.Audience,
		ProfileID: c.rec.ProfileID, Initialization: c.rec.Initialization.clone(),
	}
	if perr := s.records.PutSave(ctx, rec); perr != nil {
		return SaveHandle{}, storageError(op, perr)
	}
	if run != nil {
		// The state is the blob's last member: sealEnvelope closes the
		// document straight after it.
		state := blob[len(blob)-1-size : len(blob)-1 : len(blob)-1]
		v := &verifiedSave{
			blob: blob,
			log:  log,
			env: SaveEnvelope{
				SaveFormatVersion: SaveFormatVersion, SerializationVersion: SerializationVersion,
				EngineVersion: EngineVersion, KindID: c.state.KindID, KindVersion: kind.Version(),
				CampaignID: c.state.CampaignID, CampaignVersion: c.state.CampaignVersion,
				ReplayCompatible: c.rec.ReplayCompatible, Checksum: sum,
			},
			state: c.state,
			sum:   *run,
			once:  true,
		}
		if log == nil {
			v.env.State = state
			v.saved = savedState{state: state}
			v.sum.logEnd = size - len(rest)
		} else {
			// What a new session's log takes besides the segments: the
			// tail and the rest of the state (a few KB).
			v.saved = savedState{closed: log.Segments, state: appendState(nil, logPieces(nil, log.Tail, log.TailCount), rest)}
			v.sum.logEnd = 0
		}
		s.verified.add(v)
	}
	return SaveHandle{SaveID: id, SavedAt: rec.SavedAt, SavedAtSeq: rec.SavedAtSeq}, nil
}

// LoadGame starts a new session from a save (§10.2): a corrupted or altered
// save is refused with a reason code and nothing written; a save whose
// epoch is no longer held, or whose kind moved, is migrated and its
// lineage is no longer replay-compatible. The new session keeps the save's
// profile and initialization, then passes its adoption point.
func (s *Store) LoadGame(ctx context.Context, saveID string) (SessionHandle, error) {
	const op = "LoadGame"
	unlockSave := s.saveLocks.lock(saveID)
	rec, ok, gerr := s.records.GetSave(ctx, saveID)
	unlockSave()
	if gerr != nil {
		return SessionHandle{}, storageError(op, gerr)
	}
	if !ok {
		return SessionHandle{}, errorf(op, core.ReasonUnknownSave, "unknown save %q", saveID)
	}
	env, st, compatible, saved, sum, err := s.openSave(op, rec)
	if err != nil {
		return SessionHandle{}, err
	}
	id := s.ids.NewSessionID()
	unlock := s.sessionLocks.lock(id)
	defer unlock()
	var migrated *ContentNotice
	if st.CampaignVersion != env.CampaignVersion {
		migrated = newNotice(NoticeMigrated, st.CampaignID, env.CampaignVersion, st.CampaignVersion, "")
	}
	loaded := st
	st, adoption := s.adopt(st, id, rec.ProfileID)
	if st != loaded {
		saved = nil
	}
	audience := rec.Audience
	if !audience.Valid() {
		audience = core.AudiencePlayer
	}
	now := s.clock.Now()
	next := SessionRecord{
		SessionID: id, Audience: audience, ReplayCompatible: compatible,
		CreatedAt: now, UpdatedAt: now, ProfileID: rec.ProfileID, Initialization: rec.Initialization.clone(),
	}
	c, err := s.write(ctx, op, next, st, nil, saved, sum)
	if err != nil {
		return SessionHandle{}, err
	}
	sc, err := s.scene(op, c.state, c.rec.Audience)
	if err != nil {
		return SessionHandle{}, err
	}
	return SessionHandle{SessionID: id, Scene: sc, Notices: notices(migrated, adoption)}, nil
}

// ExportSave returns a save as a standalone document a player can keep as
// a file: its envelope and creation input, never its profile id, sealed by
// a checksum of every byte but its own (format storyloom.save/2). The
// profile must own the save, as DeleteSave requires; "" exports an
// anonymous save.
func (s *Store) ExportSave(ctx context.Context, profileID, saveID string) ([]byte, error) {
	return s.ExportNamedSave(ctx, profileID, saveID, "")
}

// ExportNamedSave is ExportSave with the name the player gave the save
// carried in the file as "name", under the file's checksum; ImportSave
// leaves it to the caller, which may read it back.
func (s *Store) ExportNamedSave(ctx context.Context, profileID, saveID, name string) ([]byte, error) {
	const op = "ExportSave"
	unlock := s.saveLocks.lock(saveID)
	defer unlock()
	rec, ok, err := s.records.GetSave(ctx, saveID)
	if err != nil {
		return nil, storageError(op, err)
	}
	if !ok || rec.ProfileID != profileID {
		return nil, errorf(op, core.ReasonUnknownSave, "unknown save %q", saveID)
	}
	envelope, derr := rec.Document()
	if derr != nil {
		return nil, errorf(op, core.ReasonInvalidState, "save %q is damaged: %v", saveID, derr)
	}
	doc, merr := sealSaveFile(envelope, rec.Initialization, name)
	if merr != nil {
		return nil, errorf(op, core.ReasonInvalidState, "%v", merr)
	}
	return doc, nil
}

// ImportSave stores a document ExportSave wrote (format 2, or format 1 of
// earlier builds), or a bare save envelope, as a new save of profileID (""
// for anonymous). A file whose checksum does not match is invalid_state.
// The envelope is checked and resolved exactly as LoadGame would before
// anything is written, and the store remembers what checking it gave
// (verifiedSaves), so that the load that follows an import checks nothing
// again. A bare envelope carries no initialization, so a profiled game
// loaded from it cannot be branched.
func (s *Store) ImportSave(ctx context.Context, profileID string, data []byte) (SaveHandle, error) {
	const op = "ImportSave"
	envelope, init := data, (*Initialization)(nil)
	if file, ok := readSaveFile(data); ok && file.Format != "" {
		var ferr *Error
		if envelope, init, ferr = openSaveFile(op, data, file); ferr != nil {
			return SaveHandle{}, ferr
		}
	}
	env, sum, oerr := openEnvelope(envelope)
	if oerr != nil {
		oerr.Op = op
		return SaveHandle{}, oerr
	}
	// The stored save is the envelope in canonical form around the state
	// the checksum was verified over, copied: data is the caller's. The
	// state is resolved from the copy, which the store keeps.
	size := len(env.State)
	blob := sealEnvelope(size, func(b []byte) []byte { return append(b, env.State...) }, &core.GameState{KindID: env.KindID, CampaignID: env.CampaignID, CampaignVersion: env.CampaignVersion}, env.KindVersion, env.ReplayCompatible, env.Checksum)
	env.State = blob[len(blob)-1-size : len(blob)-1 : len(blob)-1]
	st, _, serialized, rerr := resolveEnvelope(op, s.engine, env)
	if rerr != nil {
		return SaveHandle{}, rerr
	}
	id := s.ids.NewSaveID()
	unlock := s.saveLocks.lock(id)
	defer unlock()
	rec := SaveRecord{
		SaveID: id, CampaignID: env.CampaignID, Blob: blob, SavedAt: s.clock.Now(),
		SavedAtSeq: st.ActionLog.Len(), Audience: core.AudiencePlayer, ProfileID: profileID, Initialization: init.clone(),
	}
	if perr := s.records.PutSave(ctx, rec); perr != nil {
		return SaveHandle{}, storageError(op, perr)
	}
	if serialized != nil && sum != nil && sum.logEnd > 0 {
		s.verified.add(&verifiedSave{blob: blob, env: env, saved: savedState{state: serialized}, state: st, sum: *sum})
	}
	return SaveHandle{SaveID: id, SavedAt: rec.SavedAt, SavedAtSeq: rec.SavedAtSeq}, nil
}
