package roomsclient

import (
	"encoding/json"

	"github.com/storyloom/storyloom/engine/rooms"
)

// GameView is what a scenario reads from a game view.
type GameView struct {
	You          string         `json:"you"`
	RoomID       string         `json:"room_id"`
	ValidActions []rooms.Action `json:"valid_actions"`
	Result       *rooms.Result  `json:"result"`
	Log          []struct {
		Sequence int64 `json:"sequence"`
		Event    struct {
			Type string `json:"type"`
		} `json:"event"`
	} `json:"log"`
	ActionAck *rooms.ActionAck  `json:"action_ack"`
	Seats     []rooms.TableSeat `json:"seats"`
	Undo      *rooms.UndoView   `json:"undo"`
}

// DecodeGame reads a game view; what does not decode is left zero.
func DecodeGame(b []byte) GameView {
	var v GameView
	_ = json.Unmarshal(b, &v)
	return v
}

// LastSeq is the sequence of the view's last log entry, 0 with none.
func (v GameView) LastSeq() int64 {
	if len(v.Log) == 0 {
		return 0
	}
	return v.Log[len(v.Log)-1].Sequence
}

// LoggedAfter reports whether an event of type typ was logged after
// sequence seq.
func (v GameView) LoggedAfter(typ string, seq int64) bool {
	for _, e := range v.Log {
		if e.Event.Type == typ && e.Sequence > seq {
			return true
		}
	}
	return false
}

// KindOf classifies a frame from its members, as a client does (a
// rooms.Kind* value, or "" for none).
func KindOf(frame []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(frame, &m) != nil {
		return ""
	}
	switch {
	case m["lobby_error"] != nil:
		return rooms.KindError
	case m["catalog_version"] != nil:
		return rooms.KindCatalog
	case m["session"] != nil:
		return rooms.KindLobby
	case m["you"] != nil:
		return rooms.KindGame
	case m["room_id"] != nil:
		return rooms.KindSpectator
	}
	return ""
}

// IsGame accepts a game view.
func IsGame(kind string, _ []byte) bool { return kind == rooms.KindGame }

// InRoom accepts a lobby view of a client in a room.
func InRoom(_ string, b []byte) bool {
	var lv rooms.LobbyView
	return json.Unmarshal(b, &lv) == nil && lv.Room != nil
}

// Answer plays action a with the given submission, choosing up to two
// candidates of each of its prompts: a pass, a call, or a play of up to
// two cards in Cheat.
func Answer(a rooms.Action, submission string) rooms.ChooseAction {
	ca := rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Submission: submission}
	for _, p := range a.Prompts {
		n := min(2, len(p.Candidates))
		ca.Targets = append(ca.Targets, rooms.TargetChoice{Slot: p.Slot, Chosen: p.Candidates[:n]})
	}
	return ca
}

// Pick prefers letting a play stand (a pass), so games stay short.
func Pick(v GameView) rooms.Action {
	for _, a := range v.ValidActions {
		if a.Type == "pass" {
			return a
		}
	}
	return v.ValidActions[0]
}
