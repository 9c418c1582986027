package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
)

// A second run into a used output directory: exit 2, one line naming
// --overwrite, nothing touched; with --overwrite it runs and replaces the
// outputs, _SUCCESS last.
func TestCLIUsedOutput(t *testing.T) {
	out := t.TempDir()
	in := "--input=" + filepath.Join(testdata, "commoncrawl-whirlwind__whirlwind.warc.gz")
	if code, _, stderr := cli(t, in, "--output="+out); code != 0 {
		t.Fatalf("first run: exit %d:\n%s", code, stderr)
	}
	before := dirNamesT(t, out)
	code, stdout, stderr := cli(t, in, "--output="+out, "--shards=2")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--overwrite") || stdout != "" {
		t.Errorf("used output: exit %d, stderr %q, want 2 and one line naming --overwrite", code, stderr)
	}
	if got := dirNamesT(t, out); strings.Join(got, " ") != strings.Join(before, " ") {
		t.Errorf("refused run changed the directory: %q -> %q", before, got)
	}
	code, _, stderr = cli(t, in, "--output="+out, "--shards=2", "--overwrite")
	if code != 0 {
		t.Fatalf("--overwrite: exit %d:\n%s", code, stderr)
	}
	got := dirNamesT(t, out)
	if len(got) != 4*2+2 || got[0] != output.SuccessFile || strings.Contains(strings.Join(got, " "), "-of-00001") {
		t.Errorf("after --overwrite with 2 shards: %q", got)
	}
}

// A run killed (SIGKILL) while it writes its outputs leaves no file with a
// final name that is not complete, and no _SUCCESS unless every output was
// complete: files are written under temporary names and renamed at the end.
func TestCLIKilledRunLeavesNoFinishedLookingFile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the job several times")
	}
	in := "--input=" + filepath.Join(testdata, "*.warc.gz") + "," + filepath.Join(testdata, "*.warc")
	ref := t.TempDir()
	if code, _, stderr := cli(t, in, "--output="+ref, "--shards=16"); code != 0 {
		t.Fatalf("reference run: exit %d:\n%s", code, stderr)
	}
	for attempt := 0; attempt < 5; attempt++ {
		out := t.TempDir()
		cmd := exec.Command(os.Args[0], in, "--output="+out, "--shards=16")
		cmd.Env = append(os.Environ(), "NDD_BEAM_AS_CLI=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		caught := false
	poll:
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); {
			select {
			case <-done:
				break poll
			default:
			}
			for _, n := range dirNamesT(t, out) {
				if strings.HasPrefix(n, output.TempPrefix) {
					cmd.Process.Kill()
					caught = true
					break poll
				}
			}
			time.Sleep(200 * time.Microsecond)
		}
		cmd.Process.Kill()
		<-done
		if !caught {
			continue // finished before a temporary file was seen; try again
		}
		names := dirNamesT(t, out)
		success := false
		for _, n := range names {
			if strings.HasPrefix(n, output.TempPrefix) || n == output.ProbeFile || n == storage.LockFile {
				continue
			}
			if n == output.SuccessFile {
				success = true
				continue
			}
			got, want := readFileT(t, filepath.Join(out, n)), readFileT(t, filepath.Join(ref, n))
			if n == output.SummaryFile {
				// Its run times differ from the reference run's: complete is whole JSON.
				if !json.Valid(got) || !bytes.HasSuffix(got, []byte("}\n")) {
					t.Errorf("killed run left summary.json not complete: %q", got)
				}
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("killed run left %s with a final name but not complete (%d of %d bytes)", n, len(got), len(want))
			}
		}
		if success && len(slices.DeleteFunc(names, func(n string) bool { return n == storage.LockFile })) != len(dirNamesT(t, ref)) {
			t.Errorf("killed run left _SUCCESS beside an incomplete output: %q", names)
		}
		return
	}
	t.Fatal("no run was caught while writing its temporary files in 5 attempts")
}

func dirNamesT(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
