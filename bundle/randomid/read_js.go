//go:build js && wasm

package randomid

import (
	"fmt"
	"sync"
	"syscall/js"
)

// poolSize is how many random bytes one call to crypto.getRandomValues
// fetches. Each call crosses into JavaScript and makes a typed array
// (about a tenth of a restore's time in the browser, measured with one
// call per id), so read serves ids from a pool instead.
const poolSize = 512

var pool struct {
	mu   sync.Mutex
	b    [poolSize]byte
	left int // bytes at the end of b not yet handed out
}

// read fills b from crypto.getRandomValues, through the pool; a host
// without it throws, which read returns as an error. Every byte is
// handed out once.
func read(b []byte) error {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	for len(b) > 0 {
		if pool.left == 0 {
			if err := fill(pool.b[:]); err != nil {
				return err
			}
			pool.left = poolSize
		}
		at := poolSize - pool.left
		n := copy(b, pool.b[at:])
		clear(pool.b[at : at+n])
		pool.left -= n
		b = b[n:]
	}
	return nil
}

// fill fills b from crypto.getRandomValues.
func fill(b []byte) (err error) {
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
