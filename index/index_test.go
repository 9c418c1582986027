package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

func page(i int, vec spotsig.Vector) dedup.Prior {
	return dedup.Prior{
		Page: dedup.Page{Ref: warc.Ref{File: "crawl-1.warc.gz", Offset: int64(i * 1000), Inner: 0, RecordID: "urn:uuid:" + string(rune('a'+i%26)),
			URI: "http://example.com/" + string(rune('a'+i%26))}, Rank: "\x00\x01" + string(rune(i%200)), Digest: "0123456789abcdef0123456789abcdef", Date: "2024-01-02T03:04:05Z"},
		Lang: "en", Vec: vec,
	}
}

// A segment written and loaded gives the pages back, each named by its
// segment, with offset 0 and the empty vector of a page decided by its
// text, and ReadPagesWhere the rows it is asked for; row groups hold at
// most RowGroupRows rows.
func TestSegmentRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	var pages []dedup.Prior
	for i := range 2*RowGroupRows + 5 {
		v := spotsig.NewVector([]uint64{uint64(i), 1 << 63, uint64(i) * 7919, 1 << 63})
		if i%10 == 3 {
			v = spotsig.Vector{}
		}
		pages = append(pages, page(i, v))
	}
	if err := WriteSegment(ctx, dir, SegmentName("run1"), "2026-01-01T00:00:00Z", p, pages); err != nil {
		t.Fatal(err)
	}
	got, infos, err := Load(ctx, []string{dir}, AgreementOf(p))
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Meta.Pages != len(pages) || infos[0].Bytes == 0 {
		t.Fatalf("infos %+v", infos)
	}
	if len(got) != len(pages) {
		t.Fatalf("%d pages read, %d written", len(got), len(pages))
	}
	for i := range pages {
		want := pages[i]
		want.Segment = SegmentName("run1")
		if len(want.Vec.Hashes) == 0 {
			want.Vec = spotsig.Vector{}
		}
		g := got[i]
		if len(g.Vec.Hashes) == 0 {
			g.Vec = spotsig.Vector{}
		}
		if !reflect.DeepEqual(g, want) {
			t.Fatalf("page %d: read %+v, wrote %+v", i, g, want)
		}
	}
	// ReadPagesWhere shows want each row's text digest, URI and vector
	// only, and builds in full the rows it accepts.
	var some []dedup.Prior
	seen := 0
	if err := ReadPagesWhere(ctx, infos[0].Dir, infos[0].Meta, func(p dedup.Prior) bool {
		g := got[seen]
		if p.Digest != g.Digest || p.URI != g.URI || !reflect.DeepEqual(p.Vec.Hashes, g.Vec.Hashes) || p.RecordID != "" || p.Rank != "" || p.Sketch.Min != nil {
			t.Fatalf("row %d: want sees %+v", seen, p)
		}
		seen++
		return seen%3 == 1
	}, func(p dedup.Prior) error {
		some = append(some, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen != len(got) || len(some) != (len(got)+2)/3 {
		t.Fatalf("want saw %d rows of %d, accepted %d", seen, len(got), len(some))
	}
	for i, p := range some {
		if !reflect.DeepEqual(p, got[3*i]) {
			t.Fatalf("accepted row %d: %+v, read in full %+v", 3*i, p, got[3*i])
		}
	}
	pf, _ := openTestParquet(t, filepath.Join(infos[0].Dir, ShardName(0, 1)))
	if len(pf.RowGroups()) < 3 {
		t.Errorf("%d row groups for %d rows", len(pf.RowGroups()), len(pages))
	}
	for _, rg := range pf.RowGroups() {
		if rg.NumRows() > RowGroupRows {
			t.Errorf("row group of %d rows", rg.NumRows())
		}
	}
}

// openTestParquet opens Parquet file name for the test's length: the
// file and its size in bytes.
func openTestParquet(t *testing.T, name string) (*parquet.File, int64) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf, st.Size()
}

// A run whose parameters differ from a segment's is refused with the name
// of the first parameter that differs; a segment without _SUCCESS is not
// read; a directory's segments come in name order, and a segment directory
// names itself.
func TestCheckAndSegments(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	for _, name := range []string{"b", "a"} {
		if err := WriteSegment(ctx, dir, SegmentName(name), "", p, []dedup.Prior{page(1, spotsig.NewVector([]uint64{1, 2}))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, SegmentName("c")), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, SegmentName("c"), MetaFile), []byte("{"), 0o644)
	segs, err := Segments(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "segment-a"), filepath.Join(dir, "segment-b")}
	if !reflect.DeepEqual(segs, want) {
		t.Errorf("segments %q, want %q", segs, want)
	}
	if one, _ := Segments(ctx, want[1]); !reflect.DeepEqual(one, want[1:]) {
		t.Errorf("segment dir lists %q", one)
	}
	q := p
	q.Tau = 0.5
	_, _, err = Load(ctx, []string{dir}, AgreementOf(q))
	if err == nil || !strings.Contains(err.Error(), "tau=0.2") || !strings.Contains(err.Error(), "tau=0.5") || strings.Contains(err.Error(), "\n") {
		t.Errorf("tau mismatch: %v", err)
	}
	q = p
	q.Lang = "de"
	if _, _, err = Load(ctx, []string{dir}, AgreementOf(q)); err == nil || !strings.Contains(err.Error(), "lang=") {
		t.Errorf("lang mismatch: %v", err)
	}
	if _, _, err = Load(ctx, []string{t.TempDir()}, AgreementOf(p)); err == nil {
		t.Error("an empty directory loads")
	}
}

// The pages the dev gold set's run keeps come back from their segment as
// they were, and cost at most 1 KB each (the goal of docs/design.md,
// "Scheduled batches", where the logged figure is quoted).
func TestGoldSetSegment(t *testing.T) {
	if testing.Short() {
		t.Skip("dev gold set: slow")
	}
	gold := filepath.Join("..", "..", "shared", "data", "goldset", "gold.warc.gz")
	if _, err := os.Stat(gold); err != nil {
		t.Skipf("%s absent", gold)
	}
	ctx := context.Background()
	p := config.DefaultParams()
	res, err := dedup.Run(ctx, p, []string{gold})
	if err != nil {
		t.Fatal(err)
	}
	name := SegmentName("gold")
	pages := dedup.Priors(res, name)
	dir := t.TempDir()
	if err := WriteSegment(ctx, dir, name, "", p, pages); err != nil {
		t.Fatal(err)
	}
	got, infos, err := Load(ctx, []string{dir}, AgreementOf(p))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(pages) {
		t.Fatalf("%d pages read, %d written", len(got), len(pages))
	}
	sigs := 0
	for i := range pages {
		if len(pages[i].Vec.Hashes) == 0 && len(got[i].Vec.Hashes) == 0 {
			got[i].Vec = pages[i].Vec
		}
		if !reflect.DeepEqual(got[i], pages[i]) {
			t.Fatalf("page %d: read %+v, wrote %+v", i, got[i], pages[i])
		}
		sigs += len(pages[i].Vec.Hashes)
	}
	per := float64(infos[0].Bytes) / float64(len(pages))
	t.Logf("%d kept pages, %d distinct signatures, %d bytes: %.0f bytes per kept page", len(pages), sigs, infos[0].Bytes, per)
	// The vector and identity took about 0.8 KB a page; the main-text
	// sketch (128 × 4 bytes of random hashes, which do not compress) adds
	// about 0.5 KB. The budget with the sketch is 1.5 KB.
	if per > 1536 {
		t.Errorf("%.0f bytes per kept page, goal <= 1536", per)
	}
}

// Every leaf column of Row is read by the column reader (rowColumnSetters).
func TestRowColumnSettersCoverRow(t *testing.T) {
	want := parquet.SchemaOf(Row{}).Columns()
	if len(rowColumnSetters) != len(want) {
		t.Fatalf("Row has %d leaf columns, rowColumnSetters reads %d", len(want), len(rowColumnSetters))
	}
	if _, err := rowColumns(parquet.SchemaOf(Row{})); err != nil {
		t.Fatal(err)
	}
}
