package rooms

import (
	"bytes"
	"sort"
)

// The public directory is paged: a lobby view carries the page its
// connection chose (browse), DirectoryPageSize rooms, oldest first. The
// server keeps the directory as the last call left it, each room's
// summary encoded, so that a call finds the pages it changed from the
// rooms whose record it changed, and owes a view only to the lobby
// connections browsing those pages. The cache is derived from the state:
// a restored server rebuilds it, so frames do not depend on restores.

// dirEntry is one listed room: its id, creation order and encoded summary.
type dirEntry struct {
	id    string
	order int64
	sum   []byte
}

// summaryOf returns room r's directory entry; ok is false when r is not
// listed (private or finished).
func (s *Server) summaryOf(r *Room) (RoomSummary, bool) {
	sum := s.summary(r)
	return sum, listed(sum)
}

// summary returns room r's summary, listed or not.
func (s *Server) summary(r *Room) RoomSummary {
	filled := 0
	for _, seat := range r.Seats {
		if seat.occupied() {
			filled++
		}
	}
	return RoomSummary{RoomID: r.ID, Config: r.Config, Filled: filled, Spectators: len(r.Spectators), State: s.roomState(r)}
}

// listed reports whether a room with summary sum is listed: not private,
// not finished.
func listed(sum RoomSummary) bool {
	return sum.Config.Visibility != VisibilityPrivate && sum.State != StateFinished
}

// entryOf returns room id's directory entry, or ok false when the room is
// gone or not listed. A room handed off is listed by its last reported
// summary.
func (s *Server) entryOf(id string) (dirEntry, bool) {
	r := s.rooms[id]
	if r == nil {
		if rm := s.remote[id]; rm != nil && listed(rm.Summary) {
			return dirEntry{id: id, order: rm.Order, sum: appendSummary(nil, rm.Summary)}, true
		}
		return dirEntry{}, false
	}
	sum, ok := s.summaryOf(r)
	if !ok {
		return dirEntry{}, false
	}
	return dirEntry{id: id, order: r.Order, sum: appendSummary(nil, sum)}, true
}

// buildDirectory lists every listed room from scratch.
func (s *Server) buildDirectory() {
	s.dir = s.dir[:0]
	for id := range s.rooms {
		if e, ok := s.entryOf(id); ok {
			s.dir = append(s.dir, e)
		}
	}
	for id := range s.remote {
		if e, ok := s.entryOf(id); ok {
			s.dir = append(s.dir, e)
		}
	}
	sortEntries(s.dir)
	s.indexDirectory()
}

func sortEntries(list []dirEntry) {
	sort.Slice(list, func(i, j int) bool { return list[i].order < list[j].order })
}

func (s *Server) indexDirectory() {
	s.dirAt = make(map[string]int, len(s.dir))
	for i, e := range s.dir {
		s.dirAt[e.id] = i
	}
}

// refreshDirectory brings the directory up to date after a call that
// changed the records of rooms changed, and returns the pages whose
// content (entries, or whether a later page has rooms) differs from
// before; nil when none does.
func (s *Server) refreshDirectory(changed map[string]bool) map[int]bool {
	if len(changed) == 0 {
		return nil
	}
	type update struct {
		e      dirEntry
		listed bool
	}
	var ups map[string]update
	for id := range changed {
		e, listed := s.entryOf(id)
		i, was := s.dirAt[id]
		if !was && !listed || was && listed && bytes.Equal(s.dir[i].sum, e.sum) {
			continue
		}
		if ups == nil {
			ups = map[string]update{}
		}
		ups[id] = update{e, listed}
	}
	if ups == nil {
		return nil
	}
	inPlace := true
	for id, u := range ups {
		_, was := s.dirAt[id]
		inPlace = inPlace && was && u.listed
	}
	if inPlace {
		// Summaries changed, no room came or went: their pages alone.
		pages := map[int]bool{}
		for id, u := range ups {
			i := s.dirAt[id]
			s.dir[i] = u.e
			pages[i/DirectoryPageSize] = true
		}
		return pages
	}
	old := s.dir
	next := make([]dirEntry, 0, len(old)+len(ups))
	for _, e := range old {
		if u, ok := ups[e.id]; ok {
			if u.listed {
				next = append(next, u.e)
			}
			continue
		}
		next = append(next, e)
	}
	added := false
	for id, u := range ups {
		if _, was := s.dirAt[id]; !was && u.listed {
			next = append(next, u.e)
			added = true
		}
	}
	if added {
		sortEntries(next)
	}
	s.dir = next
	s.indexDirectory()

	pages := map[int]bool{}
	n := max(len(old), len(next))
	for p := 0; p*DirectoryPageSize < n; p++ {
		lo, hi := p*DirectoryPageSize, (p+1)*DirectoryPageSize
		if (len(old) > hi) != (len(next) > hi) {
			pages[p] = true
			continue
		}
		for i := lo; i < hi; i++ {
			if i >= len(old) || i >= len(next) {
				if i < len(old) || i < len(next) {
					pages[p] = true
				}
				break
			}
			if old[i].id != next[i].id || !bytes.Equal(old[i].sum, next[i].sum) {
				pages[p] = true
				break
			}
		}
	}
	return pages
}

// directoryPage returns the encoded entries of page p (nil when it has
// none) and whether a later page has rooms.
func (s *Server) directoryPage(p int) ([]byte, bool) {
	lo := p * DirectoryPageSize
	more := len(s.dir) > lo+DirectoryPageSize
	if lo >= len(s.dir) {
		return nil, more
	}
	hi := min(lo+DirectoryPageSize, len(s.dir))
	n := 2
	for _, e := range s.dir[lo:hi] {
		n += len(e.sum) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, e := range s.dir[lo:hi] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e.sum...)
	}
	return append(b, ']'), more
}

// lastPage returns the last page of the directory that has rooms (0 when
// it is empty).
func (s *Server) lastPage() int {
	if len(s.dir) == 0 {
		return 0
	}
	return (len(s.dir) - 1) / DirectoryPageSize
}

// browse sets the directory page the connection's lobby views carry; a
// page past the last is the last.
func (x *call) browse(page int) *Rejection {
	if page < 0 {
		return reject(CodeInvalidPage, "page %d: pages count from 0", page)
	}
	page = min(page, x.s.lastPage())
	if x.c.Page != page {
		x.s.unpage(x.conn, x.c)
		x.c.Page = page
		x.s.index(x.conn, x.c)
		x.ob.touchConn(x.conn)
	}
	x.ob.views[x.conn] = true
	return nil
}
