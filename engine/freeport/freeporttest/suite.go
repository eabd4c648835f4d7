package freeporttest

import (
	_ "embed"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/freeport"
)

// Transport carries one request body to a Freeport Game Master for the
// Owner labelled owner at instant now (Unix milliseconds) and returns the
// response bytes. See the package documentation for its contract.
type Transport func(owner string, now int64, body []byte) []byte

// NewTransport starts a fresh, empty instance of the game whose game file
// is game and returns a Transport to it. It fails t if it cannot.
type NewTransport func(t *testing.T, game []byte) Transport

// T0 is the clock every case starts at: 2026-05-28T20:26:40.000Z.
const T0 int64 = 1780000000000

// Game returns the game file the suite plays: four assets (one of them
// not transferable) and deterministic hidden rules that make both causes
// of unfunded reachable. Every call returns a new copy.
func Game() []byte { return []byte(gameJSON) }

// gameJSON is game.json, the suite's game file; engine/freeport's own
// tests embed the same file.
//
//go:embed game.json
var gameJSON string

// Reducer is a NewTransport that serves each instance straight from the
// reducer, with seed "conformance". after, when non-nil, runs after every
// request with the new State (engine/freeport checks its invariants there).
func Reducer(after func(t *testing.T, s *freeport.State)) NewTransport {
	return func(t *testing.T, game []byte) Transport {
		t.Helper()
		g, err := freeport.ParseGame(game)
		if err != nil {
			t.Fatal(err)
		}
		st := g.NewState("conformance")
		return func(owner string, now int64, body []byte) []byte {
			next, resp := st.Apply(owner, now, body)
			st = next
			if after != nil {
				after(t, st)
			}
			return resp
		}
	}
}

// Names returns the names of the cases Run runs, in order, each the rule
// it checks; Run also runs EveryErrorCodeIsExercised last.
func Names() []string {
	var out []string
	for _, c := range cases() {
		out = append(out, c.name)
	}
	return out
}

// Run runs every case as a subtest named after its rule, each against a
// fresh instance from newTransport, and finally EveryErrorCodeIsExercised,
// which requires every code of the closed set to have been expected by a
// case that ran.
func Run(t *testing.T, newTransport NewTransport) {
	seen := map[string]bool{}
	for _, tc := range cases() {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, newTransport(t, Game()))
			h.fresh = func(t *testing.T) Transport { return newTransport(t, Game()) }
			if tc.setup != nil {
				tc.setup(h)
			}
			// values a request may name that setup did not create
			for _, o := range []string{"alice", "bob", "carol"} {
				if id, ok := h.v[o]; ok {
					h.v[o+".name"] = freeport.DerivedName(id)
				}
			}
			r := h.call(tc.owner, tc.req)
			if got := r.code(); got != tc.code {
				t.Fatalf("code = %q, want %q: %s", got, tc.code, r.raw)
			}
			if tc.code != "" {
				seen[tc.code] = true
				if !slices.Contains(freeport.ErrorCodes(), tc.code) {
					t.Fatalf("code %q is outside the closed set", tc.code)
				}
			}
			if tc.check != nil {
				tc.check(t, h, r)
			}
		})
	}
	t.Run("EveryErrorCodeIsExercised", func(t *testing.T) {
		for _, c := range freeport.ErrorCodes() {
			if !seen[c] {
				t.Errorf("no conformance case expects %q", c)
			}
		}
	})
}
