//go:build unix

package match

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time: on a machine shared
// with other jobs, CPU seconds are the stable figure, wall time is not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
