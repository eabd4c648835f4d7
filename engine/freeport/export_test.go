package freeport

// Hooks for the external test package (conformance_test.go), which cannot
// reach unexported names.

// CheckInvariants is checkInvariants.
var CheckInvariants = checkInvariants
