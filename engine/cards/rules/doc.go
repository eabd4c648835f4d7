// Package rules is the card game's rules engine: one pure, deterministic
// value (State) with canonical bytes, played through legal actions
// (rooms.Action values) and answers (rooms.Choice) as the room machine
// asks. It holds the zones and object ids, the twelve steps, priority and
// the stack, mana and the payment solver, casting and activation, the
// effect interpreter with resumable mid-resolution choices, triggers,
// characteristics computed in layer order, combat, state-based actions,
// the London mulligan, commander rules, and the per-seat projection.
// docs/card-game.md describes the rules as built.
package rules
