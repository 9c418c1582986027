//go:build !unix

package output

import "time"

// processCPU is unknown where getrusage(2) is missing: summary.json's
// run.cpu_seconds is then null.
func processCPU() (time.Duration, bool) { return 0, false }
