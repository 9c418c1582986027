package transforms

import (
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Decide gives dedup.Run's decisions and clusters on the real pages, pairs
// and exact-copy groups of the dev gold set, whether its merging DoFns
// (bundleMerge) hand on each message alone (a limit of 1 byte: one element
// per edge, as many parts per key as edges) or merged per page.
func TestDecideMergedPartsEqualInProcess(t *testing.T) {
	if _, err := os.Stat(goldWARC); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	p := config.DefaultParams()
	res, err := dedup.Run(t.Context(), p, []string{goldWARC})
	if err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	var copies []ExactCopy
	for i, d := range res.Docs {
		if r := res.RepOf[i]; r != i {
			copies = append(copies, ExactCopy{Member: d.Ref, Rep: res.Docs[r].Ref})
			continue
		}
		docs = append(docs, Doc{Ref: d.Ref})
	}
	var pairs []PairRecord
	for _, q := range res.Pairs {
		pairs = append(pairs, dedup.NewPairRecord(res.Docs[q.A].Ref, spotsig.Vector{}, res.Docs[q.B].Ref, spotsig.Vector{}, q.Jaccard))
	}
	if len(copies) == 0 || len(pairs) < 1000 {
		t.Fatalf("gold set: %d exact copies, %d pairs; want both", len(copies), len(pairs))
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
		r, err := Decide(s, &Stats{}, beam.CreateList(s, res.Pages), beam.CreateList(s, docs), beam.CreateList(s, copies), beam.CreateList(s, pairs), p)
		if err != nil {
			t.Fatal(err)
		}
		passert.Equals(s, beam.ParDo(s, decisionLine, r.Decisions), strs(want)...)
		passert.Equals(s, beam.ParDo(s, clusterLine, r.Clusters), strs(wantClusters)...)
		if err := ptest.Run(pl); err != nil {
			t.Fatalf("merge limit %d: %v", limit, err)
		}
	}
}
