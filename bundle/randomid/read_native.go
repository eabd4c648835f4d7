//go:build !(js && wasm)

package randomid

import "crypto/rand"

// read fills b from crypto/rand.
func read(b []byte) error {
	_, err := rand.Read(b)
	return err
}
