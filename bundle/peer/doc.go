// Command peer is the generator and reporter behind the peer comparison of
// `make bench` (docs/performance.md): it writes one branching story both as
// a Storyloom story-graph campaign and as an ink story, so that
// bench/peer.mjs can play the two side by side in one Node process (the
// campaign on the Storyloom WASM module, the ink story on inkjs), and it
// turns the browser benchmarks' output, and every figure the issues set a
// target for, into sections of the report.
//
// Usage:
//
//	go run ./bundle/peer gen -dir bench/out/peer [-nodes 300] [-seed 1] [-save-choices 10000 -save-seed 7]
//	go run ./bundle/peer browser -in bench/out/browser.txt -out bench/out/browser.json
//	go run ./bundle/peer targets -native bench/out/native.txt -wasm bench/out/wasm.txt -out bench/out/targets.json
//
// The story has a few hundred nodes: choice nodes whose choices are
// conditioned on variables and on visit counts, random nodes with weighted
// transitions, integer and boolean variables changed on entry and by
// choices, and one ending gated so far away that a benchmark never reaches
// it. Both renderings come from one in-memory [Story], so they are the same
// graph; the random draws of the two runtimes differ (each uses its own
// generator), so the two plays take different paths through it.
package main
