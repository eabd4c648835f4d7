// Package core is Storyloom's pure engine kernel: the GameState envelope,
// the Kind seam every kind of game implements, the Engine that drives a kind
// without knowing which it is, projection with its copy boundary, reason
// codes, state changes and messages, content epochs, identifier rules and
// the resolution emitter.
//
// Nothing here performs I/O, reads a clock, starts a goroutine or holds
// global mutable state: the same inputs always give the same bytes. Hosts
// (the session store, the browser bridge, the native server) supply ids,
// time and persistence from outside.
//
// The contract is docs/kind-seam.md and the core specification it follows;
// the section numbers in comments (§4, §9.1, …) refer to that specification.
package core
