//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/hack-pad/safejs"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// method is one bridge method: it reads its argument, a JSON document
// (null when the page passed none), and returns a value that encodes to a
// JSON object, or an error.
type method func(ctx context.Context, arg json.RawMessage) (any, error)

// bridgeError is a failure the bridge reports itself, with a reason code.
type bridgeError struct {
	Code    string
	Message string
}

// Error returns the message.
func (e *bridgeError) Error() string { return e.Message }

func failf(code, format string, args ...any) error {
	return &bridgeError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// wireError is the {code, message} of a failed call.
type wireError struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	MessageKey string `json:"messageKey,omitempty"`
	Path       string `json:"path,omitempty"`
}

// errorBody renders err as the page sees it.
func errorBody(err error) wireError {
	var be *bridgeError
	var se *session.Error
	var ve core.ValidationError
	switch {
	case errors.As(err, &be):
		return wireError{Code: be.Code, Message: be.Message}
	case errors.As(err, &se):
		v := se.ValidationError()
		return wireError{Code: se.Code, Message: se.Message, MessageKey: v.MessageKey, Path: v.Path}
	case errors.As(err, &ve):
		return wireError{Code: ve.Code, Message: ve.Message, MessageKey: ve.MessageKey, Path: ve.Path}
	}
	return wireError{Code: core.ReasonInternal, Message: err.Error()}
}

// jsonAppender is a value that writes its own JSON object, without the
// reflection encoding/json would spend on it: the answer to a choice.
type jsonAppender interface {
	appendJSON(b []byte) ([]byte, error)
}

// carriesOK is a result that says itself whether the call succeeded.
type carriesOK interface{ carriesOK() }

// respond encodes a method's outcome as the JSON object the promise
// resolves to: {ok:true, ...value} or {ok:false, error:{code, message}},
// plus storage, the encoded ,"storage":{…} member that every response
// carries while storage is not durable (nil while it is).
func respond(value any, err error, storage []byte) []byte {
	var body []byte
	if err == nil {
		if value == nil {
			value = struct{}{}
		}
		var b []byte
		var merr error
		if a, ok := value.(jsonAppender); ok {
			b, merr = a.appendJSON(nil)
		} else {
			b, merr = json.Marshal(value)
		}
		if merr != nil || len(b) < 2 || b[0] != '{' {
			err = failf(core.ReasonInternal, "the bridge produced a value that is not a JSON object")
		} else {
			body = b
		}
	}
	var out bytes.Buffer
	if err != nil {
		e, _ := json.Marshal(struct {
			OK    bool      `json:"ok"`
			Error wireError `json:"error"`
		}{false, errorBody(err)})
		out.Write(e[:len(e)-1])
	} else {
		// A value may carry its own ok (an action's result does);
		// otherwise the call succeeded.
		if _, own := value.(carriesOK); !own {
			out.WriteString(`{"ok":true`)
			if len(body) > 2 {
				out.WriteByte(',')
			}
			out.Write(body[1 : len(body)-1])
		} else {
			out.Write(body[:len(body)-1])
		}
	}
	out.Write(storage)
	out.WriteByte('}')
	return out.Bytes()
}

// jsBridge registers methods on one global object.
type jsBridge struct {
	global  safejs.Value
	promise safejs.Value
	json    safejs.Value
	console safejs.Value
	status  func() *storageStatus

	// executor is the one Promise executor every call passes to new
	// Promise: Map.prototype.set bound to resolving and the key 0, a
	// JavaScript built-in, so the constructor's call of it stores the
	// promise's resolve function under 0 without calling back into Go
	// (a nested call from JavaScript into Go, and the values it hands
	// over, each with a finalizer, cost more than the rest of the
	// promise). No call makes a function of its own.
	executor  safejs.Value
	resolving safejs.Value

	// idle hands a call to a worker waiting for one: workers are
	// goroutines that outlive their calls, so a call runs on a stack that
	// has already grown rather than growing a fresh goroutine's stack
	// frame by frame (a copy each time) as a goroutine per call did.
	idle chan call

	statusMu   sync.Mutex
	statusLast storageStatus
	statusEnc  []byte // nil until the first response that carries it
}

// call is one bridge call for a worker to run.
type call struct {
	name    string
	m       method
	arg     json.RawMessage
	argErr  error
	resolve safejs.Value
}

func newJSBridge() (*jsBridge, error) {
	g := safejs.Global()
	b := &jsBridge{global: g, idle: make(chan call)}
	var err error
	if b.promise, err = g.Get("Promise"); err != nil {
		return nil, err
	}
	if b.json, err = g.Get("JSON"); err != nil {
		return nil, err
	}
	if b.console, err = g.Get("console"); err != nil {
		return nil, err
	}
	mapType, err := g.Get("Map")
	if err != nil {
		return nil, err
	}
	if b.resolving, err = mapType.New(); err != nil {
		return nil, err
	}
	proto, err := mapType.Get("prototype")
	if err != nil {
		return nil, err
	}
	set, err := proto.Get("set")
	if err != nil {
		return nil, err
	}
	if b.executor, err = set.Call("bind", b.resolving, 0); err != nil {
		return nil, err
	}
	return b, nil
}

// newPromise returns a new Promise and its resolve function. It runs on
// the JavaScript thread, inside a call from the page; the executor has
// run when the constructor returns.
func (b *jsBridge) newPromise() (p, resolve safejs.Value, err error) {
	if p, err = b.promise.New(b.executor); err != nil {
		return p, resolve, err
	}
	resolve, err = b.resolving.Call("get", 0)
	return p, resolve, err
}

// register installs obj[name] as a function returning a Promise of the
// method's JSON result. The callback returns at once: the method runs on a
// goroutine of its own and resolves the promise from there.
func (b *jsBridge) register(obj safejs.Value, name string, m method) error {
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		arg, aerr := b.argument(args)
		p, resolve, err := b.newPromise()
		if err != nil {
			return nil
		}
		b.dispatch(call{name: name, m: m, arg: arg, argErr: aerr, resolve: resolve})
		return p
	})
	if err != nil {
		return err
	}
	// The function lives as long as the page: it is never released.
	return obj.Set(name, fn)
}

// argument reads a call's argument as JSON: a string is taken as a JSON
// document, anything else goes through JSON.stringify once.
func (b *jsBridge) argument(args []safejs.Value) (json.RawMessage, error) {
	if len(args) == 0 || args[0].IsUndefined() || args[0].IsNull() {
		return json.RawMessage("null"), nil
	}
	a := args[0]
	if a.Type() == safejs.TypeString {
		s, err := a.String()
		if err != nil {
			return nil, err
		}
		return json.RawMessage(s), nil
	}
	v, err := b.json.Call("stringify", a)
	if err != nil {
		return nil, failf(core.ReasonMalformedInput, "the argument cannot be written as JSON: %v", err)
	}
	s, err := v.String()
	if err != nil {
		return nil, failf(core.ReasonMalformedInput, "the argument cannot be written as JSON")
	}
	return json.RawMessage(s), nil
}

// dispatch gives c to an idle worker, or starts one more worker when all
// are busy (a call can wait on IndexedDB while another arrives), so a
// call never waits for another; the workers number at most the calls
// that were ever in flight at once.
func (b *jsBridge) dispatch(c call) {
	select {
	case b.idle <- c:
	default:
		go b.work(c)
	}
}

// work runs c, then every call handed to it while idle, for the life of
// the page.
func (b *jsBridge) work(c call) {
	for {
		b.run(c)
		c = <-b.idle
	}
}

// run calls the method and resolves the promise; a panic is recovered,
// logged to console.error and reported as internal_error.
func (b *jsBridge) run(c call) {
	var out []byte
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("storyloom.%s: internal error: %v", c.name, r)
			_, _ = b.console.Call("error", msg+"\n"+string(debug.Stack()))
			out = respond(nil, failf(core.ReasonInternal, "%s", msg), b.storage())
		}
		b.resolve(c.resolve, out)
	}()
	if c.argErr != nil {
		out = respond(nil, c.argErr, b.storage())
		return
	}
	if !json.Valid(c.arg) {
		out = respond(nil, failf(core.ReasonMalformedInput, "the argument is not JSON"), b.storage())
		return
	}
	value, err := c.m(context.Background(), c.arg)
	out = respond(value, err, b.storage())
}

// storage returns the ,"storage":{…} member of a response while storage
// is not durable, and nil while it is. The encoding is kept while the
// status stays the same: it changes rarely, and a call is answered often.
func (b *jsBridge) storage() []byte {
	if b.status == nil {
		return nil
	}
	s := b.status()
	if s == nil || s.Durable {
		return nil
	}
	b.statusMu.Lock()
	defer b.statusMu.Unlock()
	if b.statusEnc == nil || *s != b.statusLast {
		enc, _ := json.Marshal(s)
		b.statusEnc = append([]byte(`,"storage":`), enc...)
		b.statusLast = *s
	}
	return b.statusEnc
}

// resolve settles a promise with the parsed JSON document out.
func (b *jsBridge) resolve(resolve safejs.Value, out []byte) {
	if resolve.IsUndefined() {
		return
	}
	v, err := b.json.Call("parse", string(out))
	if err != nil {
		_, _ = b.console.Call("error", "storyloom: the bridge wrote a response that is not JSON")
		v, _ = safejs.ValueOf(map[string]any{"ok": false, "error": map[string]any{"code": core.ReasonInternal, "message": "unreadable response"}})
	}
	_, _ = resolve.Invoke(v)
}

// args decodes every call's argument, keeping the field tables of the
// argument types between calls.
var args strictjson.Decoder

// decode reads a method's argument into v, strictly.
func decode(arg json.RawMessage, v any) error {
	if string(arg) == "null" {
		return nil
	}
	if err := args.Decode(arg, v); err != nil {
		return failf(core.ReasonMalformedInput, "bad argument: %v", err)
	}
	return nil
}
