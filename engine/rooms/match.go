package rooms

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
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
	f := g.Format()
	for i, st := range r.Seats {
		if st.AI == "" && len(f.DefaultStops) > 0 {
			m.OwnStops[i] = append([]string(nil), f.DefaultStops...)
		}
	}
	var events []Event
	acted := passes{}
	s.settle(r, m, pos, m.AISeq, &events, acted, 1)
	state, err := pos.State()
	if err != nil {
		return reject(CodeInternal, "%s state: %v", r.Config.GameSetup, err)
	}
	entries, err := s.logEntries(m, events, s.logWindow(f))
	if err != nil {
		return reject(CodeInternal, "%v", err)
	}
	m.State = state
	m.Log = entries
	m.Result = pos.Result()
	r.Match = m
	t := &table{pos: pos, acts: map[int][]Action{}}
	ob.tables[id] = t
	ob.acted(id, acted)
	s.rearm(r, t, now)
	ob.rooms[id] = true
	if s.handOff {
		s.handOffRoom(id, r, now, ob)
	}
	return nil
}

// logWindow is how many log entries format f's views carry.
func (s *Server) logWindow(f Format) int {
	if f.LogWindow > 0 {
		return f.LogWindow
	}
	return s.limits.LogWindow
}

// format returns the format room r plays (the zero Format if unknown).
func (s *Server) format(r *Room) Format {
	if g, ok := s.reg.Game(r.Config.GameSetup); ok {
		return g.Format()
	}
	return Format{}
}

// logEntries numbers events and appends them to m's log, keeping the last
// window entries; it does not change m except for the sequence counter.
func (s *Server) logEntries(m *Match, events []Event, window int) ([]LogEntry, error) {
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
	if over := len(log) - window; over > 0 {
		log = append([]LogEntry(nil), log[over:]...)
	}
	return log, nil
}

// load returns room id's position for this call, loading it once (or
// taking the one the previous call left, when the state is the same).
func (s *Server) load(id string, r *Room, ob *outbox) (*table, error) {
	if t := ob.tables[id]; t != nil {
		return t, nil
	}
	g, ok := s.reg.Game(r.Config.GameSetup)
	if !ok {
		return nil, fmt.Errorf("rooms: unknown format %q", r.Config.GameSetup)
	}
	var pos Position
	var err error
	if k, ok := s.kept[id]; ok && sameSlice(k.state, r.Match.State) {
		pos = k.pos
	} else if pos, err = g.Load(r.Match.State); err != nil {
		return nil, fmt.Errorf("rooms: room %q: %w", id, err)
	}
	delete(s.kept, id) // this call owns it now; flush keeps it again
	t := &table{pos: pos, acts: map[int][]Action{}}
	ob.tables[id] = t
	return t, nil
}

// transition runs one accepted state change of room id: do mutates the
// position, the seats the machine answers for then settle, and the result
// is committed with a checkpoint of the state before it. acted holds what
// the machine already did for seats in this transition (a clock expiry),
// or is nil. On error nothing changes.
func (s *Server) transition(id string, r *Room, ob *outbox, now int64, acted passes, do func(pos Position, events *[]Event) *Rejection) *Rejection {
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
	if acted == nil {
		acted = passes{}
	}
	f := s.format(r)
	s.settle(r, m, t.pos, aiSeq, &events, acted, m.NextLog+1)
	state, err := t.pos.State()
	if err != nil {
		delete(ob.tables, id)
		return reject(CodeInternal, "state: %v", err)
	}
	next := m.NextLog
	entries, err := s.logEntries(m, events, s.logWindow(f))
	if err != nil {
		m.NextLog = next
		delete(ob.tables, id)
		return reject(CodeInternal, "%v", err)
	}
	if r.Config.UndoEnabled {
		m.Checkpoints = append(m.Checkpoints, compact(before, state, entries))
		if over := len(m.Checkpoints) - s.limits.UndoDepth; over > 0 {
			m.Checkpoints = append([]Checkpoint(nil), m.Checkpoints[over:]...)
		}
	}
	m.State, m.Log, m.AISeq = state, entries, aiSeq
	m.Step++
	m.Result = t.pos.Result()
	t.acts, t.shared, t.spectator = map[int][]Action{}, nil, nil
	s.rearm(r, t, now)
	ob.rooms[id] = true
	ob.acted(id, acted)
	return nil
}

// settle lets the seats the machine answers for move, lowest seat first,
// until none of them is asked anything or the format's step bound is
// reached: every AI seat, and in a Stepper game every human seat that is
// idle at a step outside its stops. acted records the human seats' steps,
// with from, the log sequence of the action that started the settle.
func (s *Server) settle(r *Room, m *Match, pos Position, aiSeq []int, events *[]Event, acted passes, from int64) {
	stepper, _ := pos.(Stepper)
	bound := s.limits.SettleSteps
	if f := s.format(r); f.SettleSteps > 0 {
		bound = f.SettleSteps
	}
	for range bound {
		if pos.Result() != nil {
			return
		}
		moved := false
		for seat, st := range r.Seats {
			var evs []Event
			if st.AI == "" {
				if stepper == nil {
					continue
				}
				step := stepper.Step()
				if stopsAt(m, seat, step) {
					continue
				}
				c, ok := stepper.Idle(seat) // false too when seat is not asked
				if !ok {
					continue
				}
				var err error
				if evs, err = applyChoice(pos, seat, pos.Actions(seat), c); err != nil {
					continue
				}
				acted.note(seat, from, &step)
			} else {
				acts := pos.Actions(seat)
				if len(acts) == 0 {
					continue
				}
				h := rng.For(m.Seed, rng.Agent(PlayerID(seat), aiSeq[seat]))
				aiSeq[seat]++
				var err error
				evs, err = applyChoice(pos, seat, acts, pos.AI(st.AI, seat, h))
				if err != nil {
					c, ok := pos.Timeout(seat)
					if !ok {
						continue
					}
					if evs, err = applyChoice(pos, seat, acts, c); err != nil {
						continue
					}
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

// stopsAt reports whether step is one of seat's stops: on its stops list,
// or on its own_turn_stops while it is the active seat.
func stopsAt(m *Match, seat int, step Step) bool {
	return slices.Contains(m.Stops[seat], step.Phase) ||
		step.Active == seat && slices.Contains(m.OwnStops[seat], step.Phase)
}

// passes records, for one room and one call, what the machine did for each
// seat it answered for while a human: see seatPasses.
type passes map[int]*seatPasses

// seatPasses is what the machine did for one human seat: from is the log
// sequence of the action that started the first such settle, steps the
// positions it acted at (empty for a game that is not a Stepper).
type seatPasses struct {
	from  int64
	steps []passedStep
}

// passedStep is one position, with the Step.Entered that tells a revisit
// from another priority window of the same visit.
type passedStep struct {
	AutoPassedStep
	entered int
}

// note records that the machine acted for seat (at step, when known).
func (p passes) note(seat int, from int64, step *Step) {
	sp := p[seat]
	if sp == nil {
		sp = &seatPasses{from: from}
		p[seat] = sp
	}
	if step != nil {
		sp.add(passedStep{AutoPassedStep{Phase: step.Phase, Turn: step.Turn}, step.Entered})
	}
}

// add appends ps unless it is the same visit as the last entry.
func (sp *seatPasses) add(ps passedStep) {
	if n := len(sp.steps); n > 0 && sp.steps[n-1] == ps {
		return
	}
	sp.steps = append(sp.steps, ps)
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
		acted := passes{}
		if t, err := s.load(id, r, ob); err == nil {
			var at *Step
			if sp, ok := t.pos.(Stepper); ok {
				step := sp.Step()
				at = &step
			}
			acted.note(seat, m.NextLog+1, at)
		}
		rej := s.transition(id, r, ob, now, acted, func(pos Position, events *[]Event) *Rejection {
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
		}
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
	rej := s.transition(id, r, x.ob, x.now, nil, func(pos Position, events *[]Event) *Rejection {
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
	if phases := x.s.format(r).Phases; len(phases) > 0 {
		for _, p := range append(append([]string(nil), stops...), own...) {
			if !slices.Contains(phases, p) {
				return reject(CodeInvalidStops, "%q is not a step of this game", clip(p))
			}
		}
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
	if m.Result != nil {
		// A result stands: one seat must not take another's win back
		// (docs/rooms.md, "Undo").
		refuse(reject(CodeGameOver, "the game is over: its result stands"))
		return
	}
	if len(m.Checkpoints) == 0 {
		refuse(reject(CodeNothingToUndo, "no earlier checkpoint survives"))
		return
	}
	last := len(m.Checkpoints) - 1
	cp, err := expand(m.Checkpoints[last], m.State, m.Log)
	if err != nil {
		refuse(reject(CodeInternal, "%v", err))
		return
	}
	entries, err := x.s.logEntries(&Match{Log: cp.Log, NextLog: m.NextLog},
		[]Event{{"type": "undone", "player": PlayerID(seat)}}, x.s.logWindow(x.s.format(r)))
	if err != nil {
		refuse(reject(CodeInternal, "%v", err))
		return
	}
	if last > 0 {
		// The checkpoint before it was kept against this one's log, which
		// the undone entry may trim: keep it against the new log instead.
		prev, err := expand(m.Checkpoints[last-1], cp.State, cp.Log)
		if err != nil {
			refuse(reject(CodeInternal, "%v", err))
			return
		}
		m.Checkpoints[last-1] = compact(prev, cp.State, entries)
	}
	m.Checkpoints = m.Checkpoints[:last]
	if len(m.Checkpoints) == 0 {
		m.Checkpoints = nil
	}
	m.State, m.Log, m.AISeq, m.Result = cp.State, entries, cp.AISeq, cp.Result
	m.NextLog++
	m.Step++
	m.Clock = nil
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
// answered, every chosen id among the candidates, and no mana source spent
// on two pay_mana slots.
func checkSlots(a Action, targets map[string][]string) *Rejection {
	known := map[string]bool{}
	spent := map[string]string{} // mana source -> the pay_mana slot spending it
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
			least := p.Least()
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
		case PromptPayMana:
			if len(chosen) == 0 && p.Min != nil && *p.Min == 0 {
				continue // an optional pip (a larger X), left unpaid
			}
			if len(chosen) != 1 {
				return bad(p.Slot, "pay the pip with one candidate")
			}
			src, ok := manaSource(p.ManaCandidates, chosen[0])
			if !ok {
				return bad(p.Slot, "not a candidate")
			}
			if other, dup := spent[src]; dup {
				return bad(p.Slot, fmt.Sprintf("source %q already pays slot %q", clip(src), clip(other)))
			}
			spent[src] = p.Slot
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

// manaSource returns the source of the candidate with id.
func manaSource(cands []ManaCandidate, id string) (string, bool) {
	for _, c := range cands {
		if c.ID == id {
			return c.Source, true
		}
	}
	return "", false
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
			if se := s.sessions[st.Session]; st.Session == "" || se == nil || se.Conn == "" {
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
	ms = append(ms, member{"you", canon.AppendString(nil, PlayerID(seat))})
	if m.Result == nil {
		if acts := t.actions(seat); len(acts) > 0 {
			ms = append(ms, member{"valid_actions", appendActions(make([]byte, 0, 512), acts)})
			if seat < len(m.Clock) && m.Clock[seat].At > 0 {
				left := max((m.Clock[seat].At-now+999)/1000, 0)
				ms = append(ms, member{"action_deadline", canon.AppendInt(nil, left)})
			}
		}
	}
	if len(m.Stops[seat]) > 0 {
		ms = append(ms, member{"stops", canon.AppendStrings(nil, m.Stops[seat])})
	}
	if len(m.OwnStops[seat]) > 0 {
		ms = append(ms, member{"own_turn_stops", canon.AppendStrings(nil, m.OwnStops[seat])})
	}
	if sp := ob.passed[r.ID][seat]; sp != nil {
		ms = append(ms, member{"auto_passed", []byte("true")})
		if len(sp.steps) > 0 {
			ms = append(ms, member{"auto_passed_from", canon.AppendInt(nil, sp.from)})
			ms = append(ms, member{"auto_passed_steps", canon.AppendList(nil, sp.steps, appendPassedStep)})
		}
	}
	if rejected {
		ms = append(ms, member{"action_rejected", []byte("true")})
	}
	if a := m.Acks[seat]; a != nil {
		ms = append(ms, member{"action_ack", appendAck(nil, a)})
	}
	if r.Config.UndoEnabled {
		available := len(m.Checkpoints)
		if m.Result != nil {
			available = 0 // a result stands
		}
		ms = append(ms, member{"undo", appendUndo(nil, UndoView{Available: available, Limit: s.limits.UndoDepth})})
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
