// Package randomid mints random identifiers and secrets: Hex(n) is n
// random bytes as 2n lower-case hex digits. Natively the bytes come from
// crypto/rand; under js/wasm from the host's crypto.getRandomValues,
// which is what crypto/rand reads there too, called directly so that
// crypto/rand and its FIPS 140 DRBG stay out of the browser's module
// (about 7 KB gzip). The engine draws no randomness of its own: hosts
// mint ids and seeds here and pass them in.
package randomid

import "encoding/hex"

// Hex returns n random bytes as 2n lower-case hex digits. It panics when
// the platform has no randomness to give, which no host can go on
// without.
func Hex(n int) string {
	b := make([]byte, n)
	if err := read(b); err != nil {
		panic("randomid: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}
