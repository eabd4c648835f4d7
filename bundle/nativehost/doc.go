// Package nativehost assembles the native host that `bundle serve` runs:
// the room server and the Freeport endpoint of bundle/hosting on the
// SQLite store of bundle/hostingdb, restored from it at start, with a
// ticker driving the rooms' deadlines and the handlers mounted by route.
// The edge worker (wasm/worker) assembles the same handlers on D1 and a
// Durable Object instead. docs/hosting.md describes the host.
package nativehost
