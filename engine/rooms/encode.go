package rooms

import (
	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders for the machine's own wire types. Each writes
// exactly the bytes canon.Marshal gives for the same value (members in
// canonical key order, encoding/json's omitempty rules, nil slices as
// null), without going through encoding/json and a re-parse. The corpus
// test (testdata/corpus) pins the bytes; TestEncoders compares every
// encoder with canon.Marshal on generated values.

func appendConfig(b []byte, c RoomConfig) []byte {
	o := canon.OpenObject(b)
	o.OptInt("action_seconds", int64(c.ActionSeconds))
	o.String("game_setup", c.GameSetup)
	o.OptString("name", c.Name)
	o.Int("seats", int64(c.Seats))
	o.OptBool("undo_enabled", c.UndoEnabled)
	o.OptString("visibility", c.Visibility)
	return o.Close()
}

func appendSummary(b []byte, r RoomSummary) []byte {
	o := canon.OpenObject(b)
	o.Key("config")
	o.B = appendConfig(o.B, r.Config)
	o.Int("filled", int64(r.Filled))
	o.String("room_id", r.RoomID)
	o.OptInt("spectators", int64(r.Spectators))
	o.String("state", r.State)
	return o.Close()
}

func appendSeatView(b []byte, s *SeatView) []byte {
	o := canon.OpenObject(b)
	o.OptString("ai", s.AI)
	o.OptStrings("colors", s.Colors)
	o.OptString("commander", s.Commander)
	o.OptBoolPtr("connected", s.Connected)
	o.Bool("decked", s.Decked)
	o.OptString("name", s.Name)
	o.OptString("occupied_by", s.OccupiedBy)
	o.Bool("ready", s.Ready)
	o.Int("seat", int64(s.Seat))
	return o.Close()
}

func appendRoomView(b []byte, v *RoomView) []byte {
	o := canon.OpenObject(b)
	o.Key("config")
	o.B = appendConfig(o.B, v.Config)
	o.String("room_id", v.RoomID)
	canon.List(&o, "seats", v.Seats, appendSeatView)
	o.OptInt("spectators", int64(v.Spectators))
	o.String("state", v.State)
	return o.Close()
}

// appendLobbyView appends v with its directory page taken as already
// encoded (dir, the canonical array, or nil when the page is empty).
func appendLobbyView(b []byte, v LobbyView, dir []byte) []byte {
	o := canon.OpenObject(b)
	if len(dir) > 0 {
		o.Key("directory")
		o.B = append(o.B, dir...)
	}
	o.OptBool("directory_more", v.DirectoryMore)
	o.OptInt("directory_page", int64(v.DirectoryPage))
	o.OptString("name", v.Name)
	canon.OptValue(&o, "room", v.Room, appendRoomView)
	o.String("session", v.Session)
	o.OptStrings("valid_commands", v.ValidCommands)
	o.String("you", v.You)
	return o.Close()
}

func appendPrompt(b []byte, p *Prompt) []byte {
	o := canon.OpenObject(b)
	if p.Kind == PromptPayMana {
		cands := p.ManaCandidates
		if cands == nil {
			cands = []ManaCandidate{} // MarshalJSON writes [], not null
		}
		canon.List(&o, "candidates", cands, appendManaCandidate)
	} else {
		o.OptStrings("candidates", p.Candidates)
	}
	o.OptInt("count", int64(p.Count))
	o.OptStrings("items", p.Items)
	o.String("kind", p.Kind)
	o.OptIntPtr("max", p.Max)
	o.OptIntPtr("min", p.Min)
	canon.OptList(&o, "options", p.Options, appendOption)
	o.OptString("owner", p.Owner)
	o.OptString("pip", p.Pip)
	o.String("prompt", p.Prompt)
	o.String("slot", p.Slot)
	canon.OptList(&o, "values", p.Values, appendValue)
	o.OptString("zone", p.Zone)
	return o.Close()
}

func appendManaCandidate(b []byte, c *ManaCandidate) []byte {
	o := canon.OpenObject(b)
	o.String("id", c.ID)
	o.OptString("label", c.Label)
	o.String("source", c.Source)
	o.OptBool("taps", c.Taps)
	return o.Close()
}

func appendCost(b []byte, c *Cost) []byte {
	o := canon.OpenObject(b)
	o.String("modified", c.Modified)
	o.OptString("printed", c.Printed)
	return o.Close()
}

func appendDestination(b []byte, d *Destination) []byte {
	o := canon.OpenObject(b)
	o.String("id", d.ID)
	o.OptString("label", d.Label)
	o.OptString("owner", d.Owner)
	o.String("type", d.Type)
	return o.Close()
}

func appendOption(b []byte, op *Option) []byte {
	o := canon.OpenObject(b)
	o.String("id", op.ID)
	o.String("label", op.Label)
	o.OptStrings("requires", op.Requires)
	return o.Close()
}

func appendValue(b []byte, v *NumberValue) []byte {
	o := canon.OpenObject(b)
	o.OptString("cost", v.Cost)
	o.Int("value", int64(v.Value))
	return o.Close()
}

func appendRequirement(b []byte, q *Requirement) []byte {
	o := canon.OpenObject(b)
	o.Strings("candidates", q.Candidates)
	o.OptInt("count", int64(q.Count))
	o.OptBool("optional", q.Optional)
	o.String("prompt", q.Prompt)
	o.String("slot", q.Slot)
	o.OptString("subject", q.Subject)
	o.OptStrings("taps", q.Taps)
	return o.Close()
}

func appendAction(b []byte, a *Action) []byte {
	o := canon.OpenObject(b)
	canon.OptValue(&o, "cost", a.Cost, appendCost)
	canon.OptList(&o, "destinations", a.Destinations, appendDestination)
	o.String("id", a.ID)
	o.String("label", a.Label)
	o.OptBool("mana_ability", a.ManaAbility)
	canon.OptList(&o, "prompts", a.Prompts, appendPrompt)
	canon.OptList(&o, "requirements", a.Requirements, appendRequirement)
	o.OptStrings("subject", a.Subject)
	o.OptString("token", a.Token)
	o.String("type", a.Type)
	return o.Close()
}

// appendActions appends a list of actions (never nil here).
func appendActions(b []byte, acts []Action) []byte {
	return canon.AppendList(b, acts, appendAction)
}

// appendTokenInput appends the canonical {"action":…,"seat":…} a token
// hashes.
func appendTokenInput(b []byte, seat int, a Action) []byte {
	b = append(b, `{"action":`...)
	b = appendAction(b, &a)
	b = append(b, `,"seat":`...)
	b = canon.AppendInt(b, seat)
	return append(b, '}')
}

func appendPassedStep(b []byte, ps *passedStep) []byte {
	o := canon.OpenObject(b)
	o.String("phase", ps.Phase)
	o.Int("turn", int64(ps.Turn))
	return o.Close()
}

func appendTableSeats(b []byte, seats []TableSeat) []byte {
	return canon.AppendList(b, seats, func(b []byte, s *TableSeat) []byte {
		o := canon.OpenObject(b)
		o.OptString("ai", s.AI)
		o.OptBoolPtr("connected", s.Connected)
		o.OptString("name", s.Name)
		o.String("player_id", s.PlayerID)
		o.Int("seat", int64(s.Seat))
		return o.Close()
	})
}

// appendStringMap appends a string map with its keys in canonical order.
func appendStringMap(b []byte, m map[string]string) []byte {
	return canon.AppendMap(b, m, canon.AppendString)
}

func appendResult(b []byte, r *Result) []byte {
	o := canon.OpenObject(b)
	o.OptStrings("losers", r.Losers)
	o.String("reason", r.Reason)
	o.OptString("winner", r.Winner)
	return o.Close()
}

func appendMatchFormat(b []byte, f MatchFormat) []byte {
	o := canon.OpenObject(b)
	o.OptBool("commander", f.Commander)
	o.OptString("id", f.ID)
	return o.Close()
}

func appendAck(b []byte, a *ActionAck) []byte {
	o := canon.OpenObject(b)
	o.Bool("accepted", a.Accepted)
	o.String("submission", a.Submission)
	return o.Close()
}

func appendUndo(b []byte, u UndoView) []byte {
	o := canon.OpenObject(b)
	o.Int("available", int64(u.Available))
	o.Int("limit", int64(u.Limit))
	return o.Close()
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
	o := canon.OpenObject(b)
	o.Key("conns")
	o.B = appendMap(o.B, s.conns, appendConn)
	o.Key("limits")
	o.B = appendLimits(o.B, s.limits)
	o.Int("now", s.now)
	if len(s.remote) > 0 {
		o.Key("remote")
		o.B = appendMap(o.B, s.remote, appendRemote)
	}
	s.appendReportMembers(&o)
	o.Int("room_seq", s.roomSeq)
	o.Key("rooms")
	o.B = appendMap(o.B, s.rooms, appendRoom)
	o.Int("schema", Schema)
	o.Key("sessions")
	o.B = appendMap(o.B, s.sessions, appendSession)
	return o.Close()
}

// appendMap appends a map of records in canonical key order; a nil map,
// or a nil record, is null.
func appendMap[V any](b []byte, m map[string]*V, enc func([]byte, *V) []byte) []byte {
	return canon.AppendMap(b, m, func(b []byte, v *V) []byte {
		if v == nil {
			return append(b, "null"...)
		}
		return enc(b, v)
	})
}

// appendStringLists appends a list of string lists (a seat's stops, by
// seat); nil is null.
func appendStringLists(b []byte, lists [][]string) []byte {
	return canon.AppendList(b, lists, func(b []byte, l *[]string) []byte { return canon.AppendStrings(b, *l) })
}

func appendLimits(b []byte, l Limits) []byte {
	o := canon.OpenObject(b)
	o.Int("commands_per_second", int64(l.CommandsPerSecond))
	o.Int("log_window", int64(l.LogWindow))
	o.Int("max_connections", int64(l.MaxConnections))
	o.Int("max_rooms", int64(l.MaxRooms))
	o.Int("max_sessions", int64(l.MaxSessions))
	o.Int("max_spectators", int64(l.MaxSpectators))
	o.Int("session_idle_millis", l.SessionIdleMillis)
	o.Int("settle_steps", int64(l.SettleSteps))
	o.Int("undo_depth", int64(l.UndoDepth))
	return o.Close()
}

// appendConn appends the connection's canonical JSON encoding.
func appendConn(b []byte, c *Conn) []byte {
	o := canon.OpenObject(b)
	o.OptInt("count", int64(c.Count))
	o.OptInt("page", int64(c.Page))
	o.String("session", c.Session)
	o.OptString("spectating", c.Spectating)
	o.OptInt("window", c.Window)
	return o.Close()
}

// appendSession appends the session's canonical JSON encoding.
func appendSession(b []byte, se *Session) []byte {
	o := canon.OpenObject(b)
	o.OptString("client", se.Client)
	o.OptString("conn", se.Conn)
	o.Int("last_seen", se.LastSeen)
	o.OptString("name", se.Name)
	o.String("player_id", se.PlayerID)
	o.OptString("room", se.Room)
	return o.Close()
}

// appendRoom appends the room's canonical JSON encoding, game and
// checkpoints included: what a host persists of it.
func appendRoom(b []byte, r *Room) []byte {
	o := canon.OpenObject(b)
	o.Key("config")
	o.B = appendConfig(o.B, r.Config)
	o.String("id", r.ID)
	canon.OptValue(&o, "match", r.Match, appendMatch)
	o.Int("order", r.Order)
	canon.List(&o, "seats", r.Seats, appendSeat)
	o.OptStrings("spectators", r.Spectators)
	return o.Close()
}

func appendSeat(b []byte, st *Seat) []byte {
	o := canon.OpenObject(b)
	o.OptString("ai", st.AI)
	o.OptStrings("colors", st.Colors)
	o.OptString("commander", st.Commander)
	o.OptStrings("deck", st.Deck)
	o.OptBool("decked", st.Decked)
	o.OptString("name", st.Name)
	o.OptString("player_id", st.PlayerID)
	o.OptBool("ready", st.Ready)
	o.OptString("session", st.Session)
	return o.Close()
}

func appendMatch(b []byte, m *Match) []byte {
	o := canon.OpenObject(b)
	o.Key("acks")
	o.B = canon.AppendList(o.B, m.Acks, func(b []byte, a **ActionAck) []byte {
		if *a == nil {
			return append(b, "null"...)
		}
		return appendAck(b, *a)
	})
	canon.Ints(&o, "ai_seq", m.AISeq)
	canon.OptList(&o, "checkpoints", m.Checkpoints, appendCheckpoint)
	if len(m.Clock) > 0 {
		o.Key("clock")
		o.B = canon.AppendList(o.B, m.Clock, func(b []byte, d *Deadline) []byte {
			do := canon.OpenObject(b)
			do.OptInt("at", d.At)
			do.OptString("key", d.Key)
			return do.Close()
		})
	}
	canon.OptList(&o, "log", m.Log, appendLogEntry)
	o.Int("next_log", m.NextLog)
	o.Key("own_stops")
	o.B = appendStringLists(o.B, m.OwnStops)
	canon.OptValue(&o, "result", m.Result, appendResult)
	o.String("seed", m.Seed)
	o.Raw("state", m.State)
	o.Int("step", m.Step)
	o.Key("stops")
	o.B = appendStringLists(o.B, m.Stops)
	return o.Close()
}

func appendCheckpoint(b []byte, c *Checkpoint) []byte {
	o := canon.OpenObject(b)
	canon.Ints(&o, "ai_seq", c.AISeq)
	if len(c.Drop) > 0 {
		o.Key("drop")
		o.B = canon.AppendStrings(o.B, c.Drop)
	}
	if len(c.Edits) > 0 {
		o.Key("edits")
		o.B = canon.AppendList(o.B, c.Edits, func(b []byte, e *Edit) []byte {
			eo := canon.OpenObject(b)
			eo.Int("head", int64(e.Head))
			eo.String("key", e.Key)
			eo.String("mid", e.Mid)
			eo.Int("tail", int64(e.Tail))
			return eo.Close()
		})
	}
	canon.OptList(&o, "log", c.Log, appendLogEntry)
	o.OptInt("log_to", c.LogTo)
	if len(c.Patch) > 0 {
		o.Raw("patch", c.Patch)
	}
	canon.OptValue(&o, "result", c.Result, appendResult)
	if len(c.State) > 0 {
		o.Raw("state", c.State)
	}
	return o.Close()
}

func appendLogEntry(b []byte, e *LogEntry) []byte {
	b = append(b, `{"event":`...)
	b = canon.AppendRaw(b, e.Event)
	b = append(b, `,"sequence":`...)
	b = canon.AppendInt(b, e.Sequence)
	return append(b, '}')
}
