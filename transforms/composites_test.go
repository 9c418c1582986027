package transforms

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.Function2x1[string, int, string](statLine)
	registerDoFn(&statOf{})
	registerDoFn(&statAbove{})
	register.Function1x1[doc, string](docSummary)
	register.Function1x1[output.Reject, string](rejectSummary)
	register.Function1x1[output.PairRecord, string](pairSummary)
	register.Function1x1[foundPair, string](foundSummary)
	register.Function2x0[docBatch, func(doc)](batchDocsOf)
	register.Function1x1[dedup.Page, string](pageSummary)
	registerDoFn(&foundBatchesFn{})
}

// inBatches puts docs into batches of n documents (IDs "b0", "b1", …),
// setting each document's Batch.
func inBatches(docs []doc, n int) []docBatch {
	var out []docBatch
	for i, d := range docs {
		if i%n == 0 {
			out = append(out, docBatch{ID: fmt.Sprint("b", i/n)})
		}
		b := &out[len(out)-1]
		d.Batch = b.ID
		b.Docs = append(b.Docs, d)
	}
	return out
}

// batchDocsOf emits the documents of a batch.
func batchDocsOf(b docBatch, emit func(doc)) {
	for _, d := range b.Docs {
		emit(d)
	}
}

// docsOf returns the documents of a PCollection of batches.
func docsOf(s beam.Scope, batches beam.PCollection) beam.PCollection {
	return beam.ParDo(s, batchDocsOf, batches)
}

func pageSummary(p dedup.Page) string { return p.Key() }

func foundSummary(f foundPair) string { return pairSummary(f.Pair) }

// foundBatchesFn emits every found pair whose batch IDs are not those of
// its documents (Batch, by document key).
type foundBatchesFn struct{ Batch map[string]string }

func (fn *foundBatchesFn) ProcessElement(f foundPair, emit func(string)) {
	if fn.Batch[f.Pair.A().Key()] != f.ABatch || fn.Batch[f.Pair.B().Key()] != f.BBatch {
		emit(fmt.Sprintf("%s in %s, %s in %s", f.Pair.A().Key(), f.ABatch, f.Pair.B().Key(), f.BBatch))
	}
}

// docSummary, rejectSummary and pairSummary turn elements into comparable
// strings for passert.Equals.
func docSummary(d doc) string {
	return fmt.Sprintf("%s %v %v", d.Key(), d.Vec.Hashes, d.Vec.Freqs)
}

func statLine(name string, n int) string { return fmt.Sprintf("%s=%d", name, n) }

// statOf keeps the statistic Name, as statLine.
type statOf struct{ Name string }

func (fn *statOf) ProcessElement(name string, n int, emit func(string)) {
	if name == fn.Name {
		emit(statLine(name, n))
	}
}

// statAbove emits the statistic Name if it is above Max.
type statAbove struct {
	Name string
	Max  int
}

func (fn *statAbove) ProcessElement(name string, n int, emit func(string)) {
	if name == fn.Name && n > fn.Max {
		emit(statLine(name, n))
	}
}

func rejectSummary(r output.Reject) string { return r.Key() + " " + r.Reason }

func pairSummary(p output.PairRecord) string {
	return fmt.Sprintf("%s %s %v", p.A().Key(), p.B().Key(), p.Jaccard)
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

const realWARC = "../testdata/resiliparse__warcfile.warc.gz"

// ReadWARC and Extract emit exactly the candidates, documents and rejects
// of the in-process steps (dedup.ReadFile, dedup.Sign) on a real WARC file.
func TestReadAndExtractComposites(t *testing.T) {
	p := config.DefaultParams()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	signer, err := dedup.NewSigner(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(realWARC)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wantDocs, wantRejects, wantUnsigned []string
	candidates := 0
	dedup.ReadFile(realWARC, f, nil, p.WARCOptions(), func(c dedup.Candidate) {
		candidates++
		if s := dedup.Sign(context.Background(), signer, nil, c); s.IsDoc() {
			wantDocs = append(wantDocs, docSummary(doc{Doc: dedup.Doc{Page: dedup.Page{Ref: s.Doc.Ref}, Vec: s.Doc.Vec}}))
		} else {
			wantRejects = append(wantRejects, rejectSummary(s.Reject))
			if s.HasPage {
				wantUnsigned = append(wantUnsigned, s.Doc.Key())
			}
		}
	}, func(r output.Reject) { wantRejects = append(wantRejects, rejectSummary(r)) })
	if len(wantDocs) == 0 || len(wantRejects) == 0 {
		t.Fatalf("%s: %d documents, %d rejects; want both", realWARC, len(wantDocs), len(wantRejects))
	}

	pl, s := beam.NewPipelineWithRoot()
	st := &Stats{}
	cands, readRejects, files, err := ReadWARC(t.Context(), s, st, []string{realWARC}, "", p)
	if err != nil {
		t.Fatal(err)
	}
	batches, extractRejects, unsigned := Extract(s, st, cands, p)
	passert.Count(s, cands, "candidates", candidates)
	passert.Equals(s, beam.ParDo(s, docSummary, docsOf(s, batches)), strs(wantDocs)...)
	passert.Equals(s, beam.ParDo(s, pageSummary, unsigned), strs(wantUnsigned)...)
	passert.Equals(s, beam.ParDo(s, rejectSummary, beam.Flatten(s, readRejects, extractRejects)), strs(wantRejects)...)
	passert.Equals(s, files, realWARC)
	ptest.RunAndValidate(t, pl)
}

// testDocs are small documents with overlapping signatures, so document
// frequencies differ and an IDF range drops some.
func testDocs() []doc {
	vecs := [][]uint64{
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 11},
		{1, 2, 3, 4, 5, 6, 12, 13, 14, 15},
		{1, 2, 16, 17, 18, 19, 20, 21, 22, 22},
		{1, 23, 24, 25, 26, 27, 28, 29, 30, 30, 30},
		{1, 2, 3, 31},
	}
	docs := make([]doc, len(vecs))
	for i, v := range vecs {
		docs[i] = doc{Doc: dedup.Doc{Page: dedup.Page{Ref: warc.Ref{File: "f.warc.gz", Offset: int64(100 * i), RecordID: fmt.Sprintf("urn:%d", i)}}, Vec: spotsig.NewVector(v)}}
	}
	return docs
}

// FilterIDF equals spotsig.FilterIDF followed by the MinSignatures drop, for
// a range that drops signatures (the joins run) and for the default range
// (the joins are skipped).
func TestFilterIDFComposite(t *testing.T) {
	docs := testDocs()
	vecs := make([]spotsig.Vector, len(docs))
	for i, d := range docs {
		vecs[i] = d.Vec
	}
	for _, r := range []spotsig.IDFRange{{Min: 0.3, Max: 1}, {Min: 0, Max: 0.9}, spotsig.DefaultIDFRange} {
		t.Run(fmt.Sprintf("%+v", r), func(t *testing.T) {
			p := config.DefaultParams()
			p.IDFMin, p.IDFMax, p.IDFKeepShared = r.Min, r.Max, r.KeepShared
			p.MinSignatures = 5
			filtered := spotsig.FilterIDF(vecs, r)
			var want, wantRejects, wantUnsigned []string
			before, after := 0, 0
			for i, v := range filtered {
				before += vecs[i].Len()
				after += v.Len()
				d := doc{Doc: dedup.Doc{Page: docs[i].Page, Vec: v}}
				if v.Len() >= p.MinSignatures {
					want = append(want, docSummary(d))
				} else {
					wantRejects = append(wantRejects, d.Key()+" "+output.ReasonTooFewSignatures)
					wantUnsigned = append(wantUnsigned, d.Key())
				}
			}
			if !r.KeepsAll() && after == before {
				t.Fatalf("range %+v drops nothing on the test documents", r)
			}
			pl, s := beam.NewPipelineWithRoot()
			st := &Stats{}
			kept, rejects, unsigned := FilterIDF(s, st, beam.CreateList(s, inBatches(docs, 4)), p)
			passert.Equals(s, beam.ParDo(s, docSummary, docsOf(s, kept)), strs(want)...)
			passert.Equals(s, beam.ParDo(s, rejectSummary, rejects), strs(wantRejects)...)
			passert.Equals(s, beam.ParDo(s, pageSummary, unsigned), strs(wantUnsigned)...)
			passert.Equals(s, beam.ParDo(s, statLine, st.Collection(s)),
				fmt.Sprintf("%s=%d", output.StatSignaturesBeforeIDF, before),
				fmt.Sprintf("%s=%d", output.StatSignaturesAfterIDF, after),
				fmt.Sprintf("%s=%d", output.StatDocuments, len(want)))
			ptest.RunAndValidate(t, pl)
		})
	}
}

// minSignaturesFn passes on a batch it drops nothing from as it is (a copy
// held every document of the 1,080,000-page crawl twice at the end of
// MarkTemplates' wait: docs/benchmarks.md, "The two plateaus of the
// 1,080,000-page crawl"); from a batch that loses a document it makes a
// new one, and neither it nor applyMarksFn modifies its input.
func TestBatchesPassedOnNotModified(t *testing.T) {
	docs := testDocs() // the last has 4 signatures: too few at 5
	run := func(b docBatch) (out []docBatch) {
		fn := &minSignaturesFn{MinSignatures: 5}
		fn.ProcessElement(context.Background(), b, func(b docBatch) { out = append(out, b) },
			func(output.Reject) {}, func(dedup.Page) {}, func(int) {}, func(int) {})
		return out
	}
	whole := docBatch{ID: "b0", Docs: slices.Clone(docs[:5])}
	out := run(whole)
	if len(out) != 1 || len(out[0].Docs) != 5 || &out[0].Docs[0] != &whole.Docs[0] {
		t.Fatalf("a batch that loses nothing: %d batches out, not the input's documents", len(out))
	}
	short := docBatch{ID: "b1", Docs: slices.Clone(docs)}
	before := slices.Clone(short.Docs)
	out = run(short)
	if len(out) != 1 || len(out[0].Docs) != 5 || &out[0].Docs[0] == &short.Docs[0] {
		t.Fatalf("a batch that loses one: %d batches out, or the input's slice", len(out))
	}
	for i := range before {
		if short.Docs[i].ID() != before[i].ID() {
			t.Fatalf("minSignaturesFn changed its input's document %d", i)
		}
	}
	// applyMarksFn drops the copies and marks the groups on a new slice.
	in := docBatch{ID: "b0", Docs: slices.Clone(docs[:5])}
	before = slices.Clone(in.Docs)
	marks := []mark{{Doc: 1, Drop: true}, {Doc: 0, Group: dedup.Group{Size: 2}}}
	var got []docBatch
	gaveBatch, gaveMarks := false, false
	batches := func(b *docBatch) bool { ok := !gaveBatch; *b, gaveBatch = in, true; return ok }
	ms := func(m *[]mark) bool { ok := !gaveMarks; *m, gaveMarks = marks, true; return ok }
	err := (&applyMarksFn{}).ProcessElement("b0", batches, ms, func(b docBatch) { got = append(got, b) })
	if err != nil || len(got) != 1 || len(got[0].Docs) != 4 || got[0].Docs[0].Group.Size != 2 || got[0].Docs[1].ID() != before[2].ID() {
		t.Fatalf("applyMarksFn: %v, %+v", err, got)
	}
	for i := range before {
		if in.Docs[i].ID() != before[i].ID() || in.Docs[i].Group != before[i].Group {
			t.Fatalf("applyMarksFn changed its input's document %d", i)
		}
	}
}

// KeyByGroup and MatchGroups find exactly match.BruteForce's pairs that the
// same-site rule keeps, at a threshold and ρ where documents fall into
// several partitions and guests.
func TestMatchGroupsComposite(t *testing.T) {
	// The test documents, each also in 7 variants with one signature
	// changed: near-duplicate clusters in groups of up to dozens.
	var docs []doc
	for i, d := range testDocs() {
		docs = append(docs, d)
		for k := range 7 {
			h := slices.Clone(d.Vec.Hashes)
			h[k%len(h)] = uint64(1000 + 10*i + k)
			v := doc{Doc: dedup.Doc{Page: dedup.Page{Ref: warc.Ref{File: "f.warc.gz", Offset: int64(100*i + k + 1), RecordID: fmt.Sprintf("urn:%d.%d", i, k)}}, Vec: spotsig.NewVector(h)}}
			docs = append(docs, v)
		}
	}
	vecs := make([]spotsig.Vector, len(docs))
	sites := make([]match.Site, len(docs))
	for i := range docs {
		// Three sites; the pairs of one site need Jaccard 0.9.
		docs[i].Site = match.SiteOf(fmt.Sprintf("site%d.example", i%3), "")
		vecs[i], sites[i] = docs[i].Vec, docs[i].Site
	}
	batches := inBatches(docs, 10)
	batchOf := map[string]string{}
	for _, b := range batches {
		for _, d := range b.Docs {
			batchOf[d.Key()] = b.ID
		}
	}
	for _, c := range []struct {
		tau   float64
		split int // the bound is the largest group's signatures / split (0: unbounded)
	}{{0.2, 0}, {0.5, 0}, {0.9, 0}, {0.2, 3}, {0.5, 3}, {0.9, 3}, {0.2, 2}} {
		tau := c.tau
		t.Run(fmt.Sprint(tau, "/split=", c.split), func(t *testing.T) {
			p := config.DefaultParams()
			p.Tau, p.Rho, p.MaxGroupSignatures = tau, 8, 0
			var want []string
			brute := match.BruteForce(vecs, tau)
			n := len(brute)
			for _, pr := range p.SiteRule().Filter(brute, sites) {
				want = append(want, pairSummary(dedup.NewPairRecord(docs[pr.A].Ref, docs[pr.A].Vec.Len(), docs[pr.B].Ref, docs[pr.B].Vec.Len(), pr.Jaccard,
					dedup.Verify(docs[pr.A].Sketch, docs[pr.B].Sketch, sites[pr.A], sites[pr.B], dedup.Weak(docs[pr.A].Vec.Len(), docs[pr.B].Vec.Len()), p.VerifyShare))))
			}
			if tau == 0.2 && (len(want) == 0 || len(want) == n) {
				t.Fatalf("%d of %d brute-force pairs at τ 0.2 pass the same-site rule: the test cannot see it", len(want), n)
			}
			largest := 0
			if c.split > 0 {
				g, _ := config.NewGrouping(p)
				size := map[uint64]int{}
				for _, d := range docs {
					for _, k := range g.Keys(d.Vec) {
						size[k.Key] += d.Vec.Len()
						largest = max(largest, size[k.Key])
					}
				}
				p.MaxGroupSignatures = largest / c.split
			}
			pl, s := beam.NewPipelineWithRoot()
			st := &Stats{}
			found, err := MatchGroups(s, st, KeyByGroup(s, beam.CreateList(s, batches), p), p)
			if err != nil {
				t.Fatal(err)
			}
			passert.Equals(s, beam.ParDo(s, foundSummary, found), strs(want)...)
			passert.Empty(s, beam.ParDo(s, &foundBatchesFn{Batch: batchOf}, found))
			passert.Equals(s, beam.ParDo(s, &statOf{Name: output.StatPairs}, st.Collection(s)), statLine(output.StatPairs, len(want)))
			if c.split > 0 {
				// Split: every task is smaller than the largest group.
				passert.Empty(s, beam.ParDo(s, &statAbove{Name: output.StatLargestGroupSignatures, Max: largest - 1}, st.Collection(s)))
			}
			ptest.RunAndValidate(t, pl)
		})
	}
}

// WriteLines writes every shard, sorted, with each line once; Commit gives
// them their final names and writes _SUCCESS, leaving no temporary file; a
// symlink planted at a shard's name is replaced, its target untouched.
func TestWriteLinesComposite(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, output.JSONLines.ShardName("x", 1, 3))); err != nil {
		t.Fatal(err)
	}
	lines := []string{"c", "a", "b", "e", "d", "f", "g"}
	pl, s := beam.NewPipelineWithRoot()
	out := &Outputs{Dir: dir, Shards: 3, RunID: output.NewRunID()}
	WriteLines(s, out, "x", beam.CreateList(s, lines))
	out.Commit(s)
	ptest.RunAndValidate(t, pl)
	var got []string
	for i := range 3 {
		path := filepath.Join(dir, output.JSONLines.ShardName("x", i, 3))
		if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
			t.Fatalf("%s: not a regular file (%v)", path, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		shard := strings.Fields(string(b))
		if !slices.IsSorted(shard) {
			t.Errorf("shard %d not sorted: %q", i, shard)
		}
		got = append(got, shard...)
	}
	slices.Sort(got)
	slices.Sort(lines)
	if !slices.Equal(got, lines) {
		t.Errorf("written lines %q, want %q", got, lines)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{output.SuccessFile, output.JSONLines.ShardName("x", 0, 3), output.JSONLines.ShardName("x", 1, 3), output.JSONLines.ShardName("x", 2, 3)}
	if !slices.Equal(names, want) {
		t.Errorf("output directory holds %q, want %q", names, want)
	}
}

// Commit fails when a file it expects was not written, and then writes no
// _SUCCESS.
func TestCommitChecksFiles(t *testing.T) {
	dir := t.TempDir()
	pl, s := beam.NewPipelineWithRoot()
	out := &Outputs{Dir: dir, Shards: 1, RunID: output.NewRunID()}
	WriteLines(s, out, "x", beam.CreateList(s, []string{"a"}))
	out.expect = append(out.expect, "missing.jsonl")
	out.Commit(s)
	if err := ptest.Run(pl); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("commit with a missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, output.SuccessFile)); err == nil {
		t.Error("_SUCCESS written after a failed commit")
	}
}

// signedDocs reads and signs the pages of files with p's signer
// (dedup.ReadFile, dedup.Sign): the documents, in file and record order,
// at most limit of them (0: all).
func signedDocs(t *testing.T, files []string, p config.Params, limit int) []dedup.Doc {
	t.Helper()
	signer, err := dedup.NewSigner(p)
	if err != nil {
		t.Fatal(err)
	}
	var docs []dedup.Doc
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		dedup.ReadFile(name, f, nil, p.WARCOptions(), func(c dedup.Candidate) {
			if limit > 0 && len(docs) >= limit {
				return
			}
			if s := dedup.Sign(t.Context(), signer, nil, c); s.IsDoc() {
				docs = append(docs, s.Doc)
			}
		}, func(output.Reject) {})
		f.Close()
	}
	return docs
}
