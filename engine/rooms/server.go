package rooms

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"unicode"

	"github.com/storyloom/storyloom/engine/canon"
)

// Schema is the version of the Server state encoding.
const Schema = 1

// Limits bounds what one server holds and accepts. A zero field takes its
// DefaultLimits value.
type Limits struct {
	MaxRooms          int   `json:"max_rooms"`           // rooms, in every state
	MaxConnections    int   `json:"max_connections"`     // open connections
	MaxSessions       int   `json:"max_sessions"`        // sessions, connected or held
	MaxSpectators     int   `json:"max_spectators"`      // spectators per room
	CommandsPerSecond int   `json:"commands_per_second"` // frames per connection per second
	UndoDepth         int   `json:"undo_depth"`          // checkpoints a room retains
	LogWindow         int   `json:"log_window"`          // log entries a view carries
	SettleSteps       int   `json:"settle_steps"`        // AI moves per transition, at most
	SessionIdleMillis int64 `json:"session_idle_millis"` // how long a disconnected session is kept
}

// DefaultLimits returns the limits a host gets unless it chooses others.
func DefaultLimits() Limits {
	return Limits{
		MaxRooms:          1000,
		MaxConnections:    10000,
		MaxSessions:       20000,
		MaxSpectators:     64,
		CommandsPerSecond: 20,
		UndoDepth:         16,
		LogWindow:         64,
		SettleSteps:       256,
		SessionIdleMillis: 30 * 60 * 1000,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	orDefault(&l.MaxRooms, d.MaxRooms)
	orDefault(&l.MaxConnections, d.MaxConnections)
	orDefault(&l.MaxSessions, d.MaxSessions)
	orDefault(&l.MaxSpectators, d.MaxSpectators)
	orDefault(&l.CommandsPerSecond, d.CommandsPerSecond)
	orDefault(&l.UndoDepth, d.UndoDepth)
	orDefault(&l.LogWindow, d.LogWindow)
	orDefault(&l.SettleSteps, d.SettleSteps)
	orDefault(&l.SessionIdleMillis, d.SessionIdleMillis)
	return l
}

// orDefault sets a limit that is not positive to its default.
func orDefault[N int | int64](v *N, d N) {
	if *v <= 0 {
		*v = d
	}
}

// IDSource supplies fresh unpredictable ids: session tokens, player ids,
// room ids and game seeds. A host passes one backed by crypto/rand; a test
// or a replay passes a deterministic one such as DerivedIDs. An id must be
// non-empty printable text of at most 64 bytes.
type IDSource interface {
	NewID() string
}

// DerivedIDs derives ids from a secret and a counter: the hex SHA-256 of
// Secret, a zero byte and N, shortened to 24 digits. It is deterministic,
// for tests and replays; with a secret from crypto/rand that the host keeps
// (and persists with N) it is also unpredictable.
type DerivedIDs struct {
	Secret string
	N      uint64
}

// NewID returns the next derived id.
func (d *DerivedIDs) NewID() string {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], d.N)
	d.N++
	h := sha256.Sum256(append(append([]byte(d.Secret), 0), n[:]...))
	return hex.EncodeToString(h[:12])
}

// Frame kinds an Outbound carries, so a host can keep the latest view per
// connection (HTTP polling) without parsing frames.
const (
	KindLobby     = "lobby"       // a LobbyView
	KindGame      = "game"        // a GameView
	KindSpectator = "spectator"   // a SpectatorView
	KindCatalog   = "catalog"     // a CatalogView
	KindError     = "lobby_error" // a LobbyErrorFrame
)

// Outbound is one frame for one connection. Frames for one connection are
// in the order they must be sent; a view supersedes every earlier view.
// Close asks the host to close the connection after sending Frame. Move
// (with Kind KindMove, no Frame, and Close) tells the host to close it as
// one that must reconnect elsewhere (handoff.go); only a server in
// hand-off or room mode sends one.
type Outbound struct {
	Conn  string `json:"conn"`
	Kind  string `json:"kind"`
	Frame []byte `json:"frame"`
	Close bool   `json:"close,omitempty"`
	Move  string `json:"move,omitempty"`
}

// Server is the whole state of the room machine. Marshal encodes it
// canonically and Restore decodes it; a host persists it whole or split
// into records (AppendRoomRecord, AppendLobbyRecord, RestoreRecords).
// Methods mutate the receiver in place; none keeps a reference to its
// arguments.
type Server struct {
	limits   Limits
	now      int64               // latest clock reading seen
	roomSeq  int64               // rooms ever created
	conns    map[string]*Conn    // by connection id
	sessions map[string]*Session // by session token
	rooms    map[string]*Room    // by room id
	remote   map[string]*Remote  // rooms handed off, by room id (hand-off mode)
	report   *Report             // the latest report (room mode)
	acked    int64               // the last report the lobby acknowledged

	reg     *Registry
	handOff bool   // SetHandOff: started games leave this server
	host    string // SetRoomHost: the room this server hosts for a lobby
	// kept holds, by room, the position the last call decoded or
	// committed, with the state bytes it stands for: the next call reuses
	// it instead of decoding the same bytes again. It is a cache, never
	// encoded; a restored server starts without it.
	kept map[string]keptPosition

	// Derived from the state above (rebuilt by fromState), never encoded.
	dir      []dirEntry                 // the directory as the last call left it
	dirAt    map[string]int             // index in dir by room id
	pids     map[string]bool            // every session's player id
	idle     idleHeap                   // disconnected seatless sessions, oldest first (lazily pruned)
	byClient map[string]map[string]bool // disconnected seatless sessions by client
	parts    [LobbyParts]lobbyIndex     // every connection and session, by lobby part
	onPage   map[int]map[string]bool    // every connection, by the directory page it chose
	away     map[string]string          // remote room id by token of each session seated in one
}

// lobbyIndex is one lobby part's connection ids and session tokens (seated
// sessions included: AppendLobbyParts leaves them out).
type lobbyIndex struct {
	conns, sessions map[string]bool
}

// partOf returns the index of the lobby part key belongs to.
func (s *Server) partOf(key string) *lobbyIndex { return &s.parts[lobbyPart(key)] }

// keptPosition is a room's decoded position and the Match.State slice it
// is equal to.
type keptPosition struct {
	state []byte
	pos   Position
}

// sameSlice reports whether a and b are the same bytes in memory: states
// are never changed in place, so the same slice is the same state.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// State is the decoded form of a Server's encoding, for tools and tests
// that inspect one: changing it changes no Server. canon.Marshal of a State
// gives the bytes Marshal gave.
type State struct {
	Schema   int                 `json:"schema"`
	Limits   Limits              `json:"limits"`
	Now      int64               `json:"now"`      // latest clock reading seen
	RoomSeq  int64               `json:"room_seq"` // rooms ever created
	Conns    map[string]*Conn    `json:"conns"`    // by connection id
	Sessions map[string]*Session `json:"sessions"` // by session token
	Rooms    map[string]*Room    `json:"rooms"`    // by room id
}

// fullState is a State with what only a server in hand-off or room mode
// holds (handoff.go), which the encoding omits otherwise.
type fullState struct {
	State
	Remote      map[string]*Remote `json:"remote,omitempty"`       // rooms handed off, by room id
	Report      *Report            `json:"report,omitempty"`       // the latest report
	ReportAcked int64              `json:"report_acked,omitempty"` // the last report acknowledged
}

// DecodeState decodes what Marshal returned.
func DecodeState(data []byte) (*State, error) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("rooms: decode state: %w", err)
	}
	return &st, nil
}

// Conn is one open connection.
type Conn struct {
	Session    string `json:"session"`              // its session's token
	Spectating string `json:"spectating,omitempty"` // room watched, if spectating
	Page       int    `json:"page,omitempty"`       // directory page browsed
	Window     int64  `json:"window,omitempty"`     // rate-limit second
	Count      int    `json:"count,omitempty"`      // frames in that second
}

// Session is one reconnectable identity.
type Session struct {
	PlayerID string `json:"player_id"`        // public id
	Name     string `json:"name,omitempty"`   // display name
	Room     string `json:"room,omitempty"`   // room seated in
	Conn     string `json:"conn,omitempty"`   // its connection, if connected
	LastSeen int64  `json:"last_seen"`        // last input or disconnect
	Client   string `json:"client,omitempty"` // the host's key of the client that opened it
}

// Room is one table.
type Room struct {
	ID         string     `json:"id"`                   // its room id
	Order      int64      `json:"order"`                // creation order
	Config     RoomConfig `json:"config"`               // whole config
	Seats      []Seat     `json:"seats"`                // roster
	Spectators []string   `json:"spectators,omitempty"` // conn ids, in arrival order
	Match      *Match     `json:"match,omitempty"`      // the game, once started
}

// Seat is one seat of a room. Deck is private to the seat.
type Seat struct {
	Session   string   `json:"session,omitempty"` // occupant's token
	PlayerID  string   `json:"player_id,omitempty"`
	Name      string   `json:"name,omitempty"`
	AI        string   `json:"ai,omitempty"`
	Decked    bool     `json:"decked,omitempty"`
	Deck      []string `json:"deck,omitempty"`
	Commander string   `json:"commander,omitempty"`
	Colors    []string `json:"colors,omitempty"`
	Ready     bool     `json:"ready,omitempty"`
}

func (st Seat) occupied() bool { return st.Session != "" || st.AI != "" }

// Match is a room's game phase.
type Match struct {
	Seed        string          `json:"seed"`  // never projected
	State       json.RawMessage `json:"state"` // canonical game state
	Step        int64           `json:"step"`  // accepted transitions
	Log         []LogEntry      `json:"log,omitempty"`
	NextLog     int64           `json:"next_log"`
	AISeq       []int           `json:"ai_seq"` // per seat AI stream counters
	Result      *Result         `json:"result,omitempty"`
	Checkpoints []Checkpoint    `json:"checkpoints,omitempty"`
	Clock       []Deadline      `json:"clock,omitempty"` // per seat
	Acks        []*ActionAck    `json:"acks"`            // per seat
	Stops       [][]string      `json:"stops"`           // per seat
	OwnStops    [][]string      `json:"own_stops"`       // per seat
}

// Checkpoint is the state before one accepted transition: whole, or (as
// the machine keeps them, checkpoint.go) as its difference from the state
// after it.
type Checkpoint struct {
	State  json.RawMessage `json:"state,omitempty"`
	Patch  json.RawMessage `json:"patch,omitempty"`  // State's members that differ from the next state's
	Edits  []Edit          `json:"edits,omitempty"`  // State's members that differ little from the next state's
	Drop   []string        `json:"drop,omitempty"`   // members of the next state that State lacks
	Log    []LogEntry      `json:"log,omitempty"`    // with LogTo: only the entries the next log lacks
	LogTo  int64           `json:"log_to,omitempty"` // the sequence of the log's last entry, when compact
	AISeq  []int           `json:"ai_seq"`
	Result *Result         `json:"result,omitempty"`
}

// Deadline is one seat's decision clock: Key identifies the decision (its
// action tokens), At is the absolute expiry in milliseconds (0: none).
type Deadline struct {
	Key string `json:"key,omitempty"`
	At  int64  `json:"at,omitempty"`
}

// New returns an empty server hosting the games of reg.
func New(reg *Registry, lim Limits) *Server {
	s := &Server{
		limits:   lim.withDefaults(),
		conns:    map[string]*Conn{},
		sessions: map[string]*Session{},
		rooms:    map[string]*Room{},
		remote:   map[string]*Remote{},
		reg:      reg,
	}
	s.derive()
	return s
}

// Marshal returns the canonical encoding of the whole state (what
// canon.Marshal gives for it, written directly).
func (s *Server) Marshal() ([]byte, error) {
	return appendServer(make([]byte, 0, 4096), s), nil
}

// Restore decodes a state Marshal returned, hosting the games of reg. The
// connections recorded in it are kept (an HTTP host's clients outlive a
// process); a host whose sockets died with it calls DropConnections.
func Restore(data []byte, reg *Registry) (*Server, error) {
	var st fullState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("rooms: restore: decode state: %w", err)
	}
	if st.Schema != Schema {
		return nil, fmt.Errorf("rooms: restore: schema %d, want %d", st.Schema, Schema)
	}
	return fromState(&st, st.Limits, reg)
}

// fromState checks a decoded state and makes it a Server with limits lim.
func fromState(st *fullState, lim Limits, reg *Registry) (*Server, error) {
	s := &Server{limits: lim.withDefaults(), now: st.Now, roomSeq: st.RoomSeq,
		conns: st.Conns, sessions: st.Sessions, rooms: st.Rooms, remote: st.Remote,
		report: st.Report, acked: st.ReportAcked, reg: reg}
	if s.conns == nil {
		s.conns = map[string]*Conn{}
	}
	if s.sessions == nil {
		s.sessions = map[string]*Session{}
	}
	if s.rooms == nil {
		s.rooms = map[string]*Room{}
	}
	if s.remote == nil {
		s.remote = map[string]*Remote{}
	}
	for id, rm := range s.remote {
		if rm == nil || s.rooms[id] != nil {
			return nil, fmt.Errorf("rooms: restore: malformed remote room %q", id)
		}
		for tok := range rm.Seated {
			if s.sessions[tok] != nil {
				return nil, fmt.Errorf("rooms: restore: session %q is both here and in remote room %q", tok, id)
			}
		}
	}
	for id, c := range s.conns {
		if c == nil || s.sessions[c.Session] == nil {
			return nil, fmt.Errorf("rooms: restore: connection %q has no session", id)
		}
	}
	for _, se := range s.sessions {
		if se == nil {
			return nil, fmt.Errorf("rooms: restore: empty session")
		}
		if se.Room != "" && s.rooms[se.Room] == nil {
			return nil, fmt.Errorf("rooms: restore: session %q in unknown room %q", se.PlayerID, se.Room)
		}
	}
	for id, r := range s.rooms {
		if r == nil || r.ID != id {
			return nil, fmt.Errorf("rooms: restore: malformed room %q", id)
		}
		if len(r.Seats) < MinSeats || len(r.Seats) > MaxSeats {
			return nil, fmt.Errorf("rooms: restore: room %q has %d seats", id, len(r.Seats))
		}
		if _, ok := reg.Game(r.Config.GameSetup); !ok {
			return nil, fmt.Errorf("rooms: restore: unknown format %q in room %q", r.Config.GameSetup, id)
		}
		if m := r.Match; m != nil {
			n := len(r.Seats)
			if len(m.AISeq) != n || len(m.Acks) != n || len(m.Stops) != n || len(m.OwnStops) != n ||
				(m.Clock != nil && len(m.Clock) != n) {
				return nil, fmt.Errorf("rooms: restore: room %q has a malformed match", id)
			}
			if err := canonicalizeMatch(m); err != nil {
				return nil, fmt.Errorf("rooms: restore: room %q: %w", id, err)
			}
		}
	}
	s.derive()
	return s, nil
}

// canonicalizeMatch brings the raw JSON a match holds (game states, log
// events) to canonical form, which Marshal and the views rely on: a
// restored state may come from an encoder that escapes differently.
func canonicalizeMatch(m *Match) error {
	raws := []*json.RawMessage{&m.State}
	for i := range m.Log {
		raws = append(raws, &m.Log[i].Event)
	}
	for i := range m.Checkpoints {
		c := &m.Checkpoints[i]
		raws = append(raws, &c.State, &c.Patch)
		for j := range c.Log {
			raws = append(raws, &c.Log[j].Event)
		}
	}
	for _, r := range raws {
		if len(*r) == 0 {
			continue
		}
		b, err := canon.Canonicalize(*r)
		if err != nil {
			return err
		}
		*r = b
	}
	return nil
}

// Input kinds for Apply.
const (
	InputConnect    = "connect"
	InputFrame      = "frame"
	InputDisconnect = "disconnect"
	InputTick       = "tick"
	// Between a lobby in hand-off mode and a room's server (handoff.go):
	InputHandedOff = "handed_off" // Room: its server holds it (ConfirmHandOff)
	InputReport    = "report"     // Frame: a Report's JSON, for the lobby (UpdateRemote)
	InputAcked     = "acked"      // Seq: the report the lobby applied (AckReport)
)

// Input is one thing that happened to the server, for hosts that log and
// replay inputs: Apply(in) is Connect, Receive, Disconnect or Tick.
type Input struct {
	Kind   string `json:"kind"`
	Conn   string `json:"conn,omitempty"`
	Client string `json:"client,omitempty"` // InputConnect: see ConnectFrom
	Frame  []byte `json:"frame,omitempty"`
	Room   string `json:"room,omitempty"` // InputHandedOff
	Seq    int64  `json:"seq,omitempty"`  // InputAcked
	Now    int64  `json:"now"`
}

// Changes says which records of the state (see AppendRoomRecord and
// AppendLobbyRecord) one call may have changed: a host that persists the
// records writes these and no others. A record not named is byte for byte
// what it was before the call.
type Changes struct {
	Rooms      []string // ids of rooms whose record changed, created or deleted, sorted
	Lobby      bool     // whether the lobby record changed
	LobbyParts []int    // the lobby parts whose record changed, sorted
	HandOffs   []string // rooms handed off by the call (HandOffs has their records), sorted
	Report     bool     // a new report is due to the lobby (Report)
}

// Apply dispatches in to Connect, Receive, Disconnect, Tick, or (between
// a lobby and a room's server) ConfirmHandOff, UpdateRemote or AckReport.
func (s *Server) Apply(in Input, ids IDSource) ([]Outbound, Changes) {
	switch in.Kind {
	case InputConnect:
		return s.ConnectFrom(in.Conn, in.Client, in.Now, ids)
	case InputFrame:
		return s.Receive(in.Conn, in.Frame, in.Now, ids)
	case InputDisconnect:
		return s.Disconnect(in.Conn, in.Now)
	case InputTick:
		return s.Tick(in.Now)
	case InputHandedOff:
		return nil, s.ConfirmHandOff(in.Room)
	case InputReport:
		var rep Report
		if json.Unmarshal(in.Frame, &rep) != nil {
			return nil, Changes{} // not a report: there is no one to answer
		}
		return s.UpdateRemote(rep, in.Now)
	case InputAcked:
		return nil, s.AckReport(in.Seq)
	}
	return nil, Changes{}
}

// clock folds a clock reading into the state: time never runs backwards.
func (s *Server) clock(now int64) int64 {
	if now < s.now {
		return s.now
	}
	s.now = now
	return now
}

// newID draws a fresh id with prefix that no key of taken uses.
func newID(ids IDSource, prefix string, taken func(string) bool) (string, error) {
	for range 8 {
		raw := ids.NewID()
		if raw == "" || len(raw) > 64 {
			continue
		}
		ok := true
		for _, r := range raw {
			if !unicode.IsPrint(r) {
				ok = false
				break
			}
		}
		if id := prefix + raw; ok && !taken(id) {
			return id, nil
		}
	}
	return "", fmt.Errorf("rooms: id source gave no fresh id")
}

// Connect opens connection conn: it is issued a fresh session and answered
// with that session's LobbyView. At the session limit the oldest
// disconnected session that holds no seat makes way for it (seatless
// sessions cannot crowd out new players); when every session is connected
// or seated, and over the connection limit, it is answered with
// too_many_connections and Close. A vacant room's server (Vacant) answers
// it with unknown_room and a move to the lobby, and keeps nothing of it.
// Its cost does not grow with the number of sessions.
func (s *Server) Connect(conn string, now int64, ids IDSource) ([]Outbound, Changes) {
	return s.ConnectFrom(conn, "", now, ids)
}

// ConnectFrom is Connect for a connection from client, the host's key for
// where it comes from (a client address, or a keyed hash of one; "" for
// none). At most SeatlessPerClient sessions of one client that are
// disconnected and hold no seat are kept: past that the oldest is
// released, so one client cannot fill the session table.
func (s *Server) ConnectFrom(conn, client string, now int64, ids IDSource) ([]Outbound, Changes) {
	now = s.clock(now)
	ob := newOutbox()
	if rej := s.Vacant(); rej != nil {
		ob.fail(conn, rej)
		ob.direct = append(ob.direct, Outbound{Conn: conn, Kind: KindMove, Move: MoveLobby, Close: true})
		return s.flush(ob, now)
	}
	if _, dup := s.conns[conn]; dup {
		s.disconnect(conn, now, ob)
	}
	if len(s.sessions) >= s.limits.MaxSessions {
		s.evictSeatless(ob)
	}
	if len(s.conns) >= s.limits.MaxConnections || len(s.sessions) >= s.limits.MaxSessions {
		ob.fail(conn, reject(CodeTooManyConnections, "the server is full"))
		ob.direct[len(ob.direct)-1].Close = true
		return s.flush(ob, now)
	}
	tok, err := newID(ids, "s:", func(id string) bool { return s.sessions[id] != nil })
	if err != nil {
		ob.fail(conn, reject(CodeInternal, "%v", err))
		ob.direct[len(ob.direct)-1].Close = true
		return s.flush(ob, now)
	}
	pid, err := newID(ids, "u:", func(id string) bool { return s.pids[id] })
	if err != nil {
		ob.fail(conn, reject(CodeInternal, "%v", err))
		ob.direct[len(ob.direct)-1].Close = true
		return s.flush(ob, now)
	}
	s.sessions[tok] = &Session{PlayerID: pid, Conn: conn, LastSeen: now, Client: client}
	s.partOf(tok).sessions[tok] = true
	s.pids[pid] = true
	s.addConn(conn, &Conn{Session: tok})
	ob.touchKey(tok)
	ob.touchKey(conn)
	ob.views[conn] = true
	return s.flush(ob, now)
}

// SeatlessIdleMillis is how long a disconnected session that holds no
// seat is kept (at most SessionIdleMillis): a name and nothing else to
// come back to, so a flood of connect, set_name, close cannot fill the
// session table for long.
const SeatlessIdleMillis = 60 * 1000

// SeatlessPerClient is how many disconnected sessions holding no seat one
// client (ConnectFrom) keeps; the oldest beyond it is released.
const SeatlessPerClient = 8

// idleLimit is how long the disconnected session se is kept.
func (s *Server) idleLimit(se *Session) int64 {
	if !s.seated(se) {
		return min(SeatlessIdleMillis, s.limits.SessionIdleMillis)
	}
	return s.limits.SessionIdleMillis
}

// seated reports whether se sits in a room that exists.
func (s *Server) seated(se *Session) bool {
	return se.Room != "" && s.rooms[se.Room] != nil
}

// evictSeatless drops the disconnected session holding no seat that was
// seen longest ago (ties by token), if there is one.
func (s *Server) evictSeatless(ob *outbox) {
	for len(s.idle) > 0 {
		e := s.idle.pop()
		if se := s.sessions[e.tok]; se != nil && s.idleNow(se) && se.LastSeen == e.at {
			s.dropSession(e.tok, ob)
			return
		}
	}
}

// Disconnect closes connection conn. A spectator leaves its room; a seated
// session's seat is held for its reconnecting hello.
func (s *Server) Disconnect(conn string, now int64) ([]Outbound, Changes) {
	now = s.clock(now)
	ob := newOutbox()
	s.disconnect(conn, now, ob)
	return s.flush(ob, now)
}

// DropConnections disconnects every connection, as a native host does after
// restoring a state whose sockets died with the old process.
func (s *Server) DropConnections(now int64) ([]Outbound, Changes) {
	now = s.clock(now)
	ob := newOutbox()
	for _, id := range sortedKeys(s.conns) {
		s.disconnect(id, now, ob)
	}
	return s.flush(ob, now)
}

func (s *Server) disconnect(conn string, now int64, ob *outbox) {
	c := s.conns[conn]
	if c == nil {
		return
	}
	s.dropConn(conn)
	delete(ob.views, conn)
	ob.touchKey(conn)
	if c.Spectating != "" {
		if r := s.rooms[c.Spectating]; r != nil {
			r.Spectators = removeString(r.Spectators, conn)
			ob.records[c.Spectating] = true
		}
	}
	se := s.sessions[c.Session]
	if se == nil || se.Conn != conn {
		return
	}
	s.touchSession(c.Session, se, ob)
	se.Conn = ""
	se.LastSeen = now
	if se.Room == "" && se.Name == "" {
		s.dropSession(c.Session, ob)
		return
	}
	if se.Room != "" {
		s.touchRoom(se.Room, ob)
	}
	s.noteIdle(c.Session, se, ob)
}

// Tick advances the clock to now: every decision whose clock ran out gets
// its game's timeout default (an auto-pass), and sessions disconnected for
// longer than the idle limit are released. Call it at NextWake.
func (s *Server) Tick(now int64) ([]Outbound, Changes) {
	now = s.clock(now)
	ob := newOutbox()
	for _, id := range sortedKeys(s.rooms) {
		if r := s.rooms[id]; r != nil {
			s.expireClock(id, r, now, ob)
		}
	}
	s.expireSessions(now, ob)
	return s.flush(ob, now)
}

// NextWake returns the earliest instant at which Tick has work: a decision
// clock's expiry or a held session's release. ok is false when none.
func (s *Server) NextWake() (at int64, ok bool) {
	consider := func(t int64) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	for _, r := range s.rooms {
		if m := r.Match; m != nil && m.Result == nil {
			for _, d := range m.Clock {
				if d.At > 0 {
					consider(d.At)
				}
			}
		}
	}
	for _, se := range s.sessions {
		if se.Conn == "" {
			consider(se.LastSeen + s.idleLimit(se))
		}
	}
	return at, ok
}

// expireSessions releases sessions disconnected for longer than their idle
// limit (SeatlessIdleMillis for a session holding no seat), and closes live
// games none of whose humans has been connected for SessionIdleMillis
// (abandoned tables).
func (s *Server) expireSessions(now int64, ob *outbox) {
	idle := s.limits.SessionIdleMillis
	for _, id := range sortedKeys(s.rooms) {
		r := s.rooms[id]
		if r == nil || r.Match == nil || r.Match.Result != nil {
			continue
		}
		abandoned, humans := true, 0
		for _, st := range r.Seats {
			if st.Session == "" {
				continue
			}
			humans++
			se := s.sessions[st.Session]
			if se != nil && (se.Conn != "" || now-se.LastSeen < idle) {
				abandoned = false
			}
		}
		if abandoned && humans > 0 {
			s.deleteRoom(id, ob)
		}
	}
	for _, tok := range sortedKeys(s.sessions) {
		se := s.sessions[tok]
		if se.Conn != "" || now-se.LastSeen < s.idleLimit(se) {
			continue
		}
		if r := s.rooms[se.Room]; r != nil {
			if r.Match != nil && r.Match.Result == nil {
				continue // held for the live game
			}
			s.vacate(tok, se, r, ob)
		}
		s.dropSession(tok, ob)
	}
}

// outbox accumulates what one call sends.
type outbox struct {
	direct   []Outbound          // errors and catalogs, in order
	views    map[string]bool     // connections owed a current view
	rejected map[string]bool     // game views carrying action_rejected
	rooms    map[string]bool     // rooms whose every member is owed a view
	passed   map[string]passes   // what the machine did for human seats, by room
	tables   map[string]*table   // loaded positions, by room
	records  map[string]bool     // rooms whose record changed, beside rooms
	lobby    bool                // the lobby record changed
	parts    map[int]bool        // the lobby parts whose record changed
	handOffs map[string]bool     // rooms handed off
	returned map[string]*Session // sessions sent back to the lobby, by token (room mode)
	report   bool                // a new report was made
}

func newOutbox() *outbox {
	return &outbox{views: map[string]bool{}, rejected: map[string]bool{}, rooms: map[string]bool{},
		passed: map[string]passes{}, tables: map[string]*table{}, records: map[string]bool{},
		parts: map[int]bool{}, handOffs: map[string]bool{}, returned: map[string]*Session{}}
}

// changes returns the records the call changed: every room whose members
// are owed a view, every room marked besides, and the lobby.
func (ob *outbox) changes() Changes {
	for id := range ob.rooms {
		ob.records[id] = true
	}
	var ch Changes
	if len(ob.records) > 0 {
		ch.Rooms = sortedKeys(ob.records)
	}
	ch.Lobby = ob.lobby
	if len(ob.parts) > 0 {
		ch.LobbyParts = make([]int, 0, len(ob.parts))
		for p := range ob.parts {
			ch.LobbyParts = append(ch.LobbyParts, p)
		}
		sort.Ints(ch.LobbyParts)
	}
	if len(ob.handOffs) > 0 {
		ch.HandOffs = sortedKeys(ob.handOffs)
	}
	ch.Report = ob.report
	return ch
}

// touchKey notes that the connection or lobby session key changed: its
// lobby part's record.
func (ob *outbox) touchKey(key string) { ob.parts[lobbyPart(key)] = true }

// touchConn notes that connection conn changed.
func (ob *outbox) touchConn(conn string) { ob.touchKey(conn) }

// touchSession notes that session tok (se) is about to change (or just
// did): its record is its room's, or its lobby part's while it sits in
// none.
func (s *Server) touchSession(tok string, se *Session, ob *outbox) {
	if s.seated(se) {
		ob.records[se.Room] = true
	} else {
		ob.touchKey(tok)
	}
}

// acted merges what one transition of room id did for human seats.
func (ob *outbox) acted(id string, p passes) {
	for seat, sp := range p {
		if ob.passed[id] == nil {
			ob.passed[id] = passes{}
		}
		dst := ob.passed[id][seat]
		if dst == nil {
			ob.passed[id][seat] = sp
			continue
		}
		for _, ps := range sp.steps {
			dst.add(ps)
		}
	}
}

func (ob *outbox) fail(conn string, r *Rejection) {
	b, _ := canon.Marshal(LobbyErrorFrame{LobbyError: *r})
	ob.direct = append(ob.direct, Outbound{Conn: conn, Kind: KindError, Frame: b})
}

// table is a room's loaded position for one call, with its seats' actions.
type table struct {
	pos       Position
	acts      map[int][]Action // stamped with tokens
	shared    []member         // view members every receiver shares
	status    []SeatStatus     // every seat's status, with shared
	spectator []byte           // the spectator view, once built
	proj      []byte           // the buffer each view's projection is encoded into, in turn
}

func (t *table) actions(seat int) []Action {
	if a, ok := t.acts[seat]; ok {
		return a
	}
	a := stamp(seat, t.pos.Actions(seat))
	t.acts[seat] = a
	return a
}

// touchRoom owes every member of room id a view.
func (s *Server) touchRoom(id string, ob *outbox) {
	ob.rooms[id] = true
}

// phase classifies a connection.
const (
	phaseLobby = iota
	phaseGame
	phaseSpectator
)

func (s *Server) phaseOf(c *Conn) (int, *Room, int) {
	if c.Spectating != "" {
		if r := s.rooms[c.Spectating]; r != nil && r.Match != nil {
			return phaseSpectator, r, Spectator
		}
		return phaseLobby, nil, -1
	}
	se := s.sessions[c.Session]
	if se == nil || se.Room == "" {
		return phaseLobby, nil, -1
	}
	r := s.rooms[se.Room]
	if r == nil {
		return phaseLobby, nil, -1
	}
	seat := seatOf(r, c.Session)
	if r.Match != nil && seat >= 0 {
		return phaseGame, r, seat
	}
	return phaseLobby, r, seat
}

func seatOf(r *Room, tok string) int {
	for i, st := range r.Seats {
		if st.Session == tok {
			return i
		}
	}
	return -1
}

// flush turns the outbox into frames: direct frames first, then one current
// view for every connection owed one, in connection-id order.
func (s *Server) flush(ob *outbox, now int64) ([]Outbound, Changes) {
	out := ob.direct
	owed := ob.views
	for id := range ob.rooms {
		r := s.rooms[id]
		if r == nil {
			continue
		}
		for _, st := range r.Seats {
			if se := s.sessions[st.Session]; st.Session != "" && se != nil && se.Conn != "" {
				owed[se.Conn] = true
			}
		}
		for _, c := range r.Spectators {
			owed[c] = true
		}
	}
	if len(ob.rooms) > 0 || len(ob.records) > 0 {
		changed := ob.records
		for id := range ob.rooms {
			changed[id] = true
		}
		for p := range s.refreshDirectory(changed) {
			for id := range s.onPage[p] {
				if ph, r, _ := s.phaseOf(s.conns[id]); ph == phaseLobby && r == nil {
					owed[id] = true // browsing: a seated connection has no directory
				}
			}
		}
	}
	type page struct {
		dir  []byte
		more bool
	}
	pages := map[int]page{} // each page encoded once per call
	for _, id := range sortedKeys(owed) {
		c := s.conns[id]
		if c == nil {
			continue
		}
		ph, r, seat := s.phaseOf(c)
		var frame []byte
		var err error
		kind := KindLobby
		switch ph {
		case phaseLobby:
			v := s.lobbyView(id, c, nil)
			if r != nil { // seated: the room, no directory to browse
				frame = appendLobbyView(make([]byte, 0, 512), v, nil)
				break
			}
			pg, ok := pages[c.Page]
			if !ok {
				pg.dir, pg.more = s.directoryPage(c.Page)
				pages[c.Page] = pg
			}
			v.DirectoryPage, v.DirectoryMore = c.Page, pg.more
			frame = appendLobbyView(make([]byte, 0, len(pg.dir)+256), v, pg.dir)
		case phaseGame:
			kind = KindGame
			frame, err = s.gameView(r, seat, ob, now, ob.rejected[id])
		case phaseSpectator:
			kind = KindSpectator
			frame, err = s.spectatorView(r, ob)
		}
		if err != nil {
			b, _ := canon.Marshal(LobbyErrorFrame{LobbyError: Rejection{Code: CodeInternal, Reason: err.Error()}})
			out = append(out, Outbound{Conn: id, Kind: KindError, Frame: b})
			continue
		}
		out = append(out, Outbound{Conn: id, Kind: kind, Frame: frame})
	}
	s.noteReport(ob)
	// Every table left in the outbox stands for its room's committed
	// state (a transition that failed dropped its table).
	for id, t := range ob.tables {
		if r := s.rooms[id]; r != nil && r.Match != nil {
			if s.kept == nil {
				s.kept = map[string]keptPosition{}
			}
			s.kept[id] = keptPosition{r.Match.State, t.pos}
		}
	}
	return out, ob.changes()
}

// sortedKeys returns m's keys in order, as slices.Sorted(maps.Keys(m))
// does but in one allocation rather than growing the slice as it
// collects: the machine sorts its maps' keys on every call.
func sortedKeys[V any](m map[string]V) []string {
	keys := slices.AppendSeq(make([]string, 0, len(m)), maps.Keys(m))
	slices.Sort(keys)
	return keys
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
