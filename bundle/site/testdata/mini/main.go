//go:build js && wasm

// Command mini is the smallest module the site tests build: it registers a
// global storyloom with version(), as the bridge does.
package main

import "syscall/js"

func main() {
	obj := js.Global().Get("Object").New()
	obj.Set("version", js.FuncOf(func(js.Value, []js.Value) any {
		return js.Global().Get("Promise").Call("resolve", map[string]any{"ok": true, "version": "mini"})
	}))
	js.Global().Set("storyloom", obj)
	select {}
}
