package core

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rng"
)

// EngineVersion is this engine build's version, recorded in saves and
// captured fixtures for provenance; it never gates a load by itself.
const EngineVersion = "0.1.0"

// MaxActionIDBytes bounds an action id; no kind issues a longer one.
const MaxActionIDBytes = 256

// MaxStateBytes is the largest serialized state Deserialize accepts.
const MaxStateBytes = 16 << 20

// IDSource mints a new game's id and, when the config names none, its seed.
// Hosts supply a random source; the default counts, for tests and tools.
type IDSource interface {
	NewGameID() string
	NewSeed() string
}

// CountingIDs is a deterministic IDSource: game-1, game-2, … and seed-1,
// seed-2, …. It is the default, and what replay runners pin.
type CountingIDs struct{ games, seeds int }

// NewGameID implements IDSource.
func (c *CountingIDs) NewGameID() string { c.games++; return "game-" + strconv.Itoa(c.games) }

// NewSeed implements IDSource.
func (c *CountingIDs) NewSeed() string { c.seeds++; return "seed-" + strconv.Itoa(c.seeds) }

// FixedIDs is an IDSource that always returns the same game id; replaying a
// stored game pins it to the original (§7.4).
type FixedIDs struct{ GameID, Seed string }

// NewGameID implements IDSource.
func (f FixedIDs) NewGameID() string { return f.GameID }

// NewSeed implements IDSource.
func (f FixedIDs) NewSeed() string { return f.Seed }

// Host is what an engine is built over (§4, EngineHost).
type Host struct {
	// Kinds is the fixed set of kinds this engine plays.
	Kinds []Kind
	// Registry is the construction-time content: the default epoch of every
	// campaign it holds.
	Registry *Registry
	// Archive resolves other epochs; nil means one holding only Registry.
	Archive ResolutionArchive
	// IDs mints game ids and seeds; nil means CountingIDs.
	IDs IDSource
	// Emitter receives events; nil means NullEmitter.
	Emitter Emitter
	// AliasAllEngineKeys aliases every engine-owned reference (a test
	// context, §7); production leaves it false.
	AliasAllEngineKeys bool
}

// NewGameConfig starts a game (§5).
type NewGameConfig struct {
	CampaignID string `json:"campaignId"`
	// Seed is the game's only randomness state; empty means the IDSource
	// mints one, recorded in the envelope.
	Seed string `json:"seed,omitempty"`
	// KindProfileData is the resolved cross-game slice for the campaign's
	// kind (§7.1), or nil.
	KindProfileData json.RawMessage `json:"kindProfileData,omitempty"`
}

// Engine is the pure engine (§4). It is safe for concurrent use: it holds no
// mutable state apart from what its IDSource and Emitter hold.
type Engine struct {
	kinds      map[string]Kind
	kindIDs    []string
	registry   *Registry
	archive    ResolutionArchive
	defaults   map[string]string
	ids        IDSource
	emitter    Emitter
	engineKeys map[LocKey]string
	aliases    map[LocKey]LocKey
	aliasAll   bool
}

// New builds an engine over h. A missing kind, a campaign of an unregistered
// kind, or an archive that does not resolve the registry's own epochs is a
// construction error.
func New(h Host) (*Engine, error) {
	if h.Registry == nil {
		return nil, fmt.Errorf("core: engine needs a registry")
	}
	e := &Engine{
		kinds:      map[string]Kind{},
		registry:   h.Registry,
		archive:    h.Archive,
		defaults:   map[string]string{},
		ids:        h.IDs,
		emitter:    h.Emitter,
		engineKeys: CoreMessages(),
		aliasAll:   h.AliasAllEngineKeys,
	}
	for _, k := range h.Kinds {
		if k == nil {
			return nil, fmt.Errorf("core: nil kind")
		}
		if _, dup := e.kinds[k.ID()]; dup {
			return nil, fmt.Errorf("core: kind %q registered twice", k.ID())
		}
		e.kinds[k.ID()] = k
		e.kindIDs = append(e.kindIDs, k.ID())
		for key, text := range k.ReasonMessages() {
			e.engineKeys[key] = text
		}
	}
	sort.Strings(e.kindIDs)
	if e.archive == nil {
		e.archive = registryArchive{h.Registry}
	}
	if e.ids == nil {
		e.ids = &CountingIDs{}
	}
	if e.emitter == nil {
		e.emitter = NullEmitter{}
	}
	for _, id := range h.Registry.Order {
		c := h.Registry.Campaigns[id]
		if _, ok := e.kinds[c.KindID]; !ok {
			return nil, fmt.Errorf("core: campaign %q is of kind %q, which is not registered", id, c.KindID)
		}
		if got := e.archive.Resolve(id, c.Version).Campaign(id); got == nil || got.Version != c.Version {
			return nil, fmt.Errorf("core: the archive does not resolve campaign %q at %s", id, c.Version)
		}
		e.defaults[id] = c.Version
	}
	e.aliases = responseAliases(e.engineKeys, e.archive.AuthoredKeys(), e.aliasAll)
	return e, nil
}

// responseAliases maps each engine key that needs one to its alias (§7): ~k,
// or ~n~k for the smallest n whose form no authored key takes.
func responseAliases(engine map[LocKey]string, authored map[LocKey]bool, all bool) map[LocKey]LocKey {
	out := map[LocKey]LocKey{}
	for k := range engine {
		if !all && !authored[k] {
			continue
		}
		alias := "~" + k
		for n := 1; authored[alias]; n++ {
			alias = "~" + strconv.Itoa(n) + "~" + k
		}
		out[k] = alias
	}
	return out
}

// registryArchive is the default archive: the construction registry alone.
type registryArchive struct{ r *Registry }

func (a registryArchive) Resolve(id, version string) *Registry {
	if c := a.r.Campaigns[id]; c != nil && c.Version == version {
		return a.r
	}
	return nil
}

func (a registryArchive) AuthoredKeys() map[LocKey]bool {
	out := map[LocKey]bool{}
	for _, p := range a.r.Provenance {
		for k := range p.Strings {
			out[k] = true
		}
	}
	return out
}

// Kind returns the registered kind id, or nil.
func (e *Engine) Kind(id string) Kind { return e.kinds[id] }

// KindIDs returns the registered kinds' ids, sorted.
func (e *Engine) KindIDs() []string { return append([]string(nil), e.kindIDs...) }

// Registry returns the construction-time registry: the default epochs.
func (e *Engine) Registry() *Registry { return e.registry }

// Content returns the archive every state's content resolves through.
func (e *Engine) Content() ResolutionArchive { return e.archive }

// DefaultVersion returns the version createGame starts campaignID on, or "".
func (e *Engine) DefaultVersion(campaignID string) string { return e.defaults[campaignID] }

// EngineStrings returns the running engine's catalog: the core's messages and
// every registered kind's, keyed by engine key (not by alias).
func (e *Engine) EngineStrings() map[LocKey]string {
	out := make(map[LocKey]string, len(e.engineKeys))
	for k, v := range e.engineKeys {
		out[k] = v
	}
	return out
}

// IsEngineKey reports whether key is owned by the running engine.
func (e *Engine) IsEngineKey(key LocKey) bool { _, ok := e.engineKeys[key]; return ok }

// Alias maps an engine-owned key to the key a response carries for it.
func (e *Engine) Alias(key LocKey) LocKey {
	if a, ok := e.aliases[key]; ok {
		return a
	}
	return key
}

// Aliases returns every alias in force, engine key → alias.
func (e *Engine) Aliases() map[LocKey]LocKey {
	out := make(map[LocKey]LocKey, len(e.aliases))
	for k, v := range e.aliases {
		out[k] = v
	}
	return out
}

// WithEmitter returns the same engine sending its events to em (§4).
func (e *Engine) WithEmitter(em Emitter) *Engine {
	c := *e
	if em == nil {
		em = NullEmitter{}
	}
	c.emitter = em
	return &c
}

// WithIDs returns the same engine minting game ids and seeds from ids; a
// replay pins the game id to the original's this way (§7.4).
func (e *Engine) WithIDs(ids IDSource) *Engine {
	c := *e
	if ids == nil {
		ids = &CountingIDs{}
	}
	c.ids = ids
	return &c
}

func (e *Engine) resolutionEmitter(em Emitter, gameID string, seq int) *ResolutionEmitter {
	return &ResolutionEmitter{sink: em, gameID: gameID, seq: seq}
}

// resolved is a state's kind and content.
type resolved struct {
	kind     Kind
	registry *Registry
	campaign *Campaign
}

// resolve finds the kind and epoch content of a state (§4: by the state).
func (e *Engine) resolve(s *GameState) (resolved, *ValidationError) {
	if s == nil {
		err := Errorf(ReasonInvalidState, "", "no state")
		return resolved{}, &err
	}
	reg := e.archive.Resolve(s.CampaignID, s.CampaignVersion)
	c := reg.Campaign(s.CampaignID)
	if c == nil || c.Version != s.CampaignVersion {
		err := Errorf(ReasonUnknownCampaign, "campaignId", "campaign %q at version %q is not available", s.CampaignID, s.CampaignVersion)
		err.Details = map[string]any{"campaignId": s.CampaignID, "campaignVersion": s.CampaignVersion}
		return resolved{}, &err
	}
	k := e.kinds[s.KindID]
	if k == nil {
		err := Errorf(ReasonUnknownKind, "kindId", "kind %q is not registered", s.KindID)
		return resolved{}, &err
	}
	if c.KindID != s.KindID {
		err := Errorf(ReasonInvalidState, "kindId", "campaign %q is of kind %q, not %q", c.ID, c.KindID, s.KindID)
		return resolved{}, &err
	}
	return resolved{kind: k, registry: reg, campaign: c}, nil
}

// CreateGame starts a game of config's campaign (§4). version "" means the
// registry's version of it; otherwise that epoch, or unknown_campaign.
// init's changes and messages ride out on the result.
func (e *Engine) CreateGame(config NewGameConfig, version string) ActionResult {
	if version == "" {
		version = e.defaults[config.CampaignID]
	}
	reg := e.archive.Resolve(config.CampaignID, version)
	c := reg.Campaign(config.CampaignID)
	if version == "" || c == nil || c.Version != version {
		return ActionResult{Result: Fail[*GameState](Errorf(ReasonUnknownCampaign, "campaignId",
			"campaign %q (version %q) is not available", config.CampaignID, version))}
	}
	k := e.kinds[c.KindID]
	gameID := e.ids.NewGameID()
	seed := config.Seed
	if seed == "" {
		seed = e.ids.NewSeed()
	}
	ctx := &Context{}
	ctx.init(reg, c, seed, rng.System("start", 0), gameID, 0, e.emitter)
	emit := ctx.Emit
	init := k.InitialState(c, ctx, config.KindProfileData)
	status := init.Status
	if status == "" {
		status = StatusActive
	}
	s := &GameState{
		FormatVersion:   FormatVersion,
		GameID:          gameID,
		KindID:          c.KindID,
		CampaignID:      c.ID,
		CampaignVersion: c.Version,
		Seed:            seed,
		Status:          status,
		KindState:       init.State,
	}
	emit.Emit("core.game.created", map[string]any{"campaignId": c.ID, "campaignVersion": c.Version})
	return ActionResult{Result: Succeed(s), Changes: orEmpty(init.Changes), Messages: orEmptyMsgs(init.Messages)}
}

func (e *Engine) projectionContext(s *GameState, r resolved) *ProjectionContext {
	seq := s.ActionLog.Len()
	ctx := &ProjectionContext{engineRef: e.Alias}
	ctx.init(r.registry, r.campaign, s.Seed, rng.System("view", seq), s.GameID, seq, NullEmitter{})
	return ctx
}

// Scene renders the state's current scene (§6) with the player's view,
// copied across the boundary (§9.1).
func (e *Engine) Scene(s *GameState) (Scene, error) { return e.SceneFor(s, AudiencePlayer) }

// SceneFor renders the current scene with the view projected for audience:
// a session created for the ai audience gets the ai projection in every
// scene it is handed, not only from View.
func (e *Engine) SceneFor(s *GameState, audience Audience) (Scene, error) {
	r, err := e.resolveFor(s, audience)
	if err != nil {
		return Scene{}, err
	}
	ctx := e.projectionContext(s, r)
	view, err := e.project(s, r, audience, ctx)
	if err != nil {
		return Scene{}, err
	}
	actions := r.kind.AvailableActions(s.KindState, ctx)
	if actions == nil {
		actions = []AvailableAction{}
	}
	return Scene{GameID: s.GameID, Status: s.Status, Body: r.kind.Scene(s.KindState, ctx), Actions: actions, View: view}, nil
}

// View projects the state for audience (§9). The result shares nothing with
// the state.
func (e *Engine) View(s *GameState, audience Audience) (PlayerView, error) {
	r, err := e.resolveFor(s, audience)
	if err != nil {
		return PlayerView{}, err
	}
	return e.project(s, r, audience, e.projectionContext(s, r))
}

// resolveFor resolves s for a projection to audience, refusing an
// audience the engine does not know before anything else.
func (e *Engine) resolveFor(s *GameState, audience Audience) (resolved, error) {
	if !audience.Valid() {
		return resolved{}, Errorf(ReasonInvalidState, "audience", "unknown audience %q", audience)
	}
	r, verr := e.resolve(s)
	if verr != nil {
		return resolved{}, *verr
	}
	return r, nil
}

func (e *Engine) project(s *GameState, r resolved, audience Audience, ctx *ProjectionContext) (PlayerView, error) {
	kv, err := canon.Marshal(r.kind.Project(s.KindState, audience, ctx))
	if err != nil {
		return PlayerView{}, Errorf(ReasonInternal, "kindView", "kind %q projected a value that is not plain data: %v", r.kind.ID(), err)
	}
	return PlayerView{GameID: s.GameID, Status: s.Status, KindView: kv}, nil
}

// AvailableActions lists what the player can do in s now (§6).
func (e *Engine) AvailableActions(s *GameState) ([]AvailableAction, error) {
	r, verr := e.resolve(s)
	if verr != nil {
		return nil, *verr
	}
	return r.kind.AvailableActions(s.KindState, e.projectionContext(s, r)), nil
}

// Outcome returns the state's terminal identity (§3.2).
func (e *Engine) Outcome(s *GameState) (Outcome, error) {
	k := e.kinds[s.KindID]
	if k == nil {
		return Outcome{}, Errorf(ReasonUnknownKind, "kindId", "kind %q is not registered", s.KindID)
	}
	return k.Outcome(s.KindState), nil
}

// Milestones returns the achievements and endings of campaign c, or none
// when its kind does not implement MilestoneKind.
func (e *Engine) Milestones(c *Campaign) Milestones {
	if mk, ok := e.kinds[c.KindID].(MilestoneKind); ok {
		return mk.Milestones(c)
	}
	return Milestones{}
}

// SubmitAction resolves one action against s (§4) and returns the new state;
// s is never changed. A rejected action is not logged and leaves s as it was.
func (e *Engine) SubmitAction(s *GameState, actionID string, params Params) ActionResult {
	return e.advance(s, actionID, params, e.emitter, false)
}

// PreviewAction resolves the action as SubmitAction would, against a null
// emitter, for rendering only: its state must be projected and discarded.
func (e *Engine) PreviewAction(s *GameState, actionID string, params Params) ActionResult {
	return e.advance(s, actionID, params, NullEmitter{}, true)
}

func (e *Engine) advance(s *GameState, actionID string, params Params, em Emitter, preview bool) ActionResult {
	r, verr := e.resolve(s)
	if verr != nil {
		return rejected(*verr)
	}
	if s.Status != StatusActive {
		return rejected(Errorf(ReasonSessionEnded, "", "the game has %s", s.Status))
	}
	if !utf8.ValidString(actionID) || len(actionID) > MaxActionIDBytes {
		return rejected(Errorf(ReasonUnknownAction, "actionId", "an action id is valid UTF-8 of at most %d bytes", MaxActionIDBytes))
	}
	if err := params.Validate(); err != nil {
		return rejected(Errorf(ReasonInvalidParams, "params", "%v", err))
	}
	p := params.Clone()
	seq := s.ActionLog.Len()
	ctx := &Context{}
	ctx.init(r.registry, r.campaign, s.Seed, rng.Action(seq), s.GameID, seq, em)
	emit := ctx.Emit
	res := r.kind.Advance(s.KindState, actionID, p, ctx)
	if res.Error != nil {
		if emit.Enabled() {
			emit.Emit("core.action.rejected", map[string]any{"actionId": actionID, "code": res.Error.Code})
		}
		return ActionResult{Result: Fail[*GameState](*res.Error), Changes: orEmpty(nil), Messages: orEmptyMsgs(res.Messages)}
	}
	next := s.with()
	next.KindState = res.State
	next.Status = res.Status
	if next.Status == "" {
		next.Status = StatusActive
	}
	entry := LoggedAction{Seq: seq, ActionID: actionID, Params: p}
	if preview {
		next.ActionLog = NewLog(append(s.ActionLog.Entries(), entry)...)
	} else {
		next.ActionLog = s.ActionLog.Append(entry)
	}
	if emit.Enabled() {
		emit.Emit("core.action.accepted", map[string]any{"actionId": actionID, "status": string(next.Status)})
	}
	return ActionResult{Result: Succeed(next), Changes: orEmpty(res.Changes), Messages: orEmptyMsgs(res.Messages)}
}

func orEmpty(c []StateChange) []StateChange {
	if c == nil {
		return []StateChange{}
	}
	return c
}

func orEmptyMsgs(m []OutcomeMessage) []OutcomeMessage {
	if m == nil {
		return []OutcomeMessage{}
	}
	return m
}

// Serialize returns the canonical serialization of s (§10): the envelope's
// keys in sorted order, written directly, with the kind state canonicalized.
func (e *Engine) Serialize(s *GameState) ([]byte, error) {
	ks, err := canon.Marshal(s.KindState)
	if err != nil {
		return nil, Errorf(ReasonInvalidState, "kindState", "state does not serialize: %v", err)
	}
	b := make([]byte, 0, s.ActionLog.encodedSize()+len(ks)+256)
	b = append(b, `{"actionLog":`...)
	b = appendLog(b, s.ActionLog)
	for _, f := range [...]struct{ key, val string }{
		{`,"campaignId":`, s.CampaignID}, {`,"campaignVersion":`, s.CampaignVersion},
	} {
		b = append(b, f.key...)
		b = canon.AppendString(b, f.val)
	}
	b = append(b, `,"formatVersion":`...)
	b = strconv.AppendInt(b, int64(s.FormatVersion), 10)
	b = append(b, `,"gameId":`...)
	b = canon.AppendString(b, s.GameID)
	b = append(b, `,"kindId":`...)
	b = canon.AppendString(b, s.KindID)
	b = append(b, `,"kindState":`...)
	b = append(b, ks...)
	b = append(b, `,"seed":`...)
	b = canon.AppendString(b, s.Seed)
	b = append(b, `,"status":`...)
	b = canon.AppendString(b, string(s.Status))
	return append(b, '}'), nil
}

// AdoptionResult is the result of AdoptContent: the state on the new epoch,
// or the reason it stays pinned. A refusal is a value, never a failure.
type AdoptionResult struct {
	Adopted bool
	State   *GameState
	Reason  string
}

// AdoptContent moves a running state onto another published epoch of its
// campaign, or says why not (§4). Asking for the state's own version returns
// the same state with no entry.
func (e *Engine) AdoptContent(s *GameState, version string) AdoptionResult {
	if version == s.CampaignVersion {
		return AdoptionResult{Adopted: true, State: s}
	}
	r, verr := e.resolve(s)
	if verr != nil {
		return AdoptionResult{Reason: verr.Code}
	}
	to := e.archive.Resolve(s.CampaignID, version).Campaign(s.CampaignID)
	if to == nil || to.Version != version {
		return AdoptionResult{Reason: ReasonUnknownCampaign}
	}
	if to.KindID != r.campaign.KindID {
		return AdoptionResult{Reason: ReasonContentKindChanged}
	}
	adopter, ok := r.kind.(ContentAdopter)
	if !ok {
		return AdoptionResult{Reason: ReasonContentNotAdoptable}
	}
	raw, err := json.Marshal(s.KindState)
	if err != nil {
		return AdoptionResult{Reason: ReasonInvalidState}
	}
	if raw, err = e.migrateForCampaign(r.kind, raw, to, s.CampaignVersion); err != nil {
		return AdoptionResult{Reason: ReasonContentIncompatible}
	}
	st, err := decodeState(r.kind, raw, to)
	if err != nil {
		return AdoptionResult{Reason: ReasonContentIncompatible}
	}
	adopted, refusal := adopt(adopter, st, r.campaign, to)
	if refusal != "" {
		return AdoptionResult{Reason: refusal}
	}
	next := s.with()
	next.KindState = adopted
	next.CampaignVersion = version
	next.FormatVersion = FormatVersionEpochs
	next.ActionLog = s.ActionLog.Append(LoggedContent{Seq: s.ActionLog.Len(), From: s.CampaignVersion, To: version})
	e.resolutionEmitter(e.emitter, s.GameID, s.ActionLog.Len()).Emit("core.content.adopted", map[string]any{"from": s.CampaignVersion, "to": version})
	return AdoptionResult{Adopted: true, State: next}
}

// migrateForCampaign applies to's declared id migration from version from,
// when to declares one that accepts it; otherwise it returns raw unchanged.
func (e *Engine) migrateForCampaign(k Kind, raw json.RawMessage, to *Campaign, from string) (json.RawMessage, error) {
	if !to.Migration.Accepts(from) {
		return raw, nil
	}
	m, ok := k.(ContentMigrator)
	if !ok {
		return nil, fmt.Errorf("kind %q cannot apply campaign migrations", k.ID())
	}
	return guarded(func() (json.RawMessage, error) { return m.MigrateForCampaign(raw, to, from) })
}

// guarded runs one call into a kind's code, turning a panic into an error,
// so that a kind's defect met at the save boundary or at adoption is a
// reason code (invalid_state, migration_failed, content_incompatible) and
// never a crash of the host.
func guarded[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the kind failed: %v", r)
		}
	}()
	return f()
}

// decodeState is Kind.DecodeState, guarded.
func decodeState(k Kind, raw json.RawMessage, c *Campaign) (any, error) {
	return guarded(func() (any, error) { return k.DecodeState(raw, c) })
}

// adopt is ContentAdopter.AdoptContent, guarded: a panic refuses with
// content_incompatible.
func adopt(a ContentAdopter, st any, from, to *Campaign) (any, string) {
	var refusal string
	adopted, err := guarded(func() (any, error) {
		var v any
		v, refusal = a.AdoptContent(st, from, to)
		return v, nil
	})
	if err != nil {
		return nil, ReasonContentIncompatible
	}
	return adopted, refusal
}

// StartingVersion is the campaign version s's log started on (§2): the first
// epoch entry's from, or CampaignVersion when the log carries none.
func StartingVersion(s *GameState) string {
	if from, _, ok := s.ActionLog.firstEpoch(); ok {
		return from
	}
	return s.CampaignVersion
}
