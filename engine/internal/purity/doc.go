// Package purity holds the test that keeps engine/ pure: no package under it
// may depend on I/O, the clock, the JavaScript bridge, global randomness, or
// any module outside the standard library.
package purity
