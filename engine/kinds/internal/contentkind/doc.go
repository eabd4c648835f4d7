// Package contentkind holds what the kinds built from authored content —
// the simulation kind and the world-graph kind — do alike in implementing
// core.Kind: typed access to a campaign's content and a game's state,
// building, decoding and validating content, the frame of Advance (a
// foreign state, the refusals before a verb), of Scene and of
// AvailableActions (a foreign state, an ended game), migration,
// achievements, whether a condition holds, and numeric state changes.
//
// A kind describes itself once with a Spec; what differs between the kinds
// (their content, checks, verbs and views) stays in the kind.
//
// The story kind, whose content and state are its own, shares only the
// id migration (Migration, Keys, Declares).
package contentkind
