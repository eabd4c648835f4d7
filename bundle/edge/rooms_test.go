package edge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// waitLimit bounds every wait for a view. The worker's clock is real and
// each of its requests starts a Go instance, so it is generous.
const waitLimit = 45 * time.Second

// peer is one HTTP client of the room server: a poller keeps its latest
// view, its rejections and its session token.
type peer struct {
	t    testing.TB
	base string
	name string

	token atomic.Value // string: the session bearer
	seq   atomic.Int64 // newest mailbox frame seen

	mu      sync.Mutex
	kind    string
	view    []byte
	errs    []rooms.Rejection
	session string // the session that owns the seat

	stop, done chan struct{}
}

func dial(t testing.TB, base, name string) *peer {
	p := &peer{t: t, base: base, name: name}
	p.token.Store("")
	p.send([]byte(`{"type":"hello"}`))
	p.startPoll()
	t.Cleanup(p.close)
	return p
}

// scan checks one received frame: no frame carries game state (hands,
// pile), and a spectator's frame carries nothing of a seat.
func (p *peer) scan(kind string, frame []byte) {
	if bytes.Contains(frame, []byte(`"hands"`)) || bytes.Contains(frame, []byte(`"pile"`)) || bytes.Contains(frame, []byte(`"seed"`)) {
		p.t.Errorf("frame to %s carries game state: %.300s", p.name, frame)
	}
	if kind == rooms.KindSpectator {
		for _, k := range []string{`"you"`, `"valid_actions"`, `"my_hand"`, `"action_deadline"`} {
			if bytes.Contains(frame, []byte(k)) {
				p.t.Errorf("spectator frame to %s carries %s", p.name, k)
			}
		}
	}
}

func (p *peer) onFrame(kind string, frame []byte) {
	p.scan(kind, frame)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch kind {
	case rooms.KindError:
		var f rooms.LobbyErrorFrame
		_ = json.Unmarshal(frame, &f)
		p.errs = append(p.errs, f.LobbyError)
	case rooms.KindLobby, rooms.KindGame, rooms.KindSpectator:
		p.kind, p.view = kind, frame
		if kind == rooms.KindLobby && p.session == "" {
			var v rooms.LobbyView
			_ = json.Unmarshal(frame, &v)
			p.session = v.Session
		}
	}
}

func (p *peer) absorb(body []byte) {
	var r hosting.RoomsResponse
	if err := json.Unmarshal(body, &r); err != nil {
		p.t.Errorf("%s: response is not JSON: %.300s", p.name, body)
		return
	}
	if r.Session != "" {
		p.token.Store(r.Session)
	}
	for _, f := range r.Frames {
		if f.Seq > 0 {
			if f.Seq <= p.seq.Load() {
				continue
			}
			p.seq.Store(f.Seq)
		}
		p.onFrame(f.Kind, f.Frame)
	}
}

// send posts one command frame and absorbs the frames it produced. A 503
// (the worker could not commit) is retried a few times.
func (p *peer) send(frame []byte) {
	err := retry(4, 200*time.Millisecond, func() (bool, error) {
		status, body, err := do(http.MethodPost, p.base+"/rooms/command", p.token.Load().(string), frame)
		if err != nil {
			return false, err
		}
		if status == http.StatusServiceUnavailable {
			return false, nil
		}
		p.absorb(body)
		return true, nil
	})
	if err != nil {
		p.t.Errorf("%s: post %s: %v", p.name, frame, err)
	}
}

func (p *peer) sendCmd(c rooms.Command) {
	b, err := rooms.EncodeCommand(c)
	if err != nil {
		p.t.Fatal(err)
	}
	p.send(b)
}

// startPoll long-polls GET /rooms/view in a goroutine, bounded in count
// and time.
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
			status, body, err := do(http.MethodGet, fmt.Sprintf("%s/rooms/view?after=%d&wait=2000", p.base, p.seq.Load()),
				p.token.Load().(string), nil)
			if err != nil || status != http.StatusOK {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			p.absorb(body)
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
		p.t.Errorf("%s: poller did not stop", p.name)
	}
}

// reconnect drops the client's connection state and reclaims its seat
// with a hello from a fresh connection, as a reloaded page does.
func (p *peer) reconnect() {
	p.close()
	p.seq.Store(0)
	p.token.Store("")
	p.mu.Lock()
	tok := p.session
	p.mu.Unlock()
	p.sendCmd(rooms.Hello{Token: tok})
	p.startPoll()
}

func (p *peer) latest() (string, []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.kind, p.view
}

func (p *peer) errCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.errs)
}

func (p *peer) lastErr() rooms.Rejection {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.errs) == 0 {
		return rooms.Rejection{}
	}
	return p.errs[len(p.errs)-1]
}

// wait polls the latest view until ok accepts it, at most waitLimit.
func (p *peer) wait(what string, ok func(kind string, view []byte) bool) []byte {
	p.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		if k, v := p.latest(); v != nil && ok(k, v) {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	k, v := p.latest()
	p.t.Fatalf("%s: timed out waiting for %s; latest %s view: %.400s", p.name, what, k, v)
	return nil
}

// gameView is what the scenario reads from a GameView.
type gameView struct {
	ValidActions []rooms.Action `json:"valid_actions"`
	Result       *rooms.Result  `json:"result"`
	Log          []struct {
		Sequence int64 `json:"sequence"`
		Event    struct {
			Type string `json:"type"`
		} `json:"event"`
	} `json:"log"`
	ActionAck *rooms.ActionAck `json:"action_ack"`
}

func decodeGame(b []byte) gameView {
	var v gameView
	_ = json.Unmarshal(b, &v)
	return v
}

func (v gameView) lastSeq() int64 {
	if len(v.Log) == 0 {
		return 0
	}
	return v.Log[len(v.Log)-1].Sequence
}

// loggedAfter reports whether an event of type typ was logged after
// sequence seq.
func (v gameView) loggedAfter(typ string, seq int64) bool {
	for _, e := range v.Log {
		if e.Event.Type == typ && e.Sequence > seq {
			return true
		}
	}
	return false
}

func isGame(kind string, _ []byte) bool { return kind == rooms.KindGame }

func inRoom(_ string, b []byte) bool {
	var lv rooms.LobbyView
	return json.Unmarshal(b, &lv) == nil && lv.Room != nil
}

// answer plays action a: a pass, a call, or a play of up to two cards.
func answer(a rooms.Action, submission string) rooms.ChooseAction {
	ca := rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Submission: submission}
	for _, pr := range a.Prompts {
		n := min(2, len(pr.Candidates))
		ca.Targets = append(ca.Targets, rooms.TargetChoice{Slot: pr.Slot, Chosen: pr.Candidates[:n]})
	}
	return ca
}

// pick prefers letting a play stand, so games stay short.
func pick(v gameView) rooms.Action {
	for _, a := range v.ValidActions {
		if a.Type == "pass" {
			return a
		}
	}
	return v.ValidActions[0]
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
		p.wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	tb.alice.sendCmd(rooms.SetName{Name: "Alice"})
	tb.alice.sendCmd(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, UndoEnabled: true, ActionSeconds: actionSeconds}})
	var lv rooms.LobbyView
	_ = json.Unmarshal(tb.alice.wait("a room", inRoom), &lv)
	tb.room = lv.Room.RoomID
	for _, p := range []*peer{tb.bob, tb.carol} {
		p.sendCmd(rooms.JoinRoom{RoomID: tb.room})
		p.wait("a seat", inRoom)
	}
	tb.alice.sendCmd(rooms.AddAI{Seat: 3, Kind: "fox"})
	for _, p := range tb.humans {
		p.sendCmd(rooms.Ready{Ready: true})
	}
	for _, p := range tb.humans {
		p.wait("the game", isGame)
	}
	tb.dave.sendCmd(rooms.SpectateRoom{RoomID: tb.room})
	tb.dave.wait("the spectator view", func(k string, _ []byte) bool { return k == rooms.KindSpectator })
	return tb
}

// sync waits until every human and the spectator has seen log sequence seq.
func (tb *table) sync(seq int64) {
	for _, p := range append(tb.humans, tb.dave) {
		p.wait(fmt.Sprintf("log sequence %d", seq), func(k string, b []byte) bool {
			v := decodeGame(b)
			return (k == rooms.KindGame || k == rooms.KindSpectator) && (v.lastSeq() >= seq || v.Result != nil)
		})
	}
}

// actor returns the human with a decision, its view and its first action.
func (tb *table) actor() (*peer, gameView) {
	for _, p := range tb.humans {
		k, b := p.latest()
		if k != rooms.KindGame {
			continue
		}
		if v := decodeGame(b); len(v.ValidActions) > 0 && v.Result == nil {
			return p, v
		}
	}
	return nil, gameView{}
}

func (tb *table) finished() bool {
	k, b := tb.alice.latest()
	return k == rooms.KindGame && decodeGame(b).Result != nil
}

// TestWorkerFullGame plays the reference game to its end against the
// worker over HTTP: three humans, a fox AI, a spectator, an undo, a
// reconnect, forged and spectator actions, and a deadline auto-pass on
// the worker's real clock.
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
		seq := v.lastSeq()
		switch {
		case !undone && step >= 3: // alice takes the last transition back
			n := tb.alice.errCount()
			tb.alice.sendCmd(rooms.Undo{})
			b := tb.alice.wait("undone", func(k string, b []byte) bool {
				return k == rooms.KindGame && decodeGame(b).loggedAfter("undone", seq) || tb.alice.errCount() > n
			})
			if tb.alice.errCount() > n {
				t.Fatalf("undo refused: %+v", tb.alice.lastErr())
			}
			tb.sync(decodeGame(b).lastSeq())
			undone = true
			continue
		case !reconnected && step >= 6: // bob reloads: a new connection reclaims his seat
			tb.bob.reconnect()
			tb.bob.wait("the game after reconnect", isGame)
			reconnected = true
			continue
		case !forged && step >= 9: // another seat's and the spectator's actions change nothing
			a := v.ValidActions[0]
			other := tb.alice
			if other == actor {
				other = tb.bob
			}
			n := other.errCount()
			other.sendCmd(answer(a, "forged"))
			other.wait("a rejection", func(string, []byte) bool { return other.errCount() > n })
			tb.dave.sendCmd(answer(a, "spectator"))
			tb.dave.sendCmd(rooms.Undo{})
			if errs := tb.dave.errCount(); errs != 0 {
				t.Fatalf("the spectator was answered %d rejections; its frames must be ignored", errs)
			}
			if _, b := actor.latest(); decodeGame(b).lastSeq() != seq && !decodeGame(b).loggedAfter("timed_out", seq) {
				t.Fatal("a forged or spectator action changed the game")
			}
			forged = true
		case !autoPassed && step >= 12: // nobody acts: the real clock runs out
			b := actor.wait("a timed_out event", func(k string, b []byte) bool {
				return k == rooms.KindGame && decodeGame(b).loggedAfter("timed_out", seq)
			})
			tb.sync(decodeGame(b).lastSeq())
			autoPassed = true
			continue
		}
		sub := fmt.Sprintf("s%d", step)
		n := actor.errCount()
		actor.sendCmd(answer(pick(v), sub))
		b := actor.wait("ack "+sub, func(k string, b []byte) bool {
			v := decodeGame(b)
			return k == rooms.KindGame && (v.ActionAck != nil && v.ActionAck.Submission == sub || v.Result != nil) ||
				actor.errCount() > n
		})
		refused := actor.errCount() > n
		if ack := decodeGame(b).ActionAck; ack != nil && ack.Submission == sub && !ack.Accepted {
			refused = true
		}
		if refused {
			// On a busy machine the 5-second clock may win the race: then
			// the refusal follows a timed_out, and play goes on.
			_, cur := actor.latest()
			if !decodeGame(cur).loggedAfter("timed_out", seq) {
				t.Fatalf("step %d refused: %+v", step, actor.lastErr())
			}
			lateSteps++
			continue
		}
		tb.sync(decodeGame(b).lastSeq())
	}
	for _, p := range append(tb.humans, tb.dave) {
		p.wait("the result", func(_ string, b []byte) bool { return decodeGame(b).Result != nil })
	}
	if !undone || !reconnected || !forged || !autoPassed {
		t.Fatalf("the game ended before the scenario ran: undo %v reconnect %v forged %v auto-pass %v",
			undone, reconnected, forged, autoPassed)
	}
	t.Logf("game over; %d steps lost to the clock on the way", lateSteps)
}

// TestWorkerSeatRace has six clients join a 4-seat room whose host holds
// one seat, all at once: each join is its own worker instance, loading,
// applying and committing against D1 concurrently, and optimistic
// concurrency seats exactly three; the others are refused room_full and
// nobody is seated twice.
func TestWorkerSeatRace(t *testing.T) {
	w := worker(t)
	host := dial(t, w.base, "host")
	host.wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	host.sendCmd(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID}})
	var lv rooms.LobbyView
	_ = json.Unmarshal(host.wait("a room", inRoom), &lv)
	room := lv.Room.RoomID

	const racers = 6
	ps := make([]*peer, racers)
	for i := range ps {
		ps[i] = dial(t, w.base, fmt.Sprintf("racer%d", i))
		ps[i].wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	before := w.conflicts()
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
		b := p.wait("a seat or a refusal", func(_ string, b []byte) bool { return inRoom("", b) || p.errCount() > 0 })
		switch {
		case inRoom("", b):
			seated++
		case p.lastErr().Code == rooms.CodeRoomFull:
			full++
		default:
			t.Errorf("%s: refused %+v", p.name, p.lastErr())
		}
	}
	if seated != 3 || full != racers-3 {
		t.Fatalf("%d seated and %d refused room_full; want 3 and %d", seated, full, racers-3)
	}
	host.wait("a full roster", func(_ string, b []byte) bool {
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
	t.Logf("D1 refused %d conflicting commits during the race", w.conflicts()-before)
}
