package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

// closingLineRE takes apart the closing line of a finished run.
var closingLineRE = regexp.MustCompile(`^ndd-beam: read (\d+) pages? and (\d+) other records?(?: \(([^)]*)\))? from (\d+) files?(?: \(\d+ input files? gave no WARC record: [^)]*\))?; kept (\d+) pages?, dropped (\d+) \((\d+) exact cop(?:y|ies), (\d+) near-duplicates?\); keep/drop per page in (\S+), all outputs in (\S+)\n$`)

// readLines reads the rows of the output files matching glob
// (output.ReadAll).
func readLines[T output.Row](t *testing.T, glob string) []T {
	t.Helper()
	rows, _, err := output.ReadAll[T](glob)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func readSummaryT(t *testing.T, dir string) output.Summary {
	t.Helper()
	var sum output.Summary
	if err := json.Unmarshal(readFileT(t, filepath.Join(dir, output.SummaryFile)), &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// A directory given as --input reads the WARC files directly in it, the
// same files as the glob DIR/*.warc* (testdata/warc-crafted, a
// subdirectory, is not entered), with byte-identical outputs. The closing
// line of that run speaks of pages, kept, dropped (exact copies and
// near-duplicates) and other records, and its numbers add up and agree
// with the output files: pages = decision lines = kept + dropped, exact
// copies = dropped lines at Jaccard 1, other records = rejects that are
// not pages, pages + other records = WARC records read.
func TestCLIDirectoryInputAndClosingLine(t *testing.T) {
	tmp := t.TempDir()
	byDir, byGlob := filepath.Join(tmp, "dir")+"/", filepath.Join(tmp, "glob")+"/"
	code, stdout, stderr := cli(t, "--input="+testdata, "--output="+byDir)
	if code != 0 {
		t.Fatalf("--input=%s: exit %d, stderr:\n%s", testdata, code, stderr)
	}
	if code, _, stderr := cli(t, "--input="+filepath.Join(testdata, "*.warc*"), "--output="+byGlob); code != 0 {
		t.Fatalf("glob: exit %d, stderr:\n%s", code, stderr)
	}
	sum, globSum := readSummaryT(t, byDir), readSummaryT(t, byGlob)
	wantFiles, _ := filepath.Glob(filepath.Join(testdata, "*.warc*"))
	if !slices.Equal(sum.Files, wantFiles) || !slices.Equal(globSum.Files, wantFiles) || len(wantFiles) < 9 {
		t.Errorf("files read from the directory:\n%q\nfrom the glob:\n%q\nwant %q", sum.Files, globSum.Files, wantFiles)
	}
	for _, name := range []string{"decisions", "clusters", "pairs", "rejects"} {
		f := output.JSONLines.ShardName(name, 0, 1)
		if string(readFileT(t, byDir+f)) != string(readFileT(t, byGlob+f)) {
			t.Errorf("%s differs between --input=DIR and --input=DIR/*.warc*", f)
		}
	}

	m := closingLineRE.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("closing line does not parse: %q", stdout)
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	pages, other, files, kept, dropped, exact, near := n(1), n(2), n(4), n(5), n(6), n(7), n(8)
	decisions := readLines[output.Decision](t, byDir+"decisions-*")
	var keptLines, dropLines, exactLines int
	for _, d := range decisions {
		switch {
		case d.Keep:
			keptLines++
		case d.Jaccard == 1:
			exactLines++
			dropLines++
		default:
			dropLines++
		}
	}
	rejects := readLines[output.Reject](t, byDir+"rejects-*")
	notPages := map[string]int{}
	for _, r := range rejects {
		if r.Reason != output.ReasonNoSignatures && r.Reason != output.ReasonTooFewSignatures {
			notPages[r.Reason]++
		}
	}
	var reasonSum int
	for _, part := range strings.Split(m[3], ", ") {
		reason, count, _ := strings.Cut(part, " ")
		c, _ := strconv.Atoi(count)
		if c != notPages[reason] || c == 0 {
			t.Errorf("other records %q: %d in the line, %d in rejects", reason, c, notPages[reason])
		}
		reasonSum += c
	}
	switch {
	case pages != len(decisions) || pages != kept+dropped:
		t.Errorf("pages %d, decision lines %d, kept %d + dropped %d", pages, len(decisions), kept, dropped)
	case kept != keptLines || dropped != dropLines || exact != exactLines || dropped != exact+near:
		t.Errorf("kept %d dropped %d (exact %d near %d); decision lines: kept %d dropped %d at Jaccard 1 %d", kept, dropped, exact, near, keptLines, dropLines, exactLines)
	case other != reasonSum || len(notPages) != len(strings.Split(m[3], ", ")):
		t.Errorf("other records %d, their reasons add up to %d, rejects that are not pages by reason: %v", other, reasonSum, notPages)
	case pages+other != sum.Records || files != len(wantFiles):
		t.Errorf("pages %d + other %d != records %d in summary.json, or files %d", pages, other, sum.Records, files)
	case exact == 0 || near == 0 || other == 0:
		t.Errorf("testdata holds exact copies, near-duplicates and other records: %q", stdout)
	case m[9] != byDir+"decisions-*" || m[10] != byDir:
		t.Errorf("outputs named %q and %q", m[9], m[10])
	}
	if sum.DroppedExact != exact || sum.Dropped != dropped || sum.Pages() != pages {
		t.Errorf("summary.json: dropped %d dropped_exact %d pages %d", sum.Dropped, sum.DroppedExact, sum.Pages())
	}
}

// Relative entries of a local input list are found beside the list, from
// any working directory; with --input_prefix under that prefix instead.
// A run that reads no input file (here: a list whose entries do not
// exist) exits 2 with one line naming why, the rejects written, and no
// _SUCCESS.
func TestCLIInputListRelativeToList(t *testing.T) {
	tmp := t.TempDir()
	lists := filepath.Join(tmp, "lists")
	os.MkdirAll(filepath.Join(lists, "crawl"), 0o755)
	for _, f := range []string{"aut__example.warc.gz", "dolma__sample-0000.warc.gz"} {
		os.WriteFile(filepath.Join(lists, "crawl", f), readFileT(t, filepath.Join(testdata, f)), 0o644)
	}
	os.WriteFile(filepath.Join(lists, "l.txt"), []byte("# beside the list\ncrawl/aut__example.warc.gz\ncrawl/dolma__sample-0000.warc.gz\n"), 0o644)

	out := filepath.Join(tmp, "out")
	code, stdout, stderr := cli(t, "--input=@"+filepath.Join(lists, "l.txt"), "--output="+out)
	if code != 0 || !strings.Contains(stdout, " from 2 files;") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	sum := readSummaryT(t, out)
	if want := []string{filepath.Join(lists, "crawl", "aut__example.warc.gz"), filepath.Join(lists, "crawl", "dolma__sample-0000.warc.gz")}; !slices.Equal(sum.Files, want) {
		t.Errorf("files %q, want %q", sum.Files, want)
	}

	// --input_prefix replaces the list's directory: nothing is there.
	out = filepath.Join(tmp, "out-prefix")
	code, stdout, stderr = cli(t, "--input=@"+filepath.Join(lists, "l.txt"), "--input_prefix="+filepath.Join(tmp, "elsewhere"), "--output="+out)
	missing := filepath.Join(tmp, "elsewhere", "crawl", "aut__example.warc.gz")
	lines := strings.SplitAfter(stderr, "\n")
	if code != 2 || stdout != "" || len(lines) != 4 || lines[0] != "ndd-beam: warning: "+missing+": missing or unreadable (unreadable-file)\n" ||
		!strings.HasPrefix(lines[2], "ndd-beam: no input file could be read (unreadable-file 2); first: "+missing+": ") ||
		!strings.Contains(stderr, "no such file") || !strings.Contains(stderr, filepath.Join(out, "rejects-*")) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line naming the missing file", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, output.SuccessFile)); err == nil {
		t.Error("_SUCCESS after a run that read no file")
	}
	if rejects := readLines[output.Reject](t, filepath.Join(out, "rejects-*")); len(rejects) != 2 || rejects[0].Reason != dedup.ReasonUnreadableFile {
		t.Errorf("rejects %+v, want the 2 missing files", rejects)
	}
	// The same line when the rejects are Parquet (output.Decode).
	out = filepath.Join(tmp, "out-parquet")
	code, _, stderr = cli(t, "--input=@"+filepath.Join(lists, "l.txt"), "--input_prefix="+filepath.Join(tmp, "elsewhere"), "--output="+out, "--output_format=parquet")
	if lines := strings.SplitAfter(stderr, "\n"); code != 2 || len(lines) != 4 || !strings.HasPrefix(lines[2], "ndd-beam: no input file could be read (unreadable-file 2); first: "+missing+": ") {
		t.Errorf("parquet: exit %d, stderr %q; want 2 and the line naming the missing file", code, stderr)
	}
}

// Inputs and outputs refused before anything runs, one line and exit 2: a
// directory without WARC files (subdirectories are not entered), --output=-
// (no directory "-" is made), a flag taken as the value of --output.
func TestCLIUnusableInputsAndOutputs(t *testing.T) {
	tmp := t.TempDir()
	nested := filepath.Join(tmp, "nested")
	os.MkdirAll(filepath.Join(nested, "sub"), 0o755)
	os.WriteFile(filepath.Join(nested, "sub", "a.warc.gz"), readFileT(t, filepath.Join(testdata, "aut__example.warc.gz")), 0o644)
	os.WriteFile(filepath.Join(nested, "notes.txt"), []byte("not a WARC file\n"), 0o644)
	good := "--input=" + filepath.Join(testdata, "aut__example.warc.gz")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--input=" + nested, "--output=" + filepath.Join(tmp, "o1")}, "is a directory with no .warc or .warc.gz file in it"},
		{[]string{good, "--output=-"}, "--output=-: the job writes a directory of files, not standard output"},
		{[]string{good, "--output", "--tau=0.3"}, `--output="--tau=0.3" looks like a flag`},
		{[]string{good, "--output=" + filepath.Join(tmp, "o*")}, "glob character"},
	} {
		code, stdout, stderr := cli(t, tc.args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line with %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`--output=- made a directory "-"`)
	}
}
