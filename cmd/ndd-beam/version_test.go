package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core"

	"github.com/ndd-beam/ndd-beam/transforms"
)

func TestCLIVersion(t *testing.T) {
	code, stdout, stderr := cli(t, "--version")
	v, _ := transforms.BuildVersion()
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
	b, err := os.ReadFile(filepath.Join(out, transforms.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var sum transforms.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	r := sum.Run
	v, rev := transforms.BuildVersion()
	if r.Start.Before(before) || r.End.After(after) || r.End.Before(r.Start) {
		t.Errorf("start %v end %v outside the run [%v, %v]", r.Start, r.End, before, after)
	}
	if d := r.End.Sub(r.Start).Seconds() - r.WallSeconds; d > 1e-6 || d < -1e-6 {
		t.Errorf("wall_seconds %v, end - start %v", r.WallSeconds, r.End.Sub(r.Start).Seconds())
	}
	if r.CPUSeconds == nil || *r.CPUSeconds <= 0 || *r.CPUSeconds > after.Sub(before).Seconds()*float64(2*numCPU()) {
		t.Errorf("cpu_seconds %v", r.CPUSeconds)
	}
	if r.Version != v || r.Revision != rev || r.BeamSDK != core.SdkVersion || r.Runner != "direct" || sum.SchemaVersion != transforms.SchemaVersion || sum.SchemaVersion < 4 {
		t.Errorf("run %+v, schema %d", r, sum.SchemaVersion)
	}
}

func numCPU() int { return runtime.NumCPU() }
