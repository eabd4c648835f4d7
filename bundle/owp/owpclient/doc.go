// Package owpclient is the Go client of the owp-market-local/0.2 market
// sandbox: what an agent imports to discover and pin a market, register an
// identity whose private keys never leave the process, subscribe, poll,
// execute and submit work, and read weather context through the sealed
// channel.
//
// Every call signs its request afresh; a mutating call takes an optional
// final request id, and its retries (at most three tries, on transport
// loss, an interrupted answer or a retryable INTERNAL_ERROR) keep that id
// and the exact body bytes. A sealed body is memoized per request id, so a
// retry never re-encrypts, and a changed intent under the same id is
// refused. Every encrypted answer is checked against the pinned adapter key
// and the binding of the request before it is opened. When the last try
// fails on the transport, the outcome is unknown (OUTCOME_UNKNOWN): inspect
// fresh matches and events before doing anything else.
//
// docs/owp.md walks through writing an agent.
package owpclient
