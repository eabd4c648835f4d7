// Package freeport is the Freeport trading game's Game Master (protocol
// v2, the specification's game-master-protocol-v2.md) as a pure reducer.
//
// A Game is a parsed game file: its Assets, Unit Prices, Starting Assets,
// Round settings and hidden Game Rules. A State is one game instance's whole
// canonical state, and it is a value:
//
//	game, err := freeport.ParseGame(fileBytes)
//	st := game.NewState(secretSeed)
//	st, resp := st.Apply(ownerID, nowUnixMillis, requestBody)
//
// Apply takes the request envelope's bytes, the Owner ID the host
// authenticated (never read from the payload) and the host's clock, and
// returns the next State and the response envelope's canonical bytes. It
// never modifies the State it is called on, so a host persists the returned
// State (Marshal) when its Version moved, comparing the stored version
// column, and otherwise keeps the old one: a Command commits whole, with its
// Ledger entries and stored response, or not at all. Randomness (the Game
// Rules' story lines and chances) is drawn from seeded streams of
// engine/rng, so a recorded request log replays to byte-identical responses.
//
// Nothing here performs I/O, reads a clock, starts a goroutine or holds
// global mutable state. docs/freeport.md describes the game file format,
// the wire format and the decisions this package takes where the
// specification is silent.
package freeport
