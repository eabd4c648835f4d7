package rooms

import (
	"encoding/json"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders for the machine's own wire types. Each writes
// exactly the bytes canon.Marshal gives for the same value (members in
// canonical key order, encoding/json's omitempty rules, nil slices as
// null), without going through encoding/json and a re-parse. The corpus
// test (testdata/corpus) pins the bytes; TestEncoders compares every
// encoder with canon.Marshal on generated values.

// CanonicalView is implemented by a projection (the value a Position.View
// returns) that can append its own canonical JSON object: exactly the bytes
// canon.Marshal would give for it. The machine then skips encoding/json and
// the re-parse; a projection without it is encoded with canon.Marshal.
type CanonicalView interface {
	// AppendCanonical appends the projection's canonical encoding to b.
	AppendCanonical(b []byte) []byte
}

// appendStr appends s as canon.Marshal encodes a Go string: encoding/json
// replaces invalid UTF-8 with U+FFFD, which the slow path keeps.
func appendStr(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return canon.AppendString(b, s)
	}
	enc, err := canon.Marshal(s)
	if err != nil {
		return canon.AppendString(b, s)
	}
	return append(b, enc...)
}

// appendInt appends n as a canonical number.
func appendInt(b []byte, n int64) []byte {
	if n > -(1<<53) && n < 1<<53 {
		return strconv.AppendInt(b, n, 10)
	}
	return canon.AppendNumber(b, float64(n))
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendStrs appends a string list; nil encodes as null, as encoding/json
// does.
func appendStrs(b []byte, list []string) []byte {
	return appendList(b, list, appendStr)
}

// obj writes the punctuation of one object's members: key appends ',' (for
// every member but the first) and the key.
type obj struct {
	b     []byte
	first bool
}

func openObj(b []byte) obj { return obj{b: append(b, '{'), first: true} }

func (o *obj) key(k string) {
	if !o.first {
		o.b = append(o.b, ',')
	}
	o.first = false
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *obj) close() []byte { return append(o.b, '}') }

func appendConfig(b []byte, c RoomConfig) []byte {
	o := openObj(b)
	if c.ActionSeconds != 0 {
		o.key("action_seconds")
		o.b = appendInt(o.b, int64(c.ActionSeconds))
	}
	o.key("game_setup")
	o.b = appendStr(o.b, c.GameSetup)
	if c.Name != "" {
		o.key("name")
		o.b = appendStr(o.b, c.Name)
	}
	o.key("seats")
	o.b = appendInt(o.b, int64(c.Seats))
	if c.UndoEnabled {
		o.key("undo_enabled")
		o.b = append(o.b, "true"...)
	}
	if c.Visibility != "" {
		o.key("visibility")
		o.b = appendStr(o.b, c.Visibility)
	}
	return o.close()
}

func appendSummary(b []byte, r RoomSummary) []byte {
	o := openObj(b)
	o.key("config")
	o.b = appendConfig(o.b, r.Config)
	o.key("filled")
	o.b = appendInt(o.b, int64(r.Filled))
	o.key("room_id")
	o.b = appendStr(o.b, r.RoomID)
	if r.Spectators != 0 {
		o.key("spectators")
		o.b = appendInt(o.b, int64(r.Spectators))
	}
	o.key("state")
	o.b = appendStr(o.b, r.State)
	return o.close()
}

// appendDirectory appends a directory as a JSON array.
func appendDirectory(b []byte, dir []RoomSummary) []byte {
	b = append(b, '[')
	for i, r := range dir {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendSummary(b, r)
	}
	return append(b, ']')
}

func appendSeatView(b []byte, s SeatView) []byte {
	o := openObj(b)
	if s.AI != "" {
		o.key("ai")
		o.b = appendStr(o.b, s.AI)
	}
	if len(s.Colors) > 0 {
		o.key("colors")
		o.b = appendStrs(o.b, s.Colors)
	}
	if s.Commander != "" {
		o.key("commander")
		o.b = appendStr(o.b, s.Commander)
	}
	if s.Connected != nil {
		o.key("connected")
		o.b = appendBool(o.b, *s.Connected)
	}
	o.key("decked")
	o.b = appendBool(o.b, s.Decked)
	if s.Name != "" {
		o.key("name")
		o.b = appendStr(o.b, s.Name)
	}
	if s.OccupiedBy != "" {
		o.key("occupied_by")
		o.b = appendStr(o.b, s.OccupiedBy)
	}
	o.key("ready")
	o.b = appendBool(o.b, s.Ready)
	o.key("seat")
	o.b = appendInt(o.b, int64(s.Seat))
	return o.close()
}

func appendRoomView(b []byte, v *RoomView) []byte {
	o := openObj(b)
	o.key("config")
	o.b = appendConfig(o.b, v.Config)
	o.key("room_id")
	o.b = appendStr(o.b, v.RoomID)
	o.key("seats")
	if v.Seats == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = append(o.b, '[')
		for i, s := range v.Seats {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = appendSeatView(o.b, s)
		}
		o.b = append(o.b, ']')
	}
	if v.Spectators != 0 {
		o.key("spectators")
		o.b = appendInt(o.b, int64(v.Spectators))
	}
	o.key("state")
	o.b = appendStr(o.b, v.State)
	return o.close()
}

// appendLobbyView appends v with its directory taken as already encoded
// (dir, the canonical array, or nil when the directory is empty).
func appendLobbyView(b []byte, v LobbyView, dir []byte) []byte {
	o := openObj(b)
	if len(dir) > 0 {
		o.key("directory")
		o.b = append(o.b, dir...)
	}
	if v.Name != "" {
		o.key("name")
		o.b = appendStr(o.b, v.Name)
	}
	if v.Room != nil {
		o.key("room")
		o.b = appendRoomView(o.b, v.Room)
	}
	o.key("session")
	o.b = appendStr(o.b, v.Session)
	if len(v.ValidCommands) > 0 {
		o.key("valid_commands")
		o.b = appendStrs(o.b, v.ValidCommands)
	}
	o.key("you")
	o.b = appendStr(o.b, v.You)
	return o.close()
}

func appendIntPtr(o *obj, key string, p *int) {
	if p != nil {
		o.key(key)
		o.b = appendInt(o.b, int64(*p))
	}
}

func appendPrompt(b []byte, p Prompt) []byte {
	o := openObj(b)
	if len(p.Candidates) > 0 {
		o.key("candidates")
		o.b = appendStrs(o.b, p.Candidates)
	}
	if p.Count != 0 {
		o.key("count")
		o.b = appendInt(o.b, int64(p.Count))
	}
	if len(p.Items) > 0 {
		o.key("items")
		o.b = appendStrs(o.b, p.Items)
	}
	o.key("kind")
	o.b = appendStr(o.b, p.Kind)
	appendIntPtr(&o, "max", p.Max)
	appendIntPtr(&o, "min", p.Min)
	if len(p.Options) > 0 {
		o.key("options")
		o.b = append(o.b, '[')
		for i, op := range p.Options {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			oo := openObj(o.b)
			oo.key("id")
			oo.b = appendStr(oo.b, op.ID)
			oo.key("label")
			oo.b = appendStr(oo.b, op.Label)
			if len(op.Requires) > 0 {
				oo.key("requires")
				oo.b = appendStrs(oo.b, op.Requires)
			}
			o.b = oo.close()
		}
		o.b = append(o.b, ']')
	}
	if p.Owner != "" {
		o.key("owner")
		o.b = appendStr(o.b, p.Owner)
	}
	o.key("prompt")
	o.b = appendStr(o.b, p.Prompt)
	o.key("slot")
	o.b = appendStr(o.b, p.Slot)
	if len(p.Values) > 0 {
		o.key("values")
		o.b = append(o.b, '[')
		for i, v := range p.Values {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			vo := openObj(o.b)
			if v.Cost != "" {
				vo.key("cost")
				vo.b = appendStr(vo.b, v.Cost)
			}
			vo.key("value")
			vo.b = appendInt(vo.b, int64(v.Value))
			o.b = vo.close()
		}
		o.b = append(o.b, ']')
	}
	if p.Zone != "" {
		o.key("zone")
		o.b = appendStr(o.b, p.Zone)
	}
	return o.close()
}

func appendRequirement(b []byte, q Requirement) []byte {
	o := openObj(b)
	o.key("candidates")
	o.b = appendStrs(o.b, q.Candidates)
	if q.Count != 0 {
		o.key("count")
		o.b = appendInt(o.b, int64(q.Count))
	}
	if q.Optional {
		o.key("optional")
		o.b = append(o.b, "true"...)
	}
	o.key("prompt")
	o.b = appendStr(o.b, q.Prompt)
	o.key("slot")
	o.b = appendStr(o.b, q.Slot)
	if q.Subject != "" {
		o.key("subject")
		o.b = appendStr(o.b, q.Subject)
	}
	if len(q.Taps) > 0 {
		o.key("taps")
		o.b = appendStrs(o.b, q.Taps)
	}
	return o.close()
}

func appendAction(b []byte, a Action) []byte {
	o := openObj(b)
	o.key("id")
	o.b = appendStr(o.b, a.ID)
	o.key("label")
	o.b = appendStr(o.b, a.Label)
	if len(a.Prompts) > 0 {
		o.key("prompts")
		o.b = append(o.b, '[')
		for i, p := range a.Prompts {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = appendPrompt(o.b, p)
		}
		o.b = append(o.b, ']')
	}
	if len(a.Requirements) > 0 {
		o.key("requirements")
		o.b = append(o.b, '[')
		for i, q := range a.Requirements {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = appendRequirement(o.b, q)
		}
		o.b = append(o.b, ']')
	}
	if len(a.Subject) > 0 {
		o.key("subject")
		o.b = appendStrs(o.b, a.Subject)
	}
	if a.Token != "" {
		o.key("token")
		o.b = appendStr(o.b, a.Token)
	}
	o.key("type")
	o.b = appendStr(o.b, a.Type)
	return o.close()
}

// appendActions appends a list of actions (never nil here).
func appendActions(b []byte, acts []Action) []byte {
	b = append(b, '[')
	for i, a := range acts {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendAction(b, a)
	}
	return append(b, ']')
}

// appendTokenInput appends the canonical {"action":…,"seat":…} a token
// hashes.
func appendTokenInput(b []byte, seat int, a Action) []byte {
	b = append(b, `{"action":`...)
	b = appendAction(b, a)
	b = append(b, `,"seat":`...)
	b = appendInt(b, int64(seat))
	return append(b, '}')
}

func appendTableSeats(b []byte, seats []TableSeat) []byte {
	b = append(b, '[')
	for i, s := range seats {
		if i > 0 {
			b = append(b, ',')
		}
		o := openObj(b)
		if s.AI != "" {
			o.key("ai")
			o.b = appendStr(o.b, s.AI)
		}
		if s.Connected != nil {
			o.key("connected")
			o.b = appendBool(o.b, *s.Connected)
		}
		if s.Name != "" {
			o.key("name")
			o.b = appendStr(o.b, s.Name)
		}
		o.key("player_id")
		o.b = appendStr(o.b, s.PlayerID)
		o.key("seat")
		o.b = appendInt(o.b, int64(s.Seat))
		b = o.close()
	}
	return append(b, ']')
}

// appendStringMap appends a string map with its keys in canonical order.
func appendStringMap(b []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return canon.CompareKeys(keys[i], keys[j]) < 0 })
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStr(b, k)
		b = append(b, ':')
		b = appendStr(b, m[k])
	}
	return append(b, '}')
}

func appendResult(b []byte, r *Result) []byte {
	o := openObj(b)
	if len(r.Losers) > 0 {
		o.key("losers")
		o.b = appendStrs(o.b, r.Losers)
	}
	o.key("reason")
	o.b = appendStr(o.b, r.Reason)
	if r.Winner != "" {
		o.key("winner")
		o.b = appendStr(o.b, r.Winner)
	}
	return o.close()
}

func appendMatchFormat(b []byte, f MatchFormat) []byte {
	o := openObj(b)
	if f.Commander {
		o.key("commander")
		o.b = append(o.b, "true"...)
	}
	if f.ID != "" {
		o.key("id")
		o.b = appendStr(o.b, f.ID)
	}
	return o.close()
}

func appendAck(b []byte, a *ActionAck) []byte {
	o := openObj(b)
	o.key("accepted")
	o.b = appendBool(o.b, a.Accepted)
	o.key("submission")
	o.b = appendStr(o.b, a.Submission)
	return o.close()
}

func appendUndo(b []byte, u UndoView) []byte {
	o := openObj(b)
	o.key("available")
	o.b = appendInt(o.b, int64(u.Available))
	o.key("limit")
	o.b = appendInt(o.b, int64(u.Limit))
	return o.close()
}

// splitMembers splits a canonical JSON object into its members, in order.
// ok is false when data is not an object this scanner understands.
func splitMembers(data []byte) (ms []member, ok bool) {
	n := len(data)
	if n < 2 || data[0] != '{' || data[n-1] != '}' {
		return nil, false
	}
	i := 1
	if i == n-1 {
		return nil, true
	}
	for i < n-1 {
		if data[i] != '"' {
			return nil, false
		}
		kEnd := skipString(data, i)
		if kEnd < 0 || kEnd >= n || data[kEnd] != ':' {
			return nil, false
		}
		key, kok := plainKey(data[i:kEnd])
		if !kok {
			return nil, false
		}
		vStart := kEnd + 1
		vEnd := skipValue(data, vStart, n-1)
		if vEnd < 0 {
			return nil, false
		}
		ms = append(ms, member{key, data[vStart:vEnd:vEnd]})
		i = vEnd
		if i < n-1 {
			if data[i] != ',' {
				return nil, false
			}
			i++
		}
	}
	return ms, true
}

// plainKey returns the key of a quoted JSON string without escapes.
func plainKey(q []byte) (string, bool) {
	for _, c := range q[1 : len(q)-1] {
		if c == '\\' {
			return "", false
		}
	}
	return string(q[1 : len(q)-1]), true
}

// skipString returns the index just after the string starting at i.
func skipString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just after the value starting at i, which
// ends at or before limit.
func skipValue(data []byte, i, limit int) int {
	depth := 0
	for j := i; j < limit; j++ {
		switch data[j] {
		case '"':
			j = skipString(data, j)
			if j < 0 {
				return -1
			}
			j--
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return -1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	if depth != 0 {
		return -1
	}
	return limit
}

// The machine's state, encoded directly: Marshal and the hosts' records
// use these. Raw JSON members (game states, log events) are appended as
// they are: the machine only holds canonical ones (Position.State is
// canonical, events are encoded with canon, Restore canonicalizes what
// it reads).

// appendServer appends the whole state, as canon.Marshal encodes it.
func appendServer(b []byte, s *Server) []byte {
	o := openObj(b)
	o.key("conns")
	o.b = appendMap(o.b, s.Conns, func(b []byte, c *Conn) []byte { return c.AppendCanonical(b) })
	o.key("limits")
	o.b = appendLimits(o.b, s.Limits)
	o.key("now")
	o.b = appendInt(o.b, s.Now)
	o.key("room_seq")
	o.b = appendInt(o.b, s.RoomSeq)
	o.key("rooms")
	o.b = appendMap(o.b, s.Rooms, func(b []byte, r *Room) []byte { return r.AppendCanonical(b) })
	o.key("schema")
	o.b = appendInt(o.b, int64(s.Schema))
	o.key("sessions")
	o.b = appendMap(o.b, s.Sessions, func(b []byte, se *Session) []byte { return se.AppendCanonical(b) })
	return o.close()
}

// appendMap appends a map in canonical key order; a nil map, or a nil
// value, is null.
func appendMap[V any](b []byte, m map[string]*V, enc func([]byte, *V) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return canon.CompareKeys(keys[i], keys[j]) < 0 })
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStr(b, k)
		b = append(b, ':')
		if v := m[k]; v == nil {
			b = append(b, "null"...)
		} else {
			b = enc(b, v)
		}
	}
	return append(b, '}')
}

func appendLimits(b []byte, l Limits) []byte {
	o := openObj(b)
	for _, m := range []struct {
		k string
		v int64
	}{
		{"commands_per_second", int64(l.CommandsPerSecond)}, {"log_window", int64(l.LogWindow)},
		{"max_connections", int64(l.MaxConnections)}, {"max_rooms", int64(l.MaxRooms)},
		{"max_sessions", int64(l.MaxSessions)}, {"max_spectators", int64(l.MaxSpectators)},
		{"session_idle_millis", l.SessionIdleMillis}, {"settle_steps", int64(l.SettleSteps)},
		{"undo_depth", int64(l.UndoDepth)},
	} {
		o.key(m.k)
		o.b = appendInt(o.b, m.v)
	}
	return o.close()
}

// AppendCanonical appends the connection's canonical JSON encoding.
func (c *Conn) AppendCanonical(b []byte) []byte {
	o := openObj(b)
	if c.Count != 0 {
		o.key("count")
		o.b = appendInt(o.b, int64(c.Count))
	}
	o.key("session")
	o.b = appendStr(o.b, c.Session)
	if c.Spectating != "" {
		o.key("spectating")
		o.b = appendStr(o.b, c.Spectating)
	}
	if c.Window != 0 {
		o.key("window")
		o.b = appendInt(o.b, c.Window)
	}
	return o.close()
}

// AppendCanonical appends the session's canonical JSON encoding.
func (se *Session) AppendCanonical(b []byte) []byte {
	o := openObj(b)
	if se.Conn != "" {
		o.key("conn")
		o.b = appendStr(o.b, se.Conn)
	}
	o.key("last_seen")
	o.b = appendInt(o.b, se.LastSeen)
	if se.Name != "" {
		o.key("name")
		o.b = appendStr(o.b, se.Name)
	}
	o.key("player_id")
	o.b = appendStr(o.b, se.PlayerID)
	if se.Room != "" {
		o.key("room")
		o.b = appendStr(o.b, se.Room)
	}
	return o.close()
}

// AppendCanonical appends the room's canonical JSON encoding, game and
// checkpoints included: what a host persists of it.
func (r *Room) AppendCanonical(b []byte) []byte {
	o := openObj(b)
	o.key("config")
	o.b = appendConfig(o.b, r.Config)
	o.key("id")
	o.b = appendStr(o.b, r.ID)
	if r.Match != nil {
		o.key("match")
		o.b = appendMatch(o.b, r.Match)
	}
	o.key("order")
	o.b = appendInt(o.b, r.Order)
	o.key("seats")
	o.b = appendList(o.b, r.Seats, appendSeat)
	if len(r.Spectators) > 0 {
		o.key("spectators")
		o.b = appendStrs(o.b, r.Spectators)
	}
	return o.close()
}

func appendSeat(b []byte, st Seat) []byte {
	o := openObj(b)
	if st.AI != "" {
		o.key("ai")
		o.b = appendStr(o.b, st.AI)
	}
	if len(st.Colors) > 0 {
		o.key("colors")
		o.b = appendStrs(o.b, st.Colors)
	}
	if st.Commander != "" {
		o.key("commander")
		o.b = appendStr(o.b, st.Commander)
	}
	if len(st.Deck) > 0 {
		o.key("deck")
		o.b = appendStrs(o.b, st.Deck)
	}
	if st.Decked {
		o.key("decked")
		o.b = append(o.b, "true"...)
	}
	if st.Name != "" {
		o.key("name")
		o.b = appendStr(o.b, st.Name)
	}
	if st.PlayerID != "" {
		o.key("player_id")
		o.b = appendStr(o.b, st.PlayerID)
	}
	if st.Ready {
		o.key("ready")
		o.b = append(o.b, "true"...)
	}
	if st.Session != "" {
		o.key("session")
		o.b = appendStr(o.b, st.Session)
	}
	return o.close()
}

func appendMatch(b []byte, m *Match) []byte {
	o := openObj(b)
	o.key("acks")
	o.b = appendList(o.b, m.Acks, func(b []byte, a *ActionAck) []byte {
		if a == nil {
			return append(b, "null"...)
		}
		return appendAck(b, a)
	})
	o.key("ai_seq")
	o.b = appendList(o.b, m.AISeq, func(b []byte, n int) []byte { return appendInt(b, int64(n)) })
	if len(m.Checkpoints) > 0 {
		o.key("checkpoints")
		o.b = appendList(o.b, m.Checkpoints, appendCheckpoint)
	}
	if len(m.Clock) > 0 {
		o.key("clock")
		o.b = appendList(o.b, m.Clock, func(b []byte, d Deadline) []byte {
			do := openObj(b)
			if d.At != 0 {
				do.key("at")
				do.b = appendInt(do.b, d.At)
			}
			if d.Key != "" {
				do.key("key")
				do.b = appendStr(do.b, d.Key)
			}
			return do.close()
		})
	}
	if len(m.Log) > 0 {
		o.key("log")
		o.b = appendList(o.b, m.Log, appendLogEntry)
	}
	o.key("next_log")
	o.b = appendInt(o.b, m.NextLog)
	o.key("own_stops")
	o.b = appendList(o.b, m.OwnStops, appendStrs)
	if m.Result != nil {
		o.key("result")
		o.b = appendResult(o.b, m.Result)
	}
	o.key("seed")
	o.b = appendStr(o.b, m.Seed)
	o.key("state")
	o.b = appendRaw(o.b, m.State)
	o.key("step")
	o.b = appendInt(o.b, m.Step)
	o.key("stops")
	o.b = appendList(o.b, m.Stops, appendStrs)
	return o.close()
}

func appendCheckpoint(b []byte, c Checkpoint) []byte {
	o := openObj(b)
	o.key("ai_seq")
	o.b = appendList(o.b, c.AISeq, func(b []byte, n int) []byte { return appendInt(b, int64(n)) })
	if len(c.Log) > 0 {
		o.key("log")
		o.b = appendList(o.b, c.Log, appendLogEntry)
	}
	if c.Result != nil {
		o.key("result")
		o.b = appendResult(o.b, c.Result)
	}
	o.key("state")
	o.b = appendRaw(o.b, c.State)
	return o.close()
}

func appendLogEntry(b []byte, e LogEntry) []byte {
	b = append(b, `{"event":`...)
	b = appendRaw(b, e.Event)
	b = append(b, `,"sequence":`...)
	b = appendInt(b, e.Sequence)
	return append(b, '}')
}

// appendRaw appends a raw JSON value; an empty one is null, as
// encoding/json writes it.
func appendRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// appendList appends a JSON array of list's elements; a nil list is
// null, as encoding/json writes it.
func appendList[T any](b []byte, list []T, enc func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = enc(b, x)
	}
	return append(b, ']')
}
