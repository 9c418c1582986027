package transforms

import (
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

func init() {
	register.Function1x1[decidedPage, string](decidedSummary)
	register.Function1x1[output.Cluster, string](clusterSummary)
}

func decidedSummary(d decidedPage) string {
	return fmt.Sprintf("%s keep=%v by=%s seg=%s j=%.4f %s", d.Line.RecordID, d.Line.Keep, d.Line.KeptBy, d.Line.KeptBySegment, d.Line.Jaccard, d.Line.Method)
}

func clusterSummary(c output.Cluster) string {
	return fmt.Sprintf("%s %v seg=%s", c.RecordID, c.Dropped, c.Segment)
}

func seq(from, n int, extra ...uint64) spotsig.Vector {
	var h []uint64
	for i := range n {
		h = append(h, uint64(from+i))
	}
	return spotsig.NewVector(append(h, extra...))
}

func againstPage(id string, i int, rank, digest string) dedup.Page {
	return dedup.Page{Ref: warc.Ref{File: "new.warc.gz", Offset: int64(100 * i), RecordID: id, URI: fmt.Sprintf("http://site%d.example/", i)}, Rank: rank, Digest: digest}
}

// The stages of a run against an index on a small case: an exact vector
// copy, a text copy with another vector and a text-only copy of index pages
// are dropped for them at Jaccard 1; a near-duplicate of an index page and
// its own exact copy are dropped for it at their Jaccard; a pair of new
// pages is decided as without an index; decisions and clusters name the
// index segment.
func TestAgainstComposites(t *testing.T) {
	p := config.DefaultParams()
	p.VerifyShare = 0 // hand-made documents without main texts: the paper's rule (verification: TestAgainstVerifies)
	prior := func(id string, i int, rank, digest string, v spotsig.Vector) dedup.Prior {
		return dedup.Prior{Page: dedup.Page{Ref: warc.Ref{File: "old.warc.gz", Offset: int64(100 * i), RecordID: id, URI: fmt.Sprintf("http://old%d.example/", i)}, Rank: rank, Digest: digest}, Vec: v, Segment: "seg-1"}
	}
	priors := []dedup.Prior{
		prior("P0", 0, "a0", "dA", seq(1, 10)),
		prior("P1", 1, "a1", "dT", spotsig.Vector{}),
		prior("P2", 2, "a2", "dC", seq(100, 10)),
		prior("P3", 3, "a3", "dD", seq(1, 10, 50)), // pairs with P0, never compared with it
	}
	docs := []doc{
		{Doc: dedup.Doc{Page: againstPage("N0", 0, "b0", "x0"), Vec: seq(1, 10)}},
		{Doc: dedup.Doc{Page: againstPage("N1", 1, "b1", "x1"), Vec: seq(1, 9, 11)}},
		{Doc: dedup.Doc{Page: againstPage("N2", 2, "b2", "dC"), Vec: seq(200, 10)}},
		{Doc: dedup.Doc{Page: againstPage("N3", 3, "b3", "x3"), Vec: seq(300, 10)}},
		{Doc: dedup.Doc{Page: againstPage("N4", 4, "b4", "x4"), Vec: seq(300, 9, 310)}},
		{Doc: dedup.Doc{Page: againstPage("N5", 5, "b5", "x5"), Vec: seq(1, 9, 11)}},
	}
	unsigned := []dedup.Page{againstPage("U0", 6, "b6", "dT"), againstPage("U1", 7, "b7", "zz")}

	// Unbounded tasks, and partitions cut into a grid of blocks of about 6
	// signatures (every document its own block).
	for _, bound := range []int{0, 15} {
		p.MaxGroupSignatures = bound
		pl, s := beam.NewPipelineWithRoot()
		st := &Stats{}
		a, kept, unsignedLeft := ExactAgainst(s, beam.CreateList(s, priors), beam.CreateList(s, inBatches(docs, 4)), beam.CreateList(s, unsigned), p)
		groups := CollapseExact(s, st, kept, p)
		found, err := MatchGroups(s, st, KeyByGroup(s, groups.Reps, p), p)
		if err != nil {
			t.Fatal(err)
		}
		a, rest := MatchAgainst(s, a, groups, found, p)
		r, err := Decide(s, st, groups, rest, unsignedLeft, a, p)
		if err != nil {
			t.Fatal(err)
		}
		j := 9.0 / 11
		passert.Equals(s, beam.ParDo(s, decidedSummary, r.Decisions),
			"N0 keep=false by=P0 seg=seg-1 j=1.0000 spotsigs",
			fmt.Sprintf("N1 keep=false by=P0 seg=seg-1 j=%.4f spotsigs", j),
			fmt.Sprintf("N5 keep=false by=P0 seg=seg-1 j=%.4f spotsigs", j),
			"N2 keep=false by=P2 seg=seg-1 j=1.0000 spotsigs",
			"N3 keep=true by= seg= j=0.0000 spotsigs",
			fmt.Sprintf("N4 keep=false by=N3 seg= j=%.4f spotsigs", j),
			"U0 keep=false by=P1 seg=seg-1 j=1.0000 exact-text",
			"U1 keep=true by= seg= j=0.0000 exact-text",
		)
		passert.Equals(s, beam.ParDo(s, clusterSummary, r.Clusters),
			"P0 [N0 N1 N5] seg=seg-1", "P1 [U0] seg=seg-1", "P2 [N2] seg=seg-1", "N3 [N4] seg=")
		// The pairs among new pages: N1~N5 are one exact-copy group, N3~N4.
		passert.Equals(s, beam.ParDo(s, foundSummary, found), pairSummary(dedup.NewPairRecord(docs[3].Ref, docs[3].Vec.Len(), docs[4].Ref, docs[4].Vec.Len(), j, dedup.Verify(docs[3].Sketch, docs[4].Sketch, docs[3].Site, docs[4].Site, false, 0))))
		if err := ptest.Run(pl); err != nil {
			t.Fatalf("bound %d: %v", bound, err)
		}
	}
}
