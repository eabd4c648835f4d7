package edge

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// holdReportsVar is the Worker variable of the test hook that holds a
// room's reports (wasm/worker/main.go): a room's object never delivers a
// report that returns sessions and was made while its Go instance runs,
// and retries a pending delivery after this many milliseconds.
const holdReportsVar = "STORYLOOM_TEST_HOLD_REPORTS"

// holdRetry is the hook's retry in TestWorkerEvictedRoomReturnsHeld:
// longer than workerd takes to evict an object that no event reaches
// (10 seconds, workerd's ActorContainer::handleShutdown), so that the
// alarm finds the object evicted. An alarm that came first would find the
// report still held and retry it once more.
const holdRetry = 15 * time.Second

// TestWorkerEvictedRoomReturnsHeld: a room's object that is evicted
// after it moved a player's socket to the lobby, and before the lobby
// took the report that returns the player's session, finds the socket
// again when its alarm restarts it, and closes it with the move to the
// lobby once the report is delivered: the player is back in the lobby,
// with the name the lobby kept, without acting. The other sockets of the
// object (a seat of the finished game, a spectator, a fresh connection
// that said nothing) stay where they are. The hook makes the window: the
// delivery after the leave fails, the object goes idle and is evicted
// (workerd hibernates its sockets), and only the instance that its alarm
// starts delivers. The trace shows the eviction: the object's Go instance
// starts again after the leave, and moves the held socket, and only it.
func TestWorkerEvictedRoomReturnsHeld(t *testing.T) {
	t.Parallel()
	w := worker(t).fork(t, holdReportsVar+":"+strconv.FormatInt(holdRetry.Milliseconds(), 10))
	alice, bob, dave := dialWS(t, w.base, "alice"), dialWS(t, w.base, "bob"), dialWS(t, w.base, "dave")
	for _, p := range []*wsPeer{alice, bob, dave} {
		p.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	if code := alice.setName("Alice"); code != "" {
		t.Fatalf("set_name refused %s", code)
	}
	humans := []*wsPeer{alice, bob}
	room, _ := startCheat(t, 0, humans...)
	dave.send(rooms.SpectateRoom{RoomID: room})
	dave.Wait("the spectator view", func(k string, _ []byte) bool { return k == rooms.KindSpectator })
	playToResult(t, humans)

	// A fresh connection to the room's object that says nothing: its
	// machine knows it from its open, so it is no stray.
	eve := dialWSRoom(t, w.base, "eve", room)
	eve.Wait("the room object's lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	stay := []*wsPeer{bob, dave, eve}
	moved := make([]int, len(stay))
	for i, p := range stay {
		moved[i] = len(p.Moves())
	}

	from := w.log.Len()
	left := time.Now()
	alice.send(rooms.Leave{})
	// Nothing but the hook's retry, after the eviction, brings her back.
	alice.Limit = 3 * holdRetry
	alice.Wait("the lobby, with her name", func(k string, b []byte) bool {
		m := alice.Moves()
		name, ok := lobbyName(k, b)
		return len(m) > 0 && m[len(m)-1] == rooms.MoveLobby && ok && name == "Alice"
	})
	t.Logf("alice back in the lobby %v after she left", time.Since(left).Round(time.Millisecond))

	// The trace: alice's socket moved when she left, the object started
	// again (evicted meanwhile) with the four sockets, and moved hers, and
	// no other, to the lobby.
	log := w.log.From(from)
	starts := regexp.MustCompile(`trace start `+regexp.QuoteMeta(rooms.MoveRoom(room))+` \((\d+) sockets, alarm (\d+)\)`).FindAllStringSubmatchIndex(log, -1)
	if len(starts) == 0 {
		t.Fatalf("the room's object did not start again after alice left: it was not evicted")
	}
	restart := starts[len(starts)-1]
	if n := log[restart[2]:restart[3]]; n != "4" {
		t.Errorf("the room's object restarted with %s sockets, want 4 (alice's held, bob, dave, eve)", n)
	}
	moves := regexp.MustCompile(`trace move (w:\w+) `+rooms.MoveLobby+`\b`).FindAllStringSubmatchIndex(log, -1)
	if len(moves) != 2 || moves[0][0] > restart[0] || moves[1][0] < restart[0] ||
		log[moves[0][2]:moves[0][3]] != log[moves[1][2]:moves[1][3]] {
		var lines []string
		for _, m := range moves {
			lines = append(lines, fmt.Sprintf("%s at %d", log[m[0]:m[1]], m[0]))
		}
		t.Fatalf("moves to the lobby %q around the restart at %d; want alice's when she left, then the same socket's once, after", lines, restart[0])
	}

	// Bob's seat, the spectator and eve were not moved, and their sockets
	// still reach the room's object.
	for _, p := range []*wsPeer{bob, eve} {
		n := p.Frames()
		p.send(rooms.Hello{})
		p.Wait("a view of the hello", func(string, []byte) bool { return p.Frames() > n })
	}
	for i, p := range stay {
		if m := p.Moves(); len(m) != moved[i] {
			t.Errorf("%s was moved %q, want no move after alice left", p.Name, m[moved[i]:])
		}
	}
	if k, b := bob.Latest(); k != rooms.KindGame || roomsclient.DecodeGame(b).Result == nil {
		t.Errorf("bob, seated at the finished game, sees %s %.200s", k, b)
	}
}

// playToResult plays a Cheat game of WebSocket clients humans to its
// result: one decision at a time, each by the first human who has one,
// answered by its pass or first action and acknowledged before the next
// (a command refused over the per-connection rate is sent again). It
// returns a second after the result, in a rate window of the machine's
// (20 frames per connection per calendar second) that the game's last
// decisions left unused: on a fast machine they used up the second's
// frames, and the caller's next command (a hello, a leave) was refused
// rate_limited and never applied.
//
// A Cheat game has no fixed length: two such humans beside two foxes,
// simulated over 20,000 deals (the humans answering first, as here),
// made 106 decisions at the median, more than 400 in 156 deals and
// 1,126 at the most. maxDecisions only turns a game that never ends
// into a failure, well beyond that tail.
func playToResult(t *testing.T, humans []*wsPeer) {
	t.Helper()
	const maxDecisions = 5000
	over := func() bool {
		k, b := humans[0].Latest()
		return k == rooms.KindGame && roomsclient.DecodeGame(b).Result != nil
	}
	for step := 0; !over(); step++ {
		if step == maxDecisions {
			t.Fatalf("no result after %d decisions", maxDecisions)
		}
		var actor *wsPeer
		var v roomsclient.GameView
		deadline := time.Now().Add(waitLimit)
		for actor == nil && !over() {
			if time.Now().After(deadline) {
				t.Fatal("nobody has a decision and the game is not over")
			}
			for _, p := range humans {
				k, b := p.Latest()
				if gv := roomsclient.DecodeGame(b); k == rooms.KindGame && len(gv.ValidActions) > 0 && gv.Result == nil {
					actor, v = p, gv
					break
				}
			}
			if actor == nil {
				time.Sleep(10 * time.Millisecond)
			}
		}
		if actor == nil {
			break
		}
		sub := fmt.Sprintf("s%d", step)
		for {
			n := actor.ErrCount()
			actor.send(roomsclient.Answer(roomsclient.Pick(v), sub))
			b := actor.Wait("ack "+sub, func(k string, b []byte) bool {
				gv := roomsclient.DecodeGame(b)
				return k == rooms.KindGame && (gv.ActionAck != nil && gv.ActionAck.Submission == sub || gv.Result != nil) ||
					actor.ErrCount() > n
			})
			if errs := actor.ErrsSince(n); len(errs) > 0 {
				// Over the machine's 20 commands a second per
				// connection: not applied; sent again a moment later.
				if errs[0].Code == rooms.CodeRateLimited {
					time.Sleep(250 * time.Millisecond)
					continue
				}
				t.Fatalf("%s: %s refused: %+v", actor.Name, sub, errs[0])
			}
			if ack := roomsclient.DecodeGame(b).ActionAck; ack != nil && ack.Submission == sub && !ack.Accepted {
				t.Fatalf("%s: %s not accepted: %.300s", actor.Name, sub, b)
			}
			break
		}
	}
	for _, p := range humans {
		p.Wait("the result", func(k string, b []byte) bool {
			return k == rooms.KindGame && roomsclient.DecodeGame(b).Result != nil
		})
	}
	time.Sleep(time.Second)
}

// evictClock is the decision clock (action_seconds) of
// TestWorkerEvictedRoomClockFires: well beyond the 10 seconds after which
// workerd evicts an object that no event reaches, so that the clock runs
// out while the room's object is evicted.
const evictClock = 25

// TestWorkerEvictedRoomClockFires: a started game whose players stay
// connected and idle has its room's object evicted (workerd hibernates
// the sockets); its alarm then starts the object again at the decision
// clock's deadline, and the timeout is applied and sent to every open
// socket, without anyone acting. The object's start-up leaves the alarm
// that woke it alone: workerd cancels a running alarm handler whose
// object sets its alarm anew ("alarm handler canceled"), which the log
// must not show. The trace shows the eviction: the room's Go instance
// starts again, with both sockets, after the game began.
func TestWorkerEvictedRoomClockFires(t *testing.T) {
	t.Parallel()
	w := worker(t)
	alice, bob := dialWS(t, w.base, "alice"), dialWS(t, w.base, "bob")
	for _, p := range []*wsPeer{alice, bob} {
		p.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	humans := []*wsPeer{alice, bob}
	room, games := startCheat(t, evictClock, humans...)
	var seq int64
	for _, b := range games {
		seq = max(seq, roomsclient.DecodeGame(b).LastSeq())
	}
	from := w.log.Len()
	started := time.Now()

	// Nobody acts: only the clock, after the eviction, moves the game.
	for _, p := range humans {
		p.Limit = 3 * evictClock * time.Second
		p.Wait("a timed_out event", func(k string, b []byte) bool {
			return k == rooms.KindGame && roomsclient.DecodeGame(b).LoggedAfter("timed_out", seq)
		})
	}
	t.Logf("the timeout reached both players %v after the game began", time.Since(started).Round(time.Millisecond))

	log := w.log.From(from)
	start := regexp.MustCompile(`trace start ` + regexp.QuoteMeta(rooms.MoveRoom(room)) + ` \((\d+) sockets, alarm (\d+)\)`).FindStringSubmatch(log)
	if start == nil {
		t.Fatalf("the room's object did not start again before its clock ran out: it was not evicted")
	}
	if start[1] != "2" {
		t.Errorf("the room's object restarted with %s sockets, want 2 (alice, bob)", start[1])
	}
	// The log is the shared dev server's: no object there may show it.
	for _, sign := range []string{"alarm handler canceled", "AlarmManager mismatch"} {
		if strings.Contains(log, sign) {
			t.Errorf("the object's start-up moved the alarm that woke it (workerd: %q)", sign)
		}
	}
}

// evictIdle is how long TestWorkerReleasedRoomKeepsNothing leaves a
// room's object without an event: longer than the 10 seconds after which
// workerd evicts it (workerd's ActorContainer::handleShutdown).
const evictIdle = 15 * time.Second

// TestWorkerReleasedRoomKeepsNothing: a released game's object, which
// deleted all its storage, is woken after an eviction by a late event of
// a socket it had (its client answers the close of its move to the lobby
// only then), and starts again as the room it was, from the name the
// socket carries, not as the lobby: it keeps nothing, and the player is
// in the lobby with her name. Alice plays Cheat against three fox AIs to
// its result; her client stops reading (so the close the object sends
// once the lobby took her session stays unanswered), she leaves, the
// object empties its storage and is evicted, and then her client reads
// on.
func TestWorkerReleasedRoomKeepsNothing(t *testing.T) {
	t.Parallel()
	w := worker(t)
	alice := dialWS(t, w.base, "alice")
	alice.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	if code := alice.setName("Alice"); code != "" {
		t.Fatalf("set_name refused %s", code)
	}
	room, _ := startCheat(t, 0, alice)
	playToResult(t, []*wsPeer{alice})
	file := w.roomObjectFile(t, room)

	// Her client reads the view of a hello, then nothing until resume.
	n := alice.Frames()
	alice.pause()
	alice.send(rooms.Hello{})
	alice.Wait("a view of the hello", func(string, []byte) bool { return alice.Frames() > n })
	from := w.log.Len()
	alice.send(rooms.Leave{})
	if k := emptied(t, file); k != 0 {
		alice.resume()
		t.Fatalf("the released room's object still keeps %d keys", k)
	}
	time.Sleep(evictIdle)
	vacated := w.log.Len()
	alice.resume()
	alice.Wait("the lobby, with her name", func(k string, b []byte) bool {
		m := alice.Moves()
		name, ok := lobbyName(k, b)
		return len(m) > 0 && m[len(m)-1] == rooms.MoveLobby && ok && name == "Alice"
	})

	// The trace: her socket (the one her leave came on) moved to the
	// lobby, its close reached the object, which served it as the room's,
	// and keeps nothing after it.
	leave := regexp.MustCompile(`trace ` + regexp.QuoteMeta(rooms.MoveRoom(room)) + ` \d+ begin socketMessage (w:\w+) \{"type":"` + rooms.CmdLeave + `"`).FindStringSubmatch(w.log.From(from))
	if leave == nil {
		t.Fatal("the trace shows no leave of alice's reaching the room's object")
	}
	if !regexp.MustCompile(`trace move ` + leave[1] + ` ` + rooms.MoveLobby + `\b`).MatchString(w.log.From(from)) {
		t.Fatal("the trace shows no move of alice's socket to the lobby")
	}
	begin := regexp.MustCompile(`trace (\S+) (\d+) begin socketClose ` + leave[1] + `\b`)
	var m []string
	deadline := time.Now().Add(waitLimit)
	for m = begin.FindStringSubmatch(w.log.From(from)); m == nil; m = begin.FindStringSubmatch(w.log.From(from)) {
		if time.Now().After(deadline) {
			t.Fatal("the close of alice's socket never reached the room's object")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if want := rooms.MoveRoom(room); m[1] != want {
		t.Fatalf("the released room's object served the close of alice's socket as %q, want %q", m[1], want)
	}
	if !strings.Contains(w.log.From(vacated), "trace start "+rooms.MoveRoom(room)+" (") {
		t.Fatal("the room's object did not start again for the late close: it was not evicted")
	}
	end := regexp.MustCompile(`trace ` + regexp.QuoteMeta(m[1]) + ` ` + m[2] + ` end`)
	for !end.MatchString(w.log.From(from)) {
		if time.Now().After(deadline) {
			t.Fatal("the close of alice's socket never ended")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if k := objectKeys(t, file); k != 0 {
		t.Errorf("the released room's object keeps %d keys after the late close", k)
	}
}

// emptied waits, up to waitLimit, for an object's storage file to keep
// no key, and returns the keys it keeps then.
func emptied(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	k := objectKeys(t, file)
	for ; k != 0 && time.Now().Before(deadline); k = objectKeys(t, file) {
		time.Sleep(50 * time.Millisecond)
	}
	return k
}

// TestWorkerReleasedRoomAnswersStrays: a released game's object, evicted
// since it emptied its storage, is reached again by requests that do not
// know the game is over: a stale link's command without a session, a
// duplicated long-poll and a late hello with the old session, and a fresh
// WebSocket. Each is answered as the native host answers a room it does
// not have, lobby_error unknown_room, and sent to the lobby (the HTTP
// answer's move, the socket closed 4001 "lobby" as a held socket is,
// whose client then finds the lobby). The object starts again for them
// (the trace) and still keeps no key once the socket's close is served.
func TestWorkerReleasedRoomAnswersStrays(t *testing.T) {
	t.Parallel()
	w := worker(t)
	alice := dialWS(t, w.base, "alice")
	alice.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	room, _ := startCheat(t, 0, alice)
	playToResult(t, []*wsPeer{alice})
	file := w.roomObjectFile(t, room)
	token := alice.Session()
	left := w.log.Len()
	alice.send(rooms.Leave{})
	alice.Wait("the lobby", func(k string, _ []byte) bool {
		m := alice.Moves()
		return k == rooms.KindLobby && len(m) > 0 && m[len(m)-1] == rooms.MoveLobby
	})
	// Her old socket's close is the object's last event: idle from then.
	w.closeServed(t, left, room, "alice's old socket")
	if k := emptied(t, file); k != 0 {
		t.Fatalf("the released room's object still keeps %d keys", k)
	}
	time.Sleep(evictIdle)
	from := w.log.Len()

	q := "?room=" + url.QueryEscape(room)
	catalog, _ := rooms.EncodeCommand(rooms.RequestCatalog{})
	for _, r := range []struct {
		name, method, path, bearer string
		refused                    bool
	}{
		{"a stale link's command", http.MethodPost, "/rooms/command" + q, "", true},
		{"a duplicated long-poll", http.MethodGet, "/rooms/view" + q + "&after=0&wait=1000", token, false},
		{"a late command with the old session", http.MethodPost, "/rooms/command" + q, token, true},
	} {
		var body []byte
		if r.method == http.MethodPost {
			body = catalog
		}
		status, b, err := do(r.method, w.base+r.path, r.bearer, body)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		var resp hosting.RoomsResponse
		_ = json.Unmarshal(b, &resp)
		var f rooms.LobbyErrorFrame
		if len(resp.Frames) == 1 {
			_ = json.Unmarshal(resp.Frames[0].Frame, &f)
		}
		refused := len(resp.Frames) == 1 && f.LobbyError.Code == rooms.CodeUnknownRoom
		if status != http.StatusOK || resp.Move != rooms.MoveLobby || resp.Session != "" || refused != r.refused || !refused && len(resp.Frames) != 0 {
			t.Errorf("%s: %d %.300s; want 200, no session and the move to the lobby, unknown_room %v", r.name, status, b, r.refused)
		}
	}
	if !strings.Contains(w.log.From(from), "trace start "+rooms.MoveRoom(room)+" (0 sockets") {
		t.Errorf("the room's object did not start again for the strays: it was not evicted")
	}
	if k := objectKeys(t, file); k != 0 {
		t.Errorf("the released room's object keeps %d keys after the HTTP requests", k)
	}

	stray := dialWSRoom(t, w.base, "stray", room)
	stray.Wait("the lobby, after unknown_room", func(k string, _ []byte) bool {
		return k == rooms.KindLobby && slices.Equal(stray.Moves(), []string{rooms.MoveLobby})
	})
	if errs := stray.ErrsSince(0); len(errs) != 1 || errs[0].Code != rooms.CodeUnknownRoom {
		t.Errorf("the fresh socket to the released room got %+v, want one unknown_room", errs)
	}

	// The socket's close reaches the object, which keeps nothing after it.
	w.closeServed(t, from, room, "the fresh socket")
	if k := objectKeys(t, file); k != 0 {
		t.Errorf("the released room's object keeps %d keys after the strays", k)
	}
}

// closeServed waits, up to waitLimit, until the object of room has
// moved to the lobby the first socket it heard from (opened or read)
// since log offset from (what names it), and served that socket's close,
// as its trace shows. Every line it reads names the room's object or that
// socket: other tests' objects on the same dev server stand in for
// neither.
func (w *wrangler) closeServed(t *testing.T, from int, room, what string) {
	t.Helper()
	obj := regexp.QuoteMeta(rooms.MoveRoom(room))
	sock := regexp.MustCompile(`trace ` + obj + ` \d+ begin socket(?:Open|Message) (w:\w+)`)
	deadline := time.Now().Add(waitLimit)
	for {
		log := w.log.From(from)
		if s := sock.FindStringSubmatch(log); s != nil && regexp.MustCompile(`trace move `+s[1]+` `+rooms.MoveLobby+`\b`).MatchString(log) {
			b := regexp.MustCompile(`trace ` + obj + ` (\d+) begin socketClose ` + s[1] + `\b`).FindStringSubmatch(log)
			if b != nil && strings.Contains(log, "trace "+rooms.MoveRoom(room)+" "+b[1]+" end") {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the room's object never served the close of %s, moved to the lobby", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startCheat starts a game of Cheat at a table of four whose decision
// clock is actionSeconds (0: none): the first of humans creates the room,
// the others join it in turn, fox AIs take the seats left, and every
// human is ready. It returns the room's id and the first game view each
// human got, in the order of humans.
func startCheat(t *testing.T, actionSeconds int, humans ...*wsPeer) (string, [][]byte) {
	t.Helper()
	host := humans[0]
	host.send(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, ActionSeconds: actionSeconds}})
	room := roomOf(host.Wait("a room", roomsclient.InRoom)).RoomID
	for _, p := range humans[1:] {
		p.send(rooms.JoinRoom{RoomID: room})
		p.Wait("a seat", roomsclient.InRoom)
	}
	for seat := len(humans); seat < 4; seat++ {
		host.send(rooms.AddAI{Seat: seat, Kind: "fox"})
		host.Wait("an AI seat", func(_ string, b []byte) bool { r := roomOf(b); return r != nil && r.Seats[seat].AI != "" })
	}
	for _, p := range humans {
		p.send(rooms.Ready{Ready: true})
	}
	games := make([][]byte, len(humans))
	for i, p := range humans {
		games[i] = p.Wait("the game", roomsclient.IsGame)
	}
	return room, games
}

// roomOf is the room a lobby view shows its recipient in, or nil.
func roomOf(b []byte) *rooms.RoomView {
	var v rooms.LobbyView
	_ = json.Unmarshal(b, &v)
	return v.Room
}
