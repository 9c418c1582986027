package config

import (
	"fmt"
	"strconv"
	"strings"
)

// The job's soft memory limit (--memory_limit; runtime/debug.SetMemoryLimit,
// the limit GOMEMLIMIT sets). Beyond it the Go collector runs more often
// instead of letting the heap grow to twice the live data, which is what
// takes a large run past the machine's memory (docs/deploy.md, "Memory").

const (
	// MemoryLimitAuto derives the limit from the memory the job may use
	// (ContainerMemoryShare of a cgroup's limit, else SystemMemoryShare of
	// the machine's), unless GOMEMLIMIT is set, which then stands.
	MemoryLimitAuto = "auto"
	// MemoryLimitOff sets no limit (Go's default: GOGC alone).
	MemoryLimitOff = "off"
	// DefaultMemoryLimit is MemoryLimitAuto.
	DefaultMemoryLimit = MemoryLimitAuto
	// ContainerMemoryShare is the share of a container's memory limit
	// (cgroup v1 or v2) the job's heap may reach: the rest is the Go
	// runtime's own, stacks and the page cache of the files it reads.
	ContainerMemoryShare = 0.9
	// SystemMemoryShare is the share of the machine's memory the job's heap
	// may reach when no container limit applies: a workstation or a shared
	// batch host runs other things beside the job.
	SystemMemoryShare = 0.25
	// MinMemoryLimit is the smallest limit the job accepts (64 MiB): below
	// it the collector would run all the time.
	MinMemoryLimit = 64 << 20
)

// ParseMemoryLimit parses a --memory_limit value: MemoryLimitAuto,
// MemoryLimitOff, or a size in GOMEMLIMIT's syntax (an integer number of
// bytes with an optional unit B, KiB, MiB, GiB or TiB) of at least
// MinMemoryLimit. It returns the size in bytes (0 for auto and off).
func ParseMemoryLimit(s string) (int64, error) {
	switch s {
	case MemoryLimitAuto, MemoryLimitOff:
		return 0, nil
	}
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<63-1)>>shift {
		return 0, fmt.Errorf("want %s, %s or a size such as 4GiB (units B, KiB, MiB, GiB, TiB)", MemoryLimitAuto, MemoryLimitOff)
	}
	if n<<shift < MinMemoryLimit {
		return 0, fmt.Errorf("must be at least 64MiB")
	}
	return n << shift, nil
}
