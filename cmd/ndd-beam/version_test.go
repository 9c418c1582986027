package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core"
	"github.com/ndd-beam/ndd-beam/output"
)

func TestCLIVersion(t *testing.T) {
	code, stdout, stderr := cli(t, "--version")
	v, _ := output.BuildVersion()
	if code != 0 || strings.Count(stdout, "\n") != 1 || !strings.HasPrefix(stdout, "ndd-beam "+v+" revision ") ||
		!strings.Contains(stdout, "Beam Go SDK "+core.SdkVersion) || stderr != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// summary.json's run object: start before end within the test's span, wall
// seconds their difference, CPU seconds measured (the direct runner runs in
// the launching process), the build's version, Beam's SDK version, the
// runner.
func TestCLISummaryRunInfo(t *testing.T) {
	out := t.TempDir()
	before := time.Now().UTC()
	code, _, stderr := cli(t, "--input="+filepath.Join(testdata, "dolma__sample-*.warc.gz"), "--output="+out)
	after := time.Now().UTC()
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, output.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var sum output.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	r := sum.Run
	v, rev := output.BuildVersion()
	if r.Start.Before(before) || r.End.After(after) || r.End.Before(r.Start) {
		t.Errorf("start %v end %v outside the run [%v, %v]", r.Start, r.End, before, after)
	}
	if d := r.End.Sub(r.Start).Seconds() - r.WallSeconds; d > 1e-6 || d < -1e-6 {
		t.Errorf("wall_seconds %v, end - start %v", r.WallSeconds, r.End.Sub(r.Start).Seconds())
	}
	if r.CPUSeconds == nil || *r.CPUSeconds <= 0 || *r.CPUSeconds > after.Sub(before).Seconds()*float64(2*numCPU()) {
		t.Errorf("cpu_seconds %v", r.CPUSeconds)
	}
	if r.Version != v || r.Revision != rev || r.BeamSDK != core.SdkVersion || r.Runner != "direct" || sum.SchemaVersion != output.SchemaVersion || sum.SchemaVersion < 4 {
		t.Errorf("run %+v, schema %d", r, sum.SchemaVersion)
	}
}

func numCPU() int { return runtime.NumCPU() }

// The binary make build writes (the README's command) carries the version
// and git revision in --version and summary.json, also in a git worktree
// and under GOFLAGS=-buildvcs=false, where the go command records no VCS
// information; and its exit statuses are the documented ones (go run would
// turn the refusal's 2 into 1).
func TestMakeBuildStampsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "ndd-beam")
	build := exec.Command("make", "-C", "../..", "build", "BIN="+bin)
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	rev := strings.TrimSpace(string(head))
	code, stdout, stderr := runCmd(t, exec.Command(bin, "--version"))
	if code != 0 || !regexp.MustCompile(`^ndd-beam v\S+ revision `+rev+`(\+modified)? Beam Go SDK `).MatchString(stdout) {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q; want a v… version and revision %s", code, stdout, stderr, rev)
	}
	version := strings.Fields(stdout)[1]
	revision := strings.Fields(stdout)[3]

	out := filepath.Join(tmp, "out")
	args := []string{"--input=" + filepath.Join(testdata, "aut__example.warc.gz"), "--output=" + out}
	if code, _, stderr := runCmd(t, exec.Command(bin, args...)); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum output.Summary
	if err := json.Unmarshal(readFileT(t, filepath.Join(out, output.SummaryFile)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Run.Version != version || sum.Run.Revision != revision {
		t.Errorf("summary.json run: version %q revision %q, want %q %q", sum.Run.Version, sum.Run.Revision, version, revision)
	}
	if code, _, stderr := runCmd(t, exec.Command(bin, args...)); code != 2 || !strings.Contains(stderr, "--overwrite") {
		t.Errorf("second run into the same output: exit %d, want 2; stderr %q", code, stderr)
	}
}
