package roomsclient

import (
	"reflect"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
)

// TestMove reads each of the machine's moves into the room to use and the
// command that enters it.
func TestMove(t *testing.T) {
	for _, tc := range []struct {
		where string
		room  string
		enter rooms.Command
	}{
		{rooms.MoveRoom("r7"), "r7", rooms.Hello{Token: "tok"}},
		{rooms.MoveSpectate("r7"), "r7", rooms.SpectateRoom{RoomID: "r7"}},
		{rooms.MoveLobby, "", rooms.Hello{Token: "tok"}},
	} {
		room, enter := Move(tc.where, "tok")
		if room != tc.room || !reflect.DeepEqual(enter, tc.enter) {
			t.Errorf("Move(%q) = %q, %#v; want %q, %#v", tc.where, room, enter, tc.room, tc.enter)
		}
	}
}
