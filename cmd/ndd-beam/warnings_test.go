package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
)

// Inputs that hold no WARC record at all (a text file named .warc.gz, an
// empty file): one warning per file, then one error line, exit status 2,
// no _SUCCESS; the summary names each file and why.
func TestCLINoWARCRecordExits2(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "crawl")
	os.MkdirAll(in, 0o755)
	os.WriteFile(filepath.Join(in, "notes.warc.gz"), []byte("not a WARC file\n"), 0o644)
	os.WriteFile(filepath.Join(in, "empty.warc"), nil, 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := cli(t, "--input="+in, "--output="+out)
	want := "ndd-beam: warning: " + filepath.Join(in, "empty.warc") + ": empty (0 bytes) (empty-file)\n" +
		"ndd-beam: warning: " + filepath.Join(in, "notes.warc.gz") + ": holds no WARC record (no-warc-record)\n" +
		"ndd-beam: no WARC record was read from any input (2 files opened; 2 input files gave no WARC record, see the warnings above); rejects in " + filepath.Join(out, "rejects-*") + "\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(out, output.SuccessFile)); err == nil {
		t.Error("_SUCCESS after a run that read no WARC record")
	}
	sum := readSummaryFile(t, out)
	if len(sum.InputProblems) != 2 || sum.InputProblems[filepath.Join(in, "notes.warc.gz")] != output.ProblemNoWARCRecord || warcRecords(sum) != 0 {
		t.Errorf("input_problems %v, %d WARC records", sum.InputProblems, warcRecords(sum))
	}
}

// --output may hold only the job's own files, and may be neither an
// input folder nor inside one: each refused before reading, one line,
// exit status 2.
func TestCLIOutputChecks(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "crawl")
	os.MkdirAll(in, 0o755)
	os.WriteFile(filepath.Join(in, "a.warc.gz"), readFileT(t, filepath.Join(testdata, "dolma__sample-0000.warc.gz")), 0o644)
	notes := filepath.Join(dir, "notes")
	os.MkdirAll(notes, 0o755)
	os.WriteFile(filepath.Join(notes, "notes.txt"), []byte("mine"), 0o644)
	for _, tc := range []struct{ name, input, output, want string }{
		{"foreign file", in, notes, "holds files the job did not write (notes.txt)"},
		{"input folder", in, in, "is the folder of --input"},
		{"inside input folder", in, filepath.Join(in, "out"), "lies inside the input folder of --input"},
		{"folder of a glob", filepath.Join(in, "*.warc.gz"), in + "/", "is the folder of --input"},
		{"write_warc in input", in, filepath.Join(dir, "out") + " --write_warc=" + filepath.Join(in, "dedup"), "--write_warc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--input=" + tc.input}, strings.Split("--output="+tc.output, " ")...)
			code, _, stderr := cli(t, args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, tc.want)
			}
		})
	}
	if entries, _ := os.ReadDir(in); len(entries) != 1 {
		t.Errorf("the input folder holds %d entries after the refusals, want its one WARC file", len(entries))
	}
}
