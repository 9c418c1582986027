package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/pipeline"
)

// runJobT runs the job on the direct runner with input, into out, with
// the index flags given.
func runJobT(t *testing.T, input, out, against, writeIndex string, edit ...func(*config.Config)) {
	t.Helper()
	cfg := config.DefaultConfig()
	cfg.Input, cfg.Output, cfg.Runner, cfg.WriteIndex = []string{input}, out, "direct", writeIndex
	if against != "" {
		cfg.Against = []string{against}
	}
	for _, e := range edit {
		e(&cfg)
	}
	if err := pipeline.Validate(context.Background(), &cfg); err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(context.Background(), s, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := beam.Run(context.Background(), "direct", p); err != nil {
		t.Fatal(err)
	}
}

// ndd-eval check on a run --against an index: the pages dropped for pages
// of the index are checked against the index (a copy of day 1's crawl
// against day 1's index: every page dropped for its copy, all accepted);
// a kept_by_segment that names another segment is caught.
func TestEvalCheckAgainstOutput(t *testing.T) {
	dir := t.TempDir()
	ix := filepath.Join(dir, "index")
	day1 := filepath.Join("..", "..", "testdata", "dolma__sample-0000.warc.gz")
	runJobT(t, day1, filepath.Join(dir, "d1"), "", ix)
	copied := filepath.Join(dir, "copy.warc.gz")
	b, err := os.ReadFile(day1)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(copied, b, 0o644)
	out := filepath.Join(dir, "d2")
	runJobT(t, copied, out, ix, "")

	var stdout, stderr bytes.Buffer
	if code := runEvalCheck([]string{out}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "decisions: every kept_by") {
		t.Fatalf("correct --against output: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	decisions := filepath.Join(out, "decisions-00000-of-00001.jsonl")
	d, _ := os.ReadFile(decisions)
	if !strings.Contains(string(d), `"kept_by_segment":"segment-`) {
		t.Fatalf("no page dropped for the index:\n%s", d)
	}
	os.WriteFile(decisions, []byte(strings.Replace(string(d), `"kept_by_segment":"segment-`, `"kept_by_segment":"segment-x`, 1)), 0o644)
	stdout.Reset()
	if code := runEvalCheck([]string{out}, &stdout, &stderr); code != 1 || !strings.Contains(stdout.String(), "is not a page of index segment segment-x") {
		t.Errorf("wrong segment: exit %d\n%s", code, stdout.String())
	}
}
