//go:build js && wasm

package randomid

import (
	"fmt"
	"syscall/js"
)

// read fills b from crypto.getRandomValues; a host without it throws,
// which read returns as an error.
func read(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("crypto.getRandomValues: %v", r)
		}
	}()
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.Global().Get("crypto").Call("getRandomValues", arr)
	js.CopyBytesToGo(b, arr)
	return nil
}
