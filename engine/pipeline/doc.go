// Package pipeline is the ordered system pipeline substrate (core
// specification §20): a fold of a frame through an explicit, caller-owned
// list of systems.
//
// The substrate applies the systems in exactly the order given, every one,
// every time. It never sorts, filters, deduplicates or skips, it reads no
// field of the frame, it emits nothing, draws no randomness, reads no clock
// and never recovers a panic: a system that panics is an engine defect and
// the panic reaches the caller with no partial commit. A terminal or failed
// result is a value a system writes into the frame, never a control-flow
// signal; where a turn stops early it stops in the caller's own loop.
//
// The orders themselves are owned by the kinds that run on it
// (docs/simulation-kind.md, docs/world-graph-kind.md). A kind that wants a
// trace event per system closes over the emission in the entry's Run when it
// builds its list.
package pipeline
