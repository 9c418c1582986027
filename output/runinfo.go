package output

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// RunInfo is the "run" object of summary.json: when and with what the job
// ran. Start, End, WallSeconds, CPUSeconds and Runner differ between runs
// and runners by nature; Version, Revision and BeamSDK do not.
type RunInfo struct {
	Start       time.Time `json:"start"`        // when the job was built (UTC, RFC 3339)
	End         time.Time `json:"end"`          // when summary.json was assembled, its last step but the commit
	WallSeconds float64   `json:"wall_seconds"` // End - Start
	// CPUSeconds is the user + system CPU time of the launching process
	// from Start to End, when summary.json is written in that process (the
	// direct runner, prism in process, LOOPBACK workers); null when it is
	// written by a worker elsewhere, whose CPU time says nothing about the
	// job's.
	CPUSeconds *float64 `json:"cpu_seconds"`
	Version    string   `json:"version"`  // module version of the launching binary (runtime/debug build info)
	Revision   string   `json:"revision"` // its VCS revision, "+modified" if the tree was dirty; "" if unknown
	BeamSDK    string   `json:"beam_sdk"` // Apache Beam Go SDK version
	Runner     string   `json:"runner"`   // --runner
	// ID is the run ID (it names the run's temporary files; the
	// warcinfo records of --write_warc carry it too).
	ID string `json:"id"`
	// WorkingDirectory is the launching process's working directory:
	// the relative local paths of the outputs (file, kept_by_file) and of
	// summary.json's input and files are relative to it (ResolvePath).
	WorkingDirectory string `json:"working_directory"`
}

// ResolvePath returns p as a path a reader can open from anywhere: a
// relative local path joined to the run's working directory dir, and any
// other path (absolute, a URL, or dir "") as it is.
func ResolvePath(dir, p string) string {
	if dir == "" || p == "" || strings.Contains(p, "://") || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// launch holds the launching process's CPU time at NewRunInfo, by run ID.
var launch struct {
	sync.Mutex
	cpu map[string]time.Duration
}

// NewRunInfo starts the RunInfo of the run runID on runner with the Beam
// SDK of version beamSDK: Start now, the version from the build info.
func NewRunInfo(runID, runner, beamSDK string) RunInfo {
	ri := RunInfo{Start: time.Now().UTC(), BeamSDK: beamSDK, Runner: runner, ID: runID}
	ri.WorkingDirectory, _ = os.Getwd()
	ri.Version, ri.Revision = BuildVersion()
	launch.Lock()
	if launch.cpu == nil {
		launch.cpu = map[string]time.Duration{}
	}
	if cpu, ok := processCPU(); ok {
		launch.cpu[runID] = cpu
	}
	launch.Unlock()
	return ri
}

// Finish sets End, WallSeconds and, in the launching process (where
// NewRunInfo ran), CPUSeconds.
func (ri *RunInfo) Finish(runID string) {
	ri.End = time.Now().UTC()
	ri.WallSeconds = ri.End.Sub(ri.Start).Seconds()
	launch.Lock()
	start, ok := launch.cpu[runID]
	launch.Unlock()
	if now, known := processCPU(); ok && known {
		cpu := (now - start).Seconds()
		ri.CPUSeconds = &cpu
	}
}

// linkVersion and linkRevision are set at link time by make build and
// make worker (go build -ldflags "-X
// github.com/ndd-beam/ndd-beam/output.linkVersion=…"), from git: the
// go command records VCS settings in the build info only when it builds in
// a clone whose .git is a directory (not in a git worktree) and -buildvcs
// is not false, and never under go run or go test.
var linkVersion, linkRevision string

// BuildVersion returns this binary's module version and VCS revision: the
// ones stamped at link time (linkVersion, linkRevision) when set, else
// from its build info ("(devel)" and "" when built without them).
func BuildVersion() (version, revision string) {
	defer func() {
		if linkVersion != "" {
			version = linkVersion
		}
		if linkRevision != "" {
			revision = linkRevision
		}
	}()
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", ""
	}
	version = bi.Main.Version
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && revision != "" {
		revision += "+modified"
	}
	return version, revision
}
