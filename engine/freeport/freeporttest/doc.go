// Package freeporttest is the conformance suite of the Freeport Game Master
// (game-master-protocol-v2.md): one case per normative statement, each
// named after the rule it checks, spoken only through a Transport that
// carries request bytes to a Game Master and response bytes back. The
// reducer (engine/freeport) runs it directly; an HTTP host runs the same
// cases through its endpoint, so no rule is checked twice in two ways.
//
// A host's test supplies a constructor returning a Transport to a fresh,
// empty instance of the game file it is given:
//
//	func TestFreeportConformance(t *testing.T) {
//		freeporttest.Run(t, func(t *testing.T, game []byte) freeporttest.Transport {
//			srv := startEndpoint(t, game) // parses game, empty store, test clock
//			return func(owner string, now int64, body []byte) []byte {
//				srv.clock.Set(now)
//				return srv.post(t, srv.tokenFor(owner), body)
//			}
//		})
//	}
//
// The contract a Transport keeps:
//
//   - owner is an identity label. Each distinct label that is not blank
//     must reach the Game Master as its own authenticated Owner, the same
//     one on every request of the case. A blank label ("" or white space)
//     must reach it as no authenticated identity, and the response is the
//     Game Master's authentication_required envelope.
//   - now is the host's clock in Unix milliseconds for this request; the
//     suite moves it forward to expire Exchanges. A host's own timer sweep
//     must not run during the suite (or must run on the same test clock
//     only as part of a request), because cases count sweep passes.
//   - the return value is the response body exactly as the Game Master
//     wrote it, whatever the HTTP status; the suite compares bytes (a
//     retried Command must return the original bytes).
//   - a Transport is used by one goroutine at a time; each case gets its
//     own instance from the constructor (several, for cases that compare
//     two games), which the host may tear down with t.Cleanup.
//
// The game file (Game) and the instance seed are the host's to combine;
// no case depends on the seed.
package freeporttest
