package rooms

import (
	"encoding/json"

	"github.com/storyloom/storyloom/engine/canon"
)

// Hand-off: a host may run the lobby and each started game in servers of
// their own (the edge worker: one Durable Object for the lobby, one per
// room; docs/edge-worker.md). The lobby server, in hand-off mode
// (SetHandOff), starts a game as always and in the same call takes the
// room out, with its seated sessions, as one room record (HandOffs); the
// room stays in its directory as a Remote. The room's server is restored
// from that record alone (RestoreRecords) and runs in room mode
// (SetRoomHost): the game, its clocks, held seats and spectators are the
// machine's own code, and what the lobby must know (the room's summary, the
// sessions that leave it, its removal) is kept as a Report for the host to
// deliver (UpdateRemote on the lobby). A connection that must follow its
// session to the other server is answered with an Outbound whose Move
// names where (MoveRoom, MoveSpectate, MoveLobby), and Close. A server in
// neither mode (the native host) never moves anything and holds no Remote
// and no Report: its frames and state are unchanged.

// KindMove is the Kind of an Outbound that moves its connection (Move).
const KindMove = "move"

// MoveLobby is the Move that sends a connection back to the lobby server:
// its session is there now, and a hello with its token reclaims it.
const MoveLobby = "lobby"

// MoveRoom is the Move that sends a connection to the server of room id,
// where a hello with its token reclaims its seat.
func MoveRoom(id string) string { return "room:" + id }

// MoveSpectate is the Move that sends a connection to the server of room
// id to spectate it there (spectate_room, with no hello).
func MoveSpectate(id string) string { return "spectate:" + id }

// Remote is a room whose game another server hosts, as the lobby that
// handed it off keeps it.
type Remote struct {
	Order   int64             `json:"order"`             // creation order
	Summary RoomSummary       `json:"summary"`           // as last reported
	Seated  map[string]string `json:"seated,omitempty"`  // player id by token of its sessions still away
	Pending json.RawMessage   `json:"pending,omitempty"` // its room record, until ConfirmHandOff
	Report  int64             `json:"report,omitempty"`  // the last report applied
}

// Report is what a room's server tells the lobby: the room's summary now
// (nil once the room is removed) and the sessions that left it since the
// last report the lobby acknowledged (AckReport). Reports are numbered;
// the lobby applies each at most once and never an older after a newer.
type Report struct {
	Room     string              `json:"room"`
	Seq      int64               `json:"seq"`
	Summary  *RoomSummary        `json:"summary,omitempty"`
	Returned map[string]*Session `json:"returned,omitempty"`
}

// SetHandOff puts s in hand-off mode (or out of it): every game it starts
// is handed off. A host sets it after New or a restore.
func (s *Server) SetHandOff(on bool) { s.handOff = on }

// SetRoomHost puts s in room mode for room id, which another server's
// hand-off gave it: sessions that leave the room, and the room's changes,
// are reported (Report). A host sets it after the restore.
func (s *Server) SetRoomHost(id string) {
	s.host = id
	if s.report == nil {
		s.report = &Report{Room: id, Summary: s.hostSummary()}
	}
}

// Vacant returns, for a server in room mode that holds no room (its
// hand-off has not given it one, or the room was released), the
// rejection that answers a connection to it, unknown_room, as a lobby
// answers a room it does not have; nil for any other server. Such a
// server takes no new connection: ConnectFrom answers it with the
// rejection and a move to the lobby, and changes nothing.
func (s *Server) Vacant() *Rejection {
	if s.host == "" || s.rooms[s.host] != nil {
		return nil
	}
	return reject(CodeUnknownRoom, "unknown room %q", clip(s.host))
}

// hostSummary returns the summary of the room s hosts, nil when it is
// removed.
func (s *Server) hostSummary() *RoomSummary {
	r := s.rooms[s.host]
	if r == nil {
		return nil
	}
	sum := s.summary(r)
	return &sum
}

// Away returns the room whose own server holds session tok since this
// lobby handed its game off, or "" when none does.
func (s *Server) Away(tok string) string { return s.away[tok] }

// HandOffs returns the room record of every room handed off and not yet
// confirmed, by room id: what the host delivers to the rooms' servers
// (again after a restart, until ConfirmHandOff).
func (s *Server) HandOffs() map[string][]byte {
	out := map[string][]byte{}
	for id, rm := range s.remote {
		if rm.Pending != nil {
			out[id] = rm.Pending
		}
	}
	return out
}

// ConfirmHandOff records that room id's server holds the room: its record
// is no longer kept for delivery.
func (s *Server) ConfirmHandOff(id string) Changes {
	rm := s.remote[id]
	if rm == nil || rm.Pending == nil {
		return Changes{}
	}
	rm.Pending = nil
	return Changes{Rooms: []string{id}}
}

// Report returns the room server's latest report and whether the lobby
// has yet to acknowledge it. ok is false outside room mode.
func (s *Server) Report() (rep Report, pending, ok bool) {
	if s.host == "" || s.report == nil {
		return Report{}, false, false
	}
	return *s.report, s.report.Seq > s.acked, true
}

// AckReport records that the lobby applied report seq: the sessions it
// returned are the lobby's now.
func (s *Server) AckReport(seq int64) Changes {
	if s.report == nil || seq < s.report.Seq || s.acked >= seq {
		return Changes{}
	}
	s.acked = seq
	s.report.Returned = nil
	return Changes{Lobby: true}
}

// UpdateRemote applies a report of a room this lobby handed off: its
// summary replaces the directory's, the sessions it returned become this
// server's again (disconnected, seated nowhere, with their names), so a
// hello with their tokens reclaims them, and a removed room leaves the
// directory. A report of an unknown room, or not newer than the last one
// applied, changes nothing (a report delivered twice is applied once).
func (s *Server) UpdateRemote(rep Report, now int64) ([]Outbound, Changes) {
	now = s.clock(now)
	rm := s.remote[rep.Room]
	if rm == nil || rep.Seq <= rm.Report {
		return nil, Changes{}
	}
	ob := newOutbox()
	id := rep.Room
	rm.Report = rep.Seq
	rm.Pending = nil // a report comes from the room's server: it holds the room
	ob.records[id] = true
	for _, tok := range sortedKeys(rep.Returned) {
		se := rep.Returned[tok]
		if _, away := rm.Seated[tok]; !away || se == nil || s.sessions[tok] != nil {
			continue
		}
		delete(rm.Seated, tok)
		delete(s.away, tok)
		back := &Session{PlayerID: se.PlayerID, Name: se.Name, LastSeen: now, Client: se.Client}
		s.sessions[tok] = back
		s.partOf(tok).sessions[tok] = true
		s.pids[back.PlayerID] = true
		ob.touchKey(tok)
		s.noteIdle(tok, back, ob)
	}
	if rep.Summary == nil {
		for tok, pid := range rm.Seated {
			delete(s.away, tok)
			delete(s.pids, pid)
		}
		delete(s.remote, id)
	} else {
		rm.Summary = *rep.Summary
	}
	return s.flush(ob, now)
}

// handOffRoom takes room id, whose game just started, out of the lobby:
// its seated connections are moved to the room's server, its record (with
// its seated sessions, disconnected from here) is kept for delivery, and a
// Remote stands for it.
func (s *Server) handOffRoom(id string, r *Room, now int64, ob *outbox) {
	rm := &Remote{Order: r.Order, Summary: s.summary(r), Seated: map[string]string{}}
	for _, st := range r.Seats {
		se := s.sessions[st.Session]
		if st.Session == "" || se == nil || se.Room != id {
			continue
		}
		rm.Seated[st.Session] = se.PlayerID
		s.away[st.Session] = id
		if se.Conn != "" {
			s.moveConn(se.Conn, MoveRoom(id), ob)
			se.Conn, se.LastSeen = "", now
		}
	}
	rm.Pending, _ = s.AppendRoomRecord(nil, id)
	for tok := range rm.Seated {
		delete(s.sessions, tok)
		delete(s.partOf(tok).sessions, tok)
		ob.touchKey(tok)
	}
	delete(s.rooms, id)
	delete(ob.tables, id)
	delete(s.kept, id)
	s.remote[id] = rm
	ob.records[id] = true
	ob.handOffs[id] = true
}

// moveConn closes connection conn, whose session is elsewhere now (or
// which must go elsewhere), with a move to where.
func (s *Server) moveConn(conn, where string, ob *outbox) {
	s.dropConn(conn)
	delete(ob.views, conn)
	ob.touchConn(conn)
	ob.direct = append(ob.direct, Outbound{Conn: conn, Kind: KindMove, Move: where, Close: true})
}

// returnSession, in room mode, sends session tok, which just left the
// room, back to the lobby: it is reported as returned, leaves this server,
// and its connection is moved to the lobby.
func (s *Server) returnSession(tok string, ob *outbox) {
	se := s.sessions[tok]
	if s.host == "" || se == nil || se.Room != "" {
		return
	}
	ob.returned[tok] = &Session{PlayerID: se.PlayerID, Name: se.Name, Client: se.Client}
	if se.Conn != "" {
		s.moveConn(se.Conn, MoveLobby, ob)
	}
	s.dropSession(tok, ob)
}

// noteReport, in room mode, makes a new report when the call changed the
// room's summary or returned sessions.
func (s *Server) noteReport(ob *outbox) {
	if s.host == "" || s.report == nil {
		return
	}
	cur := s.hostSummary()
	prev := s.report.Summary
	if len(ob.returned) == 0 && (cur == nil) == (prev == nil) && (cur == nil || *cur == *prev) {
		return
	}
	rep := &Report{Room: s.host, Seq: s.report.Seq + 1, Summary: cur}
	if len(s.report.Returned)+len(ob.returned) > 0 {
		rep.Returned = make(map[string]*Session, len(s.report.Returned)+len(ob.returned))
		for tok, se := range s.report.Returned {
			rep.Returned[tok] = se
		}
		for tok, se := range ob.returned {
			rep.Returned[tok] = se
		}
	}
	s.report = rep
	ob.lobby = true
	ob.report = true
}

// spectateRemote moves the connection to room id's server to spectate
// there.
func (x *call) spectateRemote(rm *Remote, id string) *Rejection {
	if x.se.Room != "" {
		return reject(CodeAlreadyInRoom, "seated in room %q; leave it first", x.se.Room)
	}
	if rm.Summary.State != StateInProgress {
		return reject(CodeNotRunning, "room %q has no running game to watch", id)
	}
	if rm.Summary.Spectators >= x.s.limits.MaxSpectators {
		return reject(CodeTooManySpectators, "room %q has its maximum of %d spectators", id, x.s.limits.MaxSpectators)
	}
	x.s.disconnect(x.conn, x.now, x.ob)
	x.s.moveConn(x.conn, MoveSpectate(id), x.ob)
	return nil
}

// appendRemote appends remote room rm's canonical encoding.
func appendRemote(b []byte, rm *Remote) []byte {
	o := canon.OpenObject(b)
	o.Int("order", rm.Order)
	if len(rm.Pending) > 0 {
		o.Raw("pending", rm.Pending)
	}
	o.OptInt("report", rm.Report)
	if len(rm.Seated) > 0 {
		o.Key("seated")
		o.B = canon.AppendMap(o.B, rm.Seated, canon.AppendString)
	}
	o.Key("summary")
	o.B = appendSummary(o.B, rm.Summary)
	return o.Close()
}

// appendReport appends report rep's canonical encoding.
func appendReport(b []byte, rep *Report) []byte {
	o := canon.OpenObject(b)
	if len(rep.Returned) > 0 {
		o.Key("returned")
		o.B = appendMap(o.B, rep.Returned, appendSession)
	}
	o.String("room", rep.Room)
	o.Int("seq", rep.Seq)
	if rep.Summary != nil {
		o.Key("summary")
		o.B = appendSummary(o.B, *rep.Summary)
	}
	return o.Close()
}

// appendReportMembers writes the report members of the whole state and of
// the lobby record: none outside room mode.
func (s *Server) appendReportMembers(o *canon.Object) {
	if s.report != nil && s.report.Seq > 0 {
		o.Key("report")
		o.B = appendReport(o.B, s.report)
	}
	o.OptInt("report_acked", s.acked)
}
