package rooms

// Test access to a server's maps, whose fields are private.

// RoomsOf returns s's rooms by id.
func RoomsOf(s *Server) map[string]*Room { return s.rooms }

// ConnsOf returns s's connections by id.
func ConnsOf(s *Server) map[string]*Conn { return s.conns }

// SessionsOf returns s's sessions by token.
func SessionsOf(s *Server) map[string]*Session { return s.sessions }

// StateOf returns s's state as a State sharing its maps.
func StateOf(s *Server) *State {
	return &State{Schema: Schema, Limits: s.limits, Now: s.now, RoomSeq: s.roomSeq,
		Conns: s.conns, Sessions: s.sessions, Rooms: s.rooms}
}

// RemoteOf returns s's rooms handed off, by id.
func RemoteOf(s *Server) map[string]*Remote { return s.remote }
