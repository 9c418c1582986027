package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

// Scheduled batches from the command line: a run writes an index; a run of
// a copy of the same crawl against it drops every page with text for its
// copy (a record read again is its own exact copy) and names the segment;
// a run whose parameters differ from the segment's stops at launch with
// one line naming the parameter and exit status 2.
func TestCLIWriteIndexAndAgainst(t *testing.T) {
	dir := t.TempDir()
	ix := filepath.Join(dir, "index")
	in := "--input=" + filepath.Join(testdata, "dolma__sample-*.warc.gz")
	if code, _, stderr := cli(t, in, "--output="+filepath.Join(dir, "day1"), "--write_index="+ix); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	day1 := readSummaryFile(t, filepath.Join(dir, "day1"))
	if day1.IndexSegment == "" || day1.Kept == 0 {
		t.Fatalf("day 1: segment %q, %d kept", day1.IndexSegment, day1.Kept)
	}

	code, _, stderr := cli(t, in, "--output="+filepath.Join(dir, "bad"), "--against="+ix, "--tau=0.3")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "tau=0.2") || !strings.Contains(stderr, day1.IndexSegment) {
		t.Errorf("mismatch: exit %d, stderr:\n%s", code, stderr)
	}

	copied := filepath.Join(dir, "copy")
	os.MkdirAll(copied, 0o755)
	for _, name := range []string{"dolma__sample-0000.warc.gz", "dolma__sample-0001.warc.gz"} {
		os.WriteFile(filepath.Join(copied, name), readFileT(t, filepath.Join(testdata, name)), 0o644)
	}
	code, stdout, stderr := cli(t, "--input="+copied, "--output="+filepath.Join(dir, "again"), "--against="+ix)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	again := readSummaryFile(t, filepath.Join(dir, "again"))
	if want := fmt.Sprintf("; %d of them for pages of earlier runs)", again.DroppedForIndex); !strings.Contains(stdout, want) {
		t.Errorf("closing line does not say %q:\n%s", want, stdout)
	}
	if again.DroppedForIndex != again.Dropped || again.Dropped == 0 || again.Kept+again.Dropped != day1.Kept+day1.Dropped {
		t.Errorf("again: %d kept, %d dropped, %d for the index; day 1 had %d pages", again.Kept, again.Dropped, again.DroppedForIndex, day1.Kept+day1.Dropped)
	}
	b, err := os.ReadFile(filepath.Join(dir, "again", "decisions-00000-of-00001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var d output.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		if d.Keep && d.Method != dedup.DecideNoText || !d.Keep && d.KeptBySegment != day1.IndexSegment {
			t.Errorf("decision %s", l)
		}
	}
}

func readSummaryFile(t *testing.T, dir string) output.Summary {
	t.Helper()
	var sum output.Summary
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}
