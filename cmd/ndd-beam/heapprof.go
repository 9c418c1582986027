package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"
)

// HeapProfilesEnv names the environment variable that makes a local run
// (direct, prism with LOOPBACK workers: where the DoFns run in this
// process) write heap profiles into the directory it gives: one each time
// the in-use heap passes its previous peak by 10 %, from 200 MB on,
// checked every 500 ms, named heap-NN-<MB>MB.pprof. docs/benchmarks.md
// ("Job cost") reads them with go tool pprof -sample_index=inuse_space.
const HeapProfilesEnv = "NDD_BEAM_HEAP_PROFILES"

// startHeapProfiles writes heap profiles into dir, every interval checking
// whether runtime.MemStats.HeapInuse has passed max(floor, 1.1 × the
// last profiled peak). It returns a function that stops it; errors
// (an unwritable dir) stop it with one line on stderr.
func startHeapProfiles(dir string, interval time.Duration, floor uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		var peak uint64
		for n := 0; ; {
			select {
			case <-done:
				return
			case <-t.C:
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse < floor || ms.HeapInuse <= peak+peak/10 {
				continue
			}
			peak = ms.HeapInuse
			if err := writeHeapProfile(filepath.Join(dir, fmt.Sprintf("heap-%02d-%dMB.pprof", n, peak>>20))); err != nil {
				fmt.Fprintf(os.Stderr, "ndd-beam: %s: %v; no more heap profiles\n", HeapProfilesEnv, err)
				return
			}
			n++
		}
	}()
	return func() { close(done); <-finished }
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// CPUProfileEnv names the environment variable that makes a local run
// write a CPU profile of the whole run (runtime/pprof) to the file it
// gives: where the direct runner spends its CPU, read with go tool pprof
// (docs/benchmarks.md, "Job cost").
const CPUProfileEnv = "NDD_BEAM_CPU_PROFILE"

// startCPUProfile starts profiling into a new file at path and returns the
// function that stops it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
