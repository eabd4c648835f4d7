package core

import (
	"encoding/json"
)

// envelopeJSON is the envelope as read: every field required.
type envelopeJSON struct {
	FormatVersion   *int
	GameID          *string
	KindID          *string
	CampaignID      *string
	CampaignVersion *string
	Seed            *string
	Status          *Status
	KindState       json.RawMessage
	ActionLog       *Log
}

// readEnvelope reads the envelope's fields, the kind state as raw bytes and
// the log decoded, refusing unknown and repeated fields.
func readEnvelope(data []byte) (envelopeJSON, error) {
	var env envelopeJSON
	r := &reader{b: data}
	text := func(dst **string) error {
		if r.literal("null") {
			return nil
		}
		s, err := r.str()
		*dst = &s
		return err
	}
	err := r.object(func(key string) error {
		switch key {
		case "formatVersion":
			n, err := r.integer()
			env.FormatVersion = &n
			return err
		case "gameId":
			return text(&env.GameID)
		case "kindId":
			return text(&env.KindID)
		case "campaignId":
			return text(&env.CampaignID)
		case "campaignVersion":
			return text(&env.CampaignVersion)
		case "seed":
			return text(&env.Seed)
		case "status":
			var s *string
			err := text(&s)
			if s != nil {
				st := Status(*s)
				env.Status = &st
			}
			return err
		case "kindState":
			raw, err := r.skip(0)
			env.KindState = raw
			return err
		case "actionLog":
			l, err := r.log()
			env.ActionLog = &l
			return err
		}
		return r.errorf("unknown field %q", key)
	})
	if err == nil {
		err = r.end()
	}
	return env, err
}

// Deserialize reads a serialized state and resolves it against this engine,
// or refuses it with a reason code (§4): malformed, oversized or
// wrong-version input, an unknown campaign or epoch, an unknown kind, a kind
// that is not the campaign's, a log whose epoch entries disagree with the
// state, and a kind state the kind cannot run.
func (e *Engine) Deserialize(data []byte) Result[*GameState] {
	env, verr := e.parseEnvelope(data)
	if verr != nil {
		return e.rejectDeserialize(*verr)
	}
	r, verr := e.resolve(env.state)
	if verr != nil {
		return e.rejectDeserialize(*verr)
	}
	st, err := decodeState(r.kind, env.kindState, r.campaign)
	if err != nil {
		return e.rejectDeserialize(Errorf(ReasonInvalidState, "kindState", "%v", err))
	}
	env.state.KindState = st
	return Succeed(env.state)
}

func (e *Engine) rejectDeserialize(err ValidationError) Result[*GameState] {
	e.resolutionEmitter(e.emitter, "", 0).Emit("core.deserialize.rejected", map[string]any{"code": err.Code, "path": err.Path})
	return Fail[*GameState](err)
}

type parsedEnvelope struct {
	state     *GameState
	kindState json.RawMessage
}

// parseEnvelope checks everything about a serialized state that needs no
// content: size, JSON shape, versions and the log's epoch rules (§2).
func (e *Engine) parseEnvelope(data []byte) (parsedEnvelope, *ValidationError) {
	fail := func(v ValidationError) (parsedEnvelope, *ValidationError) { return parsedEnvelope{}, &v }
	if len(data) > MaxStateBytes {
		return fail(Errorf(ReasonInputTooLarge, "", "state is %d bytes; the limit is %d", len(data), MaxStateBytes))
	}
	env, err := readEnvelope(data)
	if err != nil {
		return fail(Errorf(ReasonMalformedInput, "", "not a game state: %v", err))
	}
	switch {
	case env.FormatVersion == nil:
		return fail(Errorf(ReasonMalformedInput, "formatVersion", "missing formatVersion"))
	case *env.FormatVersion != FormatVersion && *env.FormatVersion != FormatVersionEpochs:
		return fail(Errorf(ReasonUnsupportedVersion, "formatVersion", "format version %d is not supported", *env.FormatVersion))
	}
	for path, v := range map[string]*string{"gameId": env.GameID, "kindId": env.KindID, "campaignId": env.CampaignID, "campaignVersion": env.CampaignVersion, "seed": env.Seed} {
		if v == nil || *v == "" {
			return fail(Errorf(ReasonMalformedInput, path, "missing %s", path))
		}
	}
	if env.Status == nil || (*env.Status != StatusActive && *env.Status != StatusEnded && *env.Status != StatusAbandoned) {
		return fail(Errorf(ReasonInvalidState, "status", "status must be active, ended or abandoned"))
	}
	if len(env.KindState) == 0 || string(env.KindState) == "null" {
		return fail(Errorf(ReasonInvalidState, "kindState", "missing kindState"))
	}
	if env.ActionLog == nil {
		return fail(Errorf(ReasonMalformedInput, "actionLog", "missing actionLog"))
	}
	s := &GameState{
		FormatVersion: *env.FormatVersion, GameID: *env.GameID, KindID: *env.KindID,
		CampaignID: *env.CampaignID, CampaignVersion: *env.CampaignVersion, Seed: *env.Seed,
		Status: *env.Status, ActionLog: *env.ActionLog,
	}
	_, lastTo, hasEpoch := s.ActionLog.lastEpoch()
	switch {
	case s.FormatVersion == FormatVersion && hasEpoch:
		return fail(Errorf(ReasonInvalidState, "formatVersion", "a version 1 state cannot carry epoch entries"))
	case s.FormatVersion == FormatVersionEpochs && !hasEpoch:
		return fail(Errorf(ReasonInvalidState, "formatVersion", "a version 2 state must carry an epoch entry"))
	case hasEpoch && lastTo != s.CampaignVersion:
		return fail(Errorf(ReasonInvalidState, "actionLog", "the last epoch entry names %q, not the state's version %q", lastTo, s.CampaignVersion))
	}
	return parsedEnvelope{state: s, kindState: env.KindState}, nil
}

// Migrate reads a serialized state as Deserialize does, migrating it onto
// this engine's default epoch of its campaign when its own epoch is no
// longer held (§10). Migrated reports whether anything was migrated; a
// migrated state is no longer replay-compatible.
func (e *Engine) Migrate(data []byte) (res Result[*GameState], migrated bool) {
	env, verr := e.parseEnvelope(data)
	if verr != nil {
		return e.rejectDeserialize(*verr), false
	}
	k := e.kinds[env.state.KindID]
	if k == nil {
		return e.rejectDeserialize(Errorf(ReasonUnknownKind, "kindId", "kind %q is not registered", env.state.KindID)), false
	}
	return e.MigrateSave(data, k.Version())
}

// MigrateSave resolves a serialized state written when its kind was at
// kindVersion, as the save boundary does (§10.2): first Kind.MigrateState for
// a kind-state shape change, then the campaign's declared id migration when
// the save's epoch is no longer held, then the kind judges the result. A
// failure is save_requires_migration when a needed migration is missing,
// migration_failed when one ran and failed or produced a state its kind
// refuses, and invalid_state when nothing was migrated and the state is bad.
func (e *Engine) MigrateSave(data []byte, kindVersion string) (res Result[*GameState], migrated bool) {
	env, verr := e.parseEnvelope(data)
	if verr != nil {
		return e.rejectDeserialize(*verr), false
	}
	s := env.state
	k := e.kinds[s.KindID]
	if k == nil {
		return e.rejectDeserialize(Errorf(ReasonUnknownKind, "kindId", "kind %q is not registered", s.KindID)), false
	}
	raw := env.kindState
	if kindVersion != k.Version() {
		m, ok := k.(StateMigrator)
		if !ok {
			return e.rejectDeserialize(Errorf(ReasonSaveRequiresMigration, "kindVersion",
				"kind %q cannot migrate states from version %s to %s", k.ID(), kindVersion, k.Version())), false
		}
		out, err := guarded(func() (json.RawMessage, error) { return m.MigrateState(raw, kindVersion) })
		if err != nil {
			return e.rejectDeserialize(Errorf(ReasonMigrationFailed, "kindState", "kind migration from %s failed: %v", kindVersion, err)), false
		}
		raw, migrated = out, true
	}
	if held := e.archive.Resolve(s.CampaignID, s.CampaignVersion).Campaign(s.CampaignID); held == nil || held.Version != s.CampaignVersion {
		target := e.registry.Campaign(s.CampaignID)
		if target == nil {
			return e.rejectDeserialize(Errorf(ReasonUnknownCampaign, "campaignId", "campaign %q is not available", s.CampaignID)), false
		}
		if !target.Migration.Accepts(s.CampaignVersion) {
			return e.rejectDeserialize(Errorf(ReasonSaveRequiresMigration, "campaignVersion",
				"campaign %q version %s declares no migration from %s", s.CampaignID, target.Version, s.CampaignVersion)), false
		}
		out, err := e.migrateForCampaign(k, raw, target, s.CampaignVersion)
		if err != nil {
			return e.rejectDeserialize(Errorf(ReasonMigrationFailed, "kindState", "campaign migration from %s failed: %v", s.CampaignVersion, err)), false
		}
		from := s.CampaignVersion
		raw, migrated = out, true
		s.CampaignVersion = target.Version
		if s.FormatVersion == FormatVersionEpochs {
			s.ActionLog = s.ActionLog.Append(LoggedMigration{Seq: s.ActionLog.Len(), From: from, To: target.Version})
		}
	}
	r, verr := e.resolve(s)
	if verr != nil {
		return e.rejectDeserialize(*verr), false
	}
	st, err := decodeState(k, raw, r.campaign)
	if err != nil {
		code := ReasonInvalidState
		if migrated {
			code = ReasonMigrationFailed
		}
		return e.rejectDeserialize(Errorf(code, "kindState", "%v", err)), false
	}
	s.KindState = st
	return Succeed(s), migrated
}
