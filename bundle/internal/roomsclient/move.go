package roomsclient

import (
	"strings"

	"github.com/storyloom/storyloom/engine/rooms"
)

// Move reads where the worker moved a client (rooms.MoveRoom,
// rooms.MoveSpectate or rooms.MoveLobby), as the rooms page does: the
// room whose object the client is to use ("" for the lobby's) and the
// command that enters it there, spectate_room for a watcher and otherwise
// a hello with token, which reclaims the seat.
func Move(where, token string) (room string, enter rooms.Command) {
	kind, room, _ := strings.Cut(where, ":")
	if kind == "spectate" {
		return room, rooms.SpectateRoom{RoomID: room}
	}
	return room, rooms.Hello{Token: token}
}
