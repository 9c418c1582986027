package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Dataflow's launch-time checks: a missing project, region or staging
// location, or a local input, output, staging or temp path, is one line
// naming the flag and exit status 2, before the job is built and without
// credentials.
func TestCLIDataflowLaunchChecks(t *testing.T) {
	good := map[string]string{
		"project": "p", "region": "us-central1", "staging_location": "gs://b/staging",
		"input": "gs://b/in/*.warc.gz", "output": "gs://b/out/",
	}
	cases := []struct {
		name string
		edit map[string]string
		want string
	}{
		{"no project", map[string]string{"project": ""}, "needs --project"},
		{"no region", map[string]string{"region": ""}, "needs --region"},
		{"no staging", map[string]string{"staging_location": ""}, "needs --staging_location"},
		{"local staging", map[string]string{"staging_location": "/tmp/staging"}, "--staging_location=/tmp/staging: --runner=dataflow needs a gs:// path"},
		{"local temp", map[string]string{"temp_location": "tmp/"}, "--temp_location=tmp/"},
		{"local input", map[string]string{"input": "gs://b/a.warc.gz," + filepath.Join(testdata, "*.warc.gz")}, "--input=" + filepath.Join(testdata, "*.warc.gz")},
		{"local output", map[string]string{"output": "out/"}, "--output=out/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--runner=dataflow", "--dry_run"}
			for _, k := range []string{"project", "region", "staging_location", "temp_location", "input", "output"} {
				v, ok := tc.edit[k]
				if !ok {
					v = good[k]
				}
				if v != "" {
					args = append(args, "--"+k+"="+v)
				}
			}
			cwd := t.TempDir()
			cmd := exec.Command(os.Args[0], args...)
			cmd.Dir = cwd
			cmd.Env = append(os.Environ(), "NDD_BEAM_AS_CLI=1", "GOOGLE_CLOUD_PROJECT=", "CLOUDSDK_COMPUTE_REGION=")
			start := time.Now()
			code, _, stderr := runCmd(t, cmd)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 2 and one line with %q; stderr:\n%s", code, tc.want, stderr)
			}
			if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
				t.Errorf("wrote %d files into the working directory", len(entries))
			}
		})
	}
}

// A read-only output directory is one line naming --output, exit status 2,
// and nothing written into it. As root (who may write anywhere) the
// directory is made read-only by a read-only bind mount in a private mount
// namespace (unshare -m); the test skips only when neither way exists.
func TestCLIReadOnlyOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(out, 0o755)
	args := []string{"--input=" + filepath.Join(testdata, "*.warc.gz"), "--output=" + out}
	var cmd *exec.Cmd
	if os.Geteuid() != 0 {
		cmd = exec.Command(os.Args[0], args...)
	} else {
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("root without unshare: no way to make a directory read-only")
		}
		if exec.Command(unshare, "-m", "true").Run() != nil {
			t.Skip("root, and unshare -m is not permitted: no way to make a directory read-only")
		}
		script := `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"`
		cmd = exec.Command(unshare, append([]string{"-m", "sh", "-c", script, "sh", out, os.Args[0]}, args...)...)
	}
	cmd.Env = append(os.Environ(), "NDD_BEAM_AS_CLI=1")
	code, stdout, stderr := runCmd(t, cmd)
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--output") || !strings.Contains(stderr, "not writable") {
		t.Errorf("exit %d, want 2 and one line naming --output; stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("%d files written into the read-only output", len(entries))
	}
}
