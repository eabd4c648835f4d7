// Package serving holds the native HTTP server's protections against slow,
// idle and greedy clients: deadlines chosen per route (a page file, a
// command, a long poll, a WebSocket), timeouts for headers and for idle
// keep-alive connections, and a cap on the connections one client address
// may hold open. docs/hosting.md lists the figures a host can rely on.
package serving
