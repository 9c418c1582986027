package index

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/warc"
)

// segmentPages are n pages of a segment labelled label, each its own
// identity and vector (every 7th page decided by its text: no vector).
func segmentPages(label string, n int) []dedup.Prior {
	var pages []dedup.Prior
	for i := range n {
		v := spotsig.NewVector([]uint64{uint64(i), uint64(len(label)) << 40, uint64(i) * 7919})
		if i%7 == 3 {
			v = spotsig.Vector{}
		}
		pages = append(pages, dedup.Prior{
			Page: dedup.Page{Ref: warc.Ref{File: label + ".warc.gz", Offset: int64(i) * 1000, RecordID: fmt.Sprintf("urn:uuid:%s-%d", label, i),
				URI: fmt.Sprintf("http://%s.example/%d", label, i)}, Rank: fmt.Sprintf("\x00%s%06d", label, i), Digest: fmt.Sprintf("%032x", i), Date: "2026-01-02T03:04:05Z"},
			Lang: "en", Vec: v, Sketch: spotsig.Sketch{Words: uint32(i), Min: []uint32{uint32(i), uint32(i) + 9}},
		})
	}
	return pages
}

// writeIndex writes one segment per label, of the given pages each, with
// its inputs.
func writeIndex(t *testing.T, dir string, p config.Params, sizes map[string]int) {
	t.Helper()
	ctx := context.Background()
	for _, label := range slices.Sorted(maps.Keys(sizes)) {
		name := SegmentName(label)
		if err := WriteSegment(ctx, dir, name, "2026-01-01T00:00:00Z", p, segmentPages(label, sizes[label])); err != nil {
			t.Fatal(err)
		}
		// WriteSegment records no inputs; a run's segment has them.
		m, err := ReadMeta(ctx, Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		m.Inputs = []string{"/crawl/" + label + ".warc.gz"}
		if err := Commit(ctx, Join(dir, name), m); err != nil {
			t.Fatal(err)
		}
	}
}

// loadAll is Load of dir, pages sorted by segment and identity.
func loadAll(t *testing.T, dir string, p config.Params) []dedup.Prior {
	t.Helper()
	pages, _, err := Load(context.Background(), []string{dir}, AgreementOf(p))
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(pages, func(a, b dedup.Prior) int {
		return strings.Compare(a.Segment+"\x00"+a.Key(), b.Segment+"\x00"+b.Key())
	})
	for i := range pages {
		if len(pages[i].Vec.Hashes) == 0 {
			pages[i].Vec = spotsig.Vector{}
		}
	}
	return pages
}

// rawRows reads the rows of every Parquet file of the committed segments
// of dir with parquet-go's own reader (not readFileRows), each named by
// its run segment, sorted.
func rawRows(t *testing.T, dir string) []Row {
	t.Helper()
	infos, err := List(context.Background(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	for _, in := range infos {
		for _, f := range in.Meta.Files {
			got, err := parquet.ReadFile[Row](filepath.Join(in.Dir, f))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range got {
				if r.Segment == "" {
					r.Segment = in.Meta.Segment
				}
				rows = append(rows, r)
			}
		}
	}
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.Segment+a.RecordID, b.Segment+b.RecordID) })
	return rows
}

// Every committed segment merged into one: its rows are the rows of the
// segments it replaces, byte for byte in every column, each naming its
// run segment; a run against the index reads the same pages named the
// same; the files hold at most FileRows rows each; the old segments are
// gone and no lock is left.
func TestCompactMergesEveryRow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	writeIndex(t, dir, p, map[string]int{"20260101": 30, "20260102": RowGroupRows + 20, "20260103": 0, "20260104": 7})
	before := loadAll(t, dir, p)
	rowsBefore := rawRows(t, dir)
	now := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	c, err := Compact(ctx, dir, CompactOptions{FileRows: 4000, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if want := SegmentName("20260104~20260201T120000.000Z"); c.Meta.Segment != want || c.Dir != filepath.Join(dir, want) {
		t.Errorf("compacted segment %s in %s, want %s", c.Meta.Segment, c.Dir, want)
	}
	if len(c.Merged) != 4 || c.Segments != 1 || c.Meta.Pages != len(before) || len(c.Meta.Merged) != 4 || len(c.Meta.Replaces) != 4 {
		t.Fatalf("compaction %+v", c)
	}
	if got := loadAll(t, dir, p); !reflect.DeepEqual(got, before) {
		t.Errorf("pages after compaction differ: %d pages, %d before", len(got), len(before))
	}
	if got := rawRows(t, dir); !reflect.DeepEqual(got, rowsBefore) {
		t.Errorf("rows after compaction differ")
	}
	if want := (len(before) + 3999) / 4000; len(c.Meta.Files) != want {
		t.Errorf("%d files for %d rows of at most 4000, want %d", len(c.Meta.Files), len(before), want)
	}
	for _, f := range c.Meta.Files {
		got, err := parquet.ReadFile[Row](filepath.Join(c.Dir, f))
		if err != nil || len(got) > 4000 || len(got) == 0 {
			t.Errorf("%s: %d rows, %v", f, len(got), err)
		}
	}
	infos, err := List(ctx, []string{dir})
	if err != nil || len(infos) != 1 || Verify(ctx, infos[0]) != nil {
		t.Fatalf("after compaction: %+v, %v", infos, err)
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Errorf("index holds %d entries, want the compacted segment alone", len(names))
	}
	if runs := infos[0].Meta.Runs(); len(runs) != 4 || runs[0].Segment != "segment-20260101" || runs[1].Pages != RowGroupRows+20 || runs[2].Pages != 0 ||
		!slices.Equal(runs[3].Inputs, []string{"/crawl/20260104.warc.gz"}) {
		t.Errorf("runs %+v", runs)
	}

	// A compaction of one segment has nothing to do.
	if c, err := Compact(ctx, dir, CompactOptions{}); err != nil || len(c.Merged) != 0 || c.Segments != 1 {
		t.Errorf("second compaction: %+v, %v", c, err)
	}
}

// --max_segments: the smallest segments are merged, as few as leave the
// count; a compacted segment merged again keeps each page's run segment,
// and the later compacted segment sorts after the one it replaces.
func TestCompactSmallestAndAgain(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	writeIndex(t, dir, p, map[string]int{"d1": 400, "d2": 3, "d3": 5, "d4": 200, "d5": 2})
	before := loadAll(t, dir, p)
	c, err := Compact(ctx, dir, CompactOptions{MaxSegments: 3, Now: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	var merged []string
	for _, in := range c.Merged {
		merged = append(merged, in.Meta.Segment)
	}
	if !slices.Equal(merged, []string{"segment-d2", "segment-d3", "segment-d5"}) || c.Segments != 3 {
		t.Errorf("merged %q, %d segments left", merged, c.Segments)
	}
	if got := loadAll(t, dir, p); !reflect.DeepEqual(got, before) {
		t.Error("pages differ after merging the smallest")
	}
	first := c.Meta.Segment
	if c, err = Compact(ctx, dir, CompactOptions{MaxSegments: 3}); err != nil || len(c.Merged) != 0 {
		t.Errorf("within --max_segments: %+v, %v", c, err)
	}
	c, err = Compact(ctx, dir, CompactOptions{Now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if c.Meta.Segment <= first || c.Segments != 1 || len(c.Meta.Merged) != 5 || !slices.Contains(c.Meta.Replaces, first) {
		t.Errorf("second compaction: %s after %s, %d segments, merged %+v", c.Meta.Segment, first, c.Segments, c.Meta.Merged)
	}
	if got := loadAll(t, dir, p); !reflect.DeepEqual(got, before) {
		t.Error("pages differ after compacting a compacted segment")
	}
}

// A compacted segment's name sorts after every segment it replaces, as a
// name (a local listing) and as the prefix of its files (an object
// store's listing), whatever their labels; Scan relies on it.
func TestCompactedNameSortsAfter(t *testing.T) {
	now := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	for _, merged := range [][]string{
		{"segment-20260101T000000.000Z", "segment-20260131T000000.000Z"},
		{"segment-d3", "segment-d3-x", "segment-d30", "segment-d3.b", "segment-d3_c"},
		{"segment-a~20260101T000000.000Z", "segment-b"},
		{"segment-z~20270101T000000.000Z"}, // a clock that went back
		{"segment-z~20270101T000000.000Z", "segment-z"},
	} {
		name := compactedName(merged, now)
		if !sortsAfter(name, merged) || !strings.HasPrefix(name, segPrefix) {
			t.Errorf("%q: %s does not sort after them", merged, name)
		}
	}
	if got := compactedName([]string{"segment-d1", "segment-d2~20260115T000000.000Z"}, now); got != "segment-d2~20260201T000000.000Z" {
		t.Errorf("name %s", got)
	}
}

// Segments written with other parameters are not merged: the error names
// both and the parameter, and nothing is written or removed. A damaged
// segment is refused the same way. A run's lock refuses the compaction.
func TestCompactRefusals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	writeIndex(t, dir, p, map[string]int{"a": 3})
	q := p
	q.Tau = 0.3
	writeIndex(t, dir, q, map[string]int{"b": 3})
	_, err := Compact(ctx, dir, CompactOptions{})
	if err == nil || !strings.Contains(err.Error(), "segment-a") || !strings.Contains(err.Error(), "segment-b") || !strings.Contains(err.Error(), "tau=0.3") {
		t.Errorf("parameters disagree: %v", err)
	}
	if segs, _ := Segments(ctx, dir); len(segs) != 2 {
		t.Errorf("segments after the refusal: %q", segs)
	}
	if names, _ := os.ReadDir(dir); len(names) != 2 {
		t.Errorf("index holds %d entries after the refusal", len(names))
	}

	dir = t.TempDir()
	writeIndex(t, dir, p, map[string]int{"a": 3, "b": 4})
	f := filepath.Join(dir, "segment-b", ShardName(0, 1))
	b, _ := os.ReadFile(f)
	os.WriteFile(f, b[:len(b)/2], 0o644)
	if _, err := Compact(ctx, dir, CompactOptions{}); err == nil || !strings.Contains(err.Error(), "segment-b") {
		t.Errorf("damaged segment: %v", err)
	}
	os.WriteFile(f, b, 0o644)

	lk, err := storage.TakeLock(ctx, dir, "a-run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compact(ctx, dir, CompactOptions{}); !errors.Is(err, storage.ErrLocked) {
		t.Errorf("index locked by a run: %v", err)
	}
	lk.Release(ctx)
	if _, err := Compact(ctx, filepath.Join(dir, "segment-a"), CompactOptions{}); err == nil {
		t.Error("a segment directory compacted")
	}
	if _, err := Compact(ctx, filepath.Join(dir, "none"), CompactOptions{}); err == nil {
		t.Error("a missing directory compacted")
	} else if _, serr := os.Stat(filepath.Join(dir, "none")); serr == nil {
		t.Error("compacting a missing directory created it")
	}
}

// What a kill leaves, at each step: the compacted segment's files without
// _SUCCESS (the old segments are read), committed beside the old segments
// (it is read, they are replaced), with one old segment half removed.
// Each page is read once in every state, and the next compaction removes
// what is left.
func TestCompactInterruptedStates(t *testing.T) {
	ctx := context.Background()
	p := config.DefaultParams()
	sizes := map[string]int{"d1": 10, "d2": 20, "d3": 5}
	src := t.TempDir()
	writeIndex(t, src, p, sizes)
	before := loadAll(t, src, p)
	done := t.TempDir()
	copyTree(t, src, done)
	c, err := Compact(ctx, done, CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	name := c.Meta.Segment
	for _, state := range []string{"files written", "committed", "one removed"} {
		t.Run(state, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, src, dir)
			copyTree(t, filepath.Join(done, name), filepath.Join(dir, name))
			switch state {
			case "files written":
				os.Remove(filepath.Join(dir, name, SuccessFile))
				os.Remove(filepath.Join(dir, name, MetaFile))
			case "one removed":
				os.Remove(filepath.Join(dir, "segment-d1", SuccessFile))
			}
			if got := loadAll(t, dir, p); !reflect.DeepEqual(got, before) {
				t.Errorf("%d pages read, %d in the index", len(got), len(before))
			}
			all, err := Scan(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range all {
				if st.Name != name && state != "files written" && st.Partial == "" {
					t.Errorf("%s is read beside %s", st.Name, name)
				}
			}
			c, err := Compact(ctx, dir, CompactOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Removed) != map[string]int{"files written": 1, "committed": 3, "one removed": 3}[state] {
				t.Errorf("removed %+v", c.Removed)
			}
			if got := loadAll(t, dir, p); !reflect.DeepEqual(got, before) || c.Segments != 1 {
				t.Errorf("after the next compaction: %d pages, %d segments", len(got), c.Segments)
			}
		})
	}
}

// copyTree copies the directory tree src into dst (os.CopyFS: never
// over an existing file).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// --without: the pages of a run segment held by a compacted segment are
// left out (the segment rewritten without them), a run segment of its
// own is removed, every other page stays as it was, and an unknown name
// is an error.
func TestCompactWithout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	writeIndex(t, dir, p, map[string]int{"d1": 10, "d2": 20, "d3": 5})
	if _, err := Compact(ctx, dir, CompactOptions{}); err != nil {
		t.Fatal(err)
	}
	writeIndex(t, dir, p, map[string]int{"d4": 6})
	if _, err := Compact(ctx, dir, CompactOptions{Without: []string{"segment-d9"}}); err == nil || !strings.Contains(err.Error(), "segment-d9") {
		t.Errorf("unknown segment: %v", err)
	}
	before := loadAll(t, dir, p)
	c, err := Compact(ctx, dir, CompactOptions{MaxSegments: 2, Without: []string{"d2"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Left != 20 || len(c.Merged) != 1 || c.Segments != 2 || len(c.Meta.Merged) != 2 {
		t.Errorf("without d2: %+v", c)
	}
	want := slices.DeleteFunc(slices.Clone(before), func(q dedup.Prior) bool { return q.Segment == "segment-d2" })
	if got := loadAll(t, dir, p); !reflect.DeepEqual(got, want) {
		t.Errorf("%d pages after leaving d2 out, want %d", len(got), len(want))
	}
	c, err = Compact(ctx, dir, CompactOptions{MaxSegments: 2, Without: []string{"segment-d4"}})
	if err != nil || c.Dir != "" || c.Left != 6 || c.Segments != 1 {
		t.Errorf("without d4, a segment of its own: %+v, %v", c, err)
	}
	want = slices.DeleteFunc(want, func(q dedup.Prior) bool { return q.Segment == "segment-d4" })
	if got := loadAll(t, dir, p); !reflect.DeepEqual(got, want) {
		t.Errorf("%d pages after leaving d4 out, want %d", len(got), len(want))
	}
}

// rowV2 is Row of schema 2: no segment column.
type rowV2 struct {
	RecordID    string   `parquet:"record_id"`
	URI         string   `parquet:"uri"`
	File        string   `parquet:"warc_file,dict"`
	Offset      int64    `parquet:"offset"`
	Inner       int64    `parquet:"inner_offset"`
	Date        string   `parquet:"warc_date"`
	Lang        string   `parquet:"lang,dict"`
	Length      int64    `parquet:"length"`
	Rank        []byte   `parquet:"rank"`
	TextDigest  string   `parquet:"text_digest"`
	Hashes      []uint64 `parquet:"hashes,list"`
	Freqs       []uint32 `parquet:"freqs,list"`
	SketchWords int64    `parquet:"sketch_words"`
	Sketch      []uint32 `parquet:"sketch,list"`
}

// A segment of schema 2 (before the segment column) is read, agrees with
// a run of schema 3, and is compacted with segments of schema 3.
func TestSchema2Segment(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := config.DefaultParams()
	writeIndex(t, dir, p, map[string]int{"new": 4})
	old := segmentPages("old", 5)
	seg := filepath.Join(dir, SegmentName("old"))
	os.MkdirAll(seg, 0o755)
	var rows []rowV2
	for _, q := range old {
		r := RowOf(q)
		rows = append(rows, rowV2{r.RecordID, r.URI, r.File, r.Offset, r.Inner, r.Date, r.Lang, r.Length, r.Rank, r.TextDigest, r.Hashes, r.Freqs, r.SketchWords, r.Sketch})
	}
	if err := parquet.WriteFile(filepath.Join(seg, ShardName(0, 1)), rows); err != nil {
		t.Fatal(err)
	}
	pf, size := openTestParquet(t, filepath.Join(seg, ShardName(0, 1)))
	if _, ok := pf.Schema().Lookup("segment"); ok {
		t.Fatal("the schema-2 file has a segment column")
	}
	m := Meta{Segment: SegmentName("old"), Pages: len(old), Files: []string{ShardName(0, 1)}, FileBytes: map[string]int64{ShardName(0, 1): size}, Params: AgreementOf(p)}
	m.Params.Schema = 2
	if err := Commit(ctx, seg, m); err != nil {
		t.Fatal(err)
	}
	before := loadAll(t, dir, p)
	if len(before) != 9 || !slices.ContainsFunc(before, func(q dedup.Prior) bool { return q.Segment == "segment-old" }) {
		t.Fatalf("pages %d", len(before))
	}
	if _, err := Compact(ctx, dir, CompactOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := loadAll(t, dir, p); !reflect.DeepEqual(got, before) {
		t.Error("pages differ after compacting a schema-2 segment")
	}
	m.Params.Schema = 1
	if err := Check(AgreementOf(p), m); err == nil {
		t.Error("schema 1 agrees with schema 3")
	}
}

// rowDict is Row with its vectors dictionary-encoded, as another writer
// may store them.
type rowDict struct {
	RecordID    string   `parquet:"record_id"`
	URI         string   `parquet:"uri"`
	File        string   `parquet:"warc_file,dict"`
	Offset      int64    `parquet:"offset"`
	Inner       int64    `parquet:"inner_offset"`
	Date        string   `parquet:"warc_date"`
	Lang        string   `parquet:"lang,dict"`
	Length      int64    `parquet:"length"`
	Rank        []byte   `parquet:"rank"`
	TextDigest  string   `parquet:"text_digest"`
	Hashes      []uint64 `parquet:"hashes,list,dict"`
	Freqs       []uint32 `parquet:"freqs,list,dict"`
	SketchWords int64    `parquet:"sketch_words"`
	Sketch      []uint32 `parquet:"sketch,list"`
	WholeWords  int64    `parquet:"whole_words"`
	Whole       []uint32 `parquet:"whole_sketch,list"`
	Segment     string   `parquet:"segment,optional,dict"`
}

// A segment whose vectors are dictionary pages (read value by value, not
// by the plain pages' fast path) reads as the same segment written by
// WriteSegment, in full and through ReadPagesWhere.
func TestDictionaryVectorsSegment(t *testing.T) {
	ctx := context.Background()
	p := config.DefaultParams()
	plain, dict := t.TempDir(), t.TempDir()
	pages := segmentPages("d", 3*RowGroupRows/2)
	if err := WriteSegment(ctx, plain, SegmentName("d"), "2026-01-01T00:00:00Z", p, pages); err != nil {
		t.Fatal(err)
	}
	seg := filepath.Join(dict, SegmentName("d"))
	os.MkdirAll(seg, 0o755)
	var rows []rowDict
	for _, q := range pages {
		r := RowOf(q)
		rows = append(rows, rowDict{r.RecordID, r.URI, r.File, r.Offset, r.Inner, r.Date, r.Lang, r.Length, r.Rank, r.TextDigest,
			r.Hashes, r.Freqs, r.SketchWords, r.Sketch, r.WholeWords, r.Whole, r.Segment})
	}
	name := filepath.Join(seg, ShardName(0, 1))
	if err := parquet.WriteFile(name, rows, parquet.MaxRowsPerRowGroup(RowGroupRows)); err != nil {
		t.Fatal(err)
	}
	pf, size := openTestParquet(t, name)
	leaf, _ := pf.Schema().Lookup("hashes", "list", "element")
	pg, err := pf.RowGroups()[0].ColumnChunks()[leaf.ColumnIndex].Pages().ReadPage()
	if err != nil || pg.Dictionary() == nil {
		t.Fatalf("the hashes' first page has no dictionary (%v)", err)
	}
	m := Meta{Segment: SegmentName("d"), Pages: len(pages), Files: []string{ShardName(0, 1)}, FileBytes: map[string]int64{ShardName(0, 1): size}, Params: AgreementOf(p)}
	if err := Commit(ctx, seg, m); err != nil {
		t.Fatal(err)
	}
	want := loadAll(t, plain, p)
	if got := loadAll(t, dict, p); !reflect.DeepEqual(got, want) {
		t.Fatal("the dictionary-encoded segment reads differently")
	}
	var i, vecs int
	if err := ReadPagesWhere(ctx, seg, m, func(q dedup.Prior) bool {
		defer func() { i++ }()
		if !reflect.DeepEqual(q.Vec.Hashes, pages[i].Vec.Hashes) || !reflect.DeepEqual(q.Vec.Freqs, pages[i].Vec.Freqs) {
			t.Fatalf("row %d: want sees %v, written %v", i, q.Vec, pages[i].Vec)
		}
		vecs += q.Vec.Len()
		return false
	}, func(dedup.Prior) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if i != len(pages) || vecs == 0 {
		t.Fatalf("want saw %d rows of %d, %d signatures", i, len(pages), vecs)
	}
}
