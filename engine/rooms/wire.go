package rooms

import (
	"encoding/json"
	"sort"
)

// Room states as RoomSummary.state and RoomView.state carry them.
const (
	StateGathering  = "gathering"
	StateInProgress = "in_progress"
	StateFinished   = "finished"
)

// Room visibilities. Public is the default and is elided from the wire.
const (
	VisibilityPublic  = "public"
	VisibilityPrivate = "private"
)

// Seat bounds of the lobby's plumbing; a format narrows them further.
const (
	MinSeats = 2
	MaxSeats = 8
)

// MaxNameRunes is the longest display or table name, in characters.
const MaxNameRunes = 32

// RoomConfig is a room's whole configuration, as create_room and update_room
// carry it and every RoomView and RoomSummary report it.
type RoomConfig struct {
	// Seats is the seat count, in 2..=8 and in the format's own range.
	Seats int `json:"seats"`
	// GameSetup names the format (a registered Game) the room plays.
	GameSetup string `json:"game_setup"`
	// Name is the table's display name; omitted when unnamed.
	Name string `json:"name,omitempty"`
	// Visibility is "private" or omitted (public).
	Visibility string `json:"visibility,omitempty"`
	// UndoEnabled lets any seat take the last transition back.
	UndoEnabled bool `json:"undo_enabled,omitempty"`
	// ActionSeconds is the decision clock (a Storyloom addition): how long
	// a seat has for each decision before the game's timeout default is
	// taken for it. Omitted (0) for no clock; otherwise 5..=3600.
	ActionSeconds int `json:"action_seconds,omitempty"`
}

// SeatView is one seat of a RoomView's roster.
type SeatView struct {
	// Seat is the zero-based seat index.
	Seat int `json:"seat"`
	// OccupiedBy is the occupant's public player id; omitted for an empty
	// or AI seat.
	OccupiedBy string `json:"occupied_by,omitempty"`
	// Name is the occupant's display name; omitted when unnamed.
	Name string `json:"name,omitempty"`
	// Decked says a valid deck (or, for a deckless format, nothing) stands
	// submitted for the seat.
	Decked bool `json:"decked"`
	// Colors is the submitted deck's colour identity; omitted when none.
	Colors []string `json:"colors,omitempty"`
	// Commander is the designated commander's card identity, if any.
	Commander string `json:"commander,omitempty"`
	// Ready is the seat's readiness.
	Ready bool `json:"ready"`
	// AI is the AI kind filling the seat; omitted for a human or empty seat.
	AI string `json:"ai,omitempty"`
	// Connected is present, and false, only for a human seat whose session
	// has no connection (a Storyloom addition; omitted means connected).
	Connected *bool `json:"connected,omitempty"`
}

// RoomView is the room a lobby connection sits in.
type RoomView struct {
	// RoomID is the opaque room id join_room and spectate_room accept.
	RoomID string `json:"room_id"`
	// Config is the room's whole configuration.
	Config RoomConfig `json:"config"`
	// Seats is the ordered roster.
	Seats []SeatView `json:"seats"`
	// State is gathering, in_progress or finished (a Storyloom addition).
	State string `json:"state"`
	// Spectators counts observers; omitted when 0.
	Spectators int `json:"spectators,omitempty"`
}

// DirectoryPageSize is how many rooms one page of the directory a
// LobbyView carries holds.
const DirectoryPageSize = 20

// RoomSummary is one entry of the public directory.
type RoomSummary struct {
	// RoomID is the opaque room id.
	RoomID string `json:"room_id"`
	// Config is the room's whole configuration.
	Config RoomConfig `json:"config"`
	// Filled counts occupied seats, AI seats included.
	Filled int `json:"filled"`
	// Spectators counts observers; omitted when 0.
	Spectators int `json:"spectators,omitempty"`
	// State is gathering or in_progress.
	State string `json:"state"`
}

// LobbyView is the complete pre-game state for one connection.
type LobbyView struct {
	// Session is the private reconnect token; echo it in a later hello.
	Session string `json:"session"`
	// You is the connection's public player id.
	You string `json:"you"`
	// Name is the connection's display name; omitted when unset.
	Name string `json:"name,omitempty"`
	// Room is the room the session sits in, if any.
	Room *RoomView `json:"room,omitempty"`
	// Directory is one page of the public rooms available to browse:
	// DirectoryPageSize of them, oldest first, from the page the
	// connection chose with browse. A session seated in a room is shown
	// its room and no directory.
	Directory []RoomSummary `json:"directory,omitempty"`
	// DirectoryMore says a later page of the directory has rooms.
	DirectoryMore bool `json:"directory_more,omitempty"`
	// DirectoryPage is the page Directory shows (0, the oldest rooms,
	// is omitted).
	DirectoryPage int `json:"directory_page,omitempty"`
	// ValidCommands lists the lobby commands available right now.
	ValidCommands []string `json:"valid_commands,omitempty"`
}

// Rejection is a structured reason for a refused frame. It travels inside
// a LobbyErrorFrame in both phases.
type Rejection struct {
	// Code is a stable snake_case rejection class (the Code* constants).
	Code string `json:"code"`
	// Reason is human-readable text, safe to display verbatim.
	Reason string `json:"reason"`
	// Card is the offending card of the sender's own deck, if one is at fault.
	Card string `json:"card,omitempty"`
	// Detail is a finer reason code under Code, when there is one: for a
	// refused name, the NamePolicy's (such as "name_invisible_character").
	Detail string `json:"detail,omitempty"`
}

// Error makes a Rejection an error: "rooms: <reason>".
func (r *Rejection) Error() string { return "rooms: " + r.Reason }

// LobbyErrorFrame is the rejection frame; its lobby_error key is the wire
// discriminator no other frame carries.
type LobbyErrorFrame struct {
	// LobbyError is the rejection.
	LobbyError Rejection `json:"lobby_error"`
}

// AIOption describes an AI kind a host may seat.
type AIOption struct {
	// ID is the kind id add_ai carries and SeatView.ai reports.
	ID string `json:"id"`
	// Name is a short display name.
	Name string `json:"name"`
	// Description says in one line how the kind plays.
	Description string `json:"description,omitempty"`
}

// CatalogCard is one card of the public card catalog. No Storyloom format
// has cards yet; the type is kept for the card game a later issue adds.
type CatalogCard struct {
	FunctionalID string   `json:"functional_id"`            // stable identity a decklist uses
	Name         string   `json:"name"`                     // display name
	TypeLine     string   `json:"type_line"`                // full type line
	ManaCost     string   `json:"mana_cost,omitempty"`      // mana cost, if any
	RulesText    string   `json:"rules_text,omitempty"`     // generated rules text
	Power        string   `json:"power,omitempty"`          // creatures only
	Toughness    string   `json:"toughness,omitempty"`      // creatures only
	Loyalty      string   `json:"loyalty,omitempty"`        // planeswalkers only
	Keywords     []string `json:"keywords,omitempty"`       // lowercase keyword names
	CardTypes    []string `json:"card_types,omitempty"`     // the card's types
	ColorID      []string `json:"color_identity,omitempty"` // colour identity, WUBRG order
}

// CatalogFormat is one format's deck rules and seat range.
type CatalogFormat struct {
	GameSetup            string   `json:"game_setup"`                       // the RoomConfig.game_setup id
	Name                 string   `json:"name,omitempty"`                   // display name (Storyloom)
	Description          string   `json:"description,omitempty"`            // one line (Storyloom)
	MinDeckSize          int      `json:"min_deck_size"`                    // 0 for no minimum
	MaxDeckSize          *int     `json:"max_deck_size,omitempty"`          // omitted: no bound
	MaxCopies            *int     `json:"max_copies,omitempty"`             // omitted: no limit
	BasicLandExempt      bool     `json:"basic_land_exempt"`                // basics exempt from max_copies
	RequiresCommander    bool     `json:"requires_commander,omitempty"`     // deck must name a commander
	EnforceColorIdentity bool     `json:"enforce_color_identity,omitempty"` // CR 903.4
	MinSeats             int      `json:"min_seats"`                        // fewest seats
	MaxSeats             int      `json:"max_seats"`                        // most seats
	Deckless             bool     `json:"deckless,omitempty"`               // no deck to submit (Storyloom)
	AI                   []string `json:"ai,omitempty"`                     // AI kind ids this format seats (Storyloom)
}

// CatalogVersion is the CatalogView projection's schema version.
const CatalogVersion = 1

// CatalogView answers request_catalog.
type CatalogView struct {
	// CatalogVersion is the schema version and the wire discriminator.
	CatalogVersion int `json:"catalog_version"`
	// Cards lists every supported card; empty for now.
	Cards []CatalogCard `json:"cards,omitempty"`
	// Formats lists every registered format.
	Formats []CatalogFormat `json:"formats"`
	// AIOpponents lists every AI kind any format seats.
	AIOpponents []AIOption `json:"ai_opponents,omitempty"`
}

// Requirement is a target slot of a ValidAction.
type Requirement struct {
	Slot       string   `json:"slot"`               // opaque slot id
	Prompt     string   `json:"prompt"`             // display prompt
	Optional   bool     `json:"optional,omitempty"` // may be left unanswered
	Subject    string   `json:"subject,omitempty"`  // the entity the slot is about
	Taps       []string `json:"taps,omitempty"`     // candidates answering would tap
	Count      int      `json:"count,omitempty"`    // most ids one answer names; 0 means 1 (Storyloom)
	Candidates []string `json:"candidates"`         // every legal id
}

// Option is one choice of an option prompt.
type Option struct {
	ID       string   `json:"id"`                 // the answer
	Label    string   `json:"label"`              // display text
	Requires []string `json:"requires,omitempty"` // slots this choice owes an answer to
}

// NumberValue is one enumerated value of a number prompt.
type NumberValue struct {
	Value int    `json:"value"`          // the value
	Cost  string `json:"cost,omitempty"` // what announcing it costs
}

// Prompt kinds.
const (
	PromptOption         = "option"
	PromptSelectFromZone = "select_from_zone"
	PromptOrder          = "order"
	PromptNumber         = "number"
	PromptPayMana        = "pay_mana"
)

// Prompt is a tagged non-target choice of a ValidAction. On the wire its
// candidates member holds Candidates (select_from_zone) or ManaCandidates
// (pay_mana), by kind.
type Prompt struct {
	Kind           string          `json:"kind"`              // option, select_from_zone, order, number or pay_mana
	Slot           string          `json:"slot"`              // opaque slot id
	Prompt         string          `json:"prompt"`            // display prompt
	Options        []Option        `json:"options,omitempty"` // option
	Zone           string          `json:"zone,omitempty"`    // select_from_zone
	Owner          string          `json:"owner,omitempty"`   // select_from_zone
	Count          int             `json:"count,omitempty"`   // select_from_zone: most ids
	Min            *int            `json:"min,omitempty"`     // select_from_zone (omitted: count) and number
	Max            *int            `json:"max,omitempty"`     // number
	Candidates     []string        `json:"-"`                 // select_from_zone: the ids to choose from
	Items          []string        `json:"items,omitempty"`   // order
	Values         []NumberValue   `json:"values,omitempty"`  // number, when enumerated
	Pip            string          `json:"pip,omitempty"`     // pay_mana: the pip paid, e.g. "{G}"
	ManaCandidates []ManaCandidate `json:"-"`                 // pay_mana: the ways to pay the pip
}

// Least is the fewest ids a select_from_zone answer holds: Min, or Count
// when Min is omitted.
func (p Prompt) Least() int {
	if p.Min != nil {
		return *p.Min
	}
	return p.Count
}

// ManaCandidate is one way to pay a pay_mana pip: the activation to send
// back (ID) and the permanent it taps or spends (Source). A source that can
// pay the pip several ways appears once per way, each with a Label.
type ManaCandidate struct {
	ID     string `json:"id"`              // the answer
	Source string `json:"source"`          // the permanent to click
	Label  string `json:"label,omitempty"` // what this way produces
	Taps   bool   `json:"taps,omitempty"`  // answering taps the source
}

type promptFields Prompt

// promptWire is a Prompt as JSON: its candidates member by kind.
type promptWire struct {
	promptFields
	Candidates json.RawMessage `json:"candidates,omitempty"`
}

// MarshalJSON encodes the prompt with its kind's candidates member: a
// pay_mana prompt always carries its (possibly empty) list, any other kind
// omits an empty one.
func (p Prompt) MarshalJSON() ([]byte, error) {
	w := promptWire{promptFields: promptFields(p)}
	var err error
	switch {
	case p.Kind == PromptPayMana:
		w.Candidates, err = json.Marshal(append([]ManaCandidate{}, p.ManaCandidates...))
	case len(p.Candidates) > 0:
		w.Candidates, err = json.Marshal(p.Candidates)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a prompt, its candidates member by kind.
func (p *Prompt) UnmarshalJSON(data []byte) error {
	var w promptWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*p = Prompt(w.promptFields)
	if len(w.Candidates) == 0 || string(w.Candidates) == "null" {
		return nil
	}
	if p.Kind == PromptPayMana {
		return json.Unmarshal(w.Candidates, &p.ManaCandidates)
	}
	return json.Unmarshal(w.Candidates, &p.Candidates)
}

// Cost is what a cast costs, in printed {…} notation: Printed as the card
// states it, Modified as it will be paid (commander tax and cost changes
// included; "{0}" is a real cost).
type Cost struct {
	Printed  string `json:"printed,omitempty"` // the printed cost, if any
	Modified string `json:"modified"`          // the cost actually paid
}

// Destination is where an action puts something: a zone, an entity or a
// player (Type is free-form).
type Destination struct {
	Type  string `json:"type"`            // zone, entity or player
	ID    string `json:"id"`              // the destination's id
	Owner string `json:"owner,omitempty"` // whose it is, for a zone
	Label string `json:"label,omitempty"` // display text
}

// Action is one valid action offered to one seat. A Position returns it
// without a Token; the machine stamps the token that binds its content.
type Action struct {
	ID           string        `json:"id"`                     // opaque handle returned in choose_action
	Type         string        `json:"type"`                   // free-form category
	Label        string        `json:"label"`                  // display text
	Subject      []string      `json:"subject,omitempty"`      // entities owning the action
	ManaAbility  bool          `json:"mana_ability,omitempty"` // a mana ability: no targets, no stack
	Cost         *Cost         `json:"cost,omitempty"`         // what a cast costs
	Destinations []Destination `json:"destinations,omitempty"` // where the action puts things
	Token        string        `json:"token,omitempty"`        // content token, set by the machine
	Requirements []Requirement `json:"requirements,omitempty"` // target slots
	Prompts      []Prompt      `json:"prompts,omitempty"`      // non-target slots
}

// TargetChoice answers one slot of an action.
type TargetChoice struct {
	Slot   string   `json:"slot"`   // the slot answered
	Chosen []string `json:"chosen"` // the chosen ids, in order
}

// Result is a finished game's verdict. Winner is absent for a draw.
type Result struct {
	Winner string   `json:"winner,omitempty"` // winning player id
	Losers []string `json:"losers,omitempty"` // losing player ids
	Reason string   `json:"reason"`           // free-form snake_case reason
}

// LogEntry is one entry of the bounded, sequence-numbered game log.
type LogEntry struct {
	// Sequence increases monotonically over the game and never repeats,
	// across undo too.
	Sequence int64 `json:"sequence"`
	// Event is the tagged public event, an object with a "type".
	Event json.RawMessage `json:"event"`
}

// ActionAck acknowledges a correlated choose_action.
type ActionAck struct {
	Submission string `json:"submission"` // the client's correlation id, echoed
	Accepted   bool   `json:"accepted"`   // always present
}

// UndoView says what undo can do at a table that enabled it.
type UndoView struct {
	Available int `json:"available"` // checkpoints that can be taken back now
	Limit     int `json:"limit"`     // most checkpoints the room retains
}

// MatchFormat is the match's format signal.
type MatchFormat struct {
	ID        string `json:"id,omitempty"`        // the room's game_setup
	Commander bool   `json:"commander,omitempty"` // a Commander game
}

// AutoPassedStep is one position a settle acted at for the receiver.
type AutoPassedStep struct {
	Phase string `json:"phase"` // the step
	Turn  int    `json:"turn"`  // the turn it belonged to
}

// TableSeat is the public presentation state of one seat in a match (a
// Storyloom addition carrying what the card game puts on OpponentView).
type TableSeat struct {
	Seat      int    `json:"seat"`                // seat index
	PlayerID  string `json:"player_id"`           // in-game player id, "p<seat>"
	Name      string `json:"name,omitempty"`      // display name, if any
	AI        string `json:"ai,omitempty"`        // AI kind, for an AI seat
	Connected *bool  `json:"connected,omitempty"` // present, false, only when disconnected
}

// GameView is one seat's complete personalized view of a match. The
// machine's fields are below; Game holds the members of the game's own
// projection for this seat, spliced into the same JSON object (a member
// that collides with a machine field is dropped).
type GameView struct {
	You            string            `json:"you"`
	RoomID         string            `json:"room_id"`
	SeatOrder      []string          `json:"seat_order"`
	Seats          []TableSeat       `json:"seats"`
	PlayerNames    map[string]string `json:"player_names,omitempty"`
	ValidActions   []Action          `json:"valid_actions,omitempty"`
	ActionDeadline *int64            `json:"action_deadline,omitempty"`
	Result         *Result           `json:"result,omitempty"`
	Log            []LogEntry        `json:"log,omitempty"`
	Stops          []string          `json:"stops,omitempty"`
	OwnTurnStops   []string          `json:"own_turn_stops,omitempty"`
	AutoPassed     bool              `json:"auto_passed,omitempty"`
	// AutoPassedSteps is the path of steps a Stepper game's settle acted
	// at for this receiver; AutoPassedFrom, present exactly with it, is
	// the log sequence of the action that started that settle.
	AutoPassedSteps []AutoPassedStep `json:"auto_passed_steps,omitempty"`
	AutoPassedFrom  *int64           `json:"auto_passed_from,omitempty"`
	ActionRejected  bool             `json:"action_rejected,omitempty"`
	ActionAck       *ActionAck       `json:"action_ack,omitempty"`
	Format          *MatchFormat     `json:"format,omitempty"`
	Undo            *UndoView        `json:"undo,omitempty"`

	// Game holds the game's projection members; see the type comment.
	Game map[string]json.RawMessage `json:"-"`
}

// SpectatorView is a spectator's view of a match: the public table only.
// It has no receiver or decision fields at all, and no "you".
type SpectatorView struct {
	RoomID      string            `json:"room_id"`
	SeatOrder   []string          `json:"seat_order"`
	Seats       []TableSeat       `json:"seats"`
	PlayerNames map[string]string `json:"player_names,omitempty"`
	Result      *Result           `json:"result,omitempty"`
	Log         []LogEntry        `json:"log,omitempty"`
	Format      *MatchFormat      `json:"format,omitempty"`

	// Game holds the game's spectator projection members.
	Game map[string]json.RawMessage `json:"-"`
}

type gameViewFields GameView
type spectatorViewFields SpectatorView

// MarshalJSON encodes the view with the game's members spliced in.
func (v GameView) MarshalJSON() ([]byte, error) {
	return splice(gameViewFields(v), v.Game)
}

// UnmarshalJSON decodes the machine's fields and keeps every other member
// in Game.
func (v *GameView) UnmarshalJSON(data []byte) error {
	var f gameViewFields
	rest, err := unsplice(data, &f)
	if err != nil {
		return err
	}
	*v = GameView(f)
	v.Game = rest
	return nil
}

// MarshalJSON encodes the view with the game's members spliced in.
func (v SpectatorView) MarshalJSON() ([]byte, error) {
	return splice(spectatorViewFields(v), v.Game)
}

// UnmarshalJSON decodes the machine's fields and keeps every other member
// in Game.
func (v *SpectatorView) UnmarshalJSON(data []byte) error {
	var f spectatorViewFields
	rest, err := unsplice(data, &f)
	if err != nil {
		return err
	}
	*v = SpectatorView(f)
	v.Game = rest
	return nil
}

// splice marshals fields and adds every extra member whose key the fields
// did not already claim, so a game can never overwrite a machine field.
func splice(fields any, extra map[string]json.RawMessage) ([]byte, error) {
	base, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	if len(extra) == 0 {
		return base, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(base, &m); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, taken := m[k]; taken || reserved(k) {
			continue
		}
		m[k] = extra[k]
	}
	return json.Marshal(m)
}

// unsplice decodes data into fields and returns the members of data that
// are not machine fields.
func unsplice(data []byte, fields any) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(data, fields); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for k := range m {
		if reserved(k) {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// reserved reports whether key is a machine-owned member of GameView or
// SpectatorView (or a discriminator of another frame), which a game's
// projection may never supply.
func reserved(key string) bool {
	switch key {
	case "you", "room_id", "seat_order", "seats", "player_names",
		"valid_actions", "action_deadline", "result", "log", "stops",
		"own_turn_stops", "auto_passed", "auto_passed_steps", "auto_passed_from",
		"action_rejected", "action_ack",
		"format", "undo", "session", "lobby_error", "catalog_version",
		"valid_commands", "directory":
		return true
	}
	return false
}
