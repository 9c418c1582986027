package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
)

var progressRE = regexp.MustCompile(`^ndd-beam: progress: (\d+) records, (\d+\.\d) MB read \((\d+\.\d) MB/s\), (\d+) documents, (\d+) pairs, (\S+) elapsed$`)

// progressLines returns the figures (records, documents, pairs) and the MB
// field of every progress line of stderr, failing on any other line.
func progressLines(t *testing.T, stderr string) (figs [][3]int64, mb []string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		m := progressRE.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("stderr line is not a progress line: %q", l)
			continue
		}
		var f [3]int64
		for i, s := range []string{m[1], m[4], m[5]} {
			f[i], _ = strconv.ParseInt(s, 10, 64)
		}
		figs = append(figs, f)
		mb = append(mb, m[2])
	}
	return figs, mb
}

// Progress on a local run: with --progress a line every --progress_interval
// while the job runs, counts never going down, and a last line whose
// records, pairs and MB read are the job's (summary.json; the sizes of the
// files read). --progress=false, and the default when stderr is not a
// terminal (as here), print none. On prism the DoFns run in this process
// (LOOPBACK workers), so its lines count the job too.
func TestCLIProgress(t *testing.T) {
	in := "--input=" + filepath.Join(testdata, "*.warc*")
	for _, runner := range []string{"direct", "prism"} {
		t.Run(runner, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cli(t, in, "--output="+out, "--runner="+runner, "--progress", "--progress_interval=100ms")
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			figs, mb := progressLines(t, stderr)
			if len(figs) < 2 {
				t.Fatalf("%d progress lines, want a periodic one and the last:\n%s", len(figs), stderr)
			}
			for i := 1; i < len(figs); i++ {
				for k := range 3 {
					if figs[i][k] < figs[i-1][k] {
						t.Errorf("line %d goes down: %v after %v", i, figs[i], figs[i-1])
					}
				}
			}
			var sum output.Summary
			b, err := os.ReadFile(filepath.Join(out, "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &sum); err != nil {
				t.Fatal(err)
			}
			var size int64
			for _, f := range sum.Files {
				st, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				size += st.Size()
			}
			last := figs[len(figs)-1]
			if last[0] != int64(sum.Records) || last[2] != int64(sum.Pairs) || last[1] < int64(sum.Documents) {
				t.Errorf("last line %v: want records %d, pairs %d, documents >= %d (summary.json)", last, sum.Records, sum.Pairs, sum.Documents)
			}
			if want := fmt.Sprintf("%.1f", float64(size)/1e6); mb[len(mb)-1] != want {
				t.Errorf("last line reads %s MB, the files hold %s MB", mb[len(mb)-1], want)
			}
		})
	}
	for name, args := range map[string][]string{"off": {"--progress=false"}, "default, not a terminal": nil} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cli(t, append([]string{in, "--output=" + out, "--progress_interval=100ms"}, args...)...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, want 0 and nothing on stderr, got:\n%s", code, stderr)
			}
		})
	}
	t.Run("bad value", func(t *testing.T) {
		code, _, stderr := cli(t, in, "--output="+t.TempDir(), "--progress=sometimes")
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "progress") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
}
