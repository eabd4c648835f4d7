//go:build js && wasm

// Command play is Storyloom's browser bridge, compiled with GOOS=js
// GOARCH=wasm and loaded by the page. It registers one global object,
// storyloom, whose methods return Promises of plain JSON-compatible values.
//
// This is a minimal placeholder so the site build and the browser tests have a
// real module: it only answers version(). The bridge proper replaces its body.
package main

import (
	"runtime/debug"

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
	global := safejs.Global()
	promise, err := global.Get("Promise")
	if err != nil {
		panic(err)
	}
	versionFn, err := safejs.FuncOf(func(this safejs.Value, args []safejs.Value) any {
		p, err := promise.Call("resolve", map[string]any{"ok": true, "version": version()})
		if err != nil {
			return nil
		}
		return p
	})
	if err != nil {
		panic(err)
	}
	obj, err := safejs.ValueOf(map[string]any{})
	if err != nil {
		panic(err)
	}
	if err := obj.Set("version", versionFn); err != nil {
		panic(err)
	}
	if err := global.Set("storyloom", obj); err != nil {
		panic(err)
	}
	// Tell the page the bridge is ready, then keep the Go runtime alive so
	// the registered functions stay callable.
	if ready, err := global.Get("storyloomReady"); err == nil && ready.Type() == safejs.TypeFunction {
		_, _ = ready.Invoke()
	}
	select {}
}
