package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/transforms"
)

// A failure at run time (here a dangling symlink matched by the input glob,
// which the job cannot open) is exit status 1 and one short line on stderr
// naming the file and the cause, not Beam's execution plan; no _SUCCESS.
func TestCLIRuntimeErrorIsOneLine(t *testing.T) {
	for _, runner := range []string{"direct", "prism"} {
		t.Run(runner, func(t *testing.T) {
			dir := t.TempDir()
			b, err := os.ReadFile(filepath.Join(testdata, "aut__example.warc.gz"))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, "good.warc.gz"), b, 0o644)
			if err := os.Symlink(filepath.Join(dir, "gone.warc.gz"), filepath.Join(dir, "dangling.warc.gz")); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			code, stdout, stderr := cli(t, "--input="+filepath.Join(dir, "*.warc.gz"), "--output="+out, "--runner="+runner)
			if code != 1 {
				t.Errorf("exit %d, want 1; stderr %.300q", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || len(stderr) > maxErrorLine+100 || !strings.Contains(stderr, "dangling.warc.gz") ||
				!strings.Contains(stderr, "no such file") || !strings.Contains(stderr, "in fileio.matchFn: ") || strings.Contains(stderr, "Plan[") || stdout != "" {
				t.Errorf("want one short line naming the file and the cause, got %d bytes:\n%.2000s", len(stderr), stderr)
			}
			if _, err := os.Stat(filepath.Join(out, transforms.SuccessFile)); err == nil {
				t.Error("_SUCCESS after a failed run")
			}
		})
	}
}
