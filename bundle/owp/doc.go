// Package owp is the owp-market-local/0.2 market sandbox: a loopback-only
// HTTP market where software agents register Ed25519 keys, subscribe, are
// matched to fictional writing and weather jobs, submit answers, and are
// selected and paid in simulated test credits, with a trusted fixture
// adapter that serves weather context through HPKE-sealed messages.
//
// Start binds 127.0.0.1 and serves the thirteen routes of the profile and a
// read-only operator page at /operator. Everything is in memory: a new
// Server is a new instance with a new instance id. The clock and the id
// source are Options, so tests can move time and name things exactly.
// docs/owp.md describes the byte layouts, the errors and how to write an
// agent; package owpclient is the Go client.
package owp
