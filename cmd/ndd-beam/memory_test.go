package main

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
)

// The limit each --memory_limit value sets in the process, read back from
// the runtime; auto checked against the machine's memory as /proc/meminfo
// gives it (this machine has no cgroup memory limit; a container with one
// would take its share instead).
func TestSetMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	if n, from, err := setMemoryLimit("1GiB"); err != nil || n != 1<<30 || debug.SetMemoryLimit(-1) != 1<<30 || from != "--memory_limit" {
		t.Errorf("1GiB: %d %q %v, runtime %d", n, from, err, debug.SetMemoryLimit(-1))
	}
	if _, _, err := setMemoryLimit("1G"); err == nil {
		t.Error("1G accepted")
	}
	t.Setenv("GOMEMLIMIT", "2GiB")
	debug.SetMemoryLimit(2 << 30) // as the runtime does at start
	if n, from, err := setMemoryLimit("auto"); err != nil || n != 2<<30 || from != "GOMEMLIMIT" {
		t.Errorf("auto with GOMEMLIMIT: %d %q %v", n, from, err)
	}
	os.Unsetenv("GOMEMLIMIT")
	n, from, err := setMemoryLimit("auto")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(from, "container") {
		t.Skipf("in a container with a memory limit: %d bytes (%s)", n, from)
	}
	total := memTotal(t)
	if want := int64(float64(total) * config.SystemMemoryShare); n < want-1<<20 || n > want+1<<20 || debug.SetMemoryLimit(-1) != n {
		t.Errorf("auto: %d (%s), want %.0f%% of %d", n, from, 100*config.SystemMemoryShare, total)
	}
}

// memTotal is MemTotal of /proc/meminfo in bytes.
func memTotal(t *testing.T) int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no MemTotal in /proc/meminfo")
	return 0
}
