//go:build js && wasm

// Command play is Storyloom's browser bridge, compiled with GOOS=js
// GOARCH=wasm and loaded by the page. It registers one global object,
// storyloom, whose methods mirror the session store's operations. Every
// method takes one JSON-compatible argument (an object, or its JSON text)
// and returns a Promise of a plain JSON object: {ok: true, ...} on success,
// {ok: false, error: {code, message}} on failure, never a rejection. A Go
// panic is recovered at the boundary, logged to console.error and reported
// as internal_error; the module stays alive.
//
// The page never decides legality: it renders the scenes and available
// actions the engine returns. docs/browser.md is the API reference.
package main

import (
	"runtime/debug"
	"sort"

	"github.com/hack-pad/safejs"
)

// version is the bridge's version as reported by version().
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "devel"
}

func main() {
	// The module's heap is small and the page's memory plentiful: collect
	// less often, so that fewer clicks wait on a collection.
	debug.SetGCPercent(400)
	b, err := newJSBridge()
	if err != nil {
		panic(err)
	}
	b.status = func() *storageStatus {
		h, err := current()
		if err != nil {
			return nil
		}
		s := h.keep.Status()
		return &s
	}
	obj, err := safejs.ValueOf(map[string]any{})
	if err != nil {
		panic(err)
	}
	ms := methods()
	names := make([]string, 0, len(ms))
	for n := range ms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := b.register(obj, n, ms[n]); err != nil {
			panic(err)
		}
	}
	if err := b.global.Set("storyloom", obj); err != nil {
		panic(err)
	}
	// Tell the page the bridge is ready, then keep the Go runtime alive so
	// the registered functions stay callable.
	if ready, err := b.global.Get("storyloomReady"); err == nil && ready.Type() == safejs.TypeFunction {
		_, _ = ready.Invoke()
	}
	select {}
}
