// Package ai holds the card game's AI players. Each kind picks a
// rooms.Choice from the same action list a human seat gets (its types,
// slots and candidates), reading the table only through the rules
// package's read-only queries: the seat's own view (so an AI knows what
// its seat may know and nothing more), the card pool, and the kind of a
// pending choice. The kinds are pure and deterministic: their only
// randomness is the *rng.Handle they are given.
//
// Kinds:
//   - random: any legal action but conceding, uniformly, with legal slot
//     answers (valid targets, payments that use each source once, blocks
//     that use each blocker once). It doubles as a fuzzing driver.
//   - pilot: a heuristic player (see docs/card-game.md, "AI players").
package ai
