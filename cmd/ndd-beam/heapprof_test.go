package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// startHeapProfiles writes a readable heap profile once the in-use heap
// passes the floor, and no second one while it stays below 1.1 × that
// peak; an unwritable directory stops it without failing anything.
func TestStartHeapProfiles(t *testing.T) {
	dir := t.TempDir()
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, bytes.Repeat([]byte{1}, 1<<20)) // 64 MiB live
	}
	stop := startHeapProfiles(dir, 5*time.Millisecond, 32<<20)
	// Wait for the first profile as long as a loaded machine may take to
	// run the ticker (a fixed 200 ms failed once in CI, with every test
	// package running beside it), then 40 ticks more for a second one.
	glob := func() []string {
		files, _ := filepath.Glob(filepath.Join(dir, "heap-*.pprof"))
		return files
	}
	for deadline := time.Now().Add(20 * time.Second); len(glob()) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	stop()
	files := glob()
	if len(files) != 1 {
		t.Fatalf("%d heap profiles written, want 1 (heap steady above the floor): %q", len(files), files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil || len(p.Sample) == 0 {
		t.Errorf("%s: %v, %d samples", files[0], err, len(p.Sample))
	}
	if len(keep) != 64 {
		t.Fatal("live data lost")
	}
	startHeapProfiles(filepath.Join(dir, "missing"), time.Millisecond, 0)()
}

// NDD_BEAM_CPU_PROFILE: a run's CPU profile is written and parses, with
// samples of the work done while it ran; a path that cannot be created is
// an error.
func TestStartCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	stop, err := startCPUProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	x := uint64(1)
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		x = x*6364136223846793005 + 1442695040888963407
	}
	stop()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil || len(p.Sample) == 0 {
		t.Errorf("%s: %v, %d samples (x %d)", path, err, len(p.Sample), x)
	}
	if _, err := startCPUProfile(filepath.Join(t.TempDir(), "missing", "cpu.pprof")); err == nil {
		t.Error("profile into a missing directory: no error")
	}
}
