// Package rooms is Storyloom's pure room machine: the lobby and game-phase
// contract of the SAGE protocol (../shared/spec/sage-protocol.md) as one
// deterministic state machine that a host drives.
//
// A host (the native server in bundle/, the edge worker in wasm/worker)
// owns the sockets, the clock and the randomness; the machine owns every
// rule. The host creates a Server with New (or Restore), and feeds it what
// happens: Connect when a connection opens, Receive for every text frame,
// Disconnect when it closes, and Tick when the clock passes the instant
// NextWake reported. Each call returns the frames to send as Outbound
// values, each addressed to one connection id. Time is an argument in
// milliseconds and never read; session tokens, player ids, room ids and game
// seeds come from an IDSource the host passes in. The same inputs therefore
// produce the same state and the same frames, byte for byte.
//
// The whole state is one value that Marshal encodes as canonical JSON
// (engine/canon) and Restore decodes, so a host can persist it after every
// call (SQLite natively, D1 at the edge) and resume every room, seat and
// game after a restart.
//
// A multiplayer game plugs in through the Game and Position interfaces (the
// table-game seam): its seat range, setup, per-seat projection with
// redaction, valid actions per seat, apply, a timeout default and an AI
// policy. Games are registered explicitly with NewRegistry. The reference
// game lives in engine/rooms/cheat. docs/rooms.md maps the protocol's frames
// and fields onto this package and records where Storyloom decided what the
// card-game specification left open.
package rooms
