// Package layers holds the test that keeps the module's packages in their
// layers: the engine's foundations, its seams, the kinds and games built on
// them, the shipped files, the hosts' libraries and, on top, the programs and
// their tests. A package may import one in its own layer or below, never one
// above, and every package has a layer (a new one must be placed).
package layers
