// Package edge tests and measures Storyloom's edge worker (wasm/worker)
// natively: it builds the worker, runs it under `wrangler dev` on
// 127.0.0.1 with a local D1 database in a temporary directory, and plays
// the room and Freeport scenarios against it over HTTP, beside the same
// handlers served natively (bundle/hosting on bundle/hoststore).
//
// The tests need the repository's node_modules (wrangler and workerd,
// installed by `make deps` or scripts/setup-node.sh) and fail when it is
// missing; STORYLOOM_SKIP_WORKER=1 skips them instead. docs/edge-worker.md
// describes the worker.
package edge
