package rooms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// MaxFrameBytes is the largest client frame the machine reads (64 KiB).
const MaxFrameBytes = 64 << 10

// Command types, as the "type" tag of a client frame names them.
const (
	CmdHello          = "hello"
	CmdCreateRoom     = "create_room"
	CmdUpdateRoom     = "update_room"
	CmdJoinRoom       = "join_room"
	CmdSpectateRoom   = "spectate_room"
	CmdSubmitDeck     = "submit_deck"
	CmdAddAI          = "add_ai"
	CmdRemoveAI       = "remove_ai"
	CmdReady          = "ready"
	CmdSetName        = "set_name"
	CmdRequestCatalog = "request_catalog"
	CmdLeave          = "leave"
	CmdBrowse         = "browse"
	CmdChooseAction   = "choose_action"
	CmdSetStops       = "set_stops"
	CmdUndo           = "undo"
)

// Command is one decoded client frame. The set is closed: only the types of
// this package implement it.
type Command interface {
	// Type returns the frame's "type" tag.
	Type() string
	command()
}

// Hello starts a session or reclaims the one Token names.
type Hello struct {
	Token string `json:"token,omitempty"`
}

// CreateRoom creates a room and seats the sender at seat 0 (the host).
type CreateRoom struct {
	Config RoomConfig `json:"config"`
}

// UpdateRoom replaces the room's whole configuration (host only, pre-game).
type UpdateRoom struct {
	Config RoomConfig `json:"config"`
}

// JoinRoom takes the lowest open seat of a gathering room.
type JoinRoom struct {
	RoomID string `json:"room_id"`
}

// SpectateRoom watches a running room's game.
type SpectateRoom struct {
	RoomID string `json:"room_id"`
}

// SubmitDeck submits the seat's deck, for formats that need one.
type SubmitDeck struct {
	Cards     []string `json:"cards"`
	Commander string   `json:"commander,omitempty"`
}

// AddAI fills an empty seat with an AI of Kind (host only, pre-game).
type AddAI struct {
	Seat      int      `json:"seat"`
	Kind      string   `json:"kind"`
	Cards     []string `json:"cards,omitempty"`
	Commander string   `json:"commander,omitempty"`
}

// RemoveAI empties an AI seat (host only, pre-game).
type RemoveAI struct {
	Seat int `json:"seat"`
}

// Ready sets or clears the seat's readiness.
type Ready struct {
	Ready bool `json:"ready"`
}

// SetName sets the session's display name.
type SetName struct {
	Name string `json:"name"`
}

// RequestCatalog asks for one CatalogView.
type RequestCatalog struct{}

// Leave vacates the seat (pre-game or after the game ended).
type Leave struct{}

// Browse chooses the page of the public directory the connection's lobby
// views carry (DirectoryPageSize rooms a page, 0 the oldest).
type Browse struct {
	Page int `json:"page"`
}

// ChooseAction answers one valid action.
type ChooseAction struct {
	ActionID   string         `json:"action_id"`
	Token      string         `json:"token"`
	Targets    []TargetChoice `json:"targets,omitempty"`
	Submission string         `json:"submission,omitempty"`
}

// SetStops replaces the seat's stop preferences.
type SetStops struct {
	Stops   []string `json:"stops,omitempty"`
	OwnTurn []string `json:"own_turn,omitempty"`
}

// Undo asks the room to restore the state before its last transition.
type Undo struct{}

// Type returns "hello".
func (Hello) Type() string { return CmdHello }

// Type returns "create_room".
func (CreateRoom) Type() string { return CmdCreateRoom }

// Type returns "update_room".
func (UpdateRoom) Type() string { return CmdUpdateRoom }

// Type returns "join_room".
func (JoinRoom) Type() string { return CmdJoinRoom }

// Type returns "spectate_room".
func (SpectateRoom) Type() string { return CmdSpectateRoom }

// Type returns "submit_deck".
func (SubmitDeck) Type() string { return CmdSubmitDeck }

// Type returns "add_ai".
func (AddAI) Type() string { return CmdAddAI }

// Type returns "remove_ai".
func (RemoveAI) Type() string { return CmdRemoveAI }

// Type returns "ready".
func (Ready) Type() string { return CmdReady }

// Type returns "set_name".
func (SetName) Type() string { return CmdSetName }

// Type returns "request_catalog".
func (RequestCatalog) Type() string { return CmdRequestCatalog }

// Type returns "leave".
func (Leave) Type() string { return CmdLeave }

// Type returns "browse".
func (Browse) Type() string { return CmdBrowse }

// Type returns "choose_action".
func (ChooseAction) Type() string { return CmdChooseAction }

// Type returns "set_stops".
func (SetStops) Type() string { return CmdSetStops }

// Type returns "undo".
func (Undo) Type() string { return CmdUndo }

func (Hello) command()          {}
func (CreateRoom) command()     {}
func (UpdateRoom) command()     {}
func (JoinRoom) command()       {}
func (SpectateRoom) command()   {}
func (SubmitDeck) command()     {}
func (AddAI) command()          {}
func (RemoveAI) command()       {}
func (Ready) command()          {}
func (SetName) command()        {}
func (RequestCatalog) command() {}
func (Leave) command()          {}
func (Browse) command()         {}
func (ChooseAction) command()   {}
func (SetStops) command()       {}
func (Undo) command()           {}

// DecodeCommand decodes one client frame. It refuses a frame larger than
// MaxFrameBytes (CodeFrameTooLarge), anything but a JSON object with a
// string "type" whose fields have the right JSON types (CodeMalformedFrame),
// and a type it does not know (CodeUnknownCommand); the error is then a
// *Rejection. Unknown fields are ignored and omitted fields take their
// documented defaults.
func DecodeCommand(frame []byte) (Command, error) {
	if len(frame) > MaxFrameBytes {
		return nil, reject(CodeFrameTooLarge, "frame of %d bytes is larger than %d", len(frame), MaxFrameBytes)
	}
	trimmed := bytes.TrimLeft(frame, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(frame) {
		return nil, reject(CodeMalformedFrame, "frame is not a JSON object")
	}
	if !utf8.Valid(frame) {
		// Decoding would replace the bad bytes with U+FFFD silently.
		return nil, reject(CodeMalformedFrame, "frame is not valid UTF-8")
	}
	var tag struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(frame, &tag); err != nil || tag.Type == nil {
		return nil, reject(CodeMalformedFrame, "frame has no string \"type\"")
	}
	var c Command
	var err error
	switch *tag.Type {
	case CmdHello:
		c, err = decodeAs[Hello](frame)
	case CmdCreateRoom:
		c, err = decodeAs[CreateRoom](frame)
	case CmdUpdateRoom:
		c, err = decodeAs[UpdateRoom](frame)
	case CmdJoinRoom:
		c, err = decodeAs[JoinRoom](frame)
	case CmdSpectateRoom:
		c, err = decodeAs[SpectateRoom](frame)
	case CmdSubmitDeck:
		c, err = decodeAs[SubmitDeck](frame)
	case CmdAddAI:
		c, err = decodeAs[AddAI](frame)
	case CmdRemoveAI:
		c, err = decodeAs[RemoveAI](frame)
	case CmdReady:
		c, err = decodeAs[Ready](frame)
	case CmdSetName:
		c, err = decodeAs[SetName](frame)
	case CmdRequestCatalog:
		c = RequestCatalog{}
	case CmdLeave:
		c = Leave{}
	case CmdBrowse:
		c, err = decodeAs[Browse](frame)
	case CmdChooseAction:
		c, err = decodeAs[ChooseAction](frame)
	case CmdSetStops:
		c, err = decodeAs[SetStops](frame)
	case CmdUndo:
		c = Undo{}
	default:
		return nil, reject(CodeUnknownCommand, "unknown command type %q", clip(*tag.Type))
	}
	if err != nil {
		return nil, reject(CodeMalformedFrame, "%s frame is malformed", *tag.Type)
	}
	return c, nil
}

func decodeAs[T Command](frame []byte) (Command, error) {
	var v T
	if err := json.Unmarshal(frame, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// EncodeCommand encodes c as a client frame, its "type" tag included.
func EncodeCommand(c Command) ([]byte, error) {
	body, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("rooms: %w", err)
	}
	tag, _ := json.Marshal(c.Type())
	if string(body) == "{}" {
		return []byte(`{"type":` + string(tag) + `}`), nil
	}
	out := append([]byte(`{"type":`), tag...)
	out = append(out, ',')
	return append(out, body[1:]...), nil
}

// clip shortens s for an error message that echoes client input.
func clip(s string) string {
	const n = 40
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
