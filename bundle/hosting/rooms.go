package hosting

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/storyloom/storyloom/bundle/displayname"
	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Connection id prefixes: a WebSocket connection lives only as long as its
// socket (and its process); an HTTP connection is a mailbox in the Store
// that outlives both.
const (
	WSConnPrefix   = "w:"
	HTTPConnPrefix = "h:"
)

// Record key layout of a room server named n (see docs/hosting.md):
//
//	rooms/n/head          {"seq":…}, advanced by every commit
//	rooms/n/lobby         the machine's state without its rooms and seated sessions
//	rooms/n/room/<id>     one room with the sessions seated in it
//	rooms/n/mail/<conn>   one HTTP connection's mailbox
const (
	keyHead  = "head"
	keyLobby = "lobby"
	keyRoom  = "room/"
	keyMail  = "mail/"
)

// MailboxDirect is how many direct frames (rejections, catalogs) an HTTP
// connection's mailbox keeps beside its latest view.
const MailboxDirect = 16

// RoomsConfig configures a room server.
type RoomsConfig struct {
	// Store persists the server. Required.
	Store Store
	// Registry holds the games the server hosts. Required.
	Registry *rooms.Registry
	// Limits bounds the machine; zero fields take rooms.DefaultLimits.
	Limits rooms.Limits
	// Clock is the host clock. Required.
	Clock Clock
	// IDs supplies session tokens, player and room ids and game seeds;
	// nil means crypto/rand.
	IDs rooms.IDSource
	// Name names the server's records ("main" when empty). One process
	// serves one name; several names are independent servers (shards).
	Name string
	// HTTPIdleMillis is how long an HTTP connection may go without a
	// request before Tick disconnects it (its seat, if any, is then held
	// as for a dropped socket). 0 means 120 000.
	HTTPIdleMillis int64
	// MaxBatch bounds the inputs of one group commit; 0 means 512.
	MaxBatch int
	// KeepWebSockets keeps the WebSocket connections recorded in the
	// store at start-up instead of disconnecting them. Only a host whose
	// sockets outlive its process sets it.
	KeepWebSockets bool
}

// Sink receives the frames addressed to one live connection, in order.
// It is called with the server's batch lock held and must not block or
// call back into the server.
type Sink func(o rooms.Outbound)

// Rooms is one room server: the pure machine, its persistence, and the
// routing of its frames to WebSocket sinks and HTTP mailboxes. It is safe
// for concurrent use.
type Rooms struct {
	cfg    RoomsConfig
	prefix string
	b      batcher[[]rooms.Input, []rooms.Outbound]

	// Guarded by b.run.
	srv   *rooms.Server
	saved map[string][]byte // key (without prefix) → last committed bytes
	vers  map[string]int64  // key (without prefix) → committed version
	boxes map[string]*mailbox
	seen  map[string]int64 // HTTP connection → last request
	lobby lobbyContent     // what the committed lobby record holds
	next  *lobbyContent    // the lobby the batch being committed writes

	smu   sync.Mutex
	sinks map[string]Sink

	// observe, when set (by tests), sees the machine and every committed
	// batch's frames before they are delivered.
	observe func(s *rooms.Server, outs [][]rooms.Outbound)

	mmu     sync.Mutex
	pub     map[string]*mailbox // published mailboxes, read by pollers
	waiters map[string]chan struct{}
}

// mailbox is an HTTP connection's persisted frames: its latest view and
// the last MailboxDirect direct frames, each numbered by Seq.
type mailbox struct {
	Seq    int64       `json:"seq"`
	View   *MailFrame  `json:"view,omitempty"`
	Direct []MailFrame `json:"direct,omitempty"`
	Closed bool        `json:"closed,omitempty"`
}

// MailFrame is one frame as the HTTP API carries it: its number in the
// connection's mailbox, its kind (rooms.Kind*) and the frame itself.
type MailFrame struct {
	Seq   int64           `json:"seq"`
	Kind  string          `json:"kind"`
	Frame json.RawMessage `json:"frame"`
}

type headRecord struct {
	Seq int64 `json:"seq"`
}

// lobbyContent is what the lobby record holds, as values, so that a batch
// finds out whether the lobby changed by comparing them rather than by
// encoding the record (which holds every connection) each time. It also
// counts the rooms, so that a batch looks for created and deleted rooms
// only when there are some.
type lobbyContent struct {
	known    bool // false after a load: encode and compare the bytes
	limits   rooms.Limits
	roomSeq  int64
	rooms    int
	sessions map[string]rooms.Session // sessions not seated in a room
	conns    map[string]rooms.Conn    // every connection, rate counters cleared
}

// NewRooms loads (or creates) the server cfg.Name from cfg.Store. Unless
// cfg.KeepWebSockets, the WebSocket connections it recorded died with the
// process that held them and are disconnected now, so their seats are
// held for a reconnecting hello.
func NewRooms(ctx context.Context, cfg RoomsConfig) (*Rooms, error) {
	if cfg.Store == nil || cfg.Registry == nil || cfg.Clock == nil {
		return nil, errors.New("hosting: rooms need a Store, a Registry and a Clock")
	}
	if cfg.IDs == nil {
		cfg.IDs = RandomIDs{}
	}
	// The product's one name policy (docs/hosting.md).
	cfg.Registry.SetNamePolicy(displayname.Check)
	if cfg.Name == "" {
		cfg.Name = "main"
	}
	if cfg.HTTPIdleMillis <= 0 {
		cfg.HTTPIdleMillis = 120_000
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 512
	}
	h := &Rooms{cfg: cfg, prefix: "rooms/" + cfg.Name + "/", sinks: map[string]Sink{},
		pub: map[string]*mailbox{}, waiters: map[string]chan struct{}{}}
	h.b.max = cfg.MaxBatch
	h.b.lock()
	err := h.load(ctx)
	var dead []rooms.Input
	if err == nil && !cfg.KeepWebSockets {
		for _, id := range sortedKeys(h.srv.Conns) {
			if strings.HasPrefix(id, WSConnPrefix) {
				dead = append(dead, rooms.Input{Kind: rooms.InputDisconnect, Conn: id})
			}
		}
	}
	h.b.unlock()
	if err != nil {
		return nil, err
	}
	if len(dead) > 0 {
		if _, err := h.Do(ctx, dead); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// RandomIDs is an IDSource backed by crypto/rand: 24 hex digits.
type RandomIDs struct{}

// NewID returns a fresh random id.
func (RandomIDs) NewID() string { return randomHex(12) }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("hosting: crypto/rand: %v", err))
	}
	return hex.EncodeToString(b)
}

// NewConnID returns a fresh connection id with prefix (WSConnPrefix or
// HTTPConnPrefix).
func NewConnID(prefix string) string { return prefix + randomHex(16) }

// Attach registers sink for connection conn: every frame addressed to conn
// from now on is passed to it. Attach before the connection's Connect.
func (h *Rooms) Attach(conn string, sink Sink) {
	h.smu.Lock()
	h.sinks[conn] = sink
	h.smu.Unlock()
}

// Detach removes conn's sink.
func (h *Rooms) Detach(conn string) {
	h.smu.Lock()
	delete(h.sinks, conn)
	h.smu.Unlock()
}

// Do applies inputs, in order, as part of the next group commit, and
// returns every frame they produced (for every connection). The inputs'
// Now is set from the host clock when they are applied. Frames are
// delivered to sinks and mailboxes only after the commit succeeded; on an
// error nothing was committed and nothing delivered.
func (h *Rooms) Do(ctx context.Context, inputs []rooms.Input) ([]rooms.Outbound, error) {
	return h.b.do(inputs, func(batch []*job[[]rooms.Input, []rooms.Outbound]) { h.runBatch(ctx, batch) })
}

// Tick drives the machine's clock: decisions whose deadline passed get
// their timeout default, sessions idle past the limit are released, and
// HTTP connections idle past HTTPIdleMillis are disconnected. A host calls
// it on a timer (RunTicker); it commits nothing when nothing is due.
func (h *Rooms) Tick(ctx context.Context) error {
	_, err := h.Do(ctx, []rooms.Input{{Kind: rooms.InputTick}})
	return err
}

// NextWake returns the earliest instant at which Tick has machine work
// (ok false when none). HTTP idleness is checked on every Tick besides.
func (h *Rooms) NextWake() (int64, bool) {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return 0, false
	}
	return h.srv.NextWake()
}

func (h *Rooms) runBatch(ctx context.Context, batch []*job[[]rooms.Input, []rooms.Outbound]) {
	var err error
	for attempt := range commitAttempts {
		backOff(ctx, attempt)
		if h.srv != nil {
			// Another process may have committed since: apply nothing to
			// a stale state.
			hr, herr := h.cfg.Store.Load(ctx, h.prefix+keyHead)
			if herr != nil {
				err = herr
				break
			}
			if hr.Version != h.vers[keyHead] {
				h.srv = nil
			}
		}
		if h.srv == nil {
			if err = h.load(ctx); err != nil {
				break
			}
		}
		var outs [][]rooms.Outbound
		var touched map[string]bool
		var cand *lobbyCandidates
		outs, touched, cand = h.applyBatch(batch)
		var writes []Write
		var boxes map[string]*mailbox
		writes, boxes, err = h.writes(touched, cand, outs)
		if err == nil && len(writes) > 0 {
			err = h.cfg.Store.Commit(ctx, writes)
		}
		if err == nil {
			h.committed(writes, boxes)
			if h.observe != nil {
				h.observe(h.srv, outs)
			}
			h.deliver(outs, boxes)
			for i, j := range batch {
				j.out = outs[i]
			}
			return
		}
		h.srv = nil // the memory is ahead of the store: reload
		if !errors.Is(err, ErrConflict) {
			break
		}
	}
	for _, j := range batch {
		j.err = fmt.Errorf("hosting: rooms: %w", err)
	}
}

// applyBatch applies every job's inputs and returns their frames, the
// ids of the rooms they may have changed, and the connections and
// sessions whose lobby entries they may have changed.
func (h *Rooms) applyBatch(batch []*job[[]rooms.Input, []rooms.Outbound]) ([][]rooms.Outbound, map[string]bool, *lobbyCandidates) {
	s := h.srv
	touched := map[string]bool{}
	cand := &lobbyCandidates{conns: map[string]bool{}, sessions: map[string]bool{}}
	outs := make([][]rooms.Outbound, len(batch))
	for i, j := range batch {
		for _, in := range j.in {
			in.Now = h.cfg.Clock()
			if in.Kind == rooms.InputTick {
				cand.all = true // expiries and idle disconnects reach anyone
				outs[i] = append(outs[i], h.tick(in.Now, touched)...)
				continue
			}
			if strings.HasPrefix(in.Conn, HTTPConnPrefix) {
				h.seen[in.Conn] = in.Now
			}
			related(s, in, touched)
			cand.note(s, in)
			out := s.Apply(in, h.cfg.IDs)
			related(s, in, touched)
			cand.note(s, in)
			for _, o := range out {
				relatedConn(s, o.Conn, touched)
				cand.conn(s, o.Conn)
			}
			outs[i] = append(outs[i], out...)
		}
	}
	return outs, touched, cand
}

// lobbyCandidates are the connections and sessions whose entries in the
// lobby record a batch may have changed: those of its inputs (before and
// after), a session a hello names and that session's old connection, and
// every receiver of a frame. all means any (a tick).
type lobbyCandidates struct {
	conns, sessions map[string]bool
	all             bool
}

// note adds the candidates of input in, in the machine as it is now.
func (lc *lobbyCandidates) note(s *rooms.Server, in rooms.Input) {
	lc.conn(s, in.Conn)
	// Every hello frame contains the word; decode only those.
	if in.Kind != rooms.InputFrame || len(in.Frame) > rooms.MaxFrameBytes || !bytes.Contains(in.Frame, []byte("hello")) {
		return
	}
	if cmd, err := rooms.DecodeCommand(in.Frame); err == nil {
		if hello, ok := cmd.(rooms.Hello); ok && hello.Token != "" {
			lc.sessions[hello.Token] = true
			if se := s.Sessions[hello.Token]; se != nil && se.Conn != "" {
				lc.conn(s, se.Conn)
			}
		}
	}
}

// conn adds connection id and its session.
func (lc *lobbyCandidates) conn(s *rooms.Server, id string) {
	lc.conns[id] = true
	if c := s.Conns[id]; c != nil {
		lc.sessions[c.Session] = true
	}
}

// tick runs the machine's Tick when it is due and disconnects idle HTTP
// connections.
func (h *Rooms) tick(now int64, touched map[string]bool) []rooms.Outbound {
	s := h.srv
	var out []rooms.Outbound
	for _, id := range sortedKeys(s.Conns) {
		if !strings.HasPrefix(id, HTTPConnPrefix) {
			continue
		}
		last, ok := h.seen[id]
		if !ok {
			h.seen[id] = now // first seen by this process
			continue
		}
		if now-last >= h.cfg.HTTPIdleMillis {
			in := rooms.Input{Kind: rooms.InputDisconnect, Conn: id, Now: now}
			related(s, in, touched)
			out = append(out, s.Apply(in, h.cfg.IDs)...)
			delete(h.seen, id)
		}
	}
	for id, last := range h.seen {
		if s.Conns[id] == nil && now-last >= h.cfg.HTTPIdleMillis {
			delete(h.seen, id) // gone: its mailbox is dropped with this batch
		}
	}
	if at, ok := s.NextWake(); ok && at <= now {
		in := rooms.Input{Kind: rooms.InputTick, Now: now}
		related(s, in, touched)
		o := s.Apply(in, h.cfg.IDs)
		for _, x := range o {
			relatedConn(s, x.Conn, touched)
		}
		out = append(out, o...)
	}
	return out
}

// related adds to set the rooms input in may change: the rooms of its
// connection and session, of a session a hello reclaims (and of that
// session's old connection), a room a command names, and for a tick every
// room with a due deadline or an expiring session.
func related(s *rooms.Server, in rooms.Input, set map[string]bool) {
	switch in.Kind {
	case rooms.InputConnect, rooms.InputDisconnect:
		relatedConn(s, in.Conn, set)
	case rooms.InputFrame:
		relatedConn(s, in.Conn, set)
		if len(in.Frame) > rooms.MaxFrameBytes {
			return
		}
		cmd, err := rooms.DecodeCommand(in.Frame)
		if err != nil {
			return
		}
		switch c := cmd.(type) {
		case rooms.Hello:
			if se := s.Sessions[c.Token]; se != nil {
				if se.Room != "" {
					set[se.Room] = true
				}
				if se.Conn != "" {
					relatedConn(s, se.Conn, set)
				}
			}
		case rooms.JoinRoom:
			set[c.RoomID] = true
		case rooms.SpectateRoom:
			set[c.RoomID] = true
		}
	case rooms.InputTick:
		for id, r := range s.Rooms {
			if m := r.Match; m != nil && m.Result == nil {
				for _, d := range m.Clock {
					if d.At > 0 && d.At <= in.Now {
						set[id] = true
					}
				}
			}
		}
		for _, se := range s.Sessions {
			if se.Conn == "" && se.Room != "" && in.Now-se.LastSeen >= s.Limits.SessionIdleMillis {
				set[se.Room] = true
			}
		}
	}
}

func relatedConn(s *rooms.Server, conn string, set map[string]bool) {
	c := s.Conns[conn]
	if c == nil {
		return
	}
	if c.Spectating != "" {
		set[c.Spectating] = true
	}
	if se := s.Sessions[c.Session]; se != nil && se.Room != "" {
		set[se.Room] = true
	}
}

// writes returns the record writes of the batch: the head, the lobby if it
// changed, every touched, new or deleted room whose bytes changed, and the
// mailboxes of HTTP connections that received frames.
func (h *Rooms) writes(touched map[string]bool, cand *lobbyCandidates, outs [][]rooms.Outbound) ([]Write, map[string]*mailbox, error) {
	s := h.srv
	var ws []Write
	put := func(key string, data []byte) {
		if data != nil && bytes.Equal(h.saved[key], data) {
			return
		}
		if data == nil && h.vers[key] == 0 {
			return
		}
		ws = append(ws, Write{Key: h.prefix + key, Data: data, Version: h.vers[key]})
	}
	lob := &h.lobby
	full := cand.all || !lob.known || s.RoomSeq != lob.roomSeq || len(s.Rooms) != lob.rooms
	if full {
		// Rooms were created or deleted (or anything may have moved).
		for id := range s.Rooms {
			if _, ok := h.saved[keyRoom+id]; !ok {
				touched[id] = true
			}
		}
		for key := range h.saved {
			if id, ok := strings.CutPrefix(key, keyRoom); ok && s.Rooms[id] == nil {
				put(key, nil)
			}
		}
	}
	changed := !lob.known || s.RoomSeq != lob.roomSeq || s.Limits != lob.limits || len(s.Conns) != len(lob.conns)
	if !changed && full {
		changed = h.lobbyDiffers(sortedKeys(s.Conns), sortedKeys(s.Sessions), true)
	} else if !changed {
		changed = h.lobbyDiffers(sortedKeys(cand.conns), sortedKeys(cand.sessions), false)
	}
	// The sessions seated in each touched room.
	seated := map[string]map[string]*rooms.Session{}
	for id := range touched {
		r := s.Rooms[id]
		if r == nil {
			continue
		}
		for _, st := range r.Seats {
			if se := s.Sessions[st.Session]; st.Session != "" && se != nil && se.Room == id {
				if seated[id] == nil {
					seated[id] = map[string]*rooms.Session{}
				}
				seated[id][st.Session] = se
			}
		}
	}
	for _, id := range sortedKeys(touched) {
		r := s.Rooms[id]
		if r == nil {
			continue
		}
		put(keyRoom+id, appendRoomRecord(make([]byte, 0, 2*len(h.saved[keyRoom+id])+256), r, seated[id]))
	}
	h.next = nil
	if changed {
		next := h.lobbyNow()
		lobby, err := h.lobbyBytes(next)
		if err != nil {
			return nil, nil, err
		}
		put(keyLobby, lobby)
		h.next = next
	}

	// Mailboxes.
	boxes := map[string]*mailbox{}
	for _, out := range outs {
		for _, o := range out {
			if !strings.HasPrefix(o.Conn, HTTPConnPrefix) {
				continue
			}
			mb := boxes[o.Conn]
			if mb == nil {
				mb = h.boxes[o.Conn].clone()
				boxes[o.Conn] = mb
			}
			mb.add(o)
		}
	}
	// Mailboxes of HTTP connections that are gone and idle.
	for id := range h.boxes {
		if s.Conns[id] == nil && boxes[id] == nil {
			if _, live := h.seen[id]; !live {
				boxes[id] = nil
			}
		}
	}
	for _, id := range sortedKeys(boxes) {
		if mb := boxes[id]; mb == nil {
			put(keyMail+id, nil)
		} else {
			b, err := json.Marshal(mb)
			if err != nil {
				return nil, nil, err
			}
			put(keyMail+id, b)
		}
	}
	if len(ws) == 0 {
		return nil, boxes, nil
	}
	head, _ := json.Marshal(headRecord{Seq: h.vers[keyHead] + 1})
	ws = append(ws, Write{Key: h.prefix + keyHead, Data: head, Version: h.vers[keyHead]})
	return ws, boxes, nil
}

// lobbyDiffers reports whether the lobby entries of the given connections
// and sessions differ from the committed ones; all says they are every
// connection and session, so that committed entries no longer among them
// count as changes too.
func (h *Rooms) lobbyDiffers(conns, sessions []string, all bool) bool {
	s, lob := h.srv, &h.lobby
	inLobby := 0
	for _, tok := range sessions {
		se := s.Sessions[tok]
		now := se != nil && (se.Room == "" || s.Rooms[se.Room] == nil)
		old, was := lob.sessions[tok]
		if now != was || now && old != *se {
			return true
		}
		if now {
			inLobby++
		}
	}
	if all && inLobby != len(lob.sessions) {
		return true
	}
	for _, id := range conns {
		c := s.Conns[id]
		old, was := lob.conns[id]
		if (c != nil) != was || c != nil && (old.Session != c.Session || old.Spectating != c.Spectating) {
			return true
		}
	}
	return false
}

// lobbyNow returns the lobby's content in the machine now.
func (h *Rooms) lobbyNow() *lobbyContent {
	s := h.srv
	lob := &lobbyContent{known: true, limits: s.Limits, roomSeq: s.RoomSeq, rooms: len(s.Rooms),
		sessions: map[string]rooms.Session{}, conns: make(map[string]rooms.Conn, len(s.Conns))}
	for tok, se := range s.Sessions {
		if se.Room == "" || s.Rooms[se.Room] == nil {
			lob.sessions[tok] = *se
		}
	}
	for id, c := range s.Conns {
		cc := *c
		cc.Window, cc.Count = 0, 0
		lob.conns[id] = cc
	}
	return lob
}

// lobbyBytes encodes the machine's state without rooms and seated
// sessions, with the clock and the rate-limit counters left out (neither
// matters after a restart).
func (h *Rooms) lobbyBytes(lob *lobbyContent) ([]byte, error) {
	out := *h.srv
	out.Now = 0
	out.Rooms = map[string]*rooms.Room{}
	out.Sessions = make(map[string]*rooms.Session, len(lob.sessions))
	for tok, se := range lob.sessions {
		out.Sessions[tok] = &se
	}
	out.Conns = make(map[string]*rooms.Conn, len(lob.conns))
	for id, c := range lob.conns {
		out.Conns[id] = &c
	}
	return out.Marshal()
}

// appendRoomRecord appends a room's record, {"room":…,"sessions":{…}}:
// the room and the sessions seated in it, in canonical JSON.
func appendRoomRecord(b []byte, r *rooms.Room, sessions map[string]*rooms.Session) []byte {
	b = append(b, `{"room":`...)
	b = r.AppendCanonical(b)
	if len(sessions) > 0 {
		b = append(b, `,"sessions":{`...)
		for i, tok := range sortedKeys(sessions) {
			if i > 0 {
				b = append(b, ',')
			}
			b = canon.AppendString(b, tok)
			b = append(b, ':')
			b = sessions[tok].AppendCanonical(b)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// committed records what a successful commit wrote.
func (h *Rooms) committed(writes []Write, boxes map[string]*mailbox) {
	for _, w := range writes {
		key := strings.TrimPrefix(w.Key, h.prefix)
		if w.Data == nil {
			delete(h.saved, key)
			delete(h.vers, key)
			continue
		}
		h.saved[key] = w.Data
		h.vers[key] = w.Version + 1
	}
	if h.next != nil {
		h.lobby, h.next = *h.next, nil
	}
	h.lobby.rooms = len(h.srv.Rooms)
	for id, mb := range boxes {
		if mb == nil {
			delete(h.boxes, id)
		} else {
			h.boxes[id] = mb
		}
	}
}

// deliver passes frames to sinks and publishes mailboxes to pollers.
func (h *Rooms) deliver(outs [][]rooms.Outbound, boxes map[string]*mailbox) {
	h.smu.Lock()
	for _, out := range outs {
		for _, o := range out {
			if sink := h.sinks[o.Conn]; sink != nil {
				sink(o)
			}
		}
	}
	h.smu.Unlock()
	if len(boxes) == 0 {
		return
	}
	h.mmu.Lock()
	for id, mb := range boxes {
		if mb == nil {
			delete(h.pub, id)
		} else {
			h.pub[id] = mb
		}
		if w := h.waiters[id]; w != nil {
			close(w)
			delete(h.waiters, id)
		}
	}
	h.mmu.Unlock()
}

// load reads the whole server from the store.
func (h *Rooms) load(ctx context.Context) error {
	recs, err := h.cfg.Store.List(ctx, h.prefix)
	if err != nil {
		return fmt.Errorf("hosting: rooms: load: %w", err)
	}
	saved, vers := map[string][]byte{}, map[string]int64{}
	boxes := map[string]*mailbox{}
	var lobby []byte
	roomsRaw := map[string]json.RawMessage{}
	sessions := map[string]json.RawMessage{}
	for _, r := range recs {
		key := strings.TrimPrefix(r.Key, h.prefix)
		saved[key], vers[key] = r.Data, r.Version
		switch {
		case key == keyLobby:
			lobby = r.Data
		case strings.HasPrefix(key, keyRoom):
			var rr struct {
				Room     json.RawMessage            `json:"room"`
				Sessions map[string]json.RawMessage `json:"sessions"`
			}
			if err := json.Unmarshal(r.Data, &rr); err != nil {
				return fmt.Errorf("hosting: rooms: record %s: %w", key, err)
			}
			roomsRaw[strings.TrimPrefix(key, keyRoom)] = rr.Room
			for tok, se := range rr.Sessions {
				sessions[tok] = se
			}
		case strings.HasPrefix(key, keyMail):
			var mb mailbox
			if err := json.Unmarshal(r.Data, &mb); err != nil {
				return fmt.Errorf("hosting: rooms: record %s: %w", key, err)
			}
			boxes[strings.TrimPrefix(key, keyMail)] = &mb
		}
	}
	var srv *rooms.Server
	if lobby == nil {
		srv = rooms.New(h.cfg.Registry, h.cfg.Limits)
	} else {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(lobby, &top); err != nil {
			return fmt.Errorf("hosting: rooms: lobby: %w", err)
		}
		var lobSessions map[string]json.RawMessage
		if err := json.Unmarshal(top["sessions"], &lobSessions); err != nil {
			return fmt.Errorf("hosting: rooms: lobby sessions: %w", err)
		}
		for tok, se := range lobSessions {
			sessions[tok] = se
		}
		top["sessions"], _ = json.Marshal(sessions)
		top["rooms"], _ = json.Marshal(roomsRaw)
		whole, _ := json.Marshal(top)
		if srv, err = rooms.Restore(whole, h.cfg.Registry); err != nil {
			return fmt.Errorf("hosting: %w", err)
		}
		srv.Limits = rooms.New(h.cfg.Registry, h.cfg.Limits).Limits
	}
	h.srv, h.saved, h.vers, h.boxes = srv, saved, vers, boxes
	h.lobby, h.next = lobbyContent{}, nil
	if h.seen == nil {
		h.seen = map[string]int64{}
	}
	h.mmu.Lock()
	h.pub = map[string]*mailbox{}
	for id, mb := range boxes {
		h.pub[id] = mb
	}
	h.mmu.Unlock()
	return nil
}

func (mb *mailbox) clone() *mailbox {
	if mb == nil {
		return &mailbox{}
	}
	c := *mb
	c.Direct = append([]MailFrame(nil), mb.Direct...)
	return &c
}

// add files one frame: a view replaces the latest view, a direct frame
// joins the bounded list.
func (mb *mailbox) add(o rooms.Outbound) {
	mb.Seq++
	f := MailFrame{Seq: mb.Seq, Kind: o.Kind, Frame: append(json.RawMessage(nil), o.Frame...)}
	switch o.Kind {
	case rooms.KindLobby, rooms.KindGame, rooms.KindSpectator:
		mb.View = &f
	default:
		mb.Direct = append(mb.Direct, f)
		if over := len(mb.Direct) - MailboxDirect; over > 0 {
			mb.Direct = append([]MailFrame(nil), mb.Direct[over:]...)
		}
	}
	if o.Close {
		mb.Closed = true
	}
}

// since returns the frames numbered after seq, in order.
func (mb *mailbox) since(seq int64) []MailFrame {
	var out []MailFrame
	for _, f := range mb.Direct {
		if f.Seq > seq {
			out = append(out, f)
		}
	}
	if mb.View != nil && mb.View.Seq > seq {
		out = append(out, *mb.View)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// mailboxOf returns the published mailbox of conn (nil when none) and a
// channel that is closed when it next changes.
func (h *Rooms) mailboxOf(conn string) (*mailbox, <-chan struct{}) {
	h.mmu.Lock()
	defer h.mmu.Unlock()
	w := h.waiters[conn]
	if w == nil {
		w = make(chan struct{})
		h.waiters[conn] = w
	}
	return h.pub[conn], w
}

// connOf returns the HTTP connection currently holding session tok, if
// any.
func (h *Rooms) connOf(tok string) string {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return ""
	}
	if se := h.srv.Sessions[tok]; se != nil && strings.HasPrefix(se.Conn, HTTPConnPrefix) {
		return se.Conn
	}
	return ""
}

// sessionOf returns the session token connection conn holds now.
func (h *Rooms) sessionOf(conn string) string {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return ""
	}
	if c := h.srv.Conns[conn]; c != nil {
		return c.Session
	}
	return ""
}

// Snapshot returns the canonical encoding of the whole machine, as
// rooms.Server.Marshal gives it.
func (h *Rooms) Snapshot() ([]byte, error) {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return nil, errors.New("hosting: rooms: not loaded")
	}
	return h.srv.Marshal()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
