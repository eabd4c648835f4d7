//go:build !unix

package nativehost_test

import "time"

// processCPU returns 0 where getrusage is not available: the CPU metrics
// then read 0.
func processCPU() time.Duration { return 0 }
