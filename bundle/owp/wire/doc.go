// Package wire holds the JSON shapes, codes, limits and byte layouts of the
// owp-market-local/0.2 protocol: the request signing string, the agent id,
// the HPKE context AAD and the response signature input. The market server
// (package owp) and the Go client (package owpclient) both speak through it;
// the conformance suite deliberately does not import it.
package wire
