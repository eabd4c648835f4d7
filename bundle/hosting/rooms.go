package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/storyloom/storyloom/bundle/displayname"
	"github.com/storyloom/storyloom/bundle/randomid"
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
//	rooms/n/lobby         the machine's limits and room counter
//	rooms/n/lobby/<part>  the connections and lobby sessions of one part
//	rooms/n/room/<id>     one room with the sessions seated in it
//	rooms/n/mail/<conn>   one HTTP connection's mailbox
const (
	keyHead  = "head"
	keyLobby = "lobby"
	keyPart  = "lobby/"
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
	// KeepWebSocket, when set, chooses instead which recorded WebSocket
	// connections are still open (a Durable Object's hibernated sockets
	// outlive its instance); the others are disconnected.
	KeepWebSocket func(conn string) bool
	// SessionsPerMinute bounds the new connections (each a new session)
	// one client address may open in a minute of the host clock; more
	// are refused 429 rate_limited. 0 means DefaultSessionsPerMinute, a
	// negative value no limit.
	SessionsPerMinute int
	// SessionRate counts new connections per client address per minute;
	// nil counts in this process's memory.
	SessionRate RateCounter
	// ClientAddr names a request's client address, for SessionsPerMinute
	// and for rooms.SeatlessPerClient; nil takes the IP of RemoteAddr.
	ClientAddr func(*http.Request) string
	// HandOff makes this server a lobby that hands every game it starts
	// to a server of its own (rooms.Server.SetHandOff; the edge worker's
	// one Durable Object per room): the host delivers HandOffs to the
	// rooms' servers (Adopt) and their reports back (rooms.InputReport).
	HandOff bool
	// Room makes this server the one room Room's server, for a lobby in
	// hand-off mode (rooms.Server.SetRoomHost): it holds nothing until
	// Adopt gives it the room, and the host delivers its Report to the
	// lobby.
	Room string
	// SoleWriter says that nothing but this server writes its records (a
	// Durable Object's storage, which only its object can reach): a batch
	// is then applied to the state in memory without first reading the
	// head record to see whether another process committed.
	SoleWriter bool
	// DeliveryRetryMillis is how long a pending hand-off or report waits
	// before NextWake calls for its delivery again; 0 means
	// DeliveryRetryMillis. Only a test sets it (the edge worker's
	// eviction test lets a room's object go idle that long).
	DeliveryRetryMillis int64
}

// DefaultSessionsPerMinute is RoomsConfig.SessionsPerMinute's default:
// a page that reconnects now and then never meets it, a loop that opens
// sessions to fill the table is slowed to one a second.
const DefaultSessionsPerMinute = 60

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
	stale bool              // the stored lobby record predates the lobby parts: rewrite them all
	saved map[string][]byte // key (without prefix) → last committed bytes
	vers  map[string]int64  // key (without prefix) → committed version
	boxes map[string]*mailbox
	seen  map[string]int64 // HTTP connection → last request
	retry int64            // when a pending hand-off or report is due again (0: none pending)

	smu   sync.Mutex
	sinks map[string]Sink

	// observe, when set (by tests), sees the machine's encoded state and
	// every committed batch's frames before they are delivered.
	observe func(state []byte, outs [][]rooms.Outbound)
	// decoded, when set (by tests), is told the key of every record this
	// host decodes. The host decodes no frame: the machine does, once.
	decoded func(key string)

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
	Move   string      `json:"move,omitempty"` // where the connection was moved (rooms.KindMove)
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
	if cfg.DeliveryRetryMillis <= 0 {
		cfg.DeliveryRetryMillis = DeliveryRetryMillis
	}
	if cfg.SessionsPerMinute == 0 {
		cfg.SessionsPerMinute = DefaultSessionsPerMinute
	}
	if cfg.SessionRate == nil {
		cfg.SessionRate = &memoryRate{}
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr = remoteHost
	}
	h := &Rooms{cfg: cfg, prefix: "rooms/" + cfg.Name + "/", sinks: map[string]Sink{},
		pub: map[string]*mailbox{}, waiters: map[string]chan struct{}{}}
	h.b.max = cfg.MaxBatch
	h.b.lock()
	err := h.load(ctx)
	var dead []rooms.Input
	if err == nil && (!cfg.KeepWebSockets || cfg.KeepWebSocket != nil) {
		for _, id := range h.srv.Connections() {
			if strings.HasPrefix(id, WSConnPrefix) && (cfg.KeepWebSocket == nil || !cfg.KeepWebSocket(id)) {
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
func (RandomIDs) NewID() string { return randomid.Hex(12) }

// NewConnID returns a fresh connection id with prefix (WSConnPrefix or
// HTTPConnPrefix).
func NewConnID(prefix string) string { return prefix + randomid.Hex(16) }

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

// DeliveryRetryMillis is how long a hand-off or report waits for its
// delivery before NextWake calls for it again, unless
// RoomsConfig.DeliveryRetryMillis says otherwise: a host delivers what is
// pending (HandOffs, Report) after every event, its Tick included, and a
// delivery that fails is tried again on the wake.
const DeliveryRetryMillis = 1000

// NextWake returns the earliest instant at which Tick has work: a
// deadline or a session release of the machine, an HTTP connection's
// idle limit, or the retry of a pending delivery (DeliveryRetryMillis,
// or RoomsConfig's, after it became pending, or after the Tick that found it due); ok is
// false when none.
func (h *Rooms) NextWake() (int64, bool) {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return 0, false
	}
	at, ok := h.srv.NextWake()
	if h.retry != 0 && (!ok || h.retry < at) {
		at, ok = h.retry, true
	}
	for _, id := range h.srv.Connections() {
		if !strings.HasPrefix(id, HTTPConnPrefix) {
			continue
		}
		last, seen := h.seen[id]
		if !seen {
			last = h.cfg.Clock() // first seen by the next Tick
		}
		if t := last + h.cfg.HTTPIdleMillis; !ok || t < at {
			at, ok = t, true
		}
	}
	return at, ok
}

func (h *Rooms) runBatch(ctx context.Context, batch []*job[[]rooms.Input, []rooms.Outbound]) {
	var err error
	for attempt := range commitAttempts {
		backOff(ctx, attempt)
		if h.srv != nil && !h.cfg.SoleWriter {
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
		outs, changed := h.applyBatch(batch)
		var writes []Write
		var boxes map[string]*mailbox
		writes, boxes, err = h.writes(changed, outs)
		if err == nil && len(writes) > 0 {
			err = h.cfg.Store.Commit(ctx, writes)
		}
		if err == nil {
			h.committed(writes, boxes)
			h.noteDelivery(h.cfg.Clock())
			h.stale = false
			if h.observe != nil {
				state, _ := h.srv.Marshal()
				h.observe(state, outs)
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

// changed is what a batch changed of the machine's records, and the
// HTTP connections it opened that the machine did not keep (a full
// server, a vacant room's server, a session that moved on at once).
type changed struct {
	rooms  map[string]bool
	lobby  bool
	parts  map[int]bool
	unkept map[string]bool
}

func (c *changed) add(ch rooms.Changes) {
	for _, id := range ch.Rooms {
		c.rooms[id] = true
	}
	c.lobby = c.lobby || ch.Lobby
	for _, p := range ch.LobbyParts {
		c.parts[p] = true
	}
}

// applyBatch applies every job's inputs and returns their frames and the
// records they changed.
func (h *Rooms) applyBatch(batch []*job[[]rooms.Input, []rooms.Outbound]) ([][]rooms.Outbound, *changed) {
	ch := &changed{rooms: map[string]bool{}, parts: map[int]bool{}, unkept: map[string]bool{}}
	if h.stale {
		ch.lobby = true
		for p := range rooms.LobbyParts {
			ch.parts[p] = true
		}
	}
	outs := make([][]rooms.Outbound, len(batch))
	for i, j := range batch {
		for _, in := range j.in {
			in.Now = h.cfg.Clock()
			if in.Kind == rooms.InputTick {
				outs[i] = append(outs[i], h.tick(in.Now, ch)...)
				continue
			}
			if strings.HasPrefix(in.Conn, HTTPConnPrefix) {
				h.seen[in.Conn] = in.Now
				if in.Kind == rooms.InputConnect {
					ch.unkept[in.Conn] = true
				}
			}
			out, c := h.srv.Apply(in, h.cfg.IDs)
			ch.add(c)
			outs[i] = append(outs[i], out...)
		}
	}
	for id := range ch.unkept {
		if h.srv.SessionOf(id) != "" {
			delete(ch.unkept, id)
		} else {
			delete(h.seen, id) // nothing to idle out
		}
	}
	return outs, ch
}

// tick runs the machine's Tick when it is due and disconnects idle HTTP
// connections. A pending delivery found due is given its next retry: the
// host delivers it after this Tick, and should that fail, then.
func (h *Rooms) tick(now int64, ch *changed) []rooms.Outbound {
	s := h.srv
	if h.retry != 0 && h.retry <= now {
		h.retry = now + h.cfg.DeliveryRetryMillis
	}
	var out []rooms.Outbound
	for _, id := range s.Connections() {
		if !strings.HasPrefix(id, HTTPConnPrefix) {
			continue
		}
		last, ok := h.seen[id]
		if !ok {
			h.seen[id] = now // first seen by this process
			continue
		}
		if now-last >= h.cfg.HTTPIdleMillis {
			o, c := s.Disconnect(id, now)
			ch.add(c)
			out = append(out, o...)
			delete(h.seen, id)
		}
	}
	for id, last := range h.seen {
		if s.SessionOf(id) == "" && now-last >= h.cfg.HTTPIdleMillis {
			delete(h.seen, id) // gone: its mailbox is dropped with this batch
		}
	}
	if at, ok := s.NextWake(); ok && at <= now {
		o, c := s.Tick(now)
		ch.add(c)
		out = append(out, o...)
	}
	return out
}

// writes returns the record writes of the batch: the head, the lobby and
// every room the machine reports changed (a deleted room's record is
// removed), each only when its bytes differ from the committed ones, and
// the mailboxes of HTTP connections that received frames.
func (h *Rooms) writes(ch *changed, outs [][]rooms.Outbound) ([]Write, map[string]*mailbox, error) {
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
	for _, id := range slices.Sorted(maps.Keys(ch.rooms)) {
		key := keyRoom + id
		if rec, ok := s.AppendRoomRecord(make([]byte, 0, 2*len(h.saved[key])+256), id); ok {
			put(key, rec)
		} else {
			put(key, nil)
		}
	}
	if ch.lobby {
		put(keyLobby, s.AppendLobbyRecord(make([]byte, 0, len(h.saved[keyLobby])+256)))
	}
	if len(ch.parts) > 0 {
		parts := make([]int, 0, len(ch.parts))
		for p := range ch.parts {
			parts = append(parts, p)
		}
		sort.Ints(parts)
		recs := s.AppendLobbyParts(parts)
		for _, p := range parts {
			put(partKey(p), recs[p])
		}
	}

	// Mailboxes. A connection the batch opened and the machine did not
	// keep gets none: no later request can reach it, and the request
	// that opened it answers its frames itself.
	boxes := map[string]*mailbox{}
	for _, out := range outs {
		for _, o := range out {
			if !strings.HasPrefix(o.Conn, HTTPConnPrefix) || ch.unkept[o.Conn] {
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
		if s.SessionOf(id) == "" && boxes[id] == nil {
			if _, live := h.seen[id]; !live {
				boxes[id] = nil
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(boxes)) {
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

// load reads the whole server from the store, decoding each record once.
func (h *Rooms) load(ctx context.Context) error {
	recs, err := h.cfg.Store.List(ctx, h.prefix)
	if err != nil {
		return fmt.Errorf("hosting: rooms: load: %w", err)
	}
	saved, vers := map[string][]byte{}, map[string]int64{}
	boxes := map[string]*mailbox{}
	var lobby []byte
	var parts [][]byte
	roomRecs := map[string][]byte{}
	for _, r := range recs {
		key := strings.TrimPrefix(r.Key, h.prefix)
		saved[key], vers[key] = r.Data, r.Version
		switch {
		case key == keyLobby:
			lobby = r.Data
			h.noteDecode(key)
		case strings.HasPrefix(key, keyPart):
			parts = append(parts, r.Data)
			h.noteDecode(key)
		case strings.HasPrefix(key, keyRoom):
			roomRecs[strings.TrimPrefix(key, keyRoom)] = r.Data
			h.noteDecode(key)
		case strings.HasPrefix(key, keyMail):
			var mb mailbox
			h.noteDecode(key)
			if err := json.Unmarshal(r.Data, &mb); err != nil {
				return fmt.Errorf("hosting: rooms: record %s: %w", key, err)
			}
			boxes[strings.TrimPrefix(key, keyMail)] = &mb
		}
	}
	srv, err := rooms.RestoreRecords(lobby, parts, roomRecs, h.cfg.Registry, h.cfg.Limits)
	if err != nil {
		return fmt.Errorf("hosting: %w", err)
	}
	srv.SetHandOff(h.cfg.HandOff)
	if h.cfg.Room != "" {
		srv.SetRoomHost(h.cfg.Room)
	}
	// A lobby record written before the lobby parts holds the connections
	// and sessions itself: the next batch moves them into their parts.
	h.stale = lobby != nil && !bytes.Equal(lobby, srv.AppendLobbyRecord(nil))
	h.srv, h.saved, h.vers, h.boxes = srv, saved, vers, boxes
	if h.seen == nil {
		h.seen = map[string]int64{}
	}
	h.mmu.Lock()
	h.pub = map[string]*mailbox{}
	for id, mb := range boxes {
		h.pub[id] = mb
	}
	h.mmu.Unlock()
	h.noteDelivery(h.cfg.Clock())
	return nil
}

// noteDelivery keeps h.retry set while a hand-off or a report waits for
// its delivery: the retry's delay after now when it just began to wait.
// The caller holds b.run.
func (h *Rooms) noteDelivery(now int64) {
	if !h.cfg.HandOff && h.cfg.Room == "" {
		return
	}
	_, reported, _ := h.srv.Report()
	switch {
	case !reported && len(h.srv.HandOffs()) == 0:
		h.retry = 0
	case h.retry == 0:
		h.retry = now + h.cfg.DeliveryRetryMillis
	}
}

// noteDecode tells the decoded hook, if any, that record key is decoded.
func (h *Rooms) noteDecode(key string) {
	if h.decoded != nil {
		h.decoded(key)
	}
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
	if o.Kind == rooms.KindMove {
		mb.Move, mb.Closed = o.Move, true
		return
	}
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
	if conn := h.srv.ConnOf(tok); strings.HasPrefix(conn, HTTPConnPrefix) {
		return conn
	}
	return ""
}

// awayIn returns the room whose own server holds session tok since its
// game was handed off, or "".
func (h *Rooms) awayIn(tok string) string {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return ""
	}
	return h.srv.Away(tok)
}

// sessionOf returns the session token connection conn holds now.
func (h *Rooms) sessionOf(conn string) string {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return ""
	}
	return h.srv.SessionOf(conn)
}

// vacant returns the rejection of a room's server that holds no room
// (rooms.Server.Vacant), nil for any other or before it is loaded.
func (h *Rooms) vacant() *rooms.Rejection {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return nil
	}
	return h.srv.Vacant()
}

// Connections returns the ids of the machine's open connections, sorted
// (rooms.Server.Connections); none before it is loaded.
func (h *Rooms) Connections() []string {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return nil
	}
	return h.srv.Connections()
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

// partKey is the record key (without prefix) of lobby part p.
func partKey(p int) string { return fmt.Sprintf("%s%02d", keyPart, p) }

// HandOffs returns the room record of every game this lobby handed off
// that no room's server has confirmed yet (rooms.Server.HandOffs), by room
// id: the host gives each to its room's server (Adopt), then confirms it
// here with a rooms.InputHandedOff.
func (h *Rooms) HandOffs() map[string][]byte {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return nil
	}
	return h.srv.HandOffs()
}

// Report returns the room server's latest report and whether the lobby
// has yet to acknowledge it (rooms.Server.Report): the host delivers it
// to the lobby (a rooms.InputReport there), then acknowledges it here
// with a rooms.InputAcked.
func (h *Rooms) Report() (rooms.Report, bool) {
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		return rooms.Report{}, false
	}
	rep, pending, _ := h.srv.Report()
	return rep, pending
}

// Adopt gives this room's server (RoomsConfig.Room) the room record a
// lobby handed off, and reloads the machine with it. It is idempotent:
// a server that holds the room, or held it once, keeps what it has.
func (h *Rooms) Adopt(ctx context.Context, rec []byte) error {
	id := h.cfg.Room
	if id == "" {
		return errors.New("hosting: rooms: Adopt on a server that hosts no room")
	}
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		if err := h.load(ctx); err != nil {
			return err
		}
	}
	if rep, _, _ := h.srv.Report(); h.saved[keyRoom+id] != nil || rep.Seq > 0 {
		return nil
	}
	head, _ := json.Marshal(headRecord{Seq: h.vers[keyHead] + 1})
	err := h.cfg.Store.Commit(ctx, []Write{
		{Key: h.prefix + keyRoom + id, Data: rec},
		{Key: h.prefix + keyHead, Data: head, Version: h.vers[keyHead]},
	})
	if err != nil {
		return fmt.Errorf("hosting: rooms: adopt %s: %w", id, err)
	}
	return h.load(ctx)
}

// Vacate empties the store of a room's server (RoomsConfig.Room) whose
// work is done: its room was released, the lobby acknowledged the report
// that says so, and no connection is left. It deletes every record of
// the server and starts it over empty, as before its hand-off, so that a
// finished game keeps nothing. It reports whether it did; at any other
// time it does nothing.
func (h *Rooms) Vacate(ctx context.Context) (bool, error) {
	if h.cfg.Room == "" {
		return false, nil
	}
	h.b.lock()
	defer h.b.unlock()
	if h.srv == nil {
		if err := h.load(ctx); err != nil {
			return false, err
		}
	}
	rep, pending, _ := h.srv.Report()
	if rep.Seq == 0 || pending || rep.Summary != nil || len(h.srv.Connections()) > 0 {
		return false, nil
	}
	recs, err := h.cfg.Store.List(ctx, h.prefix)
	if err != nil {
		return false, fmt.Errorf("hosting: rooms: vacate: %w", err)
	}
	writes := make([]Write, len(recs))
	for i, r := range recs {
		writes[i] = Write{Key: r.Key, Version: r.Version}
	}
	if err := h.cfg.Store.Commit(ctx, writes); err != nil {
		h.srv = nil // reload at the next call
		return false, fmt.Errorf("hosting: rooms: vacate: %w", err)
	}
	h.seen = map[string]int64{}
	return true, h.load(ctx)
}
