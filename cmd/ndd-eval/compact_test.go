package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/internal/fault"
	"github.com/ndd-beam/ndd-beam/internal/warcsplit"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/pipeline"
	"github.com/ndd-beam/ndd-beam/storage"
)

const testdata = "../../testdata"

// compactDays are the days of the index the compaction tests build: the
// Wayback crawl of testdata (pages of one topic captured again and again)
// dealt into quarters, and two other real crawls; day5 is the new batch:
// the last quarter and copies of day3's and day4's files.
type compactDays struct {
	dir   string
	days  []string // the input of days 1 to 4, in order
	new   string   // the new batch (a directory)
	index string
}

// buildCompactIndex runs days 1 to 4 of compactDays, each with
// --write_index (labels d1 … d4), on the direct runner.
func buildCompactIndex(t *testing.T) compactDays {
	t.Helper()
	dir := t.TempDir()
	halves := filepath.Join(dir, "halves")
	quarters := filepath.Join(dir, "quarters")
	for _, d := range []string{halves, filepath.Join(quarters, "a"), filepath.Join(quarters, "b")} {
		os.MkdirAll(d, 0o755)
	}
	a, b, err := warcsplit.Alternate(filepath.Join(testdata, "copycat__snapshot-wayback-topic-02.warc.gz"), halves)
	if err != nil {
		t.Fatal(err)
	}
	a1, a2, err := warcsplit.Alternate(a, filepath.Join(quarters, "a"))
	if err != nil {
		t.Fatal(err)
	}
	b1, _, err := warcsplit.Alternate(b, filepath.Join(quarters, "b"))
	if err != nil {
		t.Fatal(err)
	}
	c := compactDays{dir: dir, index: filepath.Join(dir, "index"), new: filepath.Join(dir, "new"),
		days: []string{a1, b1, filepath.Join(testdata, "dolma__sample-0000.warc.gz"), filepath.Join(testdata, "resiliparse__warcfile.warc.gz")}}
	os.MkdirAll(c.new, 0o755)
	for i, f := range []string{a2, c.days[2], c.days[3]} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(c.new, string(rune('a'+i))+"-"+filepath.Base(f)), data, 0o644)
	}
	for i, in := range c.days {
		label := "d" + string(rune('1'+i))
		runJobT(t, in, filepath.Join(dir, label), c.index, c.index, func(cfg *config.Config) {
			cfg.IndexLabel = label
			if i == 0 {
				cfg.Against = nil // the first day starts the index
			}
		})
	}
	return c
}

// jobOutputs are the sharded outputs a run against the index must give
// byte for byte the same.
var jobOutputs = []string{"decisions-00000-of-00001.jsonl", "pairs-00000-of-00001.jsonl", "clusters-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl"}

// A run against an index of four days gives the same decisions, pairs,
// clusters and rejects, byte for byte, before and after ndd-eval index
// compact merged the four segments into one: the pages dropped for index
// pages of three days still name each page's own segment, near-duplicates
// of index pages included. ndd-eval check accepts the output written
// before the compaction against the compacted index. Then the same with
// --max_segments: a fifth day, the two smallest segments merged.
func TestEvalIndexCompactSameDecisions(t *testing.T) {
	c := buildCompactIndex(t)
	before := filepath.Join(c.dir, "before")
	runJobT(t, c.new, before, c.index, "")
	near, bySegment := 0, map[string]int{}
	for l := range strings.Lines(string(readFileT(t, filepath.Join(before, jobOutputs[0])))) {
		var d output.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		if d.KeptBySegment != "" {
			bySegment[d.KeptBySegment]++
			if d.Jaccard < 1 {
				near++
			}
		}
	}
	if len(bySegment) < 3 || near == 0 {
		t.Errorf("pages dropped for index pages, per segment: %v, %d near-duplicates: the test does not test what it says", bySegment, near)
	}

	var stdout, stderr bytes.Buffer
	if code := runEvalIndex([]string{"compact", c.index}, &stdout, &stderr); code != 0 {
		t.Fatalf("compact: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "compacted 4 segments (segment-d1, segment-d2, segment-d3, segment-d4) into "+filepath.Join(c.index, "segment-d4~")) ||
		!strings.Contains(stdout.String(), "committed segments left: 1") {
		t.Errorf("compact said:\n%s", stdout.String())
	}
	if names := dirNames(t, c.index); len(names) != 1 || !strings.HasPrefix(names[0], "segment-d4~") {
		t.Errorf("index holds %q", names)
	}
	after := filepath.Join(c.dir, "after")
	runJobT(t, c.new, after, c.index, "")
	for _, name := range jobOutputs {
		if !bytes.Equal(readFileT(t, filepath.Join(before, name)), readFileT(t, filepath.Join(after, name))) {
			t.Errorf("%s against the compacted index differs from against the four segments", name)
		}
	}
	stdout.Reset()
	if code := runEvalCheck([]string{before}, &stdout, &stderr); code != 0 {
		t.Errorf("ndd-eval check of the earlier output against the compacted index: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}

	// A fifth day, then the two smallest segments merged (--max_segments 2).
	runJobT(t, filepath.Join(testdata, "commoncrawl-whirlwind__whirlwind.warc.gz"), filepath.Join(c.dir, "d5"), c.index, c.index,
		func(cfg *config.Config) { cfg.IndexLabel = "d5" })
	runJobT(t, c.new, filepath.Join(c.dir, "before5"), c.index, "")
	stdout.Reset()
	if code := runEvalIndex([]string{"compact", "--max_segments", "2", c.index}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "nothing to compact (2 committed segments, --max_segments 2)") {
		t.Errorf("--max_segments 2 of 2: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := runEvalIndex([]string{"compact", c.index}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "compacted 2 segments") {
		t.Errorf("compact again: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	runJobT(t, c.new, filepath.Join(c.dir, "after5"), c.index, "")
	for _, name := range jobOutputs {
		if !bytes.Equal(readFileT(t, filepath.Join(c.dir, "before5", name)), readFileT(t, filepath.Join(c.dir, "after5", name))) {
			t.Errorf("%s differs after the second compaction", name)
		}
	}
	stdout.Reset()
	code := runEvalIndex([]string{c.index}, &stdout, &stderr)
	i := strings.Index(stdout.String(), "\ntotal ")
	if f := strings.Fields(stdout.String()[i+1:]); code != 0 || i < 0 || len(f) < 6 || f[3] != "5" || f[4] != "1" || f[5] != "1" {
		t.Errorf("listing: exit %d, want 5 runs in 1 file of 1 segment\n%s", code, stdout.String())
	}
}

// Running a day again after its segment was compacted: a run whose label
// is a merged day's, or whose input a merged day read, is refused at
// launch naming that day and the compacted segment that holds it;
// compact --without leaves its pages out, and then the day runs again
// into a segment of its own, which the compacted one does not replace.
func TestEvalIndexCompactRerunDay(t *testing.T) {
	c := buildCompactIndex(t)
	var stdout, stderr bytes.Buffer
	if code := runEvalIndex([]string{"compact", c.index}, &stdout, &stderr); code != 0 {
		t.Fatalf("compact: exit %d: %s", code, stderr.String())
	}
	ctx := context.Background()
	rerun := func(label string) error {
		cfg := config.DefaultConfig()
		cfg.Input, cfg.Output, cfg.Runner = []string{c.days[2]}, filepath.Join(c.dir, "rerun-"+label), "direct"
		cfg.Against, cfg.WriteIndex, cfg.IndexLabel = []string{c.index}, c.index, label
		return pipeline.Validate(ctx, &cfg)
	}
	if err := rerun("d3"); err == nil || !strings.Contains(err.Error(), "segment segment-d3 is there already, compacted into segment-d4~") {
		t.Errorf("rerun with the label d3: %v", err)
	}
	err := rerun("d3b")
	if err == nil || !strings.Contains(err.Error(), "index segment segment-d3 (compacted into segment-d4~") || !strings.Contains(err.Error(), "--without=segment-d3") {
		t.Errorf("rerun of d3's input: %v", err)
	}
	stdout.Reset()
	if code := runEvalIndex([]string{"compact", "--without", "segment-d3", c.index}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "left out 24 pages of segment-d3") {
		t.Fatalf("--without: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if err := rerun("d3"); err != nil {
		t.Fatalf("rerun after --without: %v", err)
	}
	runJobT(t, c.days[2], filepath.Join(c.dir, "d3-again"), c.index, c.index, func(cfg *config.Config) { cfg.IndexLabel = "d3" })
	pages, infos, err := index.Load(ctx, []string{c.index}, index.AgreementOf(config.DefaultParams()))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pages {
		if p.Segment == "segment-d3" {
			n++
		}
	}
	if len(infos) != 2 || n != 24 {
		t.Errorf("%d segments, %d pages of segment-d3 after the rerun", len(infos), n)
	}
}

// Killed at each point of the compaction (internal/fault: the compacted
// segment's files written; committed; the first replaced segment
// removed): the index reads every page exactly once, named by its
// segment, as before; ndd-eval index lists what is left as partial; the
// next compaction replaces the dead process's lock, removes what is
// left, and ends with the pages of an unkilled compaction.
func TestEvalIndexCompactKilled(t *testing.T) {
	c := buildCompactIndex(t)
	ctx := context.Background()
	run := index.AgreementOf(config.DefaultParams())
	want := loadSorted(t, c.index, run)
	for _, point := range fault.CompactPoints {
		t.Run(point, func(t *testing.T) {
			ix := filepath.Join(t.TempDir(), "index")
			copyTree(t, c.index, ix)
			cmd := exec.Command(os.Args[0], "index", "compact", ix)
			cmd.Env = append(os.Environ(), "NDD_EVAL_AS_CLI=1", fault.Env+"="+point)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 137 {
				t.Fatalf("killed at %s: %v\n%s", point, err, out.String())
			}
			if got := loadSorted(t, ix, run); !slices.EqualFunc(got, want, samePrior) {
				t.Errorf("killed at %s: %d pages read, %d in the index", point, len(got), len(want))
			}
			var stdout, stderr bytes.Buffer
			if code := runEvalIndex([]string{ix}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "partial ") {
				t.Errorf("listing after the kill: exit %d\n%s%s", code, stdout.String(), stderr.String())
			}
			if point != fault.CompactFiles && !strings.Contains(stdout.String(), "replaced by the compacted segment segment-d4~") {
				t.Errorf("listing does not say the old segments are replaced:\n%s", stdout.String())
			}
			stdout.Reset()
			if code := runEvalIndex([]string{"compact", ix}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "replaced the stale lock") ||
				!strings.Contains(stdout.String(), "removed partial segment") {
				t.Errorf("compaction after the kill: exit %d\n%s%s", code, stdout.String(), stderr.String())
			}
			if got := loadSorted(t, ix, run); !slices.EqualFunc(got, want, samePrior) {
				t.Errorf("after the next compaction: %d pages read, %d in the index", len(got), len(want))
			}
			if names := dirNames(t, ix); len(names) != 1 || !strings.HasPrefix(names[0], "segment-d4~") {
				t.Errorf("index holds %q after the next compaction", names)
			}
		})
	}

	// A run holding the index's lock refuses the compaction (exit 2, the
	// run named), and the index is left as it was.
	lk, err := storage.TakeLock(ctx, c.index, "a-run")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := runEvalIndex([]string{"compact", c.index}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "in use by another run") {
		t.Errorf("compaction of a locked index: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	lk.Release(ctx)
	if names := dirNames(t, c.index); len(names) != 4 {
		t.Errorf("locked index changed: %q", names)
	}
}

// loadSorted is index.Load of dir, sorted by segment and page.
func loadSorted(t *testing.T, dir string, run index.Agreement) []dedup.Prior {
	t.Helper()
	pages, _, err := index.Load(context.Background(), []string{dir}, run)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(pages, func(a, b dedup.Prior) int { return strings.Compare(a.Segment+"\x00"+a.Key(), b.Segment+"\x00"+b.Key()) })
	return pages
}

// samePrior compares index pages field by field, an empty vector equal to
// a nil one.
func samePrior(a, b dedup.Prior) bool {
	return a.Ref == b.Ref && a.Rank == b.Rank && a.Digest == b.Digest && a.Date == b.Date && a.Lang == b.Lang && a.Segment == b.Segment && slices.Equal(a.Vec.Hashes, b.Vec.Hashes) &&
		slices.Equal(a.Vec.Freqs, b.Vec.Freqs) && a.Sketch.Words == b.Sketch.Words && slices.Equal(a.Sketch.Min, b.Sketch.Min)
}

func readFileT(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dirNames are the names in dir but the lock.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != storage.LockFile {
			names = append(names, e.Name())
		}
	}
	return names
}

// copyTree copies the directory tree src into dst (os.CopyFS: never
// over an existing file).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
