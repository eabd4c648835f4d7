// Package hosting serves Storyloom's room machine (engine/rooms) and the
// Freeport Game Master (engine/freeport) over HTTP, on any storage that
// implements Store. It is transport- and platform-agnostic: it reads no
// clock (the host injects one), imports no database driver, and compiles
// for GOOS=js GOARCH=wasm, so the native host (bundle serve, with the
// SQLite store of bundle/hostingdb and the WebSocket transport of this
// package) and the edge worker (wasm/worker, with D1) share every handler.
//
// Rooms is one room server: the machine's whole state, persisted as one
// record per room, one lobby record and a small head record that every
// commit advances, with compare-and-set versions. Inputs from every
// transport are applied in batches (a group commit): each batch is
// applied to the in-memory machine, persisted in one atomic Commit, and
// only then are its frames delivered. A conflicting commit (another
// process wrote first) reloads the state and applies the batch again; it
// never overwrites.
//
// Freeport is the Freeport trading endpoint: one game instance per path,
// the Owner authenticated from a bearer token the host issues, each
// accepted Command committed whole (a request-log entry and the head
// version together, with periodic snapshots) or not at all.
//
// docs/hosting.md describes the endpoints, the wire formats, the limits,
// the persistence layout and how the edge worker reuses the handlers.
package hosting
