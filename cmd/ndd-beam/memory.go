package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/KimMachineGun/automemlimit/memlimit"

	"github.com/ndd-beam/ndd-beam/config"
)

// setMemoryLimit applies --memory_limit to this process (the launcher, and
// each worker, which runs the same binary): a size is set as it is;
// config.MemoryLimitAuto leaves a GOMEMLIMIT the user set, and otherwise
// sets config.ContainerMemoryShare of the cgroup's memory limit, or
// config.SystemMemoryShare of the machine's memory when no cgroup limit
// applies (read by automemlimit: cgroup v1 and v2, and the total memory
// the OS reports); config.MemoryLimitOff sets none. It returns the limit
// in bytes (0: none set here) and where it came from, for the log.
func setMemoryLimit(value string) (int64, string, error) {
	n, err := config.ParseMemoryLimit(value)
	switch {
	case err != nil:
		return 0, "", err
	case value == config.MemoryLimitOff:
		return 0, "off", nil
	case n > 0:
		debug.SetMemoryLimit(n)
		return n, "--memory_limit", nil
	case os.Getenv("GOMEMLIMIT") != "":
		return debug.SetMemoryLimit(-1), "GOMEMLIMIT", nil
	}
	n, from := autoMemoryLimit()
	if n > 0 {
		debug.SetMemoryLimit(n)
	}
	return n, from, nil
}

// autoMemoryLimit is config.MemoryLimitAuto's limit without GOMEMLIMIT: a
// share of the cgroup's limit, else of the machine's memory; 0 when
// neither is known.
func autoMemoryLimit() (int64, string) {
	if c, err := memlimit.FromCgroup(); err == nil && c > 0 {
		return max(int64(float64(c)*config.ContainerMemoryShare), config.MinMemoryLimit), fmt.Sprintf("%.0f%% of the container's %d MiB", 100*config.ContainerMemoryShare, c>>20)
	}
	if s, err := memlimit.FromSystem(); err == nil && s > 0 {
		return max(int64(float64(s)*config.SystemMemoryShare), config.MinMemoryLimit), fmt.Sprintf("%.0f%% of the machine's %d MiB", 100*config.SystemMemoryShare, s>>20)
	}
	return 0, "unknown memory"
}
