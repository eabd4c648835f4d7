package randomid_test

import (
	"regexp"
	"testing"

	"github.com/storyloom/storyloom/bundle/randomid"
)

func TestHex(t *testing.T) {
	hexDigits := regexp.MustCompile(`^[0-9a-f]*$`)
	for _, n := range []int{0, 1, 8, 12, 32} {
		seen := map[string]bool{}
		for range 50 {
			id := randomid.Hex(n)
			if len(id) != 2*n || !hexDigits.MatchString(id) {
				t.Fatalf("Hex(%d) = %q: want %d lower-case hex digits", n, id, 2*n)
			}
			if n >= 8 && seen[id] {
				t.Fatalf("Hex(%d) gave %q twice", n, id)
			}
			seen[id] = true
		}
	}
}
