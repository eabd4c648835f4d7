// Package conformance is the owp-market-local/0.2 conformance suite. Its
// tests drive a real market over loopback HTTP through a raw signed client
// written here from the byte layouts in docs/owp.md: it shares no code with
// package owpclient or with the protocol's wire package, so a layout bug in
// either shows up as a failure here. Passing establishes this named local
// profile only.
package conformance
