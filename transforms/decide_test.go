package transforms

import (
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

// CollapseExact and Decide give dedup.Run's exact copies, decisions and
// clusters on the real pages, pairs and exact-copy groups of the dev gold
// set, whether Decide's merging DoFns (bundleMerge) hand on each message
// alone (a limit of 1 byte: one element per edge, as many parts per key as
// edges) or merged per page.
func TestDecideMergedPartsEqualInProcess(t *testing.T) {
	if _, err := os.Stat(goldWARC); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	p := config.DefaultParams()
	res, err := dedup.Run(t.Context(), p, []string{goldWARC})
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]Page{}
	for _, pg := range res.Pages {
		pages[pg.ID()] = pg
	}
	var docs []Doc
	signed := map[string]bool{}
	for _, d := range res.Docs {
		docs = append(docs, Doc{Doc: dedup.Doc{Page: pages[d.ID()], Site: d.Site, Vec: d.Vec}})
		signed[d.ID()] = true
	}
	batches := inBatches(docs, 300)
	batchOf := map[string]string{}
	for _, b := range batches {
		for _, d := range b.Docs {
			batchOf[d.ID()] = b.ID
		}
	}
	var unsigned []Page
	for _, pg := range res.Pages {
		if !signed[pg.ID()] {
			unsigned = append(unsigned, pg)
		}
	}
	var found []Found
	for _, q := range res.Pairs {
		a, b := res.Docs[q.A], res.Docs[q.B]
		f := Found{Pair: dedup.NewPairRecord(a.Ref, 0, b.Ref, 0, q.Jaccard), ABatch: batchOf[a.ID()], BBatch: batchOf[b.ID()]}
		if f.Pair.A() != a.Ref {
			f.ABatch, f.BBatch = f.BBatch, f.ABatch
		}
		found = append(found, f)
	}
	var wantCopies []string
	for i, d := range res.Docs {
		if r := res.RepOf[i]; r != i {
			wantCopies = append(wantCopies, d.Key()+" "+res.Docs[r].Key())
		}
	}
	if len(wantCopies) == 0 || len(found) < 1000 || len(unsigned) == 0 {
		t.Fatalf("gold set: %d exact copies, %d pairs, %d unsigned pages; want all", len(wantCopies), len(found), len(unsigned))
	}
	var want, wantClusters []string
	for _, d := range res.Decisions {
		l, err := jsonLine(d)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, l)
	}
	for _, c := range res.Clusters {
		l, err := jsonLine(c)
		if err != nil {
			t.Fatal(err)
		}
		wantClusters = append(wantClusters, l)
	}
	defer func(l int) { decideMergeLimit = l }(decideMergeLimit)
	for _, limit := range []int{1, 0} {
		decideMergeLimit = limit
		pl, s := beam.NewPipelineWithRoot()
		groups := CollapseExact(s, &Stats{}, beam.CreateList(s, batches))
		r, err := Decide(s, &Stats{}, groups, beam.CreateList(s, found), beam.CreateList(s, unsigned), p)
		if err != nil {
			t.Fatal(err)
		}
		passert.Equals(s, beam.ParDo(s, copySummary, groups.Copies), strs(wantCopies)...)
		passert.Equals(s, beam.ParDo(s, decisionLine, r.Decisions), strs(want)...)
		passert.Equals(s, beam.ParDo(s, clusterLine, r.Clusters), strs(wantClusters)...)
		if err := ptest.Run(pl); err != nil {
			t.Fatalf("merge limit %d: %v", limit, err)
		}
	}
}

func copySummary(c ExactCopy) string { return c.Member.Key() + " " + c.Rep.Key() }

func init() { register.Function1x1[ExactCopy, string](copySummary) }
