package freeport

// Hooks for the external test package (conformance_test.go), which cannot
// reach unexported names.

// CheckInvariants is checkInvariants.
var CheckInvariants = checkInvariants

// TestGameJSON is the game file the package's own tests play, which must
// be the conformance suite's.
const TestGameJSON = testGameJSON
