// Package rng is Storyloom's seeded randomness: the PCG32 generator
// (64-bit state, XSH-RR output), bit-identical to the reference pcg_basic
// implementation, and streams derived from a game's seed by a pure function.
//
// Randomness is derived, never carried (core specification §8): a resolution
// asks for the handle of its stream, draws from it and drops it. Nothing about
// a generator is ever stored in a game's state, so { seed, actionLog } is the
// whole replay input.
package rng
