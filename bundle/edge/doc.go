// Package edge tests and measures Storyloom's edge worker (wasm/worker)
// natively: it builds the worker, runs it under `wrangler dev` on
// 127.0.0.1 with its local state (D1, the Durable Objects' storage) in a
// temporary directory, and plays the room and Freeport scenarios against
// it over HTTP and WebSockets and in headless Chromium, beside the same
// handlers served natively (bundle/hosting on bundle/hostingdb).
//
// The tests need the repository's node_modules (wrangler and workerd,
// installed by `make deps` or scripts/setup-node.sh) and fail when it is
// missing; STORYLOOM_SKIP_WORKER=1 skips them instead. docs/edge-worker.md
// describes the worker.
package edge
