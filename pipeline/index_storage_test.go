package pipeline

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/ndd-beam/ndd-beam/index"
)

// againstObjectStore writes an index on an object store and runs a copy
// of the same crawl (the same bytes in other files: the files themselves
// are refused) against it: every page with text is dropped for its copy,
// named by the segment that holds it. Then a second day's segment is
// added and the index compacted (index.Compact) on the store: a run
// against it decides as against the two segments, line for line.
func againstObjectStore(t *testing.T, ix string) {
	t.Helper()
	cfg := testConfig([]string{filepath.Join(testdata, "dolma__sample-*.warc.gz")})
	cfg.WriteIndex = ix
	day1 := readSummary(t, runJob(t, "direct", cfg))
	infos, err := index.List(context.Background(), []string{ix})
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Meta.Segment != day1.IndexSegment || infos[0].Meta.Pages != day1.Kept || infos[0].Bytes == 0 {
		t.Fatalf("segments %+v; day 1 kept %d in %q", infos, day1.Kept, day1.IndexSegment)
	}
	cfg = testConfig([]string{filepath.Join(copyFiles(t, filepath.Join(testdata, "dolma__sample-*.warc.gz")), "*")})
	cfg.Against = []string{ix}
	again := readSummary(t, runJob(t, "direct", cfg))
	if again.Dropped == 0 || again.DroppedForIndex != again.Dropped || again.Kept+again.Dropped != day1.Kept+day1.Dropped {
		t.Errorf("again: %d kept, %d dropped, %d for the index; day 1: %d pages", again.Kept, again.Dropped, again.DroppedForIndex, day1.Kept+day1.Dropped)
	}

	day2 := testConfig([]string{filepath.Join(testdata, "resiliparse__warcfile.warc.gz")})
	day2.Against, day2.WriteIndex = []string{ix}, ix
	runJob(t, "direct", day2)
	cfg = testConfig([]string{filepath.Join(copyFiles(t, filepath.Join(testdata, "dolma__sample-0000.warc.gz")), "*"),
		filepath.Join(copyFiles(t, filepath.Join(testdata, "resiliparse__warcfile.warc.gz")), "*")})
	cfg.Against = []string{ix}
	before := runJob(t, "direct", cfg)
	c, err := index.Compact(context.Background(), ix, index.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if infos, err := index.List(context.Background(), []string{ix}); err != nil || len(infos) != 1 || len(infos[0].Meta.Runs()) != 2 || infos[0].Dir != c.Dir {
		t.Fatalf("after compaction: %+v, %v", infos, err)
	}
	cfg.Output = ""
	after := runJob(t, "direct", cfg)
	for _, name := range []string{"decisions", "clusters", "pairs"} {
		b, a := readLines(t, before, name, 1), readLines(t, after, name, 1)
		if !slices.Equal(b, a) || name == "decisions" && !slices.ContainsFunc(a, func(l string) bool { return strings.Contains(l, `"kept_by_segment":"`+day1.IndexSegment+`"`) }) {
			t.Errorf("%s against the compacted index: %d lines, %d before", name, len(a), len(b))
		}
	}
}

// copyFiles copies the files glob matches into a new directory, returned.
func copyFiles(t *testing.T, glob string) string {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob(glob)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// --write_index and --against on gs:// (fake-gcs-server).
func TestIndexOnGCS(t *testing.T) {
	fakeGCS(t)
	againstObjectStore(t, "gs://ndd/index/")
}

// --write_index and --against on s3:// (gofakes3).
func TestIndexOnS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("ndd"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	s3Env(t, srv.URL)
	againstObjectStore(t, "s3://ndd/index")
}
