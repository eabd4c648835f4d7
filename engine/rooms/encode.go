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
// AppendString, AppendStrings, AppendInt and AppendList write its values.
type CanonicalView interface {
	// AppendCanonical appends the projection's canonical encoding to b.
	AppendCanonical(b []byte) []byte
}

// AppendString appends s as canon.Marshal encodes a Go string: encoding/json
// replaces invalid UTF-8 with U+FFFD, which the slow path keeps.
func AppendString(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return canon.AppendString(b, s)
	}
	enc, err := canon.Marshal(s)
	if err != nil {
		return canon.AppendString(b, s)
	}
	return append(b, enc...)
}

// AppendInt appends n as canon.Marshal encodes an integer.
func AppendInt[N ~int | ~int64](b []byte, n N) []byte {
	if n > -(1<<53) && n < 1<<53 {
		return strconv.AppendInt(b, int64(n), 10)
	}
	return canon.AppendNumber(b, float64(n))
}

// AppendStrings appends a string list; nil encodes as null, as
// encoding/json does.
func AppendStrings(b []byte, list []string) []byte {
	return AppendList(b, list, AppendString)
}

// AppendList appends a JSON array of list's elements, each written by enc;
// a nil list is null, as encoding/json writes it.
func AppendList[T any](b []byte, list []T, enc func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	return appendArray(b, list, enc)
}

// appendArray appends a JSON array of list's elements; a nil list is [].
func appendArray[T any](b []byte, list []T, enc func([]byte, T) []byte) []byte {
	b = append(b, '[')
	for i, x := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = enc(b, x)
	}
	return append(b, ']')
}

// obj writes one object's members, in the order its methods are called
// (the caller's order is the canonical one). The opt… methods leave a
// member out at its zero value, as encoding/json's omitempty does.
type obj struct {
	b     []byte
	first bool
}

func openObj(b []byte) obj { return obj{b: append(b, '{'), first: true} }

// key appends ',' (for every member but the first) and the key.
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

func (o *obj) str(k, s string) {
	o.key(k)
	o.b = AppendString(o.b, s)
}

func (o *obj) optStr(k, s string) {
	if s != "" {
		o.str(k, s)
	}
}

func (o *obj) num(k string, n int64) {
	o.key(k)
	o.b = AppendInt(o.b, n)
}

func (o *obj) optNum(k string, n int64) {
	if n != 0 {
		o.num(k, n)
	}
}

func (o *obj) optNumPtr(k string, p *int) {
	if p != nil {
		o.num(k, int64(*p))
	}
}

func (o *obj) boolean(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *obj) optTrue(k string, v bool) {
	if v {
		o.boolean(k, true)
	}
}

func (o *obj) optBoolPtr(k string, p *bool) {
	if p != nil {
		o.boolean(k, *p)
	}
}

func (o *obj) strs(k string, list []string) {
	o.key(k)
	o.b = AppendStrings(o.b, list)
}

func (o *obj) optStrs(k string, list []string) {
	if len(list) > 0 {
		o.strs(k, list)
	}
}

// raw appends a member whose value is already canonical JSON; an empty
// one is null, as encoding/json writes it.
func (o *obj) raw(k string, v json.RawMessage) {
	o.key(k)
	o.b = appendRaw(o.b, v)
}

func appendConfig(b []byte, c RoomConfig) []byte {
	o := openObj(b)
	o.optNum("action_seconds", int64(c.ActionSeconds))
	o.str("game_setup", c.GameSetup)
	o.optStr("name", c.Name)
	o.num("seats", int64(c.Seats))
	o.optTrue("undo_enabled", c.UndoEnabled)
	o.optStr("visibility", c.Visibility)
	return o.close()
}

func appendSummary(b []byte, r RoomSummary) []byte {
	o := openObj(b)
	o.key("config")
	o.b = appendConfig(o.b, r.Config)
	o.num("filled", int64(r.Filled))
	o.str("room_id", r.RoomID)
	o.optNum("spectators", int64(r.Spectators))
	o.str("state", r.State)
	return o.close()
}

func appendSeatView(b []byte, s SeatView) []byte {
	o := openObj(b)
	o.optStr("ai", s.AI)
	o.optStrs("colors", s.Colors)
	o.optStr("commander", s.Commander)
	o.optBoolPtr("connected", s.Connected)
	o.boolean("decked", s.Decked)
	o.optStr("name", s.Name)
	o.optStr("occupied_by", s.OccupiedBy)
	o.boolean("ready", s.Ready)
	o.num("seat", int64(s.Seat))
	return o.close()
}

func appendRoomView(b []byte, v *RoomView) []byte {
	o := openObj(b)
	o.key("config")
	o.b = appendConfig(o.b, v.Config)
	o.str("room_id", v.RoomID)
	o.key("seats")
	o.b = AppendList(o.b, v.Seats, appendSeatView)
	o.optNum("spectators", int64(v.Spectators))
	o.str("state", v.State)
	return o.close()
}

// appendLobbyView appends v with its directory page taken as already
// encoded (dir, the canonical array, or nil when the page is empty).
func appendLobbyView(b []byte, v LobbyView, dir []byte) []byte {
	o := openObj(b)
	if len(dir) > 0 {
		o.key("directory")
		o.b = append(o.b, dir...)
	}
	o.optTrue("directory_more", v.DirectoryMore)
	o.optNum("directory_page", int64(v.DirectoryPage))
	o.optStr("name", v.Name)
	if v.Room != nil {
		o.key("room")
		o.b = appendRoomView(o.b, v.Room)
	}
	o.str("session", v.Session)
	o.optStrs("valid_commands", v.ValidCommands)
	o.str("you", v.You)
	return o.close()
}

func appendPrompt(b []byte, p Prompt) []byte {
	o := openObj(b)
	if p.Kind == PromptPayMana {
		o.key("candidates")
		o.b = appendArray(o.b, p.ManaCandidates, appendManaCandidate)
	} else {
		o.optStrs("candidates", p.Candidates)
	}
	o.optNum("count", int64(p.Count))
	o.optStrs("items", p.Items)
	o.str("kind", p.Kind)
	o.optNumPtr("max", p.Max)
	o.optNumPtr("min", p.Min)
	if len(p.Options) > 0 {
		o.key("options")
		o.b = appendArray(o.b, p.Options, appendOption)
	}
	o.optStr("owner", p.Owner)
	o.optStr("pip", p.Pip)
	o.str("prompt", p.Prompt)
	o.str("slot", p.Slot)
	if len(p.Values) > 0 {
		o.key("values")
		o.b = appendArray(o.b, p.Values, appendValue)
	}
	o.optStr("zone", p.Zone)
	return o.close()
}

func appendManaCandidate(b []byte, c ManaCandidate) []byte {
	o := openObj(b)
	o.str("id", c.ID)
	o.optStr("label", c.Label)
	o.str("source", c.Source)
	o.optTrue("taps", c.Taps)
	return o.close()
}

func appendCost(b []byte, c *Cost) []byte {
	o := openObj(b)
	o.str("modified", c.Modified)
	o.optStr("printed", c.Printed)
	return o.close()
}

func appendDestination(b []byte, d Destination) []byte {
	o := openObj(b)
	o.str("id", d.ID)
	o.optStr("label", d.Label)
	o.optStr("owner", d.Owner)
	o.str("type", d.Type)
	return o.close()
}

func appendOption(b []byte, op Option) []byte {
	o := openObj(b)
	o.str("id", op.ID)
	o.str("label", op.Label)
	o.optStrs("requires", op.Requires)
	return o.close()
}

func appendValue(b []byte, v NumberValue) []byte {
	o := openObj(b)
	o.optStr("cost", v.Cost)
	o.num("value", int64(v.Value))
	return o.close()
}

func appendRequirement(b []byte, q Requirement) []byte {
	o := openObj(b)
	o.strs("candidates", q.Candidates)
	o.optNum("count", int64(q.Count))
	o.optTrue("optional", q.Optional)
	o.str("prompt", q.Prompt)
	o.str("slot", q.Slot)
	o.optStr("subject", q.Subject)
	o.optStrs("taps", q.Taps)
	return o.close()
}

func appendAction(b []byte, a Action) []byte {
	o := openObj(b)
	if a.Cost != nil {
		o.key("cost")
		o.b = appendCost(o.b, a.Cost)
	}
	if len(a.Destinations) > 0 {
		o.key("destinations")
		o.b = appendArray(o.b, a.Destinations, appendDestination)
	}
	o.str("id", a.ID)
	o.str("label", a.Label)
	o.optTrue("mana_ability", a.ManaAbility)
	if len(a.Prompts) > 0 {
		o.key("prompts")
		o.b = appendArray(o.b, a.Prompts, appendPrompt)
	}
	if len(a.Requirements) > 0 {
		o.key("requirements")
		o.b = appendArray(o.b, a.Requirements, appendRequirement)
	}
	o.optStrs("subject", a.Subject)
	o.optStr("token", a.Token)
	o.str("type", a.Type)
	return o.close()
}

// appendActions appends a list of actions (never nil here).
func appendActions(b []byte, acts []Action) []byte {
	return appendArray(b, acts, appendAction)
}

// appendTokenInput appends the canonical {"action":…,"seat":…} a token
// hashes.
func appendTokenInput(b []byte, seat int, a Action) []byte {
	b = append(b, `{"action":`...)
	b = appendAction(b, a)
	b = append(b, `,"seat":`...)
	b = AppendInt(b, seat)
	return append(b, '}')
}

func appendPassedStep(b []byte, ps passedStep) []byte {
	o := openObj(b)
	o.str("phase", ps.Phase)
	o.num("turn", int64(ps.Turn))
	return o.close()
}

func appendTableSeats(b []byte, seats []TableSeat) []byte {
	return appendArray(b, seats, func(b []byte, s TableSeat) []byte {
		o := openObj(b)
		o.optStr("ai", s.AI)
		o.optBoolPtr("connected", s.Connected)
		o.optStr("name", s.Name)
		o.str("player_id", s.PlayerID)
		o.num("seat", int64(s.Seat))
		return o.close()
	})
}

// appendStringMap appends a string map with its keys in canonical order.
func appendStringMap(b []byte, m map[string]string) []byte {
	return appendSorted(b, m, AppendString)
}

func appendResult(b []byte, r *Result) []byte {
	o := openObj(b)
	o.optStrs("losers", r.Losers)
	o.str("reason", r.Reason)
	o.optStr("winner", r.Winner)
	return o.close()
}

func appendMatchFormat(b []byte, f MatchFormat) []byte {
	o := openObj(b)
	o.optTrue("commander", f.Commander)
	o.optStr("id", f.ID)
	return o.close()
}

func appendAck(b []byte, a *ActionAck) []byte {
	o := openObj(b)
	o.boolean("accepted", a.Accepted)
	o.str("submission", a.Submission)
	return o.close()
}

func appendUndo(b []byte, u UndoView) []byte {
	o := openObj(b)
	o.num("available", int64(u.Available))
	o.num("limit", int64(u.Limit))
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
	o.b = appendMap(o.b, s.conns, (*Conn).AppendCanonical)
	o.key("limits")
	o.b = appendLimits(o.b, s.limits)
	o.num("now", s.now)
	o.num("room_seq", s.roomSeq)
	o.key("rooms")
	o.b = appendMap(o.b, s.rooms, (*Room).AppendCanonical)
	o.num("schema", Schema)
	o.key("sessions")
	o.b = appendMap(o.b, s.sessions, (*Session).AppendCanonical)
	return o.close()
}

// appendMap appends a map in canonical key order; a nil map, or a nil
// value, is null.
func appendMap[V any](b []byte, m map[string]*V, enc func(*V, []byte) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	return appendSorted(b, m, func(b []byte, v *V) []byte {
		if v == nil {
			return append(b, "null"...)
		}
		return enc(v, b)
	})
}

// appendSorted appends a map as an object with its keys in canonical
// order, each value written by enc; a nil map is {}.
func appendSorted[V any](b []byte, m map[string]V, enc func([]byte, V) []byte) []byte {
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
		b = AppendString(b, k)
		b = append(b, ':')
		b = enc(b, m[k])
	}
	return append(b, '}')
}

func appendLimits(b []byte, l Limits) []byte {
	o := openObj(b)
	o.num("commands_per_second", int64(l.CommandsPerSecond))
	o.num("log_window", int64(l.LogWindow))
	o.num("max_connections", int64(l.MaxConnections))
	o.num("max_rooms", int64(l.MaxRooms))
	o.num("max_sessions", int64(l.MaxSessions))
	o.num("max_spectators", int64(l.MaxSpectators))
	o.num("session_idle_millis", l.SessionIdleMillis)
	o.num("settle_steps", int64(l.SettleSteps))
	o.num("undo_depth", int64(l.UndoDepth))
	return o.close()
}

// AppendCanonical appends the connection's canonical JSON encoding.
func (c *Conn) AppendCanonical(b []byte) []byte {
	o := openObj(b)
	o.optNum("count", int64(c.Count))
	o.optNum("page", int64(c.Page))
	o.str("session", c.Session)
	o.optStr("spectating", c.Spectating)
	o.optNum("window", c.Window)
	return o.close()
}

// AppendCanonical appends the session's canonical JSON encoding.
func (se *Session) AppendCanonical(b []byte) []byte {
	o := openObj(b)
	o.optStr("client", se.Client)
	o.optStr("conn", se.Conn)
	o.num("last_seen", se.LastSeen)
	o.optStr("name", se.Name)
	o.str("player_id", se.PlayerID)
	o.optStr("room", se.Room)
	return o.close()
}

// AppendCanonical appends the room's canonical JSON encoding, game and
// checkpoints included: what a host persists of it.
func (r *Room) AppendCanonical(b []byte) []byte {
	o := openObj(b)
	o.key("config")
	o.b = appendConfig(o.b, r.Config)
	o.str("id", r.ID)
	if r.Match != nil {
		o.key("match")
		o.b = appendMatch(o.b, r.Match)
	}
	o.num("order", r.Order)
	o.key("seats")
	o.b = AppendList(o.b, r.Seats, appendSeat)
	o.optStrs("spectators", r.Spectators)
	return o.close()
}

func appendSeat(b []byte, st Seat) []byte {
	o := openObj(b)
	o.optStr("ai", st.AI)
	o.optStrs("colors", st.Colors)
	o.optStr("commander", st.Commander)
	o.optStrs("deck", st.Deck)
	o.optTrue("decked", st.Decked)
	o.optStr("name", st.Name)
	o.optStr("player_id", st.PlayerID)
	o.optTrue("ready", st.Ready)
	o.optStr("session", st.Session)
	return o.close()
}

func appendMatch(b []byte, m *Match) []byte {
	o := openObj(b)
	o.key("acks")
	o.b = AppendList(o.b, m.Acks, func(b []byte, a *ActionAck) []byte {
		if a == nil {
			return append(b, "null"...)
		}
		return appendAck(b, a)
	})
	o.key("ai_seq")
	o.b = AppendList(o.b, m.AISeq, AppendInt[int])
	if len(m.Checkpoints) > 0 {
		o.key("checkpoints")
		o.b = appendArray(o.b, m.Checkpoints, appendCheckpoint)
	}
	if len(m.Clock) > 0 {
		o.key("clock")
		o.b = appendArray(o.b, m.Clock, func(b []byte, d Deadline) []byte {
			do := openObj(b)
			do.optNum("at", d.At)
			do.optStr("key", d.Key)
			return do.close()
		})
	}
	if len(m.Log) > 0 {
		o.key("log")
		o.b = appendArray(o.b, m.Log, appendLogEntry)
	}
	o.num("next_log", m.NextLog)
	o.key("own_stops")
	o.b = AppendList(o.b, m.OwnStops, AppendStrings)
	if m.Result != nil {
		o.key("result")
		o.b = appendResult(o.b, m.Result)
	}
	o.str("seed", m.Seed)
	o.raw("state", m.State)
	o.num("step", m.Step)
	o.key("stops")
	o.b = AppendList(o.b, m.Stops, AppendStrings)
	return o.close()
}

func appendCheckpoint(b []byte, c Checkpoint) []byte {
	o := openObj(b)
	o.key("ai_seq")
	o.b = AppendList(o.b, c.AISeq, AppendInt[int])
	if len(c.Drop) > 0 {
		o.key("drop")
		o.b = AppendStrings(o.b, c.Drop)
	}
	if len(c.Edits) > 0 {
		o.key("edits")
		o.b = appendArray(o.b, c.Edits, func(b []byte, e Edit) []byte {
			eo := openObj(b)
			eo.num("head", int64(e.Head))
			eo.str("key", e.Key)
			eo.str("mid", e.Mid)
			eo.num("tail", int64(e.Tail))
			return eo.close()
		})
	}
	if len(c.Log) > 0 {
		o.key("log")
		o.b = appendArray(o.b, c.Log, appendLogEntry)
	}
	o.optNum("log_to", c.LogTo)
	if len(c.Patch) > 0 {
		o.raw("patch", c.Patch)
	}
	if c.Result != nil {
		o.key("result")
		o.b = appendResult(o.b, c.Result)
	}
	if len(c.State) > 0 {
		o.raw("state", c.State)
	}
	return o.close()
}

func appendLogEntry(b []byte, e LogEntry) []byte {
	b = append(b, `{"event":`...)
	b = appendRaw(b, e.Event)
	b = append(b, `,"sequence":`...)
	b = AppendInt(b, e.Sequence)
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
