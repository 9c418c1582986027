package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
)

// A failure at run time is exit status 1 and one short line on stderr
// naming the failing step and the cause, not Beam's execution plan; no
// _SUCCESS. Here an input list on a web server is readable when the job
// is launched (pipeline.Validate reads it) and answers HTTP 500 when a
// worker reads it again.
func TestCLIRuntimeErrorIsOneLine(t *testing.T) {
	for _, runner := range []string{"direct", "prism"} {
		t.Run(runner, func(t *testing.T) {
			good, err := filepath.Abs(filepath.Join(testdata, "aut__example.warc.gz"))
			if err != nil {
				t.Fatal(err)
			}
			var gets atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if gets.Add(1) > 1 {
					http.Error(w, "gone", http.StatusInternalServerError)
					return
				}
				fmt.Fprintln(w, good)
			}))
			defer srv.Close()
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := cli(t, "--input=@"+srv.URL+"/list.txt", "--output="+out, "--runner="+runner)
			if code != 1 {
				t.Errorf("exit %d, want 1; stderr %.300q", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || len(stderr) > maxErrorLine+100 || !strings.Contains(stderr, srv.URL+"/list.txt") ||
				!strings.Contains(stderr, "HTTP 500") || !strings.Contains(stderr, "expandListFn: ") || strings.Contains(stderr, "Plan[") || stdout != "" {
				t.Errorf("want one short line naming the list, the cause and the step, got %d bytes:\n%.2000s", len(stderr), stderr)
			}
			if _, err := os.Stat(filepath.Join(out, output.SuccessFile)); err == nil {
				t.Error("_SUCCESS after a failed run")
			}
		})
	}
}

// Bad inputs that used to fail the job are rejects now: a dangling
// symbolic link and a FIFO matched by the glob, and an empty file; the job
// succeeds (exit 0), warns once per file on stderr, and its closing line
// counts them.
func TestCLIIrregularInputsAreRejects(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(testdata, "dolma__sample-0000.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "good.warc.gz"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "empty.warc.gz"), nil, 0o644)
	if err := os.Symlink(filepath.Join(dir, "gone.warc.gz"), filepath.Join(dir, "dangling.warc.gz")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(dir, "fifo.warc.gz")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "--input="+filepath.Join(dir, "*.warc.gz"), "--output="+filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d, stderr %.500q", code, stderr)
	}
	wantWarn := "ndd-beam: warning: " + filepath.Join(dir, "dangling.warc.gz") + ": not a regular file (irregular-file)\n" +
		"ndd-beam: warning: " + filepath.Join(dir, "empty.warc.gz") + ": empty (0 bytes) (empty-file)\n" +
		"ndd-beam: warning: " + filepath.Join(dir, "fifo.warc.gz") + ": not a regular file (irregular-file)\n"
	if stderr != wantWarn {
		t.Errorf("stderr %q, want a warning per file:\n%s", stderr, wantWarn)
	}
	for _, want := range []string{"irregular-file 2", "empty-file 1", "from 2 files (3 input files gave no WARC record"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("closing line lacks %q: %s", want, stdout)
		}
	}
}

// A bad input list is one line and exit status 2, before anything runs.
func TestCLIBadInputList(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "paths.txt.gz")
	os.WriteFile(bad, []byte("not gzip\n"), 0o644)
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("# nothing\n"), 0o644)
	for list, want := range map[string]string{
		bad:                               "not gzip",
		empty:                             "lists no path",
		filepath.Join(dir, "none.txt"):    "no such file",
		"http://127.0.0.1:1/paths.txt.gz": "connection refused",
	} {
		code, stdout, stderr := cli(t, "--input=@"+list, "--output="+filepath.Join(dir, "out"))
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, list) || !strings.Contains(stderr, want) || stdout != "" {
			t.Errorf("@%s: exit %d, stderr %q; want 2 and one line naming the list and %q", list, code, stderr, want)
		}
	}
}
