// Package sim is the simulation kind ("simulation"): a week-based
// management game. A campaign declares stats that drift, a weekly budget of
// hours and money, activities with costs and effects, random incidents,
// event chains (some of which advance across games through the player's
// profile), an optional fixed investment account, and goals.
//
// The player builds a weekly plan with the verbs plan.add, plan.remove and
// plan.clear, and resolves it with end_week, which folds the week through a
// fixed, ordered list of pure systems (engine/pipeline): calendar, plan,
// upkeep, investment, drift, incidents, chains, goals, record. Each system
// reports what it changed as StateChanges, so a client can show "what
// changed this week". A game ends goals_met, failed or week_limit_reached.
//
// The contract for authors and client writers is docs/simulation-kind.md.
// Arithmetic is integer throughout: money is in cents, rates in basis
// points.
package sim
