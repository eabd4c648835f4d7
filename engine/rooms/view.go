package rooms

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/storyloom/storyloom/engine/canon"
)

// A view is assembled from canonical members rather than by encoding a
// GameView value: the members every receiver shares (seats, log, result)
// are encoded once per room per call, and the game's projection is encoded
// once per receiver. The bytes are exactly canon.Marshal of the GameView or
// SpectatorView the members describe; a test decodes every frame and
// checks that re-encoding it gives the same bytes.

type member struct {
	key string
	val []byte
}

// shared returns the members common to every view of room r in this call.
func (s *Server) shared(r *Room, t *table) ([]member, error) {
	if t.shared != nil {
		return t.shared, nil
	}
	m := r.Match
	order, seats, names := s.seatsOf(r)
	t.status = make([]SeatStatus, len(seats))
	for i, ts := range seats {
		t.status[i] = SeatStatus{Connected: ts.Connected == nil, AI: ts.AI}
	}
	ms := make([]member, 0, 7)
	ms = append(ms, member{"room_id", canon.AppendString(nil, r.ID)})
	ms = append(ms, member{"seat_order", canon.AppendStrings(nil, order)})
	ms = append(ms, member{"seats", appendTableSeats(nil, seats)})
	if len(names) > 0 {
		ms = append(ms, member{"player_names", appendStringMap(nil, names)})
	}
	if m.Result != nil {
		ms = append(ms, member{"result", appendResult(nil, m.Result)})
	}
	if len(m.Log) > 0 {
		n := 2
		for _, e := range m.Log {
			n += len(e.Event) + 32
		}
		ms = append(ms, member{"log", canon.AppendList(make([]byte, 0, n), m.Log, appendLogEntry)})
	}
	ms = append(ms, member{"format", appendMatchFormat(nil, MatchFormat{ID: r.Config.GameSetup, Commander: s.format(r).Commander})})
	t.shared = ms
	return ms, nil
}

// viewMembers returns the members of seat's view of room r (Spectator's
// for a spectator) before the seat's own: the game's projection and the
// shared ones.
func (s *Server) viewMembers(r *Room, t *table, seat int) ([]member, error) {
	common, err := s.shared(r, t)
	if err != nil {
		return nil, err
	}
	var v any
	if sv, ok := t.pos.(SeatViewer); ok {
		v = sv.ViewSeats(seat, t.status)
	} else {
		v = t.pos.View(seat)
	}
	ms, err := projectionMembers(v, t)
	if err != nil {
		return nil, err
	}
	return append(ms, common...), nil
}

// projectionMembers encodes a Position.View as canonical members, dropping
// any key the machine owns. A projection that is a canon.Appender encodes
// itself, into t's projection buffer: the members are valid until the
// next projection of the call is encoded, and each view copies them into
// its frame (object) before that. Anything else goes through
// canon.Marshal.
func projectionMembers(v any, t *table) ([]member, error) {
	var b []byte
	var err error
	if a, ok := v.(canon.Appender); ok {
		b, err = a.AppendCanonical(t.proj[:0])
		t.proj = b
	} else {
		b, err = canon.Marshal(v)
	}
	if err != nil {
		return nil, fmt.Errorf("rooms: projection: %w", err)
	}
	if ms, ok := splitMembers(b); ok {
		out := ms[:0]
		for _, m := range ms {
			if !reserved(m.key) {
				out = append(out, m)
			}
		}
		return out, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("rooms: projection is not a JSON object")
	}
	out := make([]member, 0, len(m))
	for k, raw := range m {
		if !reserved(k) {
			out = append(out, member{k, raw})
		}
	}
	return out, nil
}

// object writes members as one canonical JSON object.
func object(ms []member) ([]byte, error) {
	ascii := true
	n := 2
	for _, m := range ms {
		n += len(m.key) + len(m.val) + 4
		for i := 0; i < len(m.key); i++ {
			ascii = ascii && m.key[i] < 0x80
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = canon.AppendString(b, m.key)
		b = append(b, ':')
		b = append(b, m.val...)
	}
	b = append(b, '}')
	if !ascii {
		// Canonical order compares UTF-16 code units; let canon sort.
		return canon.Canonicalize(b)
	}
	return b, nil
}
