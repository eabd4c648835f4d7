//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/rooms"
)

// The Durable Objects. scripts/worker-entry.mjs defines the classes
// (RoomsObject, FreeportObject); the constructor starts one instance of
// this module per object and passes, as context.object, what the Go side
// needs of the object: its role ("rooms" or "freeport"), storage (the
// object's transactional storage), commit(puts, deletes) (one commit's
// writes in one storage.transactionSync) and, for the room server, alarm
// (the object's alarm as the entry module read it before the start, 0 for
// none), sockets() (the connection ids of its hibernatable WebSockets), send(conn, frame,
// close, reason), move(conn, where) and vacated() (a released room's
// records are gone: delete the rest of its storage). This side registers on context.binding the
// handlers the class forwards to: objectFetch for both, and socketOpen,
// socketMessage, socketClose and alarm for the room server. The instance
// lives as long as the object stays in memory, so the machine is loaded
// once, not per request; every call persists the records it changed
// before it answers or delivers a frame.

// object is the Go side of one RoomsObject.
type object struct {
	js    js.Value // context.object
	name  string   // the object's name, as the entry module gave it
	rooms *hosting.Rooms
	api   http.Handler

	amu         sync.Mutex // held while the alarm is read or set
	alarm       int64      // the alarm the storage holds, as last read or set (0: none)
	alarmFailed js.Func    // logs a rejected setAlarm or deleteAlarm

	trace  bool   // traceVar is on
	events uint64 // events begun, numbering them in the trace
	emu    sync.Mutex

	// hold is testHoldReportsVar's hook; holdAfter is the report
	// sequence number the instance found at its start: a later report
	// that returns sessions is held (pending).
	hold      bool
	holdAfter int64
}

// traced wraps an event handler of the object: with the trace on it logs
// the event's start and its end, with the object's name and numbered, so
// that an event that never ends shows in the worker's log.
func (o *object) traced(name string, fn func(args []js.Value) (any, error)) func(args []js.Value) (any, error) {
	if !o.trace {
		return fn
	}
	return func(args []js.Value) (any, error) {
		o.emu.Lock()
		o.events++
		n := o.events
		o.emu.Unlock()
		what := name
		if len(args) > 0 && args[0].Type() == js.TypeString {
			what += " " + args[0].String()
		}
		if name == "socketMessage" && len(args) > 1 {
			what += " " + strings.ReplaceAll(truncate(args[1].String(), 80), "\n", " ")
		}
		if name == "objectFetch" && len(args) > 0 && args[0].Type() == js.TypeObject {
			what += " " + args[0].Get("method").String() + " " + args[0].Get("url").String()
		}
		logf("trace %s %d begin %s", o.name, n, what)
		v, err := fn(args)
		logf("trace %s %d end (err %v)", o.name, n, err)
		return v, err
	}
}

// truncate cuts s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// runRooms starts the room server's object and registers its handlers.
func runRooms(ctx js.Value) error {
	o := &object{js: ctx.Get("object"), trace: cloudflare.Getenv(traceVar) == "on"}
	o.alarm = int64(o.js.Get("alarm").Float())
	o.alarmFailed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		reason := js.Undefined()
		if len(args) > 0 {
			reason = args[0]
		}
		logf("rooms object: alarm: %v", jsError(reason))
		return nil
	})
	reg, err := hosting.Games()
	if err != nil {
		return err
	}
	live := map[string]bool{}
	socks := o.js.Call("sockets")
	for i := range socks.Length() {
		live[socks.Index(i).String()] = true
	}
	// The object's name says its part: "main" is the lobby, which hands
	// every game it starts to the object named "room:<id>"
	// (docs/edge-worker.md).
	name := o.js.Get("name").String()
	o.name = name
	var ids rooms.IDSource // crypto/rand
	if s := cloudflare.Getenv(testIDSecretVar); s != "" {
		logf("rooms object: ids derived from %s, for tests only", testIDSecretVar)
		if name != lobbyName {
			s += "/" + name // a room's ids never repeat the lobby's
		}
		ids = &rooms.DerivedIDs{Secret: s}
	}
	st, err := newObjectStore(o.js)
	if err != nil {
		return err
	}
	room, isRoom := strings.CutPrefix(name, roomPrefix)
	if !isRoom {
		room = ""
	}
	var retry int64 // hosting.DeliveryRetryMillis
	if v := cloudflare.Getenv(testHoldReportsVar); v != "" && room != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 {
			return fmt.Errorf("%s=%q: want a positive number of milliseconds", testHoldReportsVar, v)
		}
		logf("rooms object %s: reports held, retried after %d ms (%s, for tests only)", name, ms, testHoldReportsVar)
		o.hold, retry = true, ms
	}
	h, err := hosting.NewRooms(context.Background(), hosting.RoomsConfig{
		Name: name, HandOff: name == lobbyName, Room: room,
		Store: st, Registry: reg, Clock: dateNow, IDs: ids,
		KeepWebSocket:       func(conn string) bool { return live[conn] },
		ClientAddr:          clientAddr,
		SoleWriter:          true, // only this object reaches its storage
		DeliveryRetryMillis: retry,
	})
	if err != nil {
		return err
	}
	o.rooms, o.api = h, h.Handler()
	if o.trace {
		logf("trace start %s (%d sockets, alarm %d)", name, len(live), o.alarm)
	}
	if o.hold {
		rep, _ := h.Report()
		o.holdAfter = rep.Seq
	}
	for conn := range live {
		h.Attach(conn, o.sink(conn))
	}
	if room != "" {
		o.moveStrays(live)
	}
	b := ctx.Get("binding")
	b.Set("objectFetch", promiseFunc(o.traced("objectFetch", func(args []js.Value) (any, error) {
		res, err := serveJS(o.api, args[0])
		if err == nil {
			if serr := o.settle(); serr != nil {
				logf("rooms object: %v", serr)
			}
		}
		return res, err
	})))
	b.Set("socketOpen", promiseFunc(o.traced("socketOpen", func(args []js.Value) (any, error) {
		conn, client := args[0].String(), ""
		if len(args) > 1 && args[1].Type() == js.TypeString {
			client = clientKey(args[1].String())
		}
		h.Attach(conn, o.sink(conn))
		return nil, o.do(rooms.Input{Kind: rooms.InputConnect, Conn: conn, Client: client})
	})))
	b.Set("socketMessage", promiseFunc(o.traced("socketMessage", func(args []js.Value) (any, error) {
		return nil, o.do(rooms.Input{Kind: rooms.InputFrame, Conn: args[0].String(), Frame: []byte(args[1].String())})
	})))
	b.Set("socketClose", promiseFunc(o.traced("socketClose", func(args []js.Value) (any, error) {
		conn := args[0].String()
		h.Detach(conn)
		return nil, o.do(rooms.Input{Kind: rooms.InputDisconnect, Conn: conn})
	})))
	o.registerHandOff(b)
	b.Set("alarm", promiseFunc(o.traced("alarm", func([]js.Value) (any, error) {
		o.amu.Lock()
		o.alarm = 0 // it fired
		o.amu.Unlock()
		err := h.Tick(context.Background())
		if err == nil {
			err = o.settle()
		}
		return nil, err
	})))
	// The start-up leaves the alarm as it is: the event that started the
	// object settles it when done (every event does), and an alarm set
	// now, while workerd runs the alarm that woke the object, would
	// cancel that alarm's handler and fire it again.
	return nil
}

// clientAddr is a request's client address at the edge: the
// CF-Connecting-IP header Cloudflare sets, as clientKey counts it.
func clientAddr(r *http.Request) string { return clientKey(r.Header.Get("CF-Connecting-IP")) }

// clientKey is the key the per-address limits count a client address
// under: the address itself, or "" (not counted) when it is unknown or
// perAddressVar turns the limits off.
func clientKey(addr string) string {
	if cloudflare.Getenv(perAddressVar) == "off" {
		return ""
	}
	return addr
}

// serveObject runs the module as a Durable Object's instance, for the
// role the entry module names: it never returns, so the machine stays in
// memory with the object.
func serveObject(ctx js.Value) {
	role := ctx.Get("object").Get("role").String()
	var err error
	switch role {
	case "rooms":
		err = runRooms(ctx)
	case "freeport":
		err = runFreeport(ctx)
	default:
		err = fmt.Errorf("no object role %q", role)
	}
	if err != nil {
		logf("%s object: %v", role, err)
		ctx.Get("binding").Set("failed", err.Error())
	}
	workers.Ready()
	select {}
}

// do applies one input, then settles the object.
func (o *object) do(in rooms.Input) error {
	if _, err := o.rooms.Do(context.Background(), []rooms.Input{in}); err != nil {
		return err
	}
	return o.settle()
}

// settle ends an event: a room's object whose room is released and
// reported empties its storage (hosting.Rooms.Vacate, then the entry
// module's vacated, which deletes what else it keeps), and the alarm is
// pointed at the room server's next wake, the retry of a pending delivery
// included.
func (o *object) settle() error {
	done, err := o.rooms.Vacate(context.Background())
	if err != nil {
		return err
	}
	if err := o.setAlarm(); err != nil {
		return err
	}
	if done {
		return catch(func() { o.js.Call("vacated") })
	}
	return nil
}

// sink sends the frames addressed to WebSocket connection conn.
func (o *object) sink(conn string) hosting.Sink {
	return func(out rooms.Outbound) {
		if out.Kind == rooms.KindMove {
			if o.trace {
				logf("trace move %s %s", conn, out.Move)
			}
			o.js.Call("move", conn, out.Move)
			return
		}
		reason := ""
		if out.Close {
			reason = out.Kind
			var f rooms.LobbyErrorFrame
			if json.Unmarshal(out.Frame, &f) == nil && f.LobbyError.Code != "" {
				reason = f.LobbyError.Code
			}
		}
		if o.trace {
			logf("trace send %s %s close=%v", conn, out.Kind, out.Close)
		}
		o.js.Call("send", conn, string(out.Frame), out.Close, reason)
	}
}

// setAlarm points the object's alarm at the room server's next wake, or
// removes it when nothing is due. It does not await the storage's
// promise: the storage applies its calls in the order they are made, and
// holds the object's outgoing messages until they are durable, so the
// frames and answers of the call that moved the deadline leave only once
// the alarm is set. Nothing yields between reading the wake and making
// the call, so two events cannot set the alarms they read out of order.
// A failure to set it is logged (alarmFailed).
func (o *object) setAlarm() error {
	o.amu.Lock()
	defer o.amu.Unlock()
	at, ok := o.rooms.NextWake()
	if !ok {
		at = 0
	}
	if at == o.alarm {
		return nil
	}
	st := o.js.Get("storage")
	var p js.Value
	err := catch(func() {
		if at == 0 {
			p = st.Call("deleteAlarm")
		} else {
			p = st.Call("setAlarm", at)
		}
	})
	if err != nil {
		return err
	}
	p.Call("catch", o.alarmFailed)
	o.alarm = at
	return nil
}

// serveJS serves one HTTP request with h, given as {method, url,
// headers, body} with headers a JSON object, and answers {status,
// headers, body}.
func serveJS(h http.Handler, req js.Value) (any, error) {
	r, err := http.NewRequest(req.Get("method").String(), req.Get("url").String(),
		strings.NewReader(req.Get("body").String()))
	if err != nil {
		return nil, err
	}
	var hdr map[string]string
	if err := json.Unmarshal([]byte(req.Get("headers").String()), &hdr); err != nil {
		return nil, fmt.Errorf("object: headers: %w", err)
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	rec := &recorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	headers := map[string]string{}
	for k := range rec.header {
		headers[k] = rec.header.Get(k)
	}
	hb, _ := json.Marshal(headers)
	return map[string]any{"status": rec.status, "headers": string(hb), "body": rec.body.String()}, nil
}

// promiseFunc wraps fn as a JS function returning a Promise: fn runs on a
// goroutine (it may await JS promises) and its value resolves the promise,
// its error rejects it.
func promiseFunc(fn func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		args = append([]js.Value(nil), args...)
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, p []js.Value) any {
			executor.Release()
			resolve, reject := p[0], p[1]
			go func() {
				v, err := fn(args)
				if err != nil {
					reject.Invoke(js.Global().Get("Error").New(err.Error()))
					return
				}
				resolve.Invoke(v)
			}()
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	})
}

// objectStore is a hosting.Store over a Durable Object's SQLite-backed
// storage, through its synchronous key-value API (storage.kv): a call
// reads or writes the object's SQLite database and returns, with no
// promise to await, so an event's load, apply and commit run to their
// end without yielding to the event loop, and no other event of the
// object can come between them. Each record is stored under its key as
// {v: version, d: text}, the layout of the asynchronous API, which
// reads the same table. (Its error messages say "object": the room
// server's and Freeport's objects both use it.)
//
// The object is the one writer of its storage, so a version check never
// fails but on a bug; it is kept so that the host's contract holds. The
// store knows the version of every record it has read or written (the
// storage changes only through it), so a commit reads only the records
// it has not seen.
type objectStore struct {
	kv     js.Value // storage.kv
	commit js.Value // the entry module's commit(puts, deletes)

	mu   sync.Mutex
	vers map[string]int64 // key → stored version, of the keys seen
}

var _ hosting.Store = (*objectStore)(nil)

// newObjectStore returns the store over the storage of the object that
// context.object (obj) describes.
func newObjectStore(obj js.Value) (*objectStore, error) {
	kv := obj.Get("storage").Get("kv")
	if kv.Type() != js.TypeObject {
		return nil, errors.New("object storage: no synchronous storage.kv (the class must be SQLite-backed: new_sqlite_classes)")
	}
	return &objectStore{kv: kv, commit: obj.Get("commit"), vers: map[string]int64{}}, nil
}

// record turns a stored value into a Record, noting its version. The
// caller holds s.mu.
func (s *objectStore) record(key string, v js.Value) hosting.Record {
	if v.IsUndefined() || v.IsNull() {
		s.vers[key] = 0
		return hosting.Record{Key: key}
	}
	r := hosting.Record{Key: key, Version: int64(v.Get("v").Int()), Data: []byte(v.Get("d").String())}
	s.vers[key] = r.Version
	return r
}

func (s *objectStore) Load(_ context.Context, key string) (hosting.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load(key)
}

// load is Load with s.mu held.
func (s *objectStore) load(key string) (hosting.Record, error) {
	var v js.Value
	if err := catch(func() { v = s.kv.Call("get", key) }); err != nil {
		return hosting.Record{}, storeError("load "+key, err)
	}
	return s.record(key, v), nil
}

func (s *objectStore) List(_ context.Context, prefix string) ([]hosting.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var entries js.Value
	if err := catch(func() {
		entries = js.Global().Get("Array").Call("from", s.kv.Call("list", map[string]any{"prefix": prefix}))
	}); err != nil {
		return nil, storeError("list "+prefix, err)
	}
	out := make([]hosting.Record, entries.Length())
	for i := range out {
		e := entries.Index(i)
		out[i] = s.record(e.Index(0).String(), e.Index(1))
	}
	return out, nil // storage.kv.list returns keys in order
}

// Commit checks every write's version, then has the entry module make
// the puts and deletes in one storage.transactionSync, which applies
// them all or, when one fails, none.
func (s *objectStore) Commit(_ context.Context, writes []hosting.Write) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range writes {
		cur, seen := s.vers[w.Key]
		if !seen {
			r, err := s.load(w.Key)
			if err != nil {
				return err
			}
			cur = r.Version
		}
		if cur != w.Version {
			return storeError("commit", fmt.Errorf("%s at version %d, want %d: %w", w.Key, cur, w.Version, hosting.ErrConflict))
		}
	}
	puts := js.Global().Get("Object").New()
	var dels []any
	for _, w := range writes {
		if w.Data == nil {
			dels = append(dels, w.Key)
		} else {
			puts.Set(w.Key, map[string]any{"v": w.Version + 1, "d": string(w.Data)})
		}
	}
	if err := catch(func() { s.commit.Invoke(puts, dels) }); err != nil {
		// Nothing was written; what this store knew still holds.
		return storeError("commit", err)
	}
	for _, w := range writes {
		if w.Data == nil {
			s.vers[w.Key] = 0
		} else {
			s.vers[w.Key] = w.Version + 1
		}
	}
	return nil
}

// storeError logs a failed storage call to the worker's console, since
// the host answers it with a bare 503 (and an object's conflict is a
// bug), and returns it wrapped with what was done.
func storeError(what string, err error) error {
	err = fmt.Errorf("object storage: %s: %w", what, err)
	logf("%v", err)
	return err
}
