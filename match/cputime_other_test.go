//go:build !unix

package match

import "time"

// cpuTime is 0 where getrusage(2) is missing.
func cpuTime() time.Duration { return 0 }
