// Package world is the world-graph kind ("world-graph"): a spatial world
// of nodes joined by edges where the player builds attractions, sets their
// price bands, hires staff, and advances simulated time in ticks while
// guests — agents with their own random streams — arrive, wander the
// graph, spend and leave.
//
// The verbs are build, demolish, set_price, hire, fire and advance_ticks.
// Each tick folds the world through a fixed, ordered list of pure systems
// (engine/pipeline): clock, incidents, arrivals, guests, breakdowns, staff,
// economy, objectives. World-level draws are keyed by simulated time
// (tick:<tick>:<system>) and each guest draws on agent:<guestId>:<seq> with
// its own counter, so advancing N ticks at once gives exactly the state of
// N single ticks. A game ends objectives_met or failed.
//
// The contract for authors and client writers is docs/world-graph-kind.md.
// Arithmetic is integer throughout: money is in cents, chances in percent
// or permille.
package world
