// Command bench is the tooling of `make bench` (scripts/bench.sh,
// docs/performance.md) beside the benchmarks themselves, which live in
// their packages' tests. It generates the peer comparison's story: one
// branching story both as a Storyloom story-graph campaign and as an ink
// story, which peer.mjs (in this folder) plays side by side in one Node
// process (the campaign on the Storyloom WASM module, the ink story on
// inkjs); it turns the browser benchmarks' output, and every figure the
// issues set a target for, into sections of the report; and it writes the
// report itself: the generated section of docs/performance.md, the charts
// in docs/perf/ and bench/out/results.json. wasmsize tells what a js/wasm
// module is made of.
//
// Usage:
//
//	go run ./bundle/bench gen -dir bench/out/peer [-nodes 300] [-seed 1] [-save-choices 10000 -save-seed 7]
//	go run ./bundle/bench browser -in bench/out/browser.txt -out bench/out/browser.json
//	go run ./bundle/bench targets -native bench/out/native.txt -wasm bench/out/wasm.txt -out bench/out/targets.json
//	go run ./bundle/bench report -native bench/out/native.txt [-wasm bench/out/wasm.txt] [-extra a.json,b.json]
//	go run ./bundle/bench wasmsize [-top 40] module.wasm
//
// The story has a few hundred nodes: choice nodes whose choices are
// conditioned on variables and on visit counts, random nodes with weighted
// transitions, integer and boolean variables changed on entry and by
// choices, and one ending gated so far away that a benchmark never reaches
// it. Both renderings come from one in-memory [Story], so they are the same
// graph; the random draws of the two runtimes differ (each uses its own
// generator), so the two plays take different paths through it.
package main
