package rooms

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/storyloom/storyloom/engine/rng"
)

// Spectator is the seat a Position projects for a spectator: the public
// table, with every seat's hidden information redacted.
const Spectator = -1

// Format describes a game to the lobby: its id, its seat range, whether it
// needs a deck, and the AI kinds it can seat; and to the match: its
// Commander flag, its step names and default stops, and its own log window
// and settle bound.
type Format struct {
	// ID is the game_setup id a RoomConfig names.
	ID string
	// Name and Description are display text for the catalog.
	Name, Description string
	// MinSeats and MaxSeats are the format's own seat range, within 2..=8.
	MinSeats, MaxSeats int
	// Deck holds the deck rules of a format that needs a deck; nil means
	// deckless: seats are decked by construction and submit_deck is refused.
	Deck *DeckRules
	// AI lists the AI kinds a host may seat in this format.
	AI []AIOption
	// Commander marks a Commander format: every view's format carries
	// commander: true.
	Commander bool
	// Phases, when set, are the only step names set_stops accepts (the
	// card game's Phase values); unset, any snake_case name is stored.
	Phases []string
	// DefaultStops are the own_turn_stops every human seat starts a game
	// with, until its first set_stops replaces them; AI seats start with
	// none. Each must be one of Phases when Phases is set.
	DefaultStops []string
	// LogWindow and SettleSteps, when positive, replace the server's
	// Limits of the same names for this format's rooms.
	LogWindow, SettleSteps int
}

// Step is where a stepped game stands, as a Stepper reports it.
type Step struct {
	Turn   int    // the turn, from 1
	Phase  string // the step's name, one of the format's Phases
	Active int    // the active seat
	// Entered counts the steps the game has entered so far. Two reports
	// with the same Turn and Phase are one visit only if Entered is equal
	// too: an extra combat or cleanup enters the same step again.
	Entered int
}

// Stepper is an optional Position capability for a game played in turns
// of named steps (the card game). With it the machine's settle answers for
// a human seat too: when the seat is asked something, the current step is
// not one of its stops (stops on any turn, own_turn_stops while it is the
// active seat), and Idle says it has nothing meaningful to do, the machine
// applies Idle's choice and reports the step on the seat's next view
// (auto_passed, auto_passed_steps, auto_passed_from).
type Stepper interface {
	// Step reports the current step.
	Step() Step
	// Idle returns the choice a seat with no meaningful action makes: a
	// pass, or the empty declaration of a combat step it cannot declare
	// anything in. ok is false when the seat has a real decision or is
	// not being asked anything.
	Idle(seat int) (c Choice, ok bool)
}

// SeatStatus is what only the machine knows of a seat during a match.
type SeatStatus struct {
	// Connected is false for a human seat whose session has no connection
	// and true otherwise (an AI seat is always connected).
	Connected bool
	// AI is the AI kind filling the seat, empty for a human.
	AI string
}

// SeatViewer is an optional Position capability: a projection that
// carries every seat's connection and AI flags (the card game's me,
// opponents[] and players[]). When a Position has it, the machine calls
// ViewSeats instead of View, with seats in seat order.
type SeatViewer interface {
	// ViewSeats is View, given every seat's status.
	ViewSeats(seat int, seats []SeatStatus) any
}

// DeckRules is the deck policy of a format that needs a deck. Check is the
// authority; the other fields are what the catalog advertises.
type DeckRules struct {
	MinDeckSize          int  // fewest cards
	MaxDeckSize          int  // most cards; 0 for no bound
	MaxCopies            int  // most copies of a card; 0 for no limit
	BasicLandExempt      bool // basics exempt from MaxCopies
	RequiresCommander    bool // a commander must be designated
	EnforceColorIdentity bool // every card fits the commander's identity
	// Cards is the format's card pool for the catalog.
	Cards []CatalogCard
	// Check validates a deck and returns its colour identity, or a
	// Rejection carrying one of the deck-legality codes.
	Check func(cards []string, commander string) (colors []string, err *Rejection)
}

// Player is one seat as the game is set up with it.
type Player struct {
	Seat      int      // seat index
	ID        string   // in-game player id, "p<seat>"
	Name      string   // display name, possibly empty
	AI        string   // AI kind, empty for a human
	Deck      []string // submitted deck, nil for a deckless format
	Commander string   // designated commander, if any
}

// PlayerID returns the in-game player id of seat: "p0", "p1", ….
func PlayerID(seat int) string {
	if seat >= 0 && seat < len(playerIDs) {
		return playerIDs[seat]
	}
	return "p" + strconv.Itoa(seat)
}

// playerIDs are the ids of the seats a room can have, so that views,
// which name a player in nearly every record, do not build them anew.
var playerIDs = [MaxSeats]string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}

// Game is the table-game seam: what a multiplayer game implements for the
// room machine. Implementations are stateless values; all game state lives
// in a Position and is persisted as its canonical bytes.
type Game interface {
	// Format describes the game to the lobby.
	Format() Format
	// Setup deals a new game for players (in seat order) from seed. All
	// randomness must be drawn from engine/rng streams of seed.
	Setup(seed string, players []Player) (Position, error)
	// Load decodes a state that Position.State returned.
	Load(state []byte) (Position, error)
}

// Position is one decoded game state. The machine loads a Position from its
// stored bytes for every transition and projection, so a Position never
// outlives one call into the machine and may be mutated by Apply.
type Position interface {
	// State returns the canonical encoding of the whole state, including
	// any seed the game needs later. It is never shown to anyone.
	State() ([]byte, error)
	// View returns the projection for seat, or for Spectator: a value that
	// encodes as a JSON object holding only what that receiver may know.
	// Its members are spliced into the GameView or SpectatorView.
	View(seat int) any
	// Actions returns the actions seat may take now, without tokens; nil
	// when the seat is not being asked anything or the game is over.
	// Action content must identify the decision (for example by a turn
	// number in the id), so an answer to an earlier question is stale.
	Actions(seat int) []Action
	// Apply applies seat's answer to one of its current actions. The
	// machine has already checked the token and the answer's shape against
	// the slots; Apply checks the rules. It returns the public log events
	// the transition produced, each an object with a "type" member.
	Apply(seat int, c Choice) ([]Event, error)
	// Timeout returns the default the machine takes for seat when its
	// decision clock runs out (a pass, never a concession); ok is false
	// when the seat has none.
	Timeout(seat int) (c Choice, ok bool)
	// AI returns the choice the AI kind makes for seat, drawing only from h.
	AI(kind string, seat int, h *rng.Handle) Choice
	// Result returns the verdict once the game is over, else nil.
	Result() *Result
}

// Choice is a seat's answer to one action, as Position.Apply receives it.
type Choice struct {
	// ActionID names the action answered.
	ActionID string
	// Targets maps each answered slot to its chosen ids, in order.
	Targets map[string][]string
}

// Event is one public log event: an object whose "type" member tags it.
// It must hold nothing any seat may not know.
type Event map[string]any

// Registry holds the games a server can host, by format id. It is built
// once, explicitly, where the host builds its server.
type Registry struct {
	games map[string]Game
	ids   []string
	names NamePolicy
}

// NamePolicy checks a display or table name a client asks for and returns
// it normalized, or an error saying why it is refused; an error with a
// ReasonCode() string method puts that code in the rejection's Detail.
// The product's policy is bundle/displayname.Check, which the hosts set
// (the engine takes no third-party dependency); without one, a name is
// 1..MaxNameRunes printable characters.
type NamePolicy func(name string) (string, error)

// SetNamePolicy makes p the policy of every name the servers using r
// accept. It is set once, before the registry serves.
func (r *Registry) SetNamePolicy(p NamePolicy) { r.names = p }

// NewRegistry registers games. Format ids must be unique and non-empty and
// seat ranges must lie within 2..=8.
func NewRegistry(games ...Game) (*Registry, error) {
	r := &Registry{games: map[string]Game{}}
	for _, g := range games {
		f := g.Format()
		if f.ID == "" {
			return nil, fmt.Errorf("rooms: format with an empty id")
		}
		if _, dup := r.games[f.ID]; dup {
			return nil, fmt.Errorf("rooms: duplicate format %q", f.ID)
		}
		if f.MinSeats < MinSeats || f.MaxSeats > MaxSeats || f.MinSeats > f.MaxSeats {
			return nil, fmt.Errorf("rooms: format %q seat range %d..%d outside %d..%d", f.ID, f.MinSeats, f.MaxSeats, MinSeats, MaxSeats)
		}
		if f.Deck != nil && f.Deck.Check == nil {
			return nil, fmt.Errorf("rooms: format %q has deck rules without Check", f.ID)
		}
		if err := checkPhases(f); err != nil {
			return nil, err
		}
		r.games[f.ID] = g
		r.ids = append(r.ids, f.ID)
	}
	sort.Strings(r.ids)
	return r, nil
}

// checkPhases checks a format's step names and default stops.
func checkPhases(f Format) error {
	for _, p := range f.Phases {
		if !isToken(p) {
			return fmt.Errorf("rooms: format %q phase %q is not a snake_case name", f.ID, p)
		}
	}
	for _, p := range f.DefaultStops {
		if !isToken(p) || len(f.Phases) > 0 && !slices.Contains(f.Phases, p) {
			return fmt.Errorf("rooms: format %q default stop %q is not one of its phases", f.ID, p)
		}
	}
	return nil
}

// Game returns the game registered under format id.
func (r *Registry) Game(id string) (Game, bool) {
	g, ok := r.games[id]
	return g, ok
}

// IDs returns the registered format ids, sorted.
func (r *Registry) IDs() []string { return append([]string(nil), r.ids...) }

// Catalog returns the CatalogView every request_catalog is answered with.
func (r *Registry) Catalog() CatalogView {
	cv := CatalogView{CatalogVersion: CatalogVersion, Formats: []CatalogFormat{}}
	seenAI := map[string]bool{}
	seenCard := map[string]bool{}
	for _, id := range r.ids {
		f := r.games[id].Format()
		cf := CatalogFormat{GameSetup: f.ID, Name: f.Name, Description: f.Description,
			MinSeats: f.MinSeats, MaxSeats: f.MaxSeats, Deckless: f.Deck == nil}
		if d := f.Deck; d != nil {
			cf.MinDeckSize = d.MinDeckSize
			if d.MaxDeckSize > 0 {
				n := d.MaxDeckSize
				cf.MaxDeckSize = &n
			}
			if d.MaxCopies > 0 {
				n := d.MaxCopies
				cf.MaxCopies = &n
			}
			cf.BasicLandExempt = d.BasicLandExempt
			cf.RequiresCommander = d.RequiresCommander
			cf.EnforceColorIdentity = d.EnforceColorIdentity
			for _, c := range d.Cards {
				if !seenCard[c.FunctionalID] {
					seenCard[c.FunctionalID] = true
					cv.Cards = append(cv.Cards, c)
				}
			}
		}
		for _, a := range f.AI {
			cf.AI = append(cf.AI, a.ID)
			if !seenAI[a.ID] {
				seenAI[a.ID] = true
				cv.AIOpponents = append(cv.AIOpponents, a)
			}
		}
		cv.Formats = append(cv.Formats, cf)
	}
	return cv
}
