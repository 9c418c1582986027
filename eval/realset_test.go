package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/warc"
)

// A real-page truth is scored by location: the same record ID in two files
// (a truncated copy of a crawl) is two pages, and a drop is right only when
// its kept page, found by kept_by_file and offsets, is in its cluster.
func TestScoreReal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "myset")
	os.Mkdir(dir, 0o755)
	truth := "file\toffset\tinner_offset\trecord_id\turi\tcluster\tnote\n" +
		"a.warc.gz\t10\t0\tid1\thttp://x/1\tr1\tsame notice\n" +
		"b.warc.gz\t10\t0\tid1\thttp://x/1\tr1\tsame notice\n" + // the same record in a second file
		"a.warc.gz\t20\t0\tid2\thttp://x/2\tr2\tre-captured\n" +
		"a.warc.gz\t30\t0\tid3\thttp://x/3\tr2\tre-captured\n" +
		"a.warc.gz\t40\t0\tid4\thttp://x/4\ts-1\t\n"
	judged := "file_a\toffset_a\tfile_b\toffset_b\tverdict\tjaccard_job\tshingle5\treason\tinner_offset_a\tinner_offset_b\tfound_by\n" +
		"a.warc.gz\t40\ta.warc.gz\t20\tdifferent\t0.5\t0.3\ttemplate siblings\t0\t0\tjob-def\n"
	os.WriteFile(filepath.Join(dir, "truth.tsv"), []byte(truth), 0o644)
	os.WriteFile(filepath.Join(dir, "judged_pairs.tsv"), []byte(judged), 0o644)
	rt, err := LoadRealTruth(filepath.Join(dir, "truth.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if rt.PossibleDrops() != 2 || rt.Name != "myset" {
		t.Fatalf("possible drops %d, name %q", rt.PossibleDrops(), rt.Name)
	}
	ref := func(file string, off int64, id string) warc.Ref {
		return warc.Ref{File: "/in/" + file, Offset: off, RecordID: id, URI: "http://x/" + id[2:]}
	}
	keep := func(r warc.Ref) DecisionRecord { return DecisionRecord{Ref: r, Keep: true, Method: "spotsigs"} }
	drop := func(r, k warc.Ref, j float64) DecisionRecord {
		d := DecisionRecord{Ref: r, Method: "spotsigs"}
		d.DropFor(k, j)
		return d
	}
	a1, b1, a2, a3, a4 := ref("a.warc.gz", 10, "id1"), ref("b.warc.gz", 10, "id1"), ref("a.warc.gz", 20, "id2"), ref("a.warc.gz", 30, "id3"), ref("a.warc.gz", 40, "id4")
	ds := []DecisionRecord{
		keep(a1), drop(b1, a1, 1), // right
		keep(a2), keep(a3), // missed
		drop(a4, a2, 0.5),                // wrong
		keep(ref("c.warc.gz", 1, "id9")), // not in the truth
	}
	pairs := []PairRecord{
		dedup.NewPairRecord(a1, 0, b1, 0, 1, dedup.Verification{ShareA: 1, ShareB: 1, OK: true}),
		dedup.NewPairRecord(a2, 0, a4, 0, 0.5, dedup.Verification{ShareA: 1, ShareB: 1, OK: true}),
	}
	s := ScoreReal(rt, ds, pairs, func(a, b string) (float64, bool) { return 0.7, true })
	if s.Pages != 5 || s.Unknown != 1 || s.Drops != 2 || s.Right != 1 || s.DropPrecision != 0.5 || s.DropRecall != 0.5 {
		t.Errorf("score %+v", s)
	}
	if len(s.Wrong) != 1 || s.Wrong[0].URI != "http://x/4" || s.Wrong[0].Reason != "template siblings" {
		t.Errorf("wrong drops %+v", s.Wrong)
	}
	if len(s.Missed) != 1 || s.Missed[0].Cluster != "r2" || s.Missed[0].Jaccard != 0.7 || s.Missed[0].Note != "re-captured" {
		t.Errorf("missed drops %+v", s.Missed)
	}
	if s.PairsPredicted != 2 || s.PairsTrue != 2 || s.PairsRight != 1 {
		t.Errorf("pairs %d predicted, %d true, %d right", s.PairsPredicted, s.PairsTrue, s.PairsRight)
	}
	// Keyed by record ID alone, b1's keeper would be either copy of id1;
	// by location it is a1, and a drop for a page of another file with
	// that ID and offset is not right.
	wrongFile := drop(b1, ref("c.warc.gz", 10, "id1"), 1)
	if s := ScoreReal(rt, []DecisionRecord{keep(a1), wrongFile}, nil, nil); s.Right != 0 || s.Drops != 1 {
		t.Errorf("drop for a page outside the truth: %+v", s)
	}
}

// TestRealPagesNoWrongDrop: on eval/realpages (79 real pages of two
// public single-site WARCs, labelled by reading), the job at its defaults
// drops no page for a page of another document. The set's blog is one
// template whose tag listings share most of their visible text; before
// the same-site rule and the shared-block neighbour rule (768ce8e) all six
// of its drops were wrong. The test holds the count of right drops at the
// value measured, 8 of 9, to see a change either way: a tag page that
// prints a whole post is dropped for the post's page at Jaccard 0.81
// since the same-site τ is 0.8 (7 at 0.9); the other post's tag pages
// add a subscription form and comments the post's capture lacks
// (docs/quality.md, "The same-site τ at 0.8").
func TestRealPagesNoWrongDrop(t *testing.T) {
	s, err := ScoreRealRun(context.Background(), config.DefaultParams(), "realpages/truth.tsv", []string{"realpages/warcs/*.warc.gz"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Pages != 79 || s.Unknown != 0 {
		t.Errorf("%d pages scored, %d unknown; the truth has 79", s.Pages, s.Unknown)
	}
	for _, w := range s.Wrong {
		t.Errorf("wrong drop: %s for %s (Jaccard %.2f, %s)", w.URI, w.KeptByURI, w.Jaccard, w.Method)
	}
	if s.Right < 9 {
		t.Errorf("%d right drops of %d possible; 9 measured", s.Right, s.Possible)
	}
}
