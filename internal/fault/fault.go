// Package fault is the job's test-only fault injection: named points in
// the commit protocol (a run's, and an index compaction's: ndd-eval index
// compact) where a test (or scripts/kill-sequence.sh) makes the process
// die or pause, so that what a kill at that moment leaves behind can be
// checked. Nothing happens unless the environment variable Env names a
// point; no flag reaches it.
//
//	NDD_BEAM_FAULT=output-renamed          exit at once (status 137, as SIGKILL: no cleanup)
//	NDD_BEAM_FAULT=output-renamed:pause    print "ndd-beam: fault: paused at output-renamed" on stderr and wait to be killed
package fault

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// Env is the environment variable that names the point.
const Env = "NDD_BEAM_FAULT"

// The named points, in the order a run reaches them.
const (
	Launched        = "launched"         // locks taken, launch checks done, before the job runs
	IndexFiles      = "index-files"      // the segment's Parquet files written, before segment.json
	IndexCommitted  = "index-committed"  // the segment's _SUCCESS written, before the output commit
	OutputRenamed   = "output-renamed"   // every output renamed to its final name, before _SUCCESS
	OutputCommitted = "output-committed" // _SUCCESS written, before the locks are released
)

// The named points of index.Compact, in the order it reaches them.
const (
	CompactFiles     = "compact-files"     // the compacted segment's Parquet files written, before segment.json
	CompactCommitted = "compact-committed" // its _SUCCESS written, before the segments it replaces are removed
	CompactRemoving  = "compact-removing"  // the first of those removed, before the others
)

// Points lists the named points of a run.
var Points = []string{Launched, IndexFiles, IndexCommitted, OutputRenamed, OutputCommitted}

// CompactPoints lists the named points of a compaction.
var CompactPoints = []string{CompactFiles, CompactCommitted, CompactRemoving}

// At dies or pauses if Env names point; else it returns at once.
func At(point string) {
	v := os.Getenv(Env)
	if v == "" {
		return
	}
	name, mode, _ := strings.Cut(v, ":")
	if name != point {
		return
	}
	if mode == "pause" {
		fmt.Fprintf(os.Stderr, "ndd-beam: fault: paused at %s\n", point)
		for {
			time.Sleep(time.Hour)
		}
	}
	os.Exit(137)
}
