package rooms

import "fmt"

// Rejection codes. They are stable: a code is never renamed, and a client
// treats one it does not know as a generic refusal.
const (
	// Frame-level classes.
	CodeFrameTooLarge  = "frame_too_large"
	CodeMalformedFrame = "malformed_frame"
	CodeUnknownCommand = "unknown_command"
	CodeRateLimited    = "rate_limited"

	// Server limits.
	CodeTooManyRooms       = "too_many_rooms"
	CodeTooManyConnections = "too_many_connections"
	CodeTooManySpectators  = "too_many_spectators"
	CodeSessionTaken       = "session_taken"
	CodeUnknownSession     = "unknown_session"
	CodeWrongServer        = "wrong_server" // a lobby command sent to a room's server (handoff.go)

	// Table-configuration classes (spec, issue #546) and Storyloom's own.
	CodeInvalidSeatCount    = "invalid_seat_count"
	CodeSeatCountForFormat  = "seat_count_for_format"
	CodeUnknownFormat       = "unknown_format"
	CodeSeatsBelowOccupancy = "seats_below_occupancy"
	CodeInvalidRoomName     = "invalid_room_name"
	CodeNotHost             = "not_host"
	CodeInvalidVisibility   = "invalid_visibility"
	CodeInvalidClock        = "invalid_clock"

	// Deck-legality classes (spec, issue #395), for formats with decks.
	CodeBelowMinimum                  = "below_minimum"
	CodeAboveMaximum                  = "above_maximum"
	CodeCopyLimit                     = "copy_limit"
	CodeMissingCommander              = "missing_commander"
	CodeCommanderNotInDeck            = "commander_not_in_deck"
	CodeCommanderNotLegendaryCreature = "commander_not_legendary_creature"
	CodeOutOfIdentity                 = "out_of_identity"
	CodeUnknownCard                   = "unknown_card"
	CodeNoDeckNeeded                  = "no_deck_needed"

	// Lobby state classes.
	CodeUnknownRoom   = "unknown_room"
	CodeRoomFull      = "room_full"
	CodeAlreadyInRoom = "already_in_room"
	CodeNotInRoom     = "not_in_room"
	CodeGameStarted   = "game_started"
	CodeNotRunning    = "not_running"
	CodeInvalidSeat   = "invalid_seat"
	CodeSeatOccupied  = "seat_occupied"
	CodeNotAISeat     = "not_ai_seat"
	CodeUnknownAI     = "unknown_ai"
	CodeDeckRequired  = "deck_required"
	CodeInvalidName   = "invalid_name"
	CodeInGame        = "in_game"
	CodeNotInGame     = "not_in_game"
	CodeInvalidPage   = "invalid_page"

	// Game-phase classes (they ride beside a view with action_rejected).
	CodeStaleAction      = "stale_action"
	CodeInvalidChoice    = "invalid_choice"
	CodeGameOver         = "game_over"
	CodeUndoDisabled     = "undo_disabled"
	CodeNothingToUndo    = "nothing_to_undo"
	CodeInvalidStops     = "invalid_stops"
	CodeInternal         = "internal"
	CodeActionNotOffered = "action_not_offered"
)

func reject(code, format string, args ...any) *Rejection {
	return &Rejection{Code: code, Reason: fmt.Sprintf(format, args...)}
}
