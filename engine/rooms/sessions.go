package rooms

import "container/heap"

// The session table's indexes, so that a connect costs the same with
// twenty sessions or twenty thousand: the player ids in use, the
// disconnected sessions that hold no seat oldest first (the ones a
// newcomer may evict), and the same per client. They are derived from the
// state (derive), kept up to date by every change that can make a session
// disconnected and seatless (noteIdle), and pruned lazily: an entry whose
// session has since reconnected, taken a seat or gone is skipped. So the
// choices they lead to are the ones a scan of the whole table would make,
// live or after a restore.

// idleEntry is one disconnected seatless session as it was noted.
type idleEntry struct {
	tok string
	at  int64 // its LastSeen then
}

// idleHeap is a min-heap of idleEntry by (at, tok).
type idleHeap []idleEntry

func (h idleHeap) Len() int { return len(h) }
func (h idleHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].tok < h[j].tok
}
func (h idleHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push implements heap.Interface.
func (h *idleHeap) Push(x any) { *h = append(*h, x.(idleEntry)) }

// Pop implements heap.Interface.
func (h *idleHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func (h *idleHeap) pop() idleEntry { return heap.Pop(h).(idleEntry) }

// derive builds the indexes and the directory from the state.
func (s *Server) derive() {
	s.pids = make(map[string]bool, len(s.sessions))
	for p := range s.parts {
		s.parts[p] = lobbyIndex{conns: map[string]bool{}, sessions: map[string]bool{}}
	}
	s.onPage = map[int]map[string]bool{}
	for id, c := range s.conns {
		s.index(id, c)
	}
	s.idle = s.idle[:0]
	s.byClient = map[string]map[string]bool{}
	for tok, se := range s.sessions {
		s.pids[se.PlayerID] = true
		s.partOf(tok).sessions[tok] = true
		s.indexIdle(tok, se)
	}
	s.away = map[string]string{}
	for id, rm := range s.remote {
		for tok, pid := range rm.Seated {
			s.away[tok] = id
			s.pids[pid] = true
		}
	}
	heap.Init(&s.idle)
	s.buildDirectory()
}

// idleNow reports whether se is disconnected and holds no seat.
func (s *Server) idleNow(se *Session) bool { return se.Conn == "" && !s.seated(se) }

// indexIdle adds session tok to the indexes of idle sessions if it is one
// (the heap's order is restored by the caller).
func (s *Server) indexIdle(tok string, se *Session) {
	if !s.idleNow(se) {
		return
	}
	s.idle = append(s.idle, idleEntry{tok, se.LastSeen})
	if se.Client != "" {
		if s.byClient[se.Client] == nil {
			s.byClient[se.Client] = map[string]bool{}
		}
		s.byClient[se.Client][tok] = true
	}
}

// noteIdle records that session tok may have just become disconnected and
// seatless, and releases the oldest of its client's beyond
// SeatlessPerClient.
func (s *Server) noteIdle(tok string, se *Session, ob *outbox) {
	if !s.idleNow(se) {
		return
	}
	if len(s.idle) > 2*len(s.sessions)+64 {
		// Mostly stale entries: rebuild rather than grow.
		s.idle = s.idle[:0]
		s.byClient = map[string]map[string]bool{}
		for t, x := range s.sessions {
			s.indexIdle(t, x)
		}
		heap.Init(&s.idle)
	} else {
		s.indexIdle(tok, se)
		heap.Fix(&s.idle, len(s.idle)-1)
	}
	if se.Client != "" {
		s.trimClient(se.Client, ob)
	}
}

// trimClient releases client's oldest disconnected seatless sessions
// (ties by token) beyond SeatlessPerClient.
func (s *Server) trimClient(client string, ob *outbox) {
	set := s.byClient[client]
	for tok := range set {
		if se := s.sessions[tok]; se == nil || se.Client != client || !s.idleNow(se) {
			delete(set, tok)
		}
	}
	for len(set) > SeatlessPerClient {
		oldest := ""
		for tok := range set {
			if oldest == "" {
				oldest = tok
				continue
			}
			a, b := s.sessions[tok], s.sessions[oldest]
			if a.LastSeen < b.LastSeen || a.LastSeen == b.LastSeen && tok < oldest {
				oldest = tok
			}
		}
		delete(set, oldest)
		s.dropSession(oldest, ob)
	}
	if len(set) == 0 {
		delete(s.byClient, client)
	}
}

// addConn adds connection id.
func (s *Server) addConn(id string, c *Conn) {
	s.conns[id] = c
	s.index(id, c)
}

// index adds connection id to the indexes.
func (s *Server) index(id string, c *Conn) {
	s.partOf(id).conns[id] = true
	if s.onPage[c.Page] == nil {
		s.onPage[c.Page] = map[string]bool{}
	}
	s.onPage[c.Page][id] = true
}

// dropConn removes connection id.
func (s *Server) dropConn(id string) {
	c := s.conns[id]
	if c == nil {
		return
	}
	delete(s.conns, id)
	delete(s.partOf(id).conns, id)
	s.unpage(id, c)
}

// unpage takes connection id out of its page's index.
func (s *Server) unpage(id string, c *Conn) {
	delete(s.onPage[c.Page], id)
	if len(s.onPage[c.Page]) == 0 {
		delete(s.onPage, c.Page)
	}
}

// dropSession removes session tok, which sits in no room, from the table.
func (s *Server) dropSession(tok string, ob *outbox) {
	se := s.sessions[tok]
	if se == nil {
		return
	}
	delete(s.sessions, tok)
	delete(s.partOf(tok).sessions, tok)
	delete(s.pids, se.PlayerID)
	ob.touchKey(tok)
}
