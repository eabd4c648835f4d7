package rng

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// StreamID names one independent stream of a game's randomness. Its string
// form (String) is normative: changing it changes every seeded outcome.
type StreamID struct {
	kind    streamKind
	name    string // the system or agent id
	counter int64  // seq or tick
}

type streamKind uint8

const (
	streamAction streamKind = iota
	streamSystem
	streamAgent
	streamTick
)

// Action is the stream of the resolution of the action at log position seq:
// "action:${seq}".
func Action(seq int) StreamID { return StreamID{kind: streamAction, counter: int64(seq)} }

// System is a named system's stream at seq: "system:${system}:${seq}". The
// engine uses system "start" at seq 0 for a game's initial settle and
// "view" at the current seq for read-only projection.
func System(system string, seq int) StreamID {
	return StreamID{kind: streamSystem, name: system, counter: int64(seq)}
}

// Agent is a simulated agent's stream: "agent:${agentId}:${seq}", where seq
// is the agent's own draw counter kept in the kind's state, never the action
// sequence number.
func Agent(agentID string, seq int) StreamID {
	return StreamID{kind: streamAgent, name: agentID, counter: int64(seq)}
}

// Tick is a world-level stream keyed by simulated time:
// "tick:${tick}:${system}". Keying by tick rather than by action makes a batch
// of ticks draw exactly what the same ticks taken singly draw.
func Tick(tick int64, system string) StreamID {
	return StreamID{kind: streamTick, name: system, counter: tick}
}

// String returns the normative encoding of the stream id (spec §8).
func (s StreamID) String() string {
	return string(s.appendTo(make([]byte, 0, 32)))
}

func (s StreamID) appendTo(b []byte) []byte {
	switch s.kind {
	case streamAction:
		b = append(b, "action:"...)
		return strconv.AppendInt(b, s.counter, 10)
	case streamSystem:
		b = append(b, "system:"...)
		b = append(b, s.name...)
		b = append(b, ':')
		return strconv.AppendInt(b, s.counter, 10)
	case streamAgent:
		b = append(b, "agent:"...)
		b = append(b, s.name...)
		b = append(b, ':')
		return strconv.AppendInt(b, s.counter, 10)
	default:
		b = append(b, "tick:"...)
		b = strconv.AppendInt(b, s.counter, 10)
		b = append(b, ':')
		return append(b, s.name...)
	}
}

// DeriveSeed maps (seed, streamID) to the pcg32_srandom_r arguments of that
// stream: h = SHA-256(seed ‖ 0x00 ‖ streamID), initState = the first eight
// bytes of h and initSeq the next eight, both big-endian. The 0x00 separator
// cannot occur in either string's meaning, so no two pairs share an input.
// docs/randomness.md states this as the contract.
func DeriveSeed(seed, streamID string) (initState, initSeq uint64) {
	var buf [128]byte
	b := append(buf[:0], seed...)
	b = append(b, 0)
	return seedOf(append(b, streamID...))
}

// seedOf hashes a derivation input, seed ‖ 0x00 ‖ streamID, into the
// pcg32_srandom_r arguments.
func seedOf(input []byte) (initState, initSeq uint64) {
	h := sha256.Sum256(input)
	return binary.BigEndian.Uint64(h[0:8]), binary.BigEndian.Uint64(h[8:16])
}

// DeriveStream returns the generator of stream streamID under seed. It is a
// pure function: the same pair always yields the same generator.
func DeriveStream(seed, streamID string) *PCG32 {
	return NewPCG32(DeriveSeed(seed, streamID))
}

// For returns a fresh handle on stream id under seed. Its generator is
// derived on its first draw.
func For(seed string, id StreamID) *Handle {
	return &Handle{seed: seed, id: id}
}

// At is For by value, for a caller that keeps the handle inside a value of
// its own (the engine's resolution context) instead of allocating it apart.
func At(seed string, id StreamID) Handle {
	return Handle{seed: seed, id: id}
}
