//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"
)

// await blocks the calling goroutine until promise settles and returns its
// value or its rejection as an error. The callbacks it hands to JS only
// send on a buffered channel, so they never block the event loop.
func await(promise js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	onResolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- settled{v: v}
		return nil
	})
	defer onResolve.Release()
	onReject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		reason := js.Undefined()
		if len(args) > 0 {
			reason = args[0]
		}
		ch <- settled{err: jsError(reason)}
		return nil
	})
	defer onReject.Release()
	promise.Call("then", onResolve, onReject)
	s := <-ch
	return s.v, s.err
}

// jsError turns a thrown or rejected JS value into a Go error carrying its
// message.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			return errors.New(m.String())
		}
	}
	if v.Type() == js.TypeUndefined || v.Type() == js.TypeNull {
		return errors.New("rejected without a reason")
	}
	return errors.New(v.Call("toString").String())
}

// catch runs fn and turns a JS exception it throws (a panic carrying a
// js.Error) into an error.
func catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				err = jsError(je.Value)
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	fn()
	return nil
}

// uint8Array copies b into a new JS Uint8Array.
func uint8Array(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// goBytes copies a D1 column value into Go bytes: a BLOB arrives as an
// ArrayBuffer (or an array of numbers), TEXT as a string.
func goBytes(v js.Value) []byte {
	switch v.Type() {
	case js.TypeString:
		return []byte(v.String())
	case js.TypeObject:
		a := js.Global().Get("Uint8Array").New(v)
		b := make([]byte, a.Length())
		js.CopyBytesToGo(b, a)
		return b
	}
	return nil
}

// dateNow is the worker's clock: JavaScript's Date.now(), in Unix
// milliseconds. (Inside a Worker it advances with I/O, not with pure
// computation, which is all a deadline needs.)
func dateNow() int64 {
	return int64(js.Global().Get("Date").Call("now").Float())
}
