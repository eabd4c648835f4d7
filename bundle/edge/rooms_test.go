package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// waitLimit bounds every wait for a view. The worker's clock is real and
// the machine may be busy, so it is generous.
const waitLimit = 45 * time.Second

// peer is one HTTP client of the room server: a poller keeps its latest
// view, its rejections and its session token.
type peer struct {
	base string

	token atomic.Value // string: the session bearer
	room  atomic.Value // string: the room whose object the worker moved this client to ("" for the lobby's)

	// Inbox keeps the latest view, the rejections and the seat's session.
	*roomsclient.Inbox

	// tap, when set, is called on every frame after scan's checks.
	tap func(kind string, frame []byte)

	// mu guards gen, which counts the client's moves and reconnects: an
	// answer from before one (a long poll or a command still in flight to
	// the object it left) is dropped whole, or its mailbox numbers would
	// hide the new object's frames (Inbox.RecordSeq).
	mu  sync.Mutex
	gen int

	stop, done chan struct{}
}

func dial(t testing.TB, base, name string) *peer {
	return dialScan(t, base, name, nil)
}

// dialScan is dial with tap (when not nil) called on every frame the
// client receives, before it is recorded.
func dialScan(t testing.TB, base, name string, tap func(kind string, frame []byte)) *peer {
	p := &peer{base: base, tap: tap}
	p.Inbox = &roomsclient.Inbox{T: t, Name: name, Limit: waitLimit, Scan: p.scan}
	p.token.Store("")
	p.room.Store("")
	p.send([]byte(`{"type":"hello"}`))
	p.startPoll()
	t.Cleanup(p.close)
	return p
}

// scan checks one received frame: no frame carries game state (hands,
// pile), and a spectator's frame carries nothing of a seat.
func (p *peer) scan(kind string, frame []byte) {
	if bytes.Contains(frame, []byte(`"hands"`)) || bytes.Contains(frame, []byte(`"pile"`)) || bytes.Contains(frame, []byte(`"seed"`)) {
		p.T.Errorf("frame to %s carries game state: %.300s", p.Name, frame)
	}
	if kind == rooms.KindSpectator {
		for _, k := range []string{`"you"`, `"valid_actions"`, `"my_hand"`, `"action_deadline"`} {
			if bytes.Contains(frame, []byte(k)) {
				p.T.Errorf("spectator frame to %s carries %s", p.Name, k)
			}
		}
	}
	if p.tap != nil {
		p.tap(kind, frame)
	}
}

// absorb takes the answer to a request the client made in generation
// gen (peer.gen), unless it moved or reconnected since.
func (p *peer) absorb(body []byte, gen int) {
	var r hosting.RoomsResponse
	if err := json.Unmarshal(body, &r); err != nil {
		p.T.Errorf("%s: response is not JSON: %.300s", p.Name, body)
		return
	}
	p.mu.Lock()
	if p.gen != gen {
		p.mu.Unlock()
		return
	}
	if r.Session != "" {
		p.token.Store(r.Session)
	}
	for _, f := range r.Frames {
		if f.Seq > 0 {
			p.RecordSeq(f.Seq, f.Kind, f.Frame)
			continue
		}
		p.Record(f.Kind, f.Frame)
	}
	p.mu.Unlock()
	if r.Move != "" {
		p.follow(r.Move)
	}
}

// follow goes where the worker moved the client, as the rooms page does
// (docs/edge-worker.md): to a room's object with a hello that reclaims the
// seat, to watch a room there (a fresh connection's spectate_room), or
// back to the lobby's with a hello.
func (p *peer) follow(where string) {
	room, enter := roomsclient.Move(where, p.Session())
	p.restart(room)
	p.sendCmd(enter)
}

// restart starts a new generation of the client's connection state, on
// room's object ("" for the lobby's): no mailbox numbers, no bearer yet.
func (p *peer) restart(room string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	p.room.Store(room)
	p.ForgetSeq()
	p.token.Store("")
}

// request is what a request of the client's current generation carries:
// the URL of the path that path returns on the object it uses, its
// bearer, and the generation.
func (p *peer) request(path func() string) (url, bearer string, gen int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.url(path()), p.token.Load().(string), p.gen
}

// url is path on the object the client is to use.
func (p *peer) url(path string) string {
	if room := p.room.Load().(string); room != "" {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		return p.base + path + sep + "room=" + url.QueryEscape(room)
	}
	return p.base + path
}

// send posts one command frame and absorbs the frames it produced. The
// room server's object applies commands one at a time, so it never
// answers 503 for a lost race: any 5xx fails the test.
func (p *peer) send(frame []byte) {
	u, bearer, gen := p.request(func() string { return "/rooms/command" })
	status, body, err := do(http.MethodPost, u, bearer, frame)
	switch {
	case err != nil:
		p.T.Errorf("%s: post %s: %v", p.Name, frame, err)
	case status >= 500:
		p.T.Errorf("%s: post %s: %d %.300s", p.Name, frame, status, body)
	default:
		p.absorb(body, gen)
	}
}

func (p *peer) sendCmd(c rooms.Command) {
	b, err := rooms.EncodeCommand(c)
	if err != nil {
		p.T.Fatal(err)
	}
	p.send(b)
}

// startPoll long-polls GET /rooms/view in a goroutine, bounded in count
// and time. A 5xx answer fails the test, as a command's does.
func (p *peer) startPoll() {
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.done)
		deadline := time.Now().Add(10 * time.Minute)
		for i := 0; i < 20_000 && time.Now().Before(deadline); i++ {
			select {
			case <-p.stop:
				return
			default:
			}
			u, bearer, gen := p.request(func() string { return fmt.Sprintf("/rooms/view?after=%d&wait=2000", p.Seq()) })
			status, body, err := do(http.MethodGet, u, bearer, nil)
			if err == nil && status >= 500 {
				p.T.Errorf("%s: long poll: %d %.300s", p.Name, status, body)
			}
			if err != nil || status != http.StatusOK {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			p.absorb(body, gen)
		}
	}()
}

func (p *peer) close() {
	select {
	case <-p.stop:
		return // closed already
	default:
	}
	close(p.stop)
	select {
	case <-p.done:
	case <-time.After(requestLimit + 5*time.Second):
		p.T.Errorf("%s: poller did not stop", p.Name)
	}
}

// reconnect drops the client's connection state and reclaims its seat
// with a hello from a fresh connection, as a reloaded page does.
func (p *peer) reconnect() {
	p.close()
	p.restart(p.room.Load().(string))
	p.sendCmd(rooms.Hello{Token: p.Session()})
	p.startPoll()
}

// table is the scenario's cast at one room.
type table struct {
	t                 *testing.T
	alice, bob, carol *peer
	dave              *peer // spectator
	humans            []*peer
	room              string
}

// actionSeconds is the decision clock of the scenario's table: the
// shortest the room machine allows, so the auto-pass comes within seconds
// of the real clock.
const actionSeconds = 5

// seatUp seats three humans and a fox AI at a 4-seat Cheat table with undo
// and a 5-second clock, starts the game, and has the fourth client
// spectate it.
func seatUp(t *testing.T, base string) *table {
	tb := &table{t: t, alice: dial(t, base, "alice"), bob: dial(t, base, "bob"), carol: dial(t, base, "carol"), dave: dial(t, base, "dave")}
	tb.humans = []*peer{tb.alice, tb.bob, tb.carol}
	for _, p := range append(tb.humans, tb.dave) {
		p.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	tb.alice.sendCmd(rooms.SetName{Name: "Alice"})
	tb.alice.sendCmd(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, UndoEnabled: true, ActionSeconds: actionSeconds}})
	var lv rooms.LobbyView
	_ = json.Unmarshal(tb.alice.Wait("a room", roomsclient.InRoom), &lv)
	tb.room = lv.Room.RoomID
	for _, p := range []*peer{tb.bob, tb.carol} {
		p.sendCmd(rooms.JoinRoom{RoomID: tb.room})
		p.Wait("a seat", roomsclient.InRoom)
	}
	tb.alice.sendCmd(rooms.AddAI{Seat: 3, Kind: "fox"})
	for _, p := range tb.humans {
		p.sendCmd(rooms.Ready{Ready: true})
	}
	for _, p := range tb.humans {
		p.Wait("the game", roomsclient.IsGame)
	}
	tb.dave.sendCmd(rooms.SpectateRoom{RoomID: tb.room})
	tb.dave.Wait("the spectator view", func(k string, _ []byte) bool { return k == rooms.KindSpectator })
	// The game runs in the room's own object, not the lobby's.
	for _, p := range append(tb.humans, tb.dave) {
		if got := p.room.Load().(string); got != tb.room {
			t.Fatalf("%s plays through the object of room %q, want %s's own", p.Name, got, tb.room)
		}
	}
	return tb
}

// sync waits until every human and the spectator has seen log sequence seq.
func (tb *table) sync(seq int64) {
	for _, p := range append(tb.humans, tb.dave) {
		p.Wait(fmt.Sprintf("log sequence %d", seq), func(k string, b []byte) bool {
			v := roomsclient.DecodeGame(b)
			return (k == rooms.KindGame || k == rooms.KindSpectator) && (v.LastSeq() >= seq || v.Result != nil)
		})
	}
}

// actor returns the human with a decision, its view and its first action.
func (tb *table) actor() (*peer, roomsclient.GameView) {
	for _, p := range tb.humans {
		k, b := p.Latest()
		if k != rooms.KindGame {
			continue
		}
		if v := roomsclient.DecodeGame(b); len(v.ValidActions) > 0 && v.Result == nil {
			return p, v
		}
	}
	return nil, roomsclient.GameView{}
}

func (tb *table) finished() bool {
	k, b := tb.alice.Latest()
	return k == rooms.KindGame && roomsclient.DecodeGame(b).Result != nil
}

// TestWorkerFullGame plays the reference game to its end against the
// worker over HTTP: three humans, a fox AI, a spectator, an undo, a
// reconnect, forged and spectator actions, and a deadline auto-pass on
// the worker's real clock. Once everyone leaves, the room's object keeps
// nothing in its storage.
func TestWorkerFullGame(t *testing.T) {
	w := worker(t)
	tb := seatUp(t, w.base)
	var undone, reconnected, forged, autoPassed bool
	lateSteps := 0 // steps the clock took before the player could
	deadline := time.Now().Add(6 * time.Minute)
	for step := 0; step < 400; step++ {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end within the time bound (step %d)", step)
		}
		actor, v := tb.actor()
		if actor == nil {
			if tb.finished() {
				break
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		seq := v.LastSeq()
		switch {
		case !undone && step >= 3: // alice takes the last transition back
			n := tb.alice.ErrCount()
			tb.alice.sendCmd(rooms.Undo{})
			b := tb.alice.Wait("undone", func(k string, b []byte) bool {
				return k == rooms.KindGame && roomsclient.DecodeGame(b).LoggedAfter("undone", seq) || tb.alice.ErrCount() > n
			})
			if tb.alice.ErrCount() > n {
				t.Fatalf("undo refused: %+v", tb.alice.LastErr())
			}
			tb.sync(roomsclient.DecodeGame(b).LastSeq())
			undone = true
			continue
		case !reconnected && step >= 6: // bob reloads: a new connection reclaims his seat
			tb.bob.reconnect()
			tb.bob.Wait("the game after reconnect", roomsclient.IsGame)
			reconnected = true
			continue
		case !forged && step >= 9: // another seat's and the spectator's actions change nothing
			a := v.ValidActions[0]
			other := tb.alice
			if other == actor {
				other = tb.bob
			}
			n := other.ErrCount()
			other.sendCmd(roomsclient.Answer(a, "forged"))
			other.Wait("a rejection", func(string, []byte) bool { return other.ErrCount() > n })
			tb.dave.sendCmd(roomsclient.Answer(a, "spectator"))
			tb.dave.sendCmd(rooms.Undo{})
			if errs := tb.dave.ErrCount(); errs != 0 {
				t.Fatalf("the spectator was answered %d rejections; its frames must be ignored", errs)
			}
			if _, b := actor.Latest(); roomsclient.DecodeGame(b).LastSeq() != seq && !roomsclient.DecodeGame(b).LoggedAfter("timed_out", seq) {
				t.Fatal("a forged or spectator action changed the game")
			}
			forged = true
		case !autoPassed && step >= 12: // nobody acts: the real clock runs out
			b := actor.Wait("a timed_out event", func(k string, b []byte) bool {
				return k == rooms.KindGame && roomsclient.DecodeGame(b).LoggedAfter("timed_out", seq)
			})
			tb.sync(roomsclient.DecodeGame(b).LastSeq())
			autoPassed = true
			continue
		}
		sub := fmt.Sprintf("s%d", step)
		n := actor.ErrCount()
		actor.sendCmd(roomsclient.Answer(roomsclient.Pick(v), sub))
		b := actor.Wait("ack "+sub, func(k string, b []byte) bool {
			v := roomsclient.DecodeGame(b)
			return k == rooms.KindGame && (v.ActionAck != nil && v.ActionAck.Submission == sub || v.Result != nil) ||
				actor.ErrCount() > n
		})
		refused := actor.ErrCount() > n
		if ack := roomsclient.DecodeGame(b).ActionAck; ack != nil && ack.Submission == sub && !ack.Accepted {
			refused = true
		}
		if refused {
			// On a busy machine the 5-second clock may win the race: then
			// the refusal follows a timed_out, and play goes on.
			_, cur := actor.Latest()
			if !roomsclient.DecodeGame(cur).LoggedAfter("timed_out", seq) {
				t.Fatalf("step %d refused: %+v", step, actor.LastErr())
			}
			lateSteps++
			continue
		}
		tb.sync(roomsclient.DecodeGame(b).LastSeq())
	}
	for _, p := range append(tb.humans, tb.dave) {
		p.Wait("the result", func(_ string, b []byte) bool { return roomsclient.DecodeGame(b).Result != nil })
	}
	if !undone || !reconnected || !forged || !autoPassed {
		t.Fatalf("the game ended before the scenario ran: undo %v reconnect %v forged %v auto-pass %v",
			undone, reconnected, forged, autoPassed)
	}
	t.Logf("game over; %d steps lost to the clock on the way", lateSteps)

	// Everyone leaves the finished game: the room is released, every
	// client is back in the lobby, and the room's object keeps nothing.
	file := w.roomObjectFile(t, tb.room)
	for _, p := range tb.humans {
		p.sendCmd(rooms.Leave{})
	}
	for _, p := range append(tb.humans, tb.dave) {
		p.Wait("the lobby after the release", func(k string, _ []byte) bool {
			return k == rooms.KindLobby && p.room.Load().(string) == ""
		})
	}
	deadline = time.Now().Add(waitLimit)
	for n := objectKeys(t, file); n != 0; n = objectKeys(t, file) {
		if time.Now().After(deadline) {
			t.Fatalf("the released room's object still keeps %d keys", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// roomObjectFile is the SQLite file in which wrangler dev keeps the
// storage of room id's object (v3/do/<worker>-RoomsObject/<object id>.sqlite):
// the one whose object/name is the room's.
func (w *wrangler) roomObjectFile(t *testing.T, id string) string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(w.persist, "v3", "do", "*-RoomsObject", "*.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		db := openSQLite(t, f)
		var n int
		// The value is the V8 serialization of the string, which holds
		// its bytes as they are.
		err := db.QueryRow("SELECT count(*) FROM _cf_KV WHERE key = 'object/name' AND instr(value, CAST(? AS BLOB)) > 0",
			"room:"+id).Scan(&n)
		db.Close()
		if err == nil && n == 1 {
			return f
		}
	}
	t.Fatalf("no object storage of room %s among %q", id, all)
	return ""
}

// objectKeys counts the keys an object's storage file holds (none when
// the file or its table is gone).
func objectKeys(t *testing.T, file string) int {
	t.Helper()
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	db := openSQLite(t, file)
	defer db.Close()
	var tables, n int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = '_cf_KV'").Scan(&tables); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if tables == 0 {
		return 0
	}
	if err := db.QueryRow("SELECT count(*) FROM _cf_KV").Scan(&n); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return n
}

// TestWorkerSeatRace has six clients join a 4-seat room whose host holds
// one seat, all at once: the room server's object applies the joins one
// after another (several in one group commit when they wait together),
// seating exactly three; the others are refused room_full and nobody is
// seated twice.
func TestWorkerSeatRace(t *testing.T) {
	w := worker(t)
	host := dial(t, w.base, "host")
	host.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	host.sendCmd(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID}})
	var lv rooms.LobbyView
	_ = json.Unmarshal(host.Wait("a room", roomsclient.InRoom), &lv)
	room := lv.Room.RoomID

	const racers = 6
	ps := make([]*peer, racers)
	for i := range ps {
		ps[i] = dial(t, w.base, fmt.Sprintf("racer%d", i))
		ps[i].Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func(p *peer) {
			defer wg.Done()
			p.sendCmd(rooms.JoinRoom{RoomID: room})
		}(p)
	}
	wg.Wait()
	seated, full := 0, 0
	for _, p := range ps {
		b := p.Wait("a seat or a refusal", func(_ string, b []byte) bool { return roomsclient.InRoom("", b) || p.ErrCount() > 0 })
		switch {
		case roomsclient.InRoom("", b):
			seated++
		case p.LastErr().Code == rooms.CodeRoomFull:
			full++
		default:
			t.Errorf("%s: refused %+v", p.Name, p.LastErr())
		}
	}
	if seated != 3 || full != racers-3 {
		t.Fatalf("%d seated and %d refused room_full; want 3 and %d", seated, full, racers-3)
	}
	host.Wait("a full roster", func(_ string, b []byte) bool {
		var lv rooms.LobbyView
		if json.Unmarshal(b, &lv) != nil || lv.Room == nil {
			return false
		}
		n := 0
		for _, s := range lv.Room.Seats {
			if s.OccupiedBy != "" {
				n++
			}
		}
		return n == 4
	})
}
