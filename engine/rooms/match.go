package rooms

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rng"
)

// maybeStart starts room r's game once every seat is occupied, decked and
// ready.
func (s *Server) maybeStart(id string, r *Room, now int64, ids IDSource, ob *outbox) *Rejection {
	for _, st := range r.Seats {
		if !st.occupied() || !st.Decked || !st.Ready {
			return nil
		}
	}
	g, ok := s.reg.Game(r.Config.GameSetup)
	if !ok {
		return reject(CodeUnknownFormat, "unknown game_setup %q", r.Config.GameSetup)
	}
	seed := ids.NewID()
	if seed == "" {
		return reject(CodeInternal, "id source gave no seed")
	}
	players := make([]Player, len(r.Seats))
	for i, st := range r.Seats {
		players[i] = Player{Seat: i, ID: PlayerID(i), Name: st.Name, AI: st.AI,
			Deck: append([]string(nil), st.Deck...), Commander: st.Commander}
	}
	pos, err := g.Setup(seed, players)
	if err != nil {
		return reject(CodeInternal, "%s setup: %v", r.Config.GameSetup, err)
	}
	n := len(r.Seats)
	m := &Match{Seed: seed, AISeq: make([]int, n), Acks: make([]*ActionAck, n),
		Stops: make([][]string, n), OwnStops: make([][]string, n)}
	var events []Event
	s.settle(r, m, pos, m.AISeq, &events)
	state, err := pos.State()
	if err != nil {
		return reject(CodeInternal, "%s state: %v", r.Config.GameSetup, err)
	}
	entries, err := s.logEntries(m, events)
	if err != nil {
		return reject(CodeInternal, "%v", err)
	}
	m.State = state
	m.Log = entries
	m.Result = pos.Result()
	r.Match = m
	t := &table{pos: pos, acts: map[int][]Action{}}
	ob.tables[id] = t
	s.rearm(r, t, now)
	ob.rooms[id] = true
	ob.dir = true
	return nil
}

// logEntries numbers events and appends them to m's log window; it does not
// change m except for the sequence counter.
func (s *Server) logEntries(m *Match, events []Event) ([]LogEntry, error) {
	log := append([]LogEntry(nil), m.Log...)
	for _, e := range events {
		if t, ok := e["type"].(string); !ok || t == "" {
			return nil, errors.New("rooms: log event without a type")
		}
		b, err := canon.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("rooms: log event: %w", err)
		}
		m.NextLog++
		log = append(log, LogEntry{Sequence: m.NextLog, Event: b})
	}
	if over := len(log) - s.Limits.LogWindow; over > 0 {
		log = append([]LogEntry(nil), log[over:]...)
	}
	return log, nil
}

// load returns room id's position for this call, loading it once.
func (s *Server) load(id string, r *Room, ob *outbox) (*table, error) {
	if t := ob.tables[id]; t != nil {
		return t, nil
	}
	g, ok := s.reg.Game(r.Config.GameSetup)
	if !ok {
		return nil, fmt.Errorf("rooms: unknown format %q", r.Config.GameSetup)
	}
	pos, err := g.Load(r.Match.State)
	if err != nil {
		return nil, fmt.Errorf("rooms: room %q: %w", id, err)
	}
	t := &table{pos: pos, acts: map[int][]Action{}}
	ob.tables[id] = t
	return t, nil
}

// transition runs one accepted state change of room id: do mutates the
// position, AI seats then settle, and the result is committed with a
// checkpoint of the state before it. On error nothing changes.
func (s *Server) transition(id string, r *Room, ob *outbox, now int64, do func(pos Position, events *[]Event) *Rejection) *Rejection {
	t, err := s.load(id, r, ob)
	if err != nil {
		return reject(CodeInternal, "%v", err)
	}
	m := r.Match
	before := Checkpoint{State: m.State, Log: m.Log, AISeq: append([]int(nil), m.AISeq...), Result: m.Result}
	var events []Event
	if rej := do(t.pos, &events); rej != nil {
		delete(ob.tables, id) // the position may be half-applied
		return rej
	}
	aiSeq := append([]int(nil), m.AISeq...)
	s.settle(r, m, t.pos, aiSeq, &events)
	state, err := t.pos.State()
	if err != nil {
		delete(ob.tables, id)
		return reject(CodeInternal, "state: %v", err)
	}
	next := m.NextLog
	entries, err := s.logEntries(m, events)
	if err != nil {
		m.NextLog = next
		delete(ob.tables, id)
		return reject(CodeInternal, "%v", err)
	}
	if r.Config.UndoEnabled {
		m.Checkpoints = append(m.Checkpoints, before)
		if over := len(m.Checkpoints) - s.Limits.UndoDepth; over > 0 {
			m.Checkpoints = append([]Checkpoint(nil), m.Checkpoints[over:]...)
		}
	}
	m.State, m.Log, m.AISeq = state, entries, aiSeq
	m.Step++
	wasOver := m.Result != nil
	m.Result = t.pos.Result()
	if wasOver != (m.Result != nil) {
		ob.dir = true
	}
	t.acts, t.shared, t.spectator = map[int][]Action{}, nil, nil
	s.rearm(r, t, now)
	ob.rooms[id] = true
	return nil
}

// settle lets AI seats move, lowest seat first, until no AI seat is asked
// anything or the step bound is reached.
func (s *Server) settle(r *Room, m *Match, pos Position, aiSeq []int, events *[]Event) {
	for range s.Limits.SettleSteps {
		if pos.Result() != nil {
			return
		}
		moved := false
		for seat, st := range r.Seats {
			if st.AI == "" {
				continue
			}
			acts := pos.Actions(seat)
			if len(acts) == 0 {
				continue
			}
			h := rng.For(m.Seed, rng.Agent(PlayerID(seat), aiSeq[seat]))
			aiSeq[seat]++
			evs, err := applyChoice(pos, seat, acts, pos.AI(st.AI, seat, h))
			if err != nil {
				c, ok := pos.Timeout(seat)
				if !ok {
					continue
				}
				if evs, err = applyChoice(pos, seat, acts, c); err != nil {
					continue
				}
			}
			*events = append(*events, evs...)
			moved = true
			break
		}
		if !moved {
			return
		}
	}
}

// applyChoice checks c against the action it names among acts and applies it.
func applyChoice(pos Position, seat int, acts []Action, c Choice) ([]Event, error) {
	for _, a := range acts {
		if a.ID == c.ActionID {
			if rej := checkSlots(a, c.Targets); rej != nil {
				return nil, rej
			}
			return pos.Apply(seat, c)
		}
	}
	return nil, reject(CodeActionNotOffered, "action %q is not offered", clip(c.ActionID))
}

// rearm restarts the decision clock of every seat whose decision changed.
func (s *Server) rearm(r *Room, t *table, now int64) {
	m := r.Match
	if r.Config.ActionSeconds == 0 || m.Result != nil {
		m.Clock = nil
		return
	}
	if len(m.Clock) != len(r.Seats) {
		m.Clock = make([]Deadline, len(r.Seats))
	}
	for seat := range r.Seats {
		acts := t.actions(seat)
		if len(acts) == 0 {
			m.Clock[seat] = Deadline{}
			continue
		}
		var b strings.Builder
		for _, a := range acts {
			b.WriteString(a.Token)
		}
		if key := b.String(); m.Clock[seat].Key != key {
			m.Clock[seat] = Deadline{Key: key, At: now + int64(r.Config.ActionSeconds)*1000}
		}
	}
}

// expireClock takes the timeout default for every seat of room id whose
// decision clock has run out, one seat at a time, lowest seat first.
func (s *Server) expireClock(id string, r *Room, now int64, ob *outbox) {
	for range 4 * MaxSeats {
		m := r.Match
		if m == nil || m.Result != nil {
			return
		}
		seat := -1
		for i, d := range m.Clock {
			if d.At > 0 && d.At <= now {
				seat = i
				break
			}
		}
		if seat < 0 {
			return
		}
		rej := s.transition(id, r, ob, now, func(pos Position, events *[]Event) *Rejection {
			c, ok := pos.Timeout(seat)
			if !ok {
				return reject(CodeInternal, "no timeout default")
			}
			evs, err := applyChoice(pos, seat, pos.Actions(seat), c)
			if err != nil {
				return reject(CodeInternal, "timeout default refused: %v", err)
			}
			*events = append(*events, Event{"type": "timed_out", "player": PlayerID(seat)})
			*events = append(*events, evs...)
			return nil
		})
		if rej != nil {
			m.Clock[seat].At = 0 // keep the key: not re-armed until the decision changes
			continue
		}
		if ob.autoPassed[id] == nil {
			ob.autoPassed[id] = map[int]bool{}
		}
		ob.autoPassed[id][seat] = true
	}
}

// choose answers a choose_action.
func (x *call) choose(r *Room, seat int, ca ChooseAction) {
	s, m := x.s, r.Match
	id := x.se.Room
	if len(ca.Submission) > 128 {
		x.rejectAction(r, seat, ca, reject(CodeMalformedFrame, "submission id longer than 128 bytes"))
		return
	}
	if m.Result != nil {
		x.rejectAction(r, seat, ca, reject(CodeGameOver, "the game is over"))
		return
	}
	rej := s.transition(id, r, x.ob, x.now, func(pos Position, events *[]Event) *Rejection {
		acts := stamp(seat, pos.Actions(seat))
		var act *Action
		for i := range acts {
			if acts[i].ID == ca.ActionID {
				act = &acts[i]
			}
		}
		if act == nil || act.Token != ca.Token {
			return reject(CodeStaleAction, "that choice is no longer offered; the game moved on")
		}
		targets := map[string][]string{}
		for _, tc := range ca.Targets {
			if _, dup := targets[tc.Slot]; dup {
				return reject(CodeInvalidChoice, "slot %q answered twice", clip(tc.Slot))
			}
			targets[tc.Slot] = append([]string{}, tc.Chosen...)
		}
		evs, err := applyChoice(pos, seat, acts, Choice{ActionID: ca.ActionID, Targets: targets})
		if err != nil {
			var rj *Rejection
			if errors.As(err, &rj) {
				return rj
			}
			return reject(CodeInvalidChoice, "%v", err)
		}
		*events = append(*events, evs...)
		return nil
	})
	if rej != nil {
		x.rejectAction(r, seat, ca, rej)
		return
	}
	m.Acks[seat] = nil
	if ca.Submission != "" {
		m.Acks[seat] = &ActionAck{Submission: ca.Submission, Accepted: true}
	}
}

// rejectAction answers a refused choose_action: the sender's unchanged view
// with action_rejected and, when correlated, a negative ack.
func (x *call) rejectAction(r *Room, seat int, ca ChooseAction, rej *Rejection) {
	r.Match.Acks[seat] = nil
	if ca.Submission != "" && len(ca.Submission) <= 128 {
		r.Match.Acks[seat] = &ActionAck{Submission: ca.Submission, Accepted: false}
	}
	x.ob.fail(x.conn, rej)
	x.ob.views[x.conn] = true
	x.ob.rejected[x.conn] = true
}

// setStops stores the seat's stop preferences.
func (x *call) setStops(r *Room, seat int, ss SetStops) *Rejection {
	clean := func(list []string) ([]string, bool) {
		if len(list) > 32 {
			return nil, false
		}
		var out []string
		seen := map[string]bool{}
		for _, p := range list {
			if !isToken(p) {
				return nil, false
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		return out, true
	}
	stops, ok1 := clean(ss.Stops)
	own, ok2 := clean(ss.OwnTurn)
	if !ok1 || !ok2 {
		return reject(CodeInvalidStops, "stops are at most 32 snake_case phase names per list")
	}
	var ownOnly []string
	for _, p := range own {
		wide := false
		for _, q := range stops {
			wide = wide || p == q
		}
		if !wide {
			ownOnly = append(ownOnly, p)
		}
	}
	r.Match.Stops[seat], r.Match.OwnStops[seat] = stops, ownOnly
	x.ob.views[x.conn] = true
	return nil
}

func isToken(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// undo restores the checkpoint before the room's last transition.
func (x *call) undo(r *Room, seat int) {
	m, id := r.Match, x.se.Room
	refuse := func(rej *Rejection) {
		x.ob.fail(x.conn, rej)
		x.ob.views[x.conn] = true
		x.ob.rejected[x.conn] = true
	}
	if !r.Config.UndoEnabled {
		refuse(reject(CodeUndoDisabled, "this table does not allow undo"))
		return
	}
	if len(m.Checkpoints) == 0 {
		refuse(reject(CodeNothingToUndo, "no earlier checkpoint survives"))
		return
	}
	cp := m.Checkpoints[len(m.Checkpoints)-1]
	entries, err := x.s.logEntries(&Match{Log: cp.Log, NextLog: m.NextLog},
		[]Event{{"type": "undone", "player": PlayerID(seat)}})
	if err != nil {
		refuse(reject(CodeInternal, "%v", err))
		return
	}
	m.Checkpoints = m.Checkpoints[:len(m.Checkpoints)-1]
	if len(m.Checkpoints) == 0 {
		m.Checkpoints = nil
	}
	wasOver := m.Result != nil
	m.State, m.Log, m.AISeq, m.Result = cp.State, entries, cp.AISeq, cp.Result
	m.NextLog++
	m.Step++
	m.Clock = nil
	if wasOver != (m.Result != nil) {
		x.ob.dir = true
	}
	delete(x.ob.tables, id)
	t, err := x.s.load(id, r, x.ob)
	if err == nil {
		x.s.rearm(r, t, x.now)
	}
	x.ob.rooms[id] = true
}

// stamp returns acts with each action's content token set.
func stamp(seat int, acts []Action) []Action {
	if len(acts) == 0 {
		return nil
	}
	out := make([]Action, len(acts))
	var buf []byte
	for i, a := range acts {
		a.Token = ""
		buf = appendTokenInput(buf[:0], seat, a)
		b := buf
		sum := sha256.Sum256(b)
		a.Token = "t" + hex.EncodeToString(sum[:8])
		out[i] = a
	}
	return out
}

// checkSlots validates the shape of an answer against an action's slots:
// every slot known and answered at most once, every required slot
// answered, every chosen id among the candidates.
func checkSlots(a Action, targets map[string][]string) *Rejection {
	known := map[string]bool{}
	bad := func(slot, why string) *Rejection {
		return reject(CodeInvalidChoice, "slot %q: %s", clip(slot), why)
	}
	for _, q := range a.Requirements {
		known[q.Slot] = true
		chosen := targets[q.Slot]
		most := q.Count
		if most <= 0 {
			most = 1
		}
		if len(chosen) == 0 && !q.Optional {
			return bad(q.Slot, "required")
		}
		if len(chosen) > most {
			return bad(q.Slot, "too many choices")
		}
		if !subsetDistinct(chosen, q.Candidates) {
			return bad(q.Slot, "not a candidate")
		}
	}
	for _, p := range a.Prompts {
		known[p.Slot] = true
		chosen := targets[p.Slot]
		switch p.Kind {
		case PromptOption:
			ids := make([]string, len(p.Options))
			for i, o := range p.Options {
				ids[i] = o.ID
			}
			if len(chosen) != 1 || !subsetDistinct(chosen, ids) {
				return bad(p.Slot, "choose one option")
			}
		case PromptSelectFromZone:
			least := p.Count
			if p.Min != nil {
				least = *p.Min
			}
			if len(chosen) < least || len(chosen) > p.Count || !subsetDistinct(chosen, p.Candidates) {
				return bad(p.Slot, "choose between min and count candidates")
			}
		case PromptOrder:
			if len(chosen) != len(p.Items) || !subsetDistinct(chosen, p.Items) {
				return bad(p.Slot, "answer with a permutation of the items")
			}
		case PromptNumber:
			if len(chosen) != 1 || p.Min == nil || p.Max == nil {
				return bad(p.Slot, "answer with one number")
			}
			n, err := strconv.Atoi(chosen[0])
			if err != nil || n < *p.Min || n > *p.Max || strconv.Itoa(n) != chosen[0] {
				return bad(p.Slot, "number out of range")
			}
			if len(p.Values) > 0 {
				listed := false
				for _, v := range p.Values {
					listed = listed || v.Value == n
				}
				if !listed {
					return bad(p.Slot, "value not offered")
				}
			}
		default:
			return bad(p.Slot, "unknown prompt kind")
		}
	}
	for slot := range targets {
		if !known[slot] {
			return bad(slot, "no such slot")
		}
	}
	return nil
}

func subsetDistinct(chosen, candidates []string) bool {
	seen := make(map[string]bool, len(chosen))
	for _, c := range chosen {
		if seen[c] {
			return false
		}
		seen[c] = true
		found := false
		for _, k := range candidates {
			if k == c {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// seatsOf returns the public seat presentation of a match.
func (s *Server) seatsOf(r *Room) ([]string, []TableSeat, map[string]string) {
	order := make([]string, len(r.Seats))
	seats := make([]TableSeat, len(r.Seats))
	var names map[string]string
	for i, st := range r.Seats {
		pid := PlayerID(i)
		order[i] = pid
		ts := TableSeat{Seat: i, PlayerID: pid, Name: st.Name, AI: st.AI}
		if st.AI == "" {
			if se := s.Sessions[st.Session]; st.Session == "" || se == nil || se.Conn == "" {
				ts.Connected = new(bool)
			}
		}
		if st.Name != "" {
			if names == nil {
				names = map[string]string{}
			}
			names[pid] = st.Name
		}
		seats[i] = ts
	}
	return order, seats, names
}

func (s *Server) gameView(r *Room, seat int, ob *outbox, now int64, rejected bool) ([]byte, error) {
	t, err := s.load(r.ID, r, ob)
	if err != nil {
		return nil, err
	}
	ms, err := s.viewMembers(r, t, seat)
	if err != nil {
		return nil, err
	}
	m := r.Match
	ms = append(ms, member{"you", AppendString(nil, PlayerID(seat))})
	if m.Result == nil {
		if acts := t.actions(seat); len(acts) > 0 {
			ms = append(ms, member{"valid_actions", appendActions(make([]byte, 0, 512), acts)})
			if seat < len(m.Clock) && m.Clock[seat].At > 0 {
				left := max((m.Clock[seat].At-now+999)/1000, 0)
				ms = append(ms, member{"action_deadline", AppendInt(nil, left)})
			}
		}
	}
	if len(m.Stops[seat]) > 0 {
		ms = append(ms, member{"stops", AppendStrings(nil, m.Stops[seat])})
	}
	if len(m.OwnStops[seat]) > 0 {
		ms = append(ms, member{"own_turn_stops", AppendStrings(nil, m.OwnStops[seat])})
	}
	if ob.autoPassed[r.ID][seat] {
		ms = append(ms, member{"auto_passed", []byte("true")})
	}
	if rejected {
		ms = append(ms, member{"action_rejected", []byte("true")})
	}
	if a := m.Acks[seat]; a != nil {
		ms = append(ms, member{"action_ack", appendAck(nil, a)})
	}
	if r.Config.UndoEnabled {
		ms = append(ms, member{"undo", appendUndo(nil, UndoView{Available: len(m.Checkpoints), Limit: s.Limits.UndoDepth})})
	}
	return object(ms)
}

func (s *Server) spectatorView(r *Room, ob *outbox) ([]byte, error) {
	t, err := s.load(r.ID, r, ob)
	if err != nil {
		return nil, err
	}
	if t.spectator != nil {
		return t.spectator, nil
	}
	ms, err := s.viewMembers(r, t, Spectator)
	if err != nil {
		return nil, err
	}
	b, err := object(ms)
	t.spectator = b
	return b, err
}
