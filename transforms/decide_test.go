package transforms

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

func init() {
	register.Function1x1[dedup.ExactCopy, string](copySummary)
	register.Function1x1[decidedPage, string](decisionSummary)
}

func copySummary(c dedup.ExactCopy) string { return c.Member.Key() + " " + c.Rep.Key() }

// decisionSummary is a decision line in short: record ID, keep, kept-by
// record ID, Jaccard, method.
func decisionSummary(d decidedPage) string {
	return fmt.Sprintf("%s keep=%v by=%s j=%.4f %s", d.Line.RecordID, d.Line.Keep, d.Line.KeptBy, d.Line.Jaccard, d.Line.Method)
}

// decideCase is dedup's in-process result turned into the inputs of
// CollapseExact and Decide (its documents in batches, its pairs as found
// pairs, its pages without a document) and the outputs they must give
// (dedup's exact copies, pairs lines of the copies, decision and cluster
// lines and their counts).
type decideCase struct {
	batches                            []docBatch
	found                              []foundPair
	unsigned                           []dedup.Page
	copies, copyLines, lines, clusters []string
	kept, dropped, droppedExact, sized int
}

// newDecideCase builds the decideCase of res, batchSize documents a batch.
func newDecideCase(t *testing.T, res *dedup.Result, batchSize int) decideCase {
	t.Helper()
	var c decideCase
	pages := map[string]dedup.Page{}
	for _, pg := range res.Pages {
		pages[pg.ID()] = pg
	}
	var docs []doc
	signed := map[string]bool{}
	for _, d := range res.Docs {
		docs = append(docs, doc{Doc: dedup.Doc{Page: pages[d.ID()], Site: d.Site, Vec: d.Vec, Sketch: d.Sketch, Lang: d.Lang}})
		signed[d.ID()] = true
	}
	c.batches = inBatches(docs, batchSize)
	batchOf := map[string]string{}
	for _, b := range c.batches {
		for _, d := range b.Docs {
			batchOf[d.ID()] = b.ID
		}
	}
	for _, pg := range res.Pages {
		if !signed[pg.ID()] {
			c.unsigned = append(c.unsigned, pg)
		}
	}
	verified := map[[2]int]dedup.Verification{}
	for i, q := range res.Candidates {
		verified[[2]int{q.A, q.B}] = res.Verified[i]
	}
	for _, q := range res.Pairs {
		a, b := res.Docs[q.A], res.Docs[q.B]
		v := verified[[2]int{q.A, q.B}] // res.Pairs are the verified candidates
		f := foundPair{Pair: dedup.NewPairRecord(a.Ref, a.Vec.Len(), b.Ref, b.Vec.Len(), q.Jaccard, v), ABatch: batchOf[a.ID()], BBatch: batchOf[b.ID()]}
		if f.Pair.A() != a.Ref {
			f.ABatch, f.BBatch = f.BBatch, f.ABatch
		}
		c.found = append(c.found, f)
	}
	for i, d := range res.Docs {
		if r := res.RepOf[i]; r != i {
			c.copies = append(c.copies, d.Key()+" "+res.Docs[r].Key())
			v := dedup.Verify(d.Sketch, res.Docs[r].Sketch, d.Site, res.Docs[r].Site, false, 0)
			c.copyLines = append(c.copyLines, mustLine(t, dedup.ExactCopy{Member: d.Ref, Rep: res.Docs[r].Ref, Signatures: d.Vec.Len(), Verified: v}.PairRecord()))
		}
	}
	for _, d := range res.Decisions {
		c.lines = append(c.lines, mustLine(t, d))
		switch {
		case d.Keep:
			c.kept++
		case d.Jaccard == 1:
			c.dropped++
			c.droppedExact++
		default:
			c.dropped++
		}
	}
	for _, cl := range res.Clusters {
		c.clusters = append(c.clusters, mustLine(t, cl))
		c.sized += cl.Size
	}
	return c
}

func mustLine(t *testing.T, v any) string {
	t.Helper()
	l, err := output.Line(v)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// check runs CollapseExact, ExactPairs and Decide on c, with Decide's
// merging DoFns (bundleMerge) handing on each message alone (a limit of 1
// byte: one element per edge, as many parts per key as edges) and merged
// per page, and compares them with dedup's lines; more, when given, are
// checked on the decisions too.
func (c decideCase) check(t *testing.T, p config.Params, more ...string) {
	t.Helper()
	defer func(l int) { mergeLimit = l }(mergeLimit)
	for _, limit := range []int{1, 0} {
		mergeLimit = limit
		pl, s := beam.NewPipelineWithRoot()
		st := &Stats{}
		groups := CollapseExact(s, st, beam.CreateList(s, c.batches), p)
		r, err := Decide(s, st, groups, beam.CreateList(s, c.found), beam.CreateList(s, c.unsigned), Against{}, p)
		if err != nil {
			t.Fatal(err)
		}
		passert.Equals(s, beam.ParDo(s, copySummary, groups.Copies), strs(c.copies)...)
		passert.Equals(s, beam.ParDo(s, pairLine, ExactPairs(s, groups.Copies)), strs(c.copyLines)...)
		passert.Equals(s, beam.ParDo(s, decisionLine, r.Decisions), strs(c.lines)...)
		passert.Equals(s, beam.ParDo(s, clusterLine, r.Clusters), strs(c.clusters)...)
		if len(more) > 0 {
			passert.Equals(s, beam.ParDo(s, decisionSummary, r.Decisions), strs(more)...)
		}
		for name, n := range map[string]int{output.StatKept: c.kept, output.StatDropped: c.dropped, output.StatDroppedExact: c.droppedExact, output.StatExactCopies: len(c.copies)} {
			passert.Equals(s, beam.ParDo(s, &statOf{Name: name}, st.Collection(s)), statLine(name, n))
		}
		if err := ptest.Run(pl); err != nil {
			t.Fatalf("merge limit %d: %v", limit, err)
		}
	}
}

// Decide on eight hand-built pages gives dedup.Decide's lines, and those
// are: the best-ranked member D of an exact-copy group keeps it, so its
// representative A is dropped for D at Jaccard 1; B, a near-duplicate of A,
// is dropped for D, the group's kept page; C, a near-duplicate of B only,
// is kept because B is dropped; of two pages without signatures and the
// same text the first in rank order is kept, a page with no text is kept;
// H, alone, is kept.
func TestDecideSmallCaseEqualsInProcess(t *testing.T) {
	p := config.DefaultParams()
	res := smallResult(t, p)
	j := 6.0 / 14
	newDecideCase(t, res, 2).check(t, p,
		"A keep=false by=D j=1.0000 spotsigs",
		fmt.Sprintf("B keep=false by=D j=%.4f spotsigs", j),
		"C keep=true by= j=0.0000 spotsigs",
		"D keep=true by= j=0.0000 spotsigs",
		"E keep=true by= j=0.0000 exact-text",
		"F keep=false by=E j=1.0000 exact-text",
		"G keep=true by= j=0.0000 no-text",
		"H keep=true by= j=0.0000 spotsigs",
	)
}

// CollapseExact and Decide give dedup.Run's exact copies, decisions and
// clusters on the real WARC files of testdata.
func TestDecideRealFilesEqualInProcess(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.warc*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata WARC files: %v %v", files, err)
	}
	p := config.DefaultParams()
	res, err := dedup.Run(t.Context(), p, files)
	if err != nil {
		t.Fatal(err)
	}
	c := newDecideCase(t, res, 50)
	if len(c.copies) == 0 || len(c.found) == 0 || len(c.unsigned) == 0 || c.dropped == c.droppedExact {
		t.Fatalf("testdata: %d exact copies, %d pairs, %d unsigned pages, %d of %d drops exact; want all kinds", len(c.copies), len(c.found), len(c.unsigned), c.droppedExact, c.dropped)
	}
	c.check(t, p)
}

// The same on the real pages, pairs and exact-copy groups of the dev gold
// set (../shared/data), whose pair graph has long priority chains.
func TestDecideMergedPartsEqualInProcess(t *testing.T) {
	if _, err := os.Stat(goldWARC); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	p := config.DefaultParams()
	res, err := dedup.Run(t.Context(), p, []string{goldWARC})
	if err != nil {
		t.Fatal(err)
	}
	c := newDecideCase(t, res, 300)
	if len(c.copies) == 0 || len(c.found) < 1000 || len(c.unsigned) == 0 {
		t.Fatalf("gold set: %d exact copies, %d pairs, %d unsigned pages; want all", len(c.copies), len(c.found), len(c.unsigned))
	}
	c.check(t, p)
}

// smallResult is dedup's result on eight hand-built pages (see
// TestDecideSmallCaseEqualsInProcess).
func smallResult(t *testing.T, p config.Params) *dedup.Result {
	t.Helper()
	page := func(id string, i int, rank, digest string) dedup.Page {
		return dedup.Page{Ref: warc.Ref{File: "f.warc.gz", Offset: int64(100 * i), RecordID: id, URI: fmt.Sprintf("http://site%d.example/", i)}, Rank: rank, Digest: digest}
	}
	res := &dedup.Result{Pages: []dedup.Page{
		page("A", 0, "a", "dA"), page("B", 1, "b", "dB"), page("C", 2, "c", "dC"), page("D", 3, "0", "dA"),
		page("E", 4, "e", "dE"), page("F", 5, "f", "dE"), page("G", 6, "g", ""), page("H", 7, "h", "dH"),
	}}
	for _, d := range []struct {
		i   int
		vec spotsig.Vector
	}{{0, seq(1, 10)}, {1, seq(5, 10)}, {2, seq(9, 10)}, {3, seq(1, 10)}, {7, seq(100, 10)}} {
		ref := res.Pages[d.i].Ref
		res.Docs = append(res.Docs, dedup.Doc{Page: dedup.Page{Ref: ref}, Site: dedup.SiteOf(ref), Vec: d.vec, Lang: []string{"en", "de"}[d.i%2]})
	}
	res.RepOf, _ = dedup.Collapse(res.Docs, p.VerifyShare)
	for _, q := range dedup.BruteForcePairs(res.Docs, p.Tau, p.SiteRule(), p.VerifyShare) {
		if res.RepOf[q.A] == q.A && res.RepOf[q.B] == q.B {
			res.Pairs, res.Candidates = append(res.Pairs, q), append(res.Candidates, q)
			res.Verified = append(res.Verified, dedup.Verify(res.Docs[q.A].Sketch, res.Docs[q.B].Sketch, match.NoSite, match.NoSite, false, 0))
		}
	}
	var err error
	res.Decisions, res.Clusters, err = dedup.Decide(res.Pages, res.Docs, res.RepOf, res.Pairs, p.SignatureMethod())
	if err != nil {
		t.Fatal(err)
	}
	return res
}
