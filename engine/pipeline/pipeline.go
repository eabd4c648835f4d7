package pipeline

// System is one entry of an ordered pipeline: an id, which the substrate
// never reads and which exists for the caller's documentation, traces and
// tests, and a total function from frame to frame.
type System[F any] struct {
	// ID names the system, e.g. "upkeep".
	ID string
	// Run takes the frame its predecessor returned and returns the frame
	// its successor receives.
	Run func(F) F
}

// Run folds f through systems in the order given and returns the last
// frame. Every system runs exactly once, in order; Run never sorts, skips,
// stops early, emits or recovers. An empty list returns f unchanged.
func Run[F any](systems []System[F], f F) F {
	for i := range systems {
		f = systems[i].Run(f)
	}
	return f
}

// IDs returns the systems' ids in order: the documented order of a
// pipeline, for tests and traces.
func IDs[F any](systems []System[F]) []string {
	out := make([]string, len(systems))
	for i, s := range systems {
		out[i] = s.ID
	}
	return out
}
