package main

// Fault injection: scheduled runs killed at the named points of the commit
// protocol (internal/fault), run twice at once on one output or one index,
// and given damaged or mismatched index segments. Each test is one finding
// of an adversarial test of scheduled batches; scripts/kill-sequence.sh
// runs the randomized version (docs/robustness.md, "Kills and concurrent
// runs").

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/internal/fault"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
)

// The two days of the scheduled batches below.
var (
	day1Input = "--input=" + filepath.Join(testdata, "dolma__sample-0000.warc.gz")
	day2Input = "--input=" + filepath.Join(testdata, "dolma__sample-0001.warc.gz")
)

// cliFault runs ndd-beam with NDD_BEAM_FAULT=point.
func cliFault(t *testing.T, point string, args ...string) (int, string, string) {
	t.Helper()
	return cliEnv(t, []string{fault.Env + "=" + point}, args...)
}

// paused is a run stopped at a fault point (NDD_BEAM_FAULT=point:pause).
type paused struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	done   chan struct{}
}

// startPaused starts ndd-beam paused at point and returns once it says it
// is paused there; the test's cleanup kills it.
func startPaused(t *testing.T, point string, args ...string) *paused {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "NDD_BEAM_AS_CLI=1", fault.Env+"="+point+":pause")
	setParentDeathSignal(cmd)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &paused{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan struct{})}
	reached := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		said := false
		for sc.Scan() {
			p.stderr.WriteString(sc.Text() + "\n")
			if !said && strings.Contains(sc.Text(), "fault: paused at "+point) {
				said = true
				reached <- true
			}
		}
		if !said {
			reached <- false
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); <-p.done })
	select {
	case ok := <-reached:
		if !ok {
			<-p.done
			t.Fatalf("run ended before pausing at %s: %s", point, p.stderr)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("run did not pause at %s: %s", point, p.stderr)
	}
	return p
}

// kill kills the paused run (SIGKILL) and waits for it.
func (p *paused) kill() {
	p.cmd.Process.Kill()
	<-p.done
}

// wantRefusal checks a run refused at launch: exit 2, one line on stderr
// containing every want, nothing on stdout.
func wantRefusal(t *testing.T, what string, code int, stdout, stderr string, want ...string) {
	t.Helper()
	if code != 2 || strings.Count(stderr, "\n") != 1 || stdout != "" {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and one line", what, code, stdout, stderr)
		return
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: %q does not say %q", what, stderr, w)
		}
	}
}

// committed returns the names of the committed segments of the index ix.
func committed(t *testing.T, ix string) []string {
	t.Helper()
	segs, err := index.Segments(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range segs {
		names = append(names, filepath.Base(s))
	}
	return names
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// Killed at every named point of a run with --write_index and --against:
// the output has _SUCCESS only if the segment its summary names is
// committed; a segment whose run did not commit is never read (the next
// day's run drops nothing for it); the rerun of the killed day (with
// --overwrite) removes the partial segment on one line and ends with the
// same outputs and segment as an unkilled run.
func TestFaultKilledAtEachCommitPoint(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref")
	refIx := filepath.Join(ref, "index")
	if code, _, stderr := cli(t, day1Input, "--output="+filepath.Join(ref, "d1"), "--against="+refIx, "--write_index="+refIx, "--index_label=d1"); code != 0 {
		t.Fatalf("reference: exit %d: %s", code, stderr)
	}
	for _, point := range []string{fault.IndexFiles, fault.IndexCommitted, fault.OutputRenamed, fault.OutputCommitted} {
		t.Run(point, func(t *testing.T) {
			base := filepath.Join(dir, point)
			ix, out := filepath.Join(base, "index"), filepath.Join(base, "d1")
			args := []string{day1Input, "--output=" + out, "--against=" + ix, "--write_index=" + ix, "--index_label=d1"}
			code, stdout, _ := cliFault(t, point, args...)
			if code != 137 || stdout != "" {
				t.Fatalf("killed at %s: exit %d, stdout %q", point, code, stdout)
			}
			success := exists(filepath.Join(out, output.SuccessFile))
			segs := committed(t, ix)
			if success != (point == fault.OutputCommitted) || success != (len(segs) == 1) {
				t.Errorf("killed at %s: output _SUCCESS %v, committed segments %q", point, success, segs)
			}
			if !success {
				// A run against the index does not read the killed day's segment.
				code, stdout, stderr := cli(t, "--input="+copyDir(t, filepath.Join(testdata, "dolma__sample-0000.warc.gz")), "--output="+filepath.Join(base, "copy"), "--against="+ix)
				wantRefusal(t, "against the killed day's index", code, stdout, stderr, "no committed segment")
				// The rerun of day 1 removes the partial segment and commits.
				code, _, stderr = cli(t, append(args, "--overwrite")...)
				if code != 0 {
					t.Fatalf("rerun: exit %d: %s", code, stderr)
				}
				if !strings.Contains(stderr, "removed the partial segment segment-d1") {
					t.Errorf("rerun did not say it removed the partial segment: %q", stderr)
				}
			}
			for _, name := range []string{"decisions-00000-of-00001.jsonl", "clusters-00000-of-00001.jsonl", "pairs-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl"} {
				if !bytes.Equal(readFileT(t, filepath.Join(out, name)), readFileT(t, filepath.Join(ref, "d1", name))) {
					t.Errorf("%s differs from the unkilled run's", name)
				}
			}
			if !bytes.Equal(readFileT(t, filepath.Join(ix, "segment-d1", "pages-00000-of-00001.parquet")), readFileT(t, filepath.Join(refIx, "segment-d1", "pages-00000-of-00001.parquet"))) {
				t.Error("the segment differs from the unkilled run's")
			}
			if names := dirNamesT(t, out); slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, output.TempPrefix) }) {
				t.Errorf("temporary files left after the rerun: %q", names)
			}
		})
	}
}

// A committed day whose output directory is deleted afterwards, and the
// next day written to the same --output and --write_index: the first
// day's segment stays committed (the directory now holds the second run's
// lock and temporary files, not the first's), so the second day runs
// against it and does not remove it as partial.
func TestOutputReusedKeepsSegment(t *testing.T) {
	dir := t.TempDir()
	ix, out := filepath.Join(dir, "index"), filepath.Join(dir, "out")
	if code, _, stderr := cli(t, day1Input, "--output="+out, "--write_index="+ix, "--index_label=d1"); code != 0 {
		t.Fatalf("day 1: exit %d: %s", code, stderr)
	}
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, day2Input, "--output="+out, "--against="+ix, "--write_index="+ix, "--index_label=d2")
	if code != 0 {
		t.Fatalf("day 2: exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "removed the partial segment") {
		t.Errorf("day 2 removed day 1's committed segment: %q", stderr)
	}
	if segs := committed(t, ix); !slices.Equal(segs, []string{"segment-d1", "segment-d2"}) {
		t.Errorf("committed segments %q, want segment-d1 and segment-d2", segs)
	}
}

// lockLine is the refusal of a run on a directory in use.
var lockLine = regexp.MustCompile(`is in use by another run \(host [^,]+, pid (\d+), started [0-9TZ:-]+; lock `)

// Two runs on one --output: the second is refused at launch with one line
// naming the first (host, pid, start); the first, once killed, leaves a
// stale lock that the next run replaces and reports. With --overwrite the
// second run is refused all the same, and does not touch the first's
// files.
func TestFaultTwoRunsOneOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	first := startPaused(t, fault.Launched, day1Input, "--output="+out)
	for _, extra := range [][]string{nil, {"--overwrite"}} {
		code, stdout, stderr := cli(t, append([]string{day2Input, "--output=" + out}, extra...)...)
		wantRefusal(t, "second run", code, stdout, stderr, "--output", filepath.Join(out, storage.LockFile))
		if m := lockLine.FindStringSubmatch(stderr); m == nil || m[1] != itoa(first.cmd.Process.Pid) {
			t.Errorf("refusal %q does not name pid %d", stderr, first.cmd.Process.Pid)
		}
	}
	first.kill()
	code, stdout, stderr := cli(t, day2Input, "--output="+out)
	if code != 0 || !strings.Contains(stderr, "replaced the stale lock") || !strings.Contains(stderr, "pid "+itoa(first.cmd.Process.Pid)) {
		t.Errorf("after the first was killed: exit %d, %s%s", code, stdout, stderr)
	}
	if exists(filepath.Join(out, storage.LockFile)) {
		t.Error("the lock outlived the run that held it")
	}
}

// Two runs on one --write_index (each --against it): the second is refused
// at launch, so no two runs commit segments that do not see each other.
func TestFaultTwoRunsOneIndex(t *testing.T) {
	dir := t.TempDir()
	ix := filepath.Join(dir, "index")
	startPaused(t, fault.Launched, day1Input, "--output="+filepath.Join(dir, "a"), "--against="+ix, "--write_index="+ix)
	code, stdout, stderr := cli(t, day2Input, "--output="+filepath.Join(dir, "b"), "--against="+ix, "--write_index="+ix)
	wantRefusal(t, "second run on the index", code, stdout, stderr, "--write_index", "in use by another run", "pid ")
	if exists(filepath.Join(dir, "b", output.SuccessFile)) {
		t.Error("the refused run wrote an output")
	}
}

// A committed segment with a truncated Parquet file, a segment.json whose
// page count or file list disagrees with its files, a file swapped in from
// another segment, a run whose extraction caps differ from the index's:
// each a one-line refusal with status 2 naming the segment, never a panic.
func TestFaultDamagedOrMismatchedIndex(t *testing.T) {
	dir := t.TempDir()
	ix := filepath.Join(dir, "index")
	if code, _, stderr := cli(t, day1Input, "--output="+filepath.Join(dir, "d1"), "--write_index="+ix, "--index_label=d1"); code != 0 {
		t.Fatalf("day 1: exit %d: %s", code, stderr)
	}
	seg := filepath.Join(ix, "segment-d1")
	parquetFile := filepath.Join(seg, "pages-00000-of-00001.parquet")
	good, meta := readFileT(t, parquetFile), readFileT(t, filepath.Join(seg, index.MetaFile))
	n := 0
	day2 := func(extra ...string) (int, string, string) {
		n++
		return cli(t, append([]string{day2Input, "--output=" + filepath.Join(dir, "d2-"+itoa(n)), "--against=" + ix}, extra...)...)
	}

	os.WriteFile(parquetFile, good[:len(good)/2], 0o644)
	code, stdout, stderr := day2()
	wantRefusal(t, "truncated Parquet", code, stdout, stderr, "segment-d1", "not a whole Parquet file")
	os.WriteFile(parquetFile, good, 0o644)

	var m index.Meta
	json.Unmarshal(meta, &m)
	m.Pages++
	b, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(seg, index.MetaFile), b, 0o644)
	code, stdout, stderr = day2()
	wantRefusal(t, "wrong page count", code, stdout, stderr, "segment-d1", "pages")
	os.WriteFile(filepath.Join(seg, index.MetaFile), meta, 0o644)

	other := filepath.Join(dir, "other-index")
	if code, _, stderr := cli(t, day2Input, "--output="+filepath.Join(dir, "other"), "--write_index="+other, "--index_label=d2"); code != 0 {
		t.Fatalf("other index: exit %d: %s", code, stderr)
	}
	os.WriteFile(parquetFile, readFileT(t, filepath.Join(other, "segment-d2", "pages-00000-of-00001.parquet")), 0o644)
	code, stdout, stderr = day2()
	wantRefusal(t, "a file swapped in from another segment", code, stdout, stderr, "segment-d1", "pages-00000-of-00001.parquet", "bytes")
	os.WriteFile(parquetFile, good, 0o644)

	os.WriteFile(filepath.Join(seg, "pages-00001-of-00001.parquet"), good, 0o644)
	code, stdout, stderr = day2()
	wantRefusal(t, "a file segment.json does not list", code, stdout, stderr, "segment-d1", "pages-00001-of-00001.parquet")
	os.Remove(filepath.Join(seg, "pages-00001-of-00001.parquet"))

	for _, c := range []string{"--max_tokens=1000", "--max_signatures=100"} {
		code, stdout, stderr = day2(c)
		name := strings.TrimPrefix(strings.Split(c, "=")[0], "--")
		wantRefusal(t, c, code, stdout, stderr, "segment-d1", name+"=")
		code, stdout, stderr = cli(t, day2Input, "--output="+filepath.Join(dir, "w-"+name), "--write_index="+ix, c)
		wantRefusal(t, c+" with --write_index", code, stdout, stderr, "segment-d1", name+"=")
	}
	if code, stdout, stderr := day2(); code != 0 {
		t.Errorf("the intact index: exit %d: %s%s", code, stdout, stderr)
	}
}

// The index and the output mixed up: --write_index equal to --output, or
// inside it, is refused; a day run again --against an index that holds it
// is refused naming the segment (not every page dropped for itself); a
// --write_index that is a file is refused at launch, leaving no output.
func TestFaultIndexAndOutputMixedUp(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, ix := range []string{out, filepath.Join(out, "index")} {
		code, stdout, stderr := cli(t, day1Input, "--output="+out, "--write_index="+ix)
		wantRefusal(t, "--write_index="+ix, code, stdout, stderr, "--write_index", "--output")
	}
	ix := filepath.Join(dir, "index")
	if code, _, stderr := cli(t, day1Input, "--output="+filepath.Join(dir, "d1"), "--against="+ix, "--write_index="+ix, "--index_label=d1"); code != 0 {
		t.Fatalf("day 1: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cli(t, day1Input, "--output="+filepath.Join(dir, "again"), "--against="+ix, "--write_index="+ix)
	wantRefusal(t, "day 1 again", code, stdout, stderr, "segment-d1", "already holds", "remove that segment")
	if got := committed(t, ix); !slices.Equal(got, []string{"segment-d1"}) {
		t.Errorf("segments after the refusal: %q", got)
	}
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	code, stdout, stderr = cli(t, day2Input, "--output="+filepath.Join(dir, "d2"), "--write_index="+file)
	wantRefusal(t, "--write_index a file", code, stdout, stderr, "--write_index")
	if exists(filepath.Join(dir, "d2", output.SuccessFile)) {
		t.Error("_SUCCESS written by a run whose index could not be written")
	}
}

// One command for every day: --against=DIR --write_index=DIR on a new DIR
// starts the index on one line; segments are named by --index_label, by
// default the run's start time (they sort by time); the closing line names
// the segment written; --write_index alone checks the parameters of the
// segments there.
func TestFaultOneCommandEveryDay(t *testing.T) {
	dir := t.TempDir()
	ix := filepath.Join(dir, "index")
	code, stdout, stderr := cli(t, day1Input, "--output="+filepath.Join(dir, "d1"), "--against="+ix, "--write_index="+ix)
	if code != 0 || !strings.Contains(stderr, "this run starts it") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("first day: exit %d, stderr %q", code, stderr)
	}
	segs := committed(t, ix)
	if len(segs) != 1 || !regexp.MustCompile(`^segment-\d{8}T\d{6}\.\d{3}Z$`).MatchString(segs[0]) {
		t.Fatalf("segments %q, want one named by the start time", segs)
	}
	if !strings.HasSuffix(stdout, "; index segment "+filepath.Join(ix, segs[0])+" written\n") {
		t.Errorf("closing line does not name the segment: %q", stdout)
	}
	code, stdout, stderr = cli(t, day2Input, "--output="+filepath.Join(dir, "d2"), "--against="+ix, "--write_index="+ix)
	if code != 0 || stderr != "" {
		t.Fatalf("second day: exit %d, %s%s", code, stdout, stderr)
	}
	if segs := committed(t, ix); len(segs) != 2 || !slices.IsSorted(segs) {
		t.Errorf("segments %q", segs)
	}
	code, stdout, stderr = cli(t, day2Input, "--output="+filepath.Join(dir, "tau"), "--write_index="+ix, "--tau=0.3")
	wantRefusal(t, "--write_index with another tau", code, stdout, stderr, "tau=0.2")
}

// SIGINT and SIGTERM: one line, status 130 and 143, no temporary file, no
// index segment and no lock left; and a killed --overwrite rerun leaves the
// earlier output as it was (it is replaced only at the commit).
func TestFaultSignalsAndOverwrite(t *testing.T) {
	dir := t.TempDir()
	ix := filepath.Join(dir, "index")
	for _, sig := range []struct {
		s      syscall.Signal
		status int
		name   string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		out := filepath.Join(dir, sig.name)
		p := startPaused(t, fault.IndexFiles, day1Input, "--output="+out, "--write_index="+ix, "--index_label="+sig.name)
		p.cmd.Process.Signal(sig.s)
		<-p.done
		lines := strings.Split(strings.TrimSpace(p.stderr.String()), "\n")
		if code := p.cmd.ProcessState.ExitCode(); code != sig.status || len(lines) != 2 || !strings.Contains(lines[1], "stopped by "+sig.name) {
			t.Errorf("%s: exit %d, stderr %q", sig.name, code, p.stderr)
		}
		if names := dirNamesT(t, out); len(names) != 0 {
			t.Errorf("%s: output holds %q", sig.name, names)
		}
		if exists(filepath.Join(ix, "segment-"+sig.name)) || exists(filepath.Join(ix, storage.LockFile)) {
			t.Errorf("%s: segment or lock left: %q", sig.name, dirNamesT(t, ix))
		}
	}

	out := filepath.Join(dir, "kept")
	if code, _, stderr := cli(t, day1Input, "--output="+out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := map[string][]byte{}
	for _, n := range dirNamesT(t, out) {
		before[n] = readFileT(t, filepath.Join(out, n))
	}
	if code, _, _ := cliFault(t, fault.IndexFiles, day2Input, "--output="+out, "--overwrite", "--write_index="+ix); code != 137 {
		t.Fatalf("killed rerun: exit %d", code)
	}
	for n, b := range before {
		if got, err := os.ReadFile(filepath.Join(out, n)); err != nil || !bytes.Equal(got, b) {
			t.Errorf("killed --overwrite rerun changed %s", n)
		}
	}
}

// copyDir copies the files into a new directory, returned: the same
// bytes under other paths.
func copyDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), readFileT(t, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func itoa(n int) string { return strconv.Itoa(n) }
