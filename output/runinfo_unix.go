//go:build unix

package output

import (
	"syscall"
	"time"
)

// processCPU is this process's user + system CPU time (getrusage(2)), and
// whether it is known.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
