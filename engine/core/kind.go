package core

import (
	"encoding/json"

	"github.com/storyloom/storyloom/engine/rng"
)

// Kind teaches the engine how one category of game plays (§3). The engine
// drives every kind through this interface without knowing which it is.
// Optional capabilities are separate interfaces a kind may also implement:
// TerminalCounter, StateMigrator, ContentMigrator, ContentAdopter and
// ProfileKind.
//
// Every method is pure: the same arguments always give the same result, and
// no method changes a state it is given. A kind's state value (the `state
// any` arguments) is the kind's own type, which must encode to JSON; a kind
// type-asserts it to its own type.
type Kind interface {
	// ID is the kind's id, e.g. "story-graph".
	ID() string
	// Version is the kind's manually maintained semver; it moves when the
	// shape of its state changes (§10.2).
	Version() string
	// ReasonCodes are the codes this kind adds to the base set.
	ReasonCodes() []string
	// ReasonMessages is the kind-owned string table: a
	// "<kindId>.reason.<code>" entry for every code of ReasonCodes, and any
	// other engine-owned key the kind's projection emits.
	ReasonMessages() map[LocKey]string
	// EventNames are the events this kind may emit.
	EventNames() []string

	// BuildContent is the authoring builder (§10.1): it reads the kind's
	// source document of a campaign, with player-facing text inline, and
	// returns the runtime content, which carries LocKeys only, and the
	// authored strings it lifted out. Tier 1 problems are returned as errs.
	BuildContent(source json.RawMessage, campaignID string) (content any, strings []AuthoredText, errs []ValidationError)
	// DecodeContent reads the runtime content as it encodes to JSON (the form
	// an archive stores), refusing anything malformed.
	DecodeContent(raw json.RawMessage) (any, error)
	// ValidateCampaign runs the kind's tier 1 and tier 2 checks on a built
	// campaign against its own string table (§11).
	ValidateCampaign(c *Campaign, strings map[LocKey]string) ValidationResult

	// InitialState builds the starting state of a new game (§3).
	// profileData is this kind's cross-game slice, or nil for none.
	InitialState(c *Campaign, ctx *Context, profileData json.RawMessage) InitialResult
	// AvailableActions lists what the player can do now (§6).
	AvailableActions(state any, ctx *ProjectionContext) []AvailableAction
	// Scene renders the current situation (§6).
	Scene(state any, ctx *ProjectionContext) SceneBody
	// Advance resolves one action (§3). A rejection sets Error and leaves
	// the state unchanged.
	Advance(state any, actionID string, params Params, ctx *Context) AdvanceResult
	// Project narrows the state to what audience may see (§9). The result
	// must encode to JSON; the engine copies it at the boundary (§9.1).
	Project(state any, audience Audience, ctx *ProjectionContext) any
	// DecodeState reads a kind state arriving from outside the engine and
	// judges whether this kind can run it against c (validateState, §3).
	DecodeState(raw json.RawMessage, c *Campaign) (any, error)
	// Outcome is the state's terminal identity (§3.2).
	Outcome(state any) Outcome
}

// TerminalCounter is implemented by a kind whose campaigns declare a bounded,
// countable set of terminals (§3, terminalCount).
type TerminalCounter interface {
	TerminalCount(c *Campaign) int
}

// StateMigrator is implemented by a kind whose state shape changed between
// versions (§3, migrateState). It runs on the encoded state, since an old
// shape need not decode into the current type.
type StateMigrator interface {
	MigrateState(old json.RawMessage, fromVersion string) (json.RawMessage, error)
}

// ContentMigrator is implemented by a kind that can apply a campaign's
// declared id migration (Campaign.Migration, §10.2) to an encoded state made
// under the version fromVersion. It may re-address and drop ids, never invent
// play, and fails when a reference can be neither remapped nor dropped.
type ContentMigrator interface {
	MigrateForCampaign(old json.RawMessage, to *Campaign, fromVersion string) (json.RawMessage, error)
	// MigrationIDs returns the id categories a migration on c may name,
	// each with whether c's content declares an id: what CheckMigration
	// checks a declared migration against.
	MigrationIDs(c *Campaign) map[string]func(id string) bool
}

// ContentAdopter is implemented by a kind whose running games can move to
// another published version of their campaign (§3, adoptContent). A kind
// without it keeps every session pinned to the epoch it started on. A
// refusal returns a reason code and a nil state.
type ContentAdopter interface {
	AdoptContent(state any, from, to *Campaign) (adopted any, refusal string)
}

// ProfileKind is implemented by a kind that keeps cross-game data in the
// player's profile (§3, profileData; §7.1).
type ProfileKind interface {
	// ProfileVersion is the shape version of the slice, a positive integer.
	ProfileVersion() int
	// FoldProfile folds one successful action's changes into the slice
	// (current is nil the first time). It must be pure and idempotent.
	FoldProfile(current json.RawMessage, c *Campaign, changes []StateChange) (json.RawMessage, error)
	// MigrateProfile migrates a slice written under an older version; an
	// error drops the slice for the session with a warning.
	MigrateProfile(data json.RawMessage, fromVersion int) (json.RawMessage, error)
}

// MilestoneKind is implemented by a kind whose campaigns have achievements
// and endings a player collects in their profile. The session store reads
// it to say what an action unlocked (session.News); hosts read it to show a
// campaign's progress. A kind without it has none to show.
type MilestoneKind interface {
	Milestones(c *Campaign) Milestones
}

// Milestones lists a campaign's achievements and endings, in declaration
// order.
type Milestones struct {
	Achievements []Milestone `json:"achievements"`
	Endings      []Milestone `json:"endings"`
}

// Ending outcomes, as Milestone.Outcome states them.
const (
	OutcomeWin     = "win"
	OutcomeLose    = "lose"
	OutcomeNeutral = "neutral"
)

// Milestone is one achievement or ending: its id (an ending's is the
// TerminalID its Outcome names), its title and description keys, and for an
// ending its outcome, "win", "lose" or "neutral".
type Milestone struct {
	ID             string `json:"id"`
	TitleKey       LocKey `json:"titleKey"`
	DescriptionKey LocKey `json:"descriptionKey,omitempty"`
	Outcome        string `json:"outcome,omitempty"`
}

// AuthoredText is a player-facing string lifted out of a campaign's source:
// its key and its text in the campaign's default locale.
type AuthoredText struct {
	Key  LocKey `json:"key"`
	Text string `json:"text"`
}

// ValidationResult is the result of validating content (§11): OK is false iff
// there is an error (tier 1); warnings (tier 2) do not refuse.
type ValidationResult struct {
	OK       bool                `json:"ok"`
	Errors   []ValidationError   `json:"errors"`
	Warnings []ValidationWarning `json:"warnings"`
}

// Context is everything a kind needs to resolve (§3.1), supplied by the
// engine for one resolution and dropped when it returns.
type Context struct {
	// Registry is the content registry of the state's epoch.
	Registry *Registry
	// Campaign is this game's campaign, resolved.
	Campaign *Campaign
	// RNG is the handle on this resolution's own stream (§8).
	RNG *rng.Handle
	// Seq is the current action sequence number.
	Seq int
	// Emit is this resolution's event handle; nothing about it reaches state.
	Emit *ResolutionEmitter
	seed string

	// stream and emitter are what RNG and Emit point at when the engine
	// made the context (init): one allocation per resolution, not three.
	stream  rng.Handle
	emitter ResolutionEmitter
}

// init makes c the context of one resolution of game gameID at seq,
// drawing from stream id of seed and emitting to sink.
func (c *Context) init(r *Registry, campaign *Campaign, seed string, id rng.StreamID, gameID string, seq int, sink Emitter) {
	*c = Context{Registry: r, Campaign: campaign, Seq: seq, seed: seed,
		stream: rng.At(seed, id), emitter: ResolutionEmitter{sink: sink, gameID: gameID, seq: seq}}
	c.RNG, c.Emit = &c.stream, &c.emitter
}

// Derive returns a handle on any other stream of this game's seed (§3.1).
func (c *Context) Derive(id rng.StreamID) *rng.Handle { return rng.For(c.seed, id) }

// Strings returns the registry's string table in the default locale, or
// nil when the context has no registry.
func (c *Context) Strings() map[LocKey]string {
	if c.Registry == nil {
		return nil
	}
	return c.Registry.Strings
}

// ProjectionContext is the wider context of the three projecting members
// (§3.1): it adds EngineRef.
type ProjectionContext struct {
	Context
	engineRef func(LocKey) LocKey
}

// EngineRef maps an engine-owned LocKey to the key a response carries for it
// (§7, response aliases). A kind calls it where it produces an engine-owned
// reference, never on a key that came from content or state.
func (p *ProjectionContext) EngineRef(key LocKey) LocKey {
	if p.engineRef == nil {
		return key
	}
	return p.engineRef(key)
}

// AdvanceResult is what Kind.Advance returns (§3).
type AdvanceResult struct {
	State    any
	Status   Status
	Changes  []StateChange
	Messages []OutcomeMessage
	Error    *ValidationError
}

// Reject is the conventional rejected AdvanceResult: the error, and one
// visible message built from the same key so a client that renders only
// messages still tells the player (§3).
func Reject(state any, err ValidationError) AdvanceResult {
	return AdvanceResult{
		State:    state,
		Status:   StatusActive,
		Error:    &err,
		Messages: []OutcomeMessage{{Key: err.MessageKey, Visible: true, Tone: ToneNegative}},
	}
}

// InitialResult is what Kind.InitialState returns: AdvanceResult minus the
// error, since a validated campaign cannot fail to start.
type InitialResult struct {
	State    any
	Status   Status
	Changes  []StateChange
	Messages []OutcomeMessage
}

// Outcome is a state's terminal identity (§3.2): whether the game is over and
// the published id naming how it ended. A kind widens it with Fields.
type Outcome struct {
	Terminal   bool
	TerminalID string // "" while active, or when a game ends without naming one
	Fields     map[string]any
}

// MarshalJSON writes {terminal, terminalId (null when empty), ...Fields}.
func (o Outcome) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(o.Fields)+2)
	for k, v := range o.Fields {
		m[k] = v
	}
	m["terminal"] = o.Terminal
	if o.TerminalID == "" {
		m["terminalId"] = nil
	} else {
		m["terminalId"] = o.TerminalID
	}
	return json.Marshal(m)
}
