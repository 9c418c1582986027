package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
)

// TestMain lets the tests run this test binary as the ndd-beam command:
// with NDD_BEAM_AS_CLI=1 it runs main with the given arguments instead of
// the tests, so exit statuses and output are those a user sees.
func TestMain(m *testing.M) {
	if os.Getenv("NDD_BEAM_AS_CLI") == "1" {
		main()
		return
	}
	code := m.Run()
	if prismDir != "" {
		os.RemoveAll(prismDir)
	}
	os.Exit(code)
}

// cli runs ndd-beam with args and returns its exit status, stdout, stderr.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "NDD_BEAM_AS_CLI=1")
	return runCmd(t, cmd)
}

const testdata = "../../testdata"

// The README command with every other flag defaulted: the default runner
// is direct, the outputs are written and the closing line sums them up.
func TestCLIRunsWithDefaults(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out") + "/"
	code, stdout, stderr := cli(t, "--input="+filepath.Join(testdata, "dolma__sample-*.warc.gz"), "--output="+out)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var sum output.Summary
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	// MANIFEST.md: the two dolma samples hold 48 + 34 WARC records.
	if sum.Records != 82 || sum.Records != sum.Documents+sum.SkippedTotal() {
		t.Errorf("records %d (want 82) documents %d skipped %d", sum.Records, sum.Documents, sum.SkippedTotal())
	}
	if sum.Parameters.Tau != config.DefaultTau || sum.Parameters.Rho != 1000 {
		t.Errorf("defaults are not the paper's: tau %v rho %d", sum.Parameters.Tau, sum.Parameters.Rho)
	}
	for _, f := range []string{"pairs-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl", "decisions-00000-of-00001.jsonl", "clusters-00000-of-00001.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	kept := fmt.Sprintf("; kept %d pages, dropped %d (", sum.Kept, sum.Dropped)
	if !strings.Contains(stdout, fmt.Sprintf("ndd-beam: read %d pages and ", sum.Pages())) || !strings.Contains(stdout, kept) || sum.Kept == 0 || strings.Count(stdout, "\n") != 1 {
		t.Errorf("closing line: %q", stdout)
	}
	if strings.Contains(stderr, "level=INFO") {
		t.Errorf("Beam info logs on stderr by default:\n%.500s", stderr)
	}
}

// Usage errors: one line on stderr naming the problem, exit status 2.
func TestCLIUsageErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	in := "--input=" + filepath.Join(testdata, "*.warc.gz")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--tua=0.5", in, "--output=" + dir}, "unknown flag --tua; did you mean --tau?"},
		{"typo", []string{"--inptu=" + testdata, "--output=" + dir}, "did you mean --input?"},
		{"bad number", []string{"--tau=abc", in, "--output=" + dir}, "tau"},
		{"tau range", []string{"--tau=2", in, "--output=" + dir}, "--tau"},
		{"no match", []string{"--input=" + filepath.Join(dir, "none-*.warc.gz"), "--output=" + dir}, "matches no file"},
		{"unwritable output", []string{in, "--output=" + filepath.Join(file, "sub")}, "not writable"},
		{"matcher", []string{in, "--output=" + dir, "--matcher=fast"}, "--matcher"},
		{"keep", []string{in, "--output=" + dir, "--keep=newest"}, "--keep"},
		{"decide rounds", []string{in, "--output=" + dir, "--decide_rounds=-1"}, "--decide_rounds"},
		{"missing input", []string{"--output=" + dir}, "--input is required: a folder of WARC files, WARC file paths or globs, gs://, s3:// or http(s):// URLs, or @LIST files"},
		{"stray argument", []string{in, "--output=" + dir, "extra"}, "extra"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "goroutine") {
				t.Errorf("want one error line naming %q, got:\n%s", tc.want, stderr)
			}
		})
	}
}

func TestCLIHelp(t *testing.T) {
	code, stdout, _ := cli(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	// Grouped by task, the common flags first, every line within 80 columns.
	var at []int
	for _, head := range []string{"\nInput:\n  --input\n", "\nOutput:\n  --output\n", "\nScheduled batches (crawl after crawl):\n", "\nDecisions:\n  --tau=", "\nTuning", "\nRunner and command:\n", "\nRunner flags"} {
		i := strings.Index(stdout, head)
		if i < 0 || len(at) > 0 && i < at[len(at)-1] {
			t.Errorf("--help: %q missing or out of order", head)
		}
		at = append(at, i)
	}
	if strings.Contains(stdout, "\nOther:\n") {
		t.Errorf("--help has flags in no group (helpGroups):\n%s", stdout[strings.Index(stdout, "\nOther:\n"):])
	}
	for _, l := range strings.Split(stdout, "\n") {
		if n := len([]rune(l)); n > helpWidth && strings.Contains(l, " ") {
			t.Errorf("--help line of %d columns: %q", n, l)
		}
	}
	for _, want := range []string{"--tau", fmt.Sprintf("default %v", config.DefaultTau), "--rho", "default 1000", "--matcher", "--runner", "--dry_run"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// The Dataflow runner's --dry_run builds and translates the job without
// credentials or submitting it.
func TestCLIDataflowDryRun(t *testing.T) {
	code, _, stderr := cli(t, "--runner=dataflow", "--dry_run", "--project=p", "--region=us-central1",
		"--staging_location=gs://b/staging", "--input=gs://b/in/*.warc.gz", "--output=gs://b/out")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%.2000s", code, stderr)
	}
}
