package rooms

import (
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// call is the context of one Receive.
type call struct {
	s    *Server
	conn string
	c    *Conn
	tok  string
	se   *Session
	now  int64
	ids  IDSource
	ob   *outbox
}

// Receive applies one text frame from connection conn. A frame from an
// unknown connection or from a spectator (whose connection is one-way) is
// ignored. A refused frame is answered with a lobby_error frame and the
// sender's current view, and changes nothing else.
func (s *Server) Receive(conn string, frame []byte, now int64, ids IDSource) ([]Outbound, Changes) {
	now = s.clock(now)
	c := s.conns[conn]
	if c == nil || c.Spectating != "" {
		return nil, Changes{}
	}
	ob := newOutbox()
	x := &call{s: s, conn: conn, c: c, tok: c.Session, se: s.sessions[c.Session], now: now, ids: ids, ob: ob}
	if sec := now / 1000; c.Window != sec {
		c.Window, c.Count = sec, 0
	}
	c.Count++
	if c.Count > s.limits.CommandsPerSecond {
		ob.fail(conn, reject(CodeRateLimited, "more than %d frames in one second", s.limits.CommandsPerSecond))
		return s.flush(ob, now)
	}
	if len(frame) > MaxFrameBytes {
		ob.fail(conn, reject(CodeFrameTooLarge, "frame of %d bytes is larger than %d", len(frame), MaxFrameBytes))
		return s.flush(ob, now)
	}
	x.se.LastSeen = now
	s.touchSession(x.tok, x.se, ob)
	cmd, err := DecodeCommand(frame)
	if err != nil {
		var rej *Rejection
		if !errors.As(err, &rej) {
			rej = reject(CodeMalformedFrame, "%v", err)
		}
		x.refuse(rej)
		return s.flush(ob, now)
	}
	if rej := x.dispatch(cmd); rej != nil {
		x.refuse(rej)
	}
	s.touchSession(x.tok, x.se, ob) // it may have moved, or be another session
	return s.flush(ob, now)
}

// refuse answers the sender with rej and its current view.
func (x *call) refuse(rej *Rejection) {
	x.ob.fail(x.conn, rej)
	x.ob.views[x.conn] = true
}

func (x *call) dispatch(cmd Command) *Rejection {
	ph, r, seat := x.s.phaseOf(x.c)
	switch cmd := cmd.(type) {
	case Hello:
		return x.hello(cmd)
	case RequestCatalog:
		b, err := canon.Marshal(x.s.reg.Catalog())
		if err != nil {
			return reject(CodeInternal, "%v", err)
		}
		x.ob.direct = append(x.ob.direct, Outbound{Conn: x.conn, Kind: KindCatalog, Frame: b})
		return nil
	case ChooseAction, SetStops, Undo:
		if ph != phaseGame {
			return reject(CodeNotInGame, "%s is a game-phase command and no game is running for this connection", cmd.Type())
		}
		switch cmd := cmd.(type) {
		case ChooseAction:
			x.choose(r, seat, cmd)
		case SetStops:
			return x.setStops(r, seat, cmd)
		case Undo:
			x.undo(r, seat)
		}
		return nil
	case Browse:
		switch {
		case ph != phaseLobby:
			return reject(CodeInGame, "browse is a lobby command and this connection is in a game")
		case r != nil:
			return reject(CodeAlreadyInRoom, "seated in room %q, which shows no directory; leave it first", x.se.Room)
		}
		return x.browse(cmd.Page)
	case Leave:
		if ph == phaseGame {
			if r.Match.Result == nil {
				return reject(CodeInGame, "the game is still running; the seat is held for this session")
			}
		} else if r == nil {
			return reject(CodeNotInRoom, "not in a room")
		}
		x.s.vacate(x.tok, x.se, r, x.ob)
		x.ob.views[x.conn] = true
		return nil
	}
	if ph == phaseGame {
		return reject(CodeInGame, "%s is a lobby command and this connection is in a game", cmd.Type())
	}
	if _, spectate := cmd.(SpectateRoom); x.s.host != "" && r == nil && !spectate {
		return reject(CodeWrongServer, "%s is the lobby's; this server hosts room %q alone", cmd.Type(), x.s.host)
	}
	switch cmd := cmd.(type) {
	case CreateRoom:
		return x.createRoom(r, cmd.Config)
	case UpdateRoom:
		return x.updateRoom(r, seat, cmd.Config)
	case JoinRoom:
		return x.joinRoom(r, cmd.RoomID)
	case SpectateRoom:
		return x.spectate(r, cmd.RoomID)
	case SubmitDeck:
		return x.submitDeck(r, seat, cmd)
	case AddAI:
		return x.addAI(r, seat, cmd)
	case RemoveAI:
		return x.removeAI(r, seat, cmd)
	case Ready:
		return x.ready(r, seat, cmd.Ready)
	case SetName:
		return x.setName(r, seat, cmd.Name)
	}
	return reject(CodeUnknownCommand, "unknown command")
}

// hello reclaims the session Token names, or keeps the fresh one.
func (x *call) hello(h Hello) *Rejection {
	s := x.s
	if h.Token == "" || h.Token == x.tok {
		x.ob.views[x.conn] = true
		return nil
	}
	target := s.sessions[h.Token]
	if id := s.away[h.Token]; target == nil && id != "" {
		// Seated in a game another server hosts: go there.
		s.disconnect(x.conn, x.now, x.ob)
		s.moveConn(x.conn, MoveRoom(id), x.ob)
		return nil
	}
	if target == nil {
		return reject(CodeUnknownSession, "that session is unknown or has expired; this connection keeps its new session")
	}
	if old := target.Conn; old != "" && old != x.conn {
		x.ob.fail(old, reject(CodeSessionTaken, "another connection reclaimed this session"))
		x.ob.direct[len(x.ob.direct)-1].Close = true
		if oc := s.conns[old]; oc != nil && oc.Spectating != "" {
			if r := s.rooms[oc.Spectating]; r != nil {
				r.Spectators = removeString(r.Spectators, old)
				x.ob.records[oc.Spectating] = true
			}
		}
		s.dropConn(old)
		delete(x.ob.views, old)
		x.ob.touchConn(old)
	}
	// Release the session this connection held until now.
	s.touchSession(x.tok, x.se, x.ob)
	if x.se.Room == "" && x.se.Name == "" {
		s.dropSession(x.tok, x.ob)
	} else {
		x.se.Conn = ""
		x.se.LastSeen = x.now
		if x.se.Room != "" {
			s.touchRoom(x.se.Room, x.ob)
		}
		s.noteIdle(x.tok, x.se, x.ob)
	}
	x.c.Session = h.Token
	x.ob.touchConn(x.conn)
	s.touchSession(h.Token, target, x.ob)
	target.Conn = x.conn
	target.LastSeen = x.now
	x.tok, x.se = h.Token, target
	if r := s.rooms[target.Room]; r != nil {
		switch seat := seatOf(r, h.Token); {
		case r.Match != nil && r.Match.Result != nil:
			// A finished game's seat is not held: the session lands in
			// the lobby, as the spec answers a reclaim with no live game.
			s.vacate(h.Token, target, r, x.ob)
		case r.Match != nil && seat >= 0:
			r.Match.Acks[seat] = nil // an ack is dropped when the seat reconnects
			s.touchRoom(target.Room, x.ob)
		default:
			s.touchRoom(target.Room, x.ob)
		}
	}
	x.ob.views[x.conn] = true
	return nil
}

// validateConfig normalizes and validates cfg with the create_room rules.
func (s *Server) validateConfig(cfg RoomConfig) (RoomConfig, Format, *Rejection) {
	if cfg.Seats < MinSeats || cfg.Seats > MaxSeats {
		return cfg, Format{}, reject(CodeInvalidSeatCount, "%d seats is outside %d..%d", cfg.Seats, MinSeats, MaxSeats)
	}
	g, ok := s.reg.Game(cfg.GameSetup)
	if !ok {
		return cfg, Format{}, reject(CodeUnknownFormat, "unknown game_setup %q", clip(cfg.GameSetup))
	}
	f := g.Format()
	if cfg.Seats < f.MinSeats || cfg.Seats > f.MaxSeats {
		return cfg, f, reject(CodeSeatCountForFormat, "%s seats %d..%d, not %d", f.ID, f.MinSeats, f.MaxSeats, cfg.Seats)
	}
	if strings.TrimSpace(cfg.Name) == "" {
		cfg.Name = ""
	} else {
		n, rej := s.checkName(CodeInvalidRoomName, "table name", cfg.Name)
		if rej != nil {
			return cfg, f, rej
		}
		cfg.Name = n
	}
	switch cfg.Visibility {
	case "", VisibilityPublic:
		cfg.Visibility = ""
	case VisibilityPrivate:
	default:
		return cfg, f, reject(CodeInvalidVisibility, "visibility is public or private, not %q", clip(cfg.Visibility))
	}
	if cfg.ActionSeconds != 0 && (cfg.ActionSeconds < 5 || cfg.ActionSeconds > 3600) {
		return cfg, f, reject(CodeInvalidClock, "action_seconds is 0 (no clock) or 5..3600, not %d", cfg.ActionSeconds)
	}
	return cfg, f, nil
}

// checkName checks a name under the registry's NamePolicy, refusing it
// with code; what names the name in the refusal ("name", "table name").
func (s *Server) checkName(code, what, name string) (string, *Rejection) {
	if s.reg == nil || s.reg.names == nil {
		n, ok := normalizeName(name)
		if !ok {
			return "", reject(code, "a %s is 1..%d printable characters", what, MaxNameRunes)
		}
		return n, nil
	}
	n, err := s.reg.names(name)
	if err != nil {
		rej := reject(code, "this %s is refused: %v", what, err)
		if rc, ok := err.(interface{ ReasonCode() string }); ok {
			rej.Detail = rc.ReasonCode()
		}
		return "", rej
	}
	return n, nil
}

// normalizeName trims s and checks it is 1..32 printable characters: the
// check without a NamePolicy.
func normalizeName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxNameRunes {
		return "", false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return "", false
		}
	}
	return s, true
}

func (x *call) createRoom(cur *Room, cfg RoomConfig) *Rejection {
	s := x.s
	if cur != nil {
		return reject(CodeAlreadyInRoom, "already in room %q; leave it first", x.se.Room)
	}
	cfg, f, rej := s.validateConfig(cfg)
	if rej != nil {
		return rej
	}
	if len(s.rooms)+len(s.remote) >= s.limits.MaxRooms {
		return reject(CodeTooManyRooms, "the server holds its maximum of %d rooms", s.limits.MaxRooms)
	}
	id, err := newID(x.ids, "r:", func(id string) bool { return s.rooms[id] != nil })
	if err != nil {
		return reject(CodeInternal, "%v", err)
	}
	s.roomSeq++
	x.ob.lobby = true
	r := &Room{ID: id, Order: s.roomSeq, Config: cfg, Seats: make([]Seat, cfg.Seats)}
	r.Seats[0] = x.humanSeat(f)
	s.rooms[id] = r
	x.se.Room = id
	s.touchRoom(id, x.ob)
	return nil
}

func (x *call) humanSeat(f Format) Seat {
	return Seat{Session: x.tok, PlayerID: x.se.PlayerID, Name: x.se.Name, Decked: f.Deck == nil}
}

// pregameHost checks the sender is seat 0 of a room still gathering.
func pregameHost(r *Room, seat int) *Rejection {
	if r == nil {
		return reject(CodeNotInRoom, "not in a room")
	}
	if r.Match != nil {
		return reject(CodeGameStarted, "the game has started")
	}
	if seat != 0 {
		return reject(CodeNotHost, "only the host (seat 0) may do that")
	}
	return nil
}

func (x *call) updateRoom(r *Room, seat int, cfg RoomConfig) *Rejection {
	if rej := pregameHost(r, seat); rej != nil {
		return rej
	}
	cfg, f, rej := x.s.validateConfig(cfg)
	if rej != nil {
		return rej
	}
	old := r.Config
	seats := append([]Seat(nil), r.Seats...)
	formatChanged := cfg.GameSetup != old.GameSetup
	if formatChanged {
		for i := range seats {
			if seats[i].AI != "" {
				seats[i] = Seat{}
			}
			seats[i].Deck, seats[i].Commander, seats[i].Colors = nil, "", nil
			seats[i].Decked = seats[i].Session != "" && f.Deck == nil
		}
	}
	occupied := 0
	for _, st := range seats {
		if st.occupied() {
			occupied++
		}
	}
	if cfg.Seats < occupied {
		return reject(CodeSeatsBelowOccupancy, "%d seats cannot hold the %d seated", cfg.Seats, occupied)
	}
	if cfg.Seats < len(seats) {
		// Drop empty seats, from the back, until the count fits.
		drop := len(seats) - cfg.Seats
		kept := make([]Seat, 0, cfg.Seats)
		for i := len(seats) - 1; i >= 0; i-- {
			if drop > 0 && !seats[i].occupied() {
				drop--
				continue
			}
			kept = append(kept, seats[i])
		}
		for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
			kept[i], kept[j] = kept[j], kept[i]
		}
		seats = kept
	}
	for len(seats) < cfg.Seats {
		seats = append(seats, Seat{})
	}
	if cfg.Seats != old.Seats || cfg.UndoEnabled != old.UndoEnabled || formatChanged || cfg.ActionSeconds != old.ActionSeconds {
		for i := range seats {
			seats[i].Ready = false
		}
	}
	r.Config, r.Seats = cfg, seats
	x.s.touchRoom(x.se.Room, x.ob)
	return nil
}

func (x *call) joinRoom(cur *Room, id string) *Rejection {
	r := x.s.rooms[id]
	if r == nil && x.s.remote[id] != nil {
		return reject(CodeGameStarted, "room %q is playing; spectate it instead", id)
	}
	if r == nil {
		return reject(CodeUnknownRoom, "unknown room %q", clip(id))
	}
	if cur != nil {
		return reject(CodeAlreadyInRoom, "already in room %q; leave it first", x.se.Room)
	}
	if r.Match != nil {
		return reject(CodeGameStarted, "room %q is playing; spectate it instead", id)
	}
	for i, st := range r.Seats {
		if !st.occupied() {
			g, _ := x.s.reg.Game(r.Config.GameSetup)
			r.Seats[i] = x.humanSeat(g.Format())
			x.se.Room = id
			x.s.touchRoom(id, x.ob)
			return nil
		}
	}
	return reject(CodeRoomFull, "room %q has no open seat", id)
}

func (x *call) spectate(cur *Room, id string) *Rejection {
	r := x.s.rooms[id]
	if rm := x.s.remote[id]; r == nil && rm != nil {
		return x.spectateRemote(rm, id)
	}
	if r == nil {
		return reject(CodeUnknownRoom, "unknown room %q", clip(id))
	}
	if cur != nil {
		return reject(CodeAlreadyInRoom, "seated in room %q; leave it first", x.se.Room)
	}
	if r.Match == nil || r.Match.Result != nil {
		return reject(CodeNotRunning, "room %q has no running game to watch", id)
	}
	if len(r.Spectators) >= x.s.limits.MaxSpectators {
		return reject(CodeTooManySpectators, "room %q has its maximum of %d spectators", id, x.s.limits.MaxSpectators)
	}
	x.c.Spectating = id
	r.Spectators = append(r.Spectators, x.conn)
	x.ob.touchConn(x.conn)
	x.ob.records[id] = true
	x.ob.views[x.conn] = true
	return nil
}

// pregameSeat checks the sender is seated in a room still gathering.
func pregameSeat(r *Room, seat int) *Rejection {
	if r == nil || seat < 0 {
		return reject(CodeNotInRoom, "not seated in a room")
	}
	if r.Match != nil {
		return reject(CodeGameStarted, "the game has started")
	}
	return nil
}

func (x *call) format(r *Room) Format {
	g, _ := x.s.reg.Game(r.Config.GameSetup)
	return g.Format()
}

// checkDeck validates a deck against the room's format.
func (x *call) checkDeck(r *Room, cards []string, commander string) ([]string, *Rejection) {
	f := x.format(r)
	if f.Deck == nil {
		return nil, reject(CodeNoDeckNeeded, "%s needs no deck", f.ID)
	}
	colors, rej := f.Deck.Check(cards, commander)
	if rej != nil {
		return nil, rej
	}
	return colors, nil
}

func (x *call) submitDeck(r *Room, seat int, d SubmitDeck) *Rejection {
	if rej := pregameSeat(r, seat); rej != nil {
		return rej
	}
	colors, rej := x.checkDeck(r, d.Cards, d.Commander)
	if rej != nil {
		return rej
	}
	st := &r.Seats[seat]
	st.Deck, st.Commander, st.Colors = append([]string(nil), d.Cards...), d.Commander, colors
	st.Decked, st.Ready = true, false
	x.s.touchRoom(x.se.Room, x.ob)
	return nil
}

func (x *call) addAI(r *Room, seat int, a AddAI) *Rejection {
	if rej := pregameHost(r, seat); rej != nil {
		return rej
	}
	if a.Seat < 0 || a.Seat >= len(r.Seats) {
		return reject(CodeInvalidSeat, "no seat %d", a.Seat)
	}
	if r.Seats[a.Seat].occupied() {
		return reject(CodeSeatOccupied, "seat %d is occupied", a.Seat)
	}
	f := x.format(r)
	known := false
	for _, o := range f.AI {
		known = known || o.ID == a.Kind
	}
	if !known {
		return reject(CodeUnknownAI, "%s seats no AI kind %q", f.ID, clip(a.Kind))
	}
	st := Seat{AI: a.Kind, Decked: true, Ready: true}
	if f.Deck != nil || len(a.Cards) > 0 || a.Commander != "" {
		colors, rej := x.checkDeck(r, a.Cards, a.Commander)
		if rej != nil {
			return rej
		}
		st.Deck, st.Commander, st.Colors = append([]string(nil), a.Cards...), a.Commander, colors
	}
	r.Seats[a.Seat] = st
	x.s.touchRoom(x.se.Room, x.ob)
	return x.s.maybeStart(x.se.Room, r, x.now, x.ids, x.ob)
}

func (x *call) removeAI(r *Room, seat int, a RemoveAI) *Rejection {
	if rej := pregameHost(r, seat); rej != nil {
		return rej
	}
	if a.Seat < 0 || a.Seat >= len(r.Seats) {
		return reject(CodeInvalidSeat, "no seat %d", a.Seat)
	}
	if r.Seats[a.Seat].AI == "" {
		return reject(CodeNotAISeat, "seat %d is not an AI seat", a.Seat)
	}
	r.Seats[a.Seat] = Seat{}
	x.s.touchRoom(x.se.Room, x.ob)
	return nil
}

func (x *call) ready(r *Room, seat int, ready bool) *Rejection {
	if rej := pregameSeat(r, seat); rej != nil {
		return rej
	}
	if ready && !r.Seats[seat].Decked {
		return reject(CodeDeckRequired, "submit a deck before readying")
	}
	r.Seats[seat].Ready = ready
	if ready && seat == 0 {
		// The host answers for the AI seats it seated: an update_room
		// that cleared their readiness is agreed to here.
		for i := range r.Seats {
			if r.Seats[i].AI != "" {
				r.Seats[i].Ready = true
			}
		}
	}
	x.s.touchRoom(x.se.Room, x.ob)
	if ready {
		return x.s.maybeStart(x.se.Room, r, x.now, x.ids, x.ob)
	}
	return nil
}

func (x *call) setName(r *Room, seat int, name string) *Rejection {
	n, rej := x.s.checkName(CodeInvalidName, "name", name)
	if rej != nil {
		return rej
	}
	x.se.Name = n
	if r != nil && seat >= 0 {
		r.Seats[seat].Name = n
		x.s.touchRoom(x.se.Room, x.ob)
	}
	x.ob.views[x.conn] = true
	return nil
}

// vacate takes session tok out of room r: before the game its seat empties
// (a host's seat passes to the next human); after the game it keeps its
// public name for the others. An empty room is removed.
func (s *Server) vacate(tok string, se *Session, r *Room, ob *outbox) {
	id := se.Room
	ob.records[id] = true
	se.Room = ""
	ob.touchKey(tok)
	seat := seatOf(r, tok)
	if seat >= 0 {
		if r.Match == nil {
			r.Seats[seat] = Seat{}
			if seat == 0 {
				for j := 1; j < len(r.Seats); j++ {
					if r.Seats[j].Session != "" {
						r.Seats[0], r.Seats[j] = r.Seats[j], Seat{}
						break
					}
				}
			}
		} else {
			r.Seats[seat].Session = ""
		}
	}
	s.returnSession(tok, ob)
	humans := 0
	for _, st := range r.Seats {
		if st.Session != "" {
			humans++
		}
	}
	if humans == 0 {
		s.deleteRoom(id, ob)
		return
	}
	s.touchRoom(id, ob)
}

// deleteRoom removes room id, returning its spectators and seated sessions
// to the lobby.
func (s *Server) deleteRoom(id string, ob *outbox) {
	r := s.rooms[id]
	if r == nil {
		return
	}
	for _, c := range r.Spectators {
		if cc := s.conns[c]; cc != nil {
			cc.Spectating = ""
			ob.views[c] = true
		}
	}
	if s.host != "" {
		// Nothing is left to watch here: back to the lobby.
		for _, c := range slices.Clone(r.Spectators) {
			s.disconnect(c, s.now, ob)
			s.moveConn(c, MoveLobby, ob)
		}
	}
	var moved []string
	for _, st := range r.Seats {
		if se := s.sessions[st.Session]; st.Session != "" && se != nil && se.Room == id {
			se.Room = ""
			ob.touchKey(st.Session)
			moved = append(moved, st.Session)
			if se.Conn != "" {
				ob.views[se.Conn] = true
			}
			s.returnSession(st.Session, ob)
		}
	}
	for _, c := range r.Spectators {
		ob.touchConn(c)
	}
	delete(s.rooms, id)
	delete(ob.tables, id)
	delete(s.kept, id)
	ob.records[id] = true
	for _, tok := range moved {
		if se := s.sessions[tok]; se != nil {
			s.noteIdle(tok, se, ob)
		}
	}
}

func (s *Server) roomState(r *Room) string {
	switch {
	case r.Match == nil:
		return StateGathering
	case r.Match.Result == nil:
		return StateInProgress
	}
	return StateFinished
}

func (s *Server) roomView(id string, r *Room) *RoomView {
	v := &RoomView{RoomID: id, Config: r.Config, State: s.roomState(r), Spectators: len(r.Spectators),
		Seats: make([]SeatView, len(r.Seats))}
	for i, st := range r.Seats {
		sv := SeatView{Seat: i, AI: st.AI, Decked: st.Decked, Ready: st.Ready, Colors: st.Colors, Commander: st.Commander}
		if st.Session != "" {
			sv.OccupiedBy, sv.Name = st.PlayerID, st.Name
			if se := s.sessions[st.Session]; se == nil || se.Conn == "" {
				sv.Connected = new(bool)
			}
		}
		v.Seats[i] = sv
	}
	return v
}

func (s *Server) lobbyView(conn string, c *Conn, dir []RoomSummary) LobbyView {
	se := s.sessions[c.Session]
	v := LobbyView{Session: c.Session, You: se.PlayerID, Name: se.Name, Directory: dir}
	cmds := []string{CmdHello, CmdRequestCatalog, CmdSetName}
	r := s.rooms[se.Room]
	if r == nil && s.host != "" {
		v.ValidCommands = []string{CmdHello, CmdRequestCatalog, CmdSpectateRoom, CmdBrowse}
		return v
	}
	if r == nil {
		cmds = append(cmds, CmdCreateRoom, CmdJoinRoom, CmdSpectateRoom, CmdBrowse)
		v.ValidCommands = cmds
		return v
	}
	v.Room = s.roomView(se.Room, r)
	cmds = append(cmds, CmdLeave)
	seat := seatOf(r, c.Session)
	if r.Match == nil && seat >= 0 {
		f := Format{}
		if g, ok := s.reg.Game(r.Config.GameSetup); ok {
			f = g.Format()
		}
		if f.Deck != nil {
			cmds = append(cmds, CmdSubmitDeck)
		}
		if r.Seats[seat].Decked {
			cmds = append(cmds, CmdReady)
		}
		if seat == 0 {
			cmds = append(cmds, CmdUpdateRoom)
			open, ai := false, false
			for _, st := range r.Seats {
				open = open || !st.occupied()
				ai = ai || st.AI != ""
			}
			if open && len(f.AI) > 0 {
				cmds = append(cmds, CmdAddAI)
			}
			if ai {
				cmds = append(cmds, CmdRemoveAI)
			}
		}
	}
	v.ValidCommands = cmds
	return v
}
