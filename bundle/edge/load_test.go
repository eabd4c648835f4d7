package edge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// loadRun is what TestWorkerWebSocketLoad's clients share: the end of the
// run, the public record of every room, and what the server answered to
// every command.
type loadRun struct {
	t   testing.TB
	end time.Time

	mu       sync.Mutex
	logs     map[string]map[int64]json.RawMessage // room → log sequence → event
	accepted map[string]int                       // command key → accepted answers
	refused  map[string]bool                      // command keys refused at least once
	lat      []time.Duration                      // send to accepted answer
	rate     int                                  // refused over the per-connection rate
	stale    int                                  // refused as no longer offered (lost a race)
}

// over reports whether the run's time is up.
func (l *loadRun) over() bool { return !time.Now().Before(l.end) }

// scan takes the log window of every game and spectator view a client
// receives (roomsclient.Inbox.Scan). A view carries the latest entries of
// its room's log only, and every transition is sent to every seat, so
// together the views cover the whole log; two views that carry one
// sequence number must carry the same entry.
func (l *loadRun) scan(kind string, frame []byte) {
	if kind != rooms.KindGame && kind != rooms.KindSpectator {
		return
	}
	var v struct {
		RoomID string           `json:"room_id"`
		Log    []rooms.LogEntry `json:"log"`
	}
	if err := json.Unmarshal(frame, &v); err != nil {
		l.t.Errorf("a %s view is not JSON: %v", kind, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.logs[v.RoomID]
	if m == nil {
		m = map[int64]json.RawMessage{}
		l.logs[v.RoomID] = m
	}
	for _, e := range v.Log {
		if old, ok := m[e.Sequence]; ok && !bytes.Equal(old, e.Event) {
			l.t.Errorf("room %s: log entry %d is %s in one view and %s in another", v.RoomID, e.Sequence, old, e.Event)
		}
		m[e.Sequence] = e.Event
	}
}

// applied reads room's log, reassembled from the views, as the commands
// it applied, in order: one key (commandKey) per played, passed and
// called event. Cheat's action ids carry the play number, counted here
// from the played events. It also reports whether the log ends with the
// game's end. A gap in the sequence numbers, or an event that no seat's
// command makes (in a room without a clock or AI seats), fails the test.
func (l *loadRun) applied(room string) (keys []string, over bool) {
	l.mu.Lock()
	m := l.logs[room]
	seqs := make([]int64, 0, len(m))
	for s := range m {
		seqs = append(seqs, s)
	}
	l.mu.Unlock()
	slices.Sort(seqs)
	play := 0
	for i, s := range seqs {
		if s != int64(i+1) {
			l.t.Errorf("room %s: the views carry log entries %d to %d with entry %d missing", room, seqs[0], seqs[len(seqs)-1], i+1)
			return nil, false
		}
		var e struct {
			Type   string `json:"type"`
			Player string `json:"player"`
		}
		_ = json.Unmarshal(m[s], &e)
		over = e.Type == "game_over"
		switch e.Type {
		case "played":
			play++
			keys = append(keys, commandKey(room, e.Player, fmt.Sprintf("play:%d", play)))
		case "passed":
			keys = append(keys, commandKey(room, e.Player, fmt.Sprintf("pass:%d", play)))
		case "called":
			keys = append(keys, commandKey(room, e.Player, fmt.Sprintf("call:%d", play)))
		case "game_over":
		default:
			l.t.Errorf("room %s: log entry %d is %s, which no command makes", room, s, m[s])
		}
	}
	return keys, over
}

// ended reports whether the views taken so far carry room's game_over.
func (l *loadRun) ended(room string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.logs[room] {
		var ev struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(e, &ev) == nil && ev.Type == "game_over" {
			return true
		}
	}
	return false
}

// commandKey names one command by its effect: the room, the seat's player
// and the action id it answered. A seat is offered an action id at most
// once, so an applied command has exactly one key.
func commandKey(room, player, action string) string {
	return room + " " + player + " " + action
}

// answered notes the server's answer to the command key: accepted (and
// how long the answer took) or refused.
func (l *loadRun) answered(key string, accepted bool, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if accepted {
		l.accepted[key]++
		l.lat = append(l.lat, d)
		return
	}
	l.refused[key] = true
}

// loadClient is one client of TestWorkerWebSocketLoad, over a WebSocket
// (wsPeer) or over HTTP (peer).
type loadClient interface {
	Wait(what string, ok func(kind string, view []byte) bool) []byte
	ErrCount() int
	ErrsSince(n int) []rooms.Rejection
	// command sends one command.
	command(rooms.Command)
	// atLobby reports whether the client speaks to the lobby's object.
	atLobby() bool
	// name names the client in failures and submission ids.
	name() string
}

func (p *wsPeer) command(c rooms.Command) { p.send(c) }
func (p *wsPeer) name() string            { return p.Name }
func (p *wsPeer) atLobby() bool {
	moves := p.Moves()
	return len(moves) == 0 || moves[len(moves)-1] == rooms.MoveLobby
}

func (p *peer) command(c rooms.Command) { p.sendCmd(c) }
func (p *peer) name() string            { return p.Name }
func (p *peer) atLobby() bool           { return p.room.Load().(string) == "" }

// startLoadTable seats the four clients at a new four-seat Cheat table of
// human seats, without a clock, and returns its room once every seat has
// the game's view.
func startLoadTable(seats []loadClient) string {
	host := seats[0]
	host.command(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: len(seats), GameSetup: cheat.ID}})
	var lv rooms.LobbyView
	_ = json.Unmarshal(host.Wait("a room", roomsclient.InRoom), &lv)
	room := lv.Room.RoomID
	for _, p := range seats[1:] {
		p.command(rooms.JoinRoom{RoomID: room})
		p.Wait("a seat", roomsclient.InRoom)
	}
	for _, p := range seats {
		p.command(rooms.Ready{Ready: true})
	}
	for _, p := range seats {
		p.Wait("the game of "+room, func(k string, b []byte) bool {
			return k == rooms.KindGame && roomsclient.DecodeGame(b).RoomID == room
		})
	}
	return room
}

// leaveLoadTable has every seat leave a finished game and waits until
// each is back in the lobby's object.
func leaveLoadTable(seats []loadClient) {
	for _, p := range seats {
		p.command(rooms.Leave{})
	}
	for _, p := range seats {
		p.Wait("the lobby", func(k string, b []byte) bool {
			return k == rooms.KindLobby && !roomsclient.InRoom(k, b) && p.atLobby()
		})
	}
}

// play has seat p answer every decision room's game offers it until the
// game ends or the run is over, one command at a time, each with its own
// submission id and sent once the last one was answered: by its ack
// (accepted, or refused because the game moved on) or by a refusal over
// the per-connection rate, after which the seat sends its then current
// decision again a little later, as a page does. In a challenge it calls
// every tenth time and otherwise lets the play stand.
func (l *loadRun) play(p loadClient, room string) {
	for n := 1; ; n++ {
		var v roomsclient.GameView
		p.Wait("a decision in "+room, func(k string, b []byte) bool {
			if l.over() {
				return true
			}
			v = roomsclient.DecodeGame(b)
			return k == rooms.KindGame && v.RoomID == room && (v.Result != nil || len(v.ValidActions) > 0)
		})
		if l.over() || v.Result != nil {
			return
		}
		a := roomsclient.Pick(v)
		if n%10 == 0 {
			a = v.ValidActions[0] // a play, or a call
		}
		sub := fmt.Sprintf("%s-%d", p.name(), n)
		key := commandKey(room, v.You, a.ID)
		errs := p.ErrCount()
		t0 := time.Now()
		p.command(loadAnswer(a, sub))
		var ack *rooms.ActionAck
		p.Wait("the answer to "+sub, func(k string, b []byte) bool {
			if got := roomsclient.DecodeGame(b).ActionAck; k == rooms.KindGame && got != nil && got.Submission == sub {
				ack = got
				return true
			}
			return slices.ContainsFunc(p.ErrsSince(errs), func(r rooms.Rejection) bool { return r.Code == rooms.CodeRateLimited })
		})
		d := time.Since(t0)
		l.answered(key, ack != nil && ack.Accepted, d)
		if ack == nil {
			// Over the machine's 20 commands a second per connection:
			// refused, not applied; a page waits before it sends again.
			l.mu.Lock()
			l.rate++
			l.mu.Unlock()
			time.Sleep(100 * time.Millisecond)
		} else if !ack.Accepted {
			l.mu.Lock()
			l.stale++
			l.mu.Unlock()
		}
	}
}

// loadAnswer answers action a with submission sub, choosing as many
// candidates as each prompt allows: a play puts down up to four cards, so
// that games end within the run and new ones start.
func loadAnswer(a rooms.Action, sub string) rooms.ChooseAction {
	ca := rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Submission: sub}
	for _, p := range a.Prompts {
		ca.Targets = append(ca.Targets, rooms.TargetChoice{Slot: p.Slot, Chosen: p.Candidates[:min(max(p.Count, 1), len(p.Candidates))]})
	}
	return ca
}

// TestWorkerWebSocketLoad has eight clients, the four seats of each of
// two Cheat tables (three over WebSockets, one over HTTP), play for 30
// seconds through the rooms' objects: each answers every decision it is
// offered with a choose_action of its own submission id, the next once
// the last was answered, and a finished game is left and a new one
// started. Three seats of a table answer each challenge at once, so the
// object meets concurrent commands. The room's public log, reassembled
// from the views every seat received and, for the games still running at
// the end, from a spectator's view of the final state, must then hold
// every command the server accepted exactly once and nothing else: no
// command refused (over the per-connection rate, or as no longer offered)
// applied, none applied twice. Any 5xx fails the test: an HTTP client's
// command or long poll, or a WebSocket upgrade, which fails the dial. It
// logs the commands per second and the latencies of the accepted ones.
func TestWorkerWebSocketLoad(t *testing.T) {
	w := worker(t)
	const tables, seats, run = 2, 4, 30 * time.Second
	l := &loadRun{t: t, logs: map[string]map[int64]json.RawMessage{}, accepted: map[string]int{}, refused: map[string]bool{}}
	// Every client connects before the clock starts: on a busy machine the
	// connections alone may take longer than the run.
	ws := dialLobbiesScan(t, w.base, "load", tables*(seats-1), l.scan)
	if t.Failed() {
		return
	}
	// The last seat of each table plays over HTTP, the rooms page's
	// fallback.
	ps := make([]loadClient, 0, tables*seats)
	for i := range tables {
		h := dialScan(t, w.base, fmt.Sprintf("http%d", i), l.scan)
		h.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
		for _, p := range ws[i*(seats-1) : (i+1)*(seats-1)] {
			ps = append(ps, p)
		}
		ps = append(ps, h)
	}
	var mu sync.Mutex
	var current []string // each table's last game
	games, finished := 0, 0
	var wg sync.WaitGroup
	start := time.Now()
	l.end = start.Add(run)
	for i := range tables {
		table := ps[i*seats : (i+1)*seats]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !l.over() {
				room := startLoadTable(table)
				var play sync.WaitGroup
				for _, p := range table {
					play.Add(1)
					go func() {
						defer play.Done()
						l.play(p, room)
					}()
				}
				play.Wait()
				mu.Lock()
				games++
				mu.Unlock()
				if l.over() {
					mu.Lock()
					current = append(current, room)
					mu.Unlock()
					return
				}
				mu.Lock()
				finished++
				mu.Unlock()
				leaveLoadTable(table)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if t.Failed() {
		return
	}
	// The final state of the games still running: a fresh connection
	// watches each, and its view carries the end of the room's log. A
	// game that ended as the time ran out, before its seats looked again,
	// has no game to watch (not_running): its end went to every seat,
	// whose views carry it.
	for i, room := range current {
		s := dialWSScan(t, w.base, fmt.Sprintf("watch%d", i), "", l.scan)
		s.Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
		n := s.ErrCount()
		s.send(rooms.SpectateRoom{RoomID: room})
		s.Wait("the spectator view of "+room, func(k string, b []byte) bool {
			return k == rooms.KindSpectator && roomsclient.DecodeGame(b).RoomID == room || s.ErrCount() > n
		})
		if errs := s.ErrsSince(n); len(errs) > 0 {
			if errs[0].Code != rooms.CodeNotRunning {
				t.Fatalf("watch%d: spectating %s refused: %+v", i, room, errs[0])
			}
			for deadline := time.Now().Add(waitLimit); !l.ended(room); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("room %s has no running game, and no seat's view carries its end", room)
				}
			}
		}
	}
	l.mu.Lock()
	all := make([]string, 0, len(l.logs))
	for room := range l.logs {
		all = append(all, room)
	}
	l.mu.Unlock()
	sort.Strings(all)
	inLog := map[string]int{}
	for _, room := range all {
		keys, over := l.applied(room)
		if !over && !slices.Contains(current, room) {
			t.Errorf("room %s: a game left as finished has no game_over in its log", room)
		}
		for _, k := range keys {
			inLog[k]++
		}
	}
	applied := 0
	for k, n := range inLog {
		applied += n
		switch {
		case n > 1:
			t.Errorf("%s applied %d times", k, n)
		case l.accepted[k] == 0 && l.refused[k]:
			t.Errorf("%s applied although refused", k)
		case l.accepted[k] == 0:
			t.Errorf("%s applied although never sent", k)
		}
	}
	for k, n := range l.accepted {
		switch {
		case n > 1:
			t.Errorf("%s accepted %d times", k, n)
		case inLog[k] == 0:
			t.Errorf("%s accepted but not in its room's log", k)
		}
	}
	for _, p := range ps {
		for _, r := range p.ErrsSince(0) {
			if r.Code != rooms.CodeRateLimited && r.Code != rooms.CodeStaleAction && r.Code != rooms.CodeGameOver {
				t.Errorf("%s: refused %s: %s", p.name(), r.Code, r.Reason)
			}
		}
	}
	if len(l.lat) == 0 {
		t.Fatal("no command was accepted")
	}
	slices.Sort(l.lat)
	t.Logf("%d commands accepted from %d WebSocket and %d HTTP clients in %v, no 5xx, all in the rooms' logs once: %.0f commands/s, p50 %v, p99 %v; "+
		"%d refused over the per-connection rate and sent again, %d refused as no longer offered, none applied; %d games, %d of them finished",
		applied, len(ws), tables, elapsed.Round(time.Millisecond), float64(applied)/elapsed.Seconds(),
		l.lat[len(l.lat)/2].Round(time.Millisecond), l.lat[len(l.lat)*99/100].Round(time.Millisecond),
		l.rate, l.stale, games, finished)
}
