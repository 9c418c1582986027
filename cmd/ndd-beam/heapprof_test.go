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
	time.Sleep(200 * time.Millisecond)
	stop()
	files, _ := filepath.Glob(filepath.Join(dir, "heap-*.pprof"))
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
