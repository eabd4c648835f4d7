package hostingdb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/hostingdb"
	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// TestPersistedAfterEveryBatch drives a room server on a SQLite file with
// a seeded random walk of connections, disconnections, lobby and game
// commands, reclaiming hellos and clock ticks (past decision deadlines and
// the idle limit), and after every batch opens a second server on the
// file: it must hold exactly the machine the first one has in memory. The
// host writes only what it finds changed (touched rooms, the lobby when
// it differs), so this checks that nothing it skips had changed.
func TestPersistedAfterEveryBatch(t *testing.T) {
	steps := 1500
	if testing.Short() {
		steps = 300
	}
	ctx := context.Background()
	st, err := hostingdb.Open(filepath.Join(t.TempDir(), "host.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg, err := rooms.NewRegistry(cheat.Game{})
	if err != nil {
		t.Fatal(err)
	}
	lim := rooms.Limits{SessionIdleMillis: 20_000}
	now := int64(1_780_000_000_000)
	clock := func() int64 { return now }
	cfg := hosting.RoomsConfig{Store: st, Registry: reg, Limits: lim, Clock: clock,
		IDs: &rooms.DerivedIDs{Secret: "persist"}, KeepWebSockets: true}
	h, err := hosting.NewRooms(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(7, 7))
	var conns []string
	latest := map[string][]byte{} // conn → latest view
	var tokens []string
	nextConn := 0
	seen := map[string]int{} // frames by kind
	pick := func(list []string) string { return list[rnd.IntN(len(list))] }
	for step := 0; step < steps; step++ {
		now += int64(rnd.IntN(400))
		var in []rooms.Input
		switch k := rnd.IntN(100); {
		case k < 8 && len(conns) < 12 || len(conns) == 0:
			id := fmt.Sprintf("%s%03d", hosting.WSConnPrefix, nextConn)
			nextConn++
			conns = append(conns, id)
			in = append(in, rooms.Input{Kind: rooms.InputConnect, Conn: id})
		case k < 12:
			i := rnd.IntN(len(conns))
			in = append(in, rooms.Input{Kind: rooms.InputDisconnect, Conn: conns[i]})
			conns = append(conns[:i], conns[i+1:]...)
		case k < 16:
			now += int64(rnd.IntN(30_000)) // past deadlines, sometimes past the idle limit
			in = append(in, rooms.Input{Kind: rooms.InputTick})
		default:
			conn := pick(conns)
			in = append(in, rooms.Input{Kind: rooms.InputFrame, Conn: conn, Frame: randomFrame(rnd, latest[conn], tokens)})
			if rnd.IntN(4) == 0 { // two inputs in one batch
				other := pick(conns)
				in = append(in, rooms.Input{Kind: rooms.InputFrame, Conn: other, Frame: randomFrame(rnd, latest[other], tokens)})
			}
		}
		out, err := h.Do(ctx, in)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for _, o := range out {
			seen[o.Kind]++
			switch o.Kind {
			case rooms.KindLobby, rooms.KindGame, rooms.KindSpectator:
				latest[o.Conn] = o.Frame
				var v struct {
					Session string `json:"session"`
				}
				if json.Unmarshal(o.Frame, &v) == nil && v.Session != "" {
					tokens = append(tokens, v.Session)
				}
			}
			if o.Close {
				for i, c := range conns {
					if c == o.Conn {
						conns = append(conns[:i], conns[i+1:]...)
						break
					}
				}
			}
		}
		h2, err := hosting.NewRooms(ctx, cfg)
		if err != nil {
			t.Fatalf("step %d: reopen: %v", step, err)
		}
		mem, _ := h.Snapshot()
		disk, _ := h2.Snapshot()
		if a, b := comparable(t, mem), comparable(t, disk); !bytes.Equal(a, b) {
			t.Fatalf("step %d (%s): the store holds a different server:\nmemory %s\nstore  %s", step, in[0].Frame, a, b)
		}
	}
	t.Logf("frames by kind: %v", seen)
	if seen[rooms.KindGame] == 0 || seen[rooms.KindSpectator] == 0 {
		t.Fatalf("the walk reached no game or no spectator: %v", seen)
	}
}

// comparable is a state without what the host deliberately does not
// persist: the clock and the rate-limit counters.
func comparable(t *testing.T, state []byte) []byte {
	b, err := rooms.DurableState(state)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomFrame returns a command a client might send, given its latest
// view: mostly the valid action of a game view, otherwise any lobby
// command on a room of the directory, and now and then a reclaiming hello.
func randomFrame(rnd *rand.Rand, view []byte, tokens []string) []byte {
	var v struct {
		Room *struct {
			RoomID string `json:"room_id"`
		} `json:"room"`
		Directory []struct {
			RoomID string `json:"room_id"`
		} `json:"directory"`
		ValidActions []rooms.Action `json:"valid_actions"`
		RoomID       string         `json:"room_id"`
	}
	_ = json.Unmarshal(view, &v)
	var cmd rooms.Command
	if len(v.ValidActions) > 0 && rnd.IntN(5) > 0 {
		act := v.ValidActions[rnd.IntN(len(v.ValidActions))]
		cmd = roomsclient.FirstChoice(act)
	} else {
		room := v.RoomID
		if v.Room != nil {
			room = v.Room.RoomID
		}
		if len(v.Directory) > 0 && rnd.IntN(2) == 0 {
			room = v.Directory[rnd.IntN(len(v.Directory))].RoomID
		}
		switch rnd.IntN(16) {
		case 0:
			cmd = rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2 + rnd.IntN(3), GameSetup: cheat.ID,
				UndoEnabled: rnd.IntN(2) == 0, ActionSeconds: 5 * rnd.IntN(2)}}
		case 1, 2, 3, 4:
			cmd = rooms.JoinRoom{RoomID: room}
		case 5:
			cmd = rooms.SpectateRoom{RoomID: room}
		case 6, 7, 8, 9:
			cmd = rooms.Ready{Ready: rnd.IntN(8) > 0}
		case 10, 11:
			cmd = rooms.AddAI{Seat: 1 + rnd.IntN(3), Kind: "fox"}
		case 12:
			cmd = rooms.SetName{Name: fmt.Sprintf("Player %d", rnd.IntN(100))}
		case 13:
			cmd = rooms.Leave{}
		case 14:
			cmd = rooms.Undo{}
		default:
			tok := ""
			if len(tokens) > 0 {
				tok = tokens[rnd.IntN(len(tokens))]
			}
			cmd = rooms.Hello{Token: tok}
		}
	}
	b, _ := rooms.EncodeCommand(cmd)
	return b
}
