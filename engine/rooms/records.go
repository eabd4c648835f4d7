package rooms

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/storyloom/storyloom/engine/canon"
)

// A host that persists the machine in pieces (so that one call writes what
// it changed, not the whole state) splits it into records:
//
//   - one record per room: the room, with its match, and the sessions
//     seated in it, as {"room":…,"sessions":{…}} (AppendRoomRecord);
//   - LobbyParts lobby parts: the connections and the sessions seated
//     nowhere, each in the part its id or token hashes to, as
//     {"conns":{…},"sessions":{…}}, the connections' rate counters left
//     out (AppendLobbyParts), so that no record grows with the whole
//     lobby and a call rewrites the parts of what it touched;
//   - one lobby record: the rest (limits, room counter), in the encoding
//     Marshal writes with no rooms, connections or sessions and the clock
//     at 0 (AppendLobbyRecord), since the clock does not matter after a
//     restart.
//
// Every call returns Changes, naming the records it may have changed;
// RestoreRecords puts the records back together.

// LobbyParts is how many lobby part records the connections and lobby
// sessions are spread over.
const LobbyParts = 64

// lobbyPart returns the part key (a connection id or session token)
// belongs to: FNV-1a, 32 bits, modulo LobbyParts.
func lobbyPart(key string) int {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h ^= uint32(key[i])
		h *= 16777619
	}
	return int(h % LobbyParts)
}

// DurableState re-encodes a state Marshal returned without what the
// records leave out: the clock and the connections' rate counters. A state
// put together from records and the state they were taken from have the
// same DurableState.
func DurableState(state []byte) ([]byte, error) {
	var st fullState
	if err := json.Unmarshal(state, &st); err != nil {
		return nil, fmt.Errorf("rooms: decode state: %w", err)
	}
	st.Now = 0
	for _, c := range st.Conns {
		c.Window, c.Count = 0, 0
	}
	return canon.Marshal(&st)
}

// roomRecord is a room record, decoded.
type roomRecord struct {
	Room     *Room               `json:"room"`
	Sessions map[string]*Session `json:"sessions,omitempty"`
	Remote   *Remote             `json:"remote,omitempty"` // instead of Room: a room handed off
}

// AppendRoomRecord appends the record of room id to b. ok is false when
// the server holds no such room (it was deleted: the host removes its
// record). The record of a room handed off (handoff.go) is its Remote, as
// {"remote":…}.
func (s *Server) AppendRoomRecord(b []byte, id string) (_ []byte, ok bool) {
	r := s.rooms[id]
	if r == nil {
		if rm := s.remote[id]; rm != nil {
			b = append(b, `{"remote":`...)
			return append(appendRemote(b, rm), '}'), true
		}
		return b, false
	}
	b = append(b, `{"room":`...)
	b = appendRoom(b, r)
	seated := map[string]*Session{}
	for _, st := range r.Seats {
		if se := s.sessions[st.Session]; st.Session != "" && se != nil && se.Room == id {
			seated[st.Session] = se
		}
	}
	if len(seated) > 0 {
		b = append(b, `,"sessions":`...)
		b = appendMap(b, seated, appendSession)
	}
	return append(b, '}'), true
}

// AppendLobbyRecord appends the lobby record to b (in room mode, with
// the latest report).
func (s *Server) AppendLobbyRecord(b []byte) []byte {
	o := canon.OpenObject(b)
	o.Key("conns")
	o.B = append(o.B, "{}"...)
	o.Key("limits")
	o.B = appendLimits(o.B, s.limits)
	o.Int("now", 0)
	s.appendReportMembers(&o)
	o.Int("room_seq", s.roomSeq)
	o.Key("rooms")
	o.B = append(o.B, "{}"...)
	o.Int("schema", Schema)
	o.Key("sessions")
	o.B = append(o.B, "{}"...)
	return o.Close()
}

// lobbyPartRecord is a lobby part record, decoded.
type lobbyPartRecord struct {
	Conns    map[string]*Conn    `json:"conns"`
	Sessions map[string]*Session `json:"sessions"`
}

// AppendLobbyParts returns the records of the lobby parts listed (each in
// 0..LobbyParts-1), by part; the cost is the size of those parts, not of
// the lobby. A part with nothing in it is nil (the host removes its
// record).
func (s *Server) AppendLobbyParts(parts []int) map[int][]byte {
	want := map[int]*lobbyPartRecord{}
	for _, p := range parts {
		pr := &lobbyPartRecord{Conns: map[string]*Conn{}, Sessions: map[string]*Session{}}
		for id := range s.parts[p].conns {
			pr.Conns[id] = s.conns[id]
		}
		for tok := range s.parts[p].sessions {
			if se := s.sessions[tok]; !s.seated(se) {
				pr.Sessions[tok] = se
			}
		}
		want[p] = pr
	}
	out := make(map[int][]byte, len(want))
	for p, pr := range want {
		if len(pr.Conns) == 0 && len(pr.Sessions) == 0 {
			out[p] = nil
			continue
		}
		o := canon.OpenObject(nil)
		o.Key("conns")
		o.B = canon.AppendMap(o.B, pr.Conns, func(b []byte, c *Conn) []byte {
			return appendConn(b, &Conn{Session: c.Session, Spectating: c.Spectating, Page: c.Page})
		})
		o.Key("sessions")
		o.B = appendMap(o.B, pr.Sessions, appendSession)
		out[p] = o.Close()
	}
	return out
}

// RestoreRecords puts a server together from its lobby record (nil when
// there is none yet), its lobby part records (in any order) and its room
// records by room id, each decoded once, hosting the games of reg within
// limits lim (zero fields take their defaults; the limits a lobby record
// holds are not used). A lobby record that still holds connections and
// sessions itself (as one written before the parts did) is read too.
func RestoreRecords(lobby []byte, parts [][]byte, roomRecords map[string][]byte, reg *Registry, lim Limits) (*Server, error) {
	st := &fullState{State: State{Schema: Schema}}
	if lobby != nil {
		if err := json.Unmarshal(lobby, st); err != nil {
			return nil, fmt.Errorf("rooms: lobby record: %w", err)
		}
		if st.Schema != Schema {
			return nil, fmt.Errorf("rooms: lobby record: schema %d, want %d", st.Schema, Schema)
		}
	}
	if st.Sessions == nil {
		st.Sessions = map[string]*Session{}
	}
	if st.Conns == nil {
		st.Conns = map[string]*Conn{}
	}
	for i, b := range parts {
		var pr lobbyPartRecord
		if err := json.Unmarshal(b, &pr); err != nil {
			return nil, fmt.Errorf("rooms: lobby part record %d: %w", i, err)
		}
		for id, c := range pr.Conns {
			if st.Conns[id] != nil {
				return nil, fmt.Errorf("rooms: lobby part record %d: connection %q is held twice", i, id)
			}
			st.Conns[id] = c
		}
		for tok, se := range pr.Sessions {
			if st.Sessions[tok] != nil {
				return nil, fmt.Errorf("rooms: lobby part record %d: session %q is held twice", i, tok)
			}
			st.Sessions[tok] = se
		}
	}
	st.Rooms = make(map[string]*Room, len(roomRecords))
	ids := make([]string, 0, len(roomRecords))
	for id := range roomRecords {
		ids = append(ids, id)
	}
	sort.Strings(ids) // a session seated in two records: the error names the same one every time
	for _, id := range ids {
		var rr roomRecord
		if err := json.Unmarshal(roomRecords[id], &rr); err != nil {
			return nil, fmt.Errorf("rooms: record of room %q: %w", id, err)
		}
		if rr.Remote != nil && rr.Room == nil && len(rr.Sessions) == 0 {
			if st.Remote == nil {
				st.Remote = map[string]*Remote{}
			}
			st.Remote[id] = rr.Remote
			continue
		}
		if rr.Room == nil || rr.Room.ID != id {
			return nil, fmt.Errorf("rooms: record of room %q holds another room", id)
		}
		st.Rooms[id] = rr.Room
		for tok, se := range rr.Sessions {
			if st.Sessions[tok] != nil {
				return nil, fmt.Errorf("rooms: record of room %q: session %q is held twice", id, tok)
			}
			st.Sessions[tok] = se
		}
	}
	return fromState(st, lim, reg)
}

// Connections returns the ids of the open connections, sorted.
func (s *Server) Connections() []string { return sortedKeys(s.conns) }

// SessionOf returns the token of the session connection conn holds, or ""
// when there is no such connection.
func (s *Server) SessionOf(conn string) string {
	if c := s.conns[conn]; c != nil {
		return c.Session
	}
	return ""
}

// ConnOf returns the connection session token holds, or "" when it is
// disconnected or unknown.
func (s *Server) ConnOf(token string) string {
	if se := s.sessions[token]; se != nil {
		return se.Conn
	}
	return ""
}
