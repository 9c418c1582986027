package dedup

import (
	"context"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/internal/warcsplit"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// The equality of docs/design.md ("Scheduled batches"): batch 2 run against
// the index of the pages batch 1 kept decides every page of batch 2 as one
// run over the pages batch 1 kept plus batch 2 does, with the pages of
// batch 1 ranked first (and all kept). With the shared-block rule off and
// the default IDF range (keeps all), a page's vector does not depend on
// its batch, so the single run is Run's own pipeline (finish) over those
// pages.
func TestRunAgainstEqualsOneRunBatchOneFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("dev gold set: slow")
	}
	a, b := warcsplit.GoldBatches(t, t.TempDir())
	checkAgainstEqualsOneRun(t, []string{a}, []string{b})
}

// The same equality on real WARC files of many sites: the shared WARCs of
// ../shared/data/warc (the realset's pages), alternate files in each batch.
func TestRunAgainstEqualsOneRunRealset(t *testing.T) {
	one, two := warcsplit.SharedBatches(t)
	checkAgainstEqualsOneRun(t, one, two)
}

// checkAgainstEqualsOneRun runs batch 1, indexes the pages it kept, runs
// batch 2 against them and checks every decision of batch 2 against one
// run over batch 1's kept pages (ranked first) plus batch 2.
func checkAgainstEqualsOneRun(t *testing.T, batch1, batch2 []string) {
	t.Helper()
	in1 := map[string]bool{}
	for _, f := range batch1 {
		in1[f] = true
	}
	p := config.DefaultParams()
	p.SharedBlockPages = 0
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r1, err := Run(ctx, p, batch1)
	if err != nil {
		t.Fatal(err)
	}
	prior := Priors(r1, "seg-1")
	r2, err := RunAgainst(ctx, p, batch2, prior)
	if err != nil {
		t.Fatal(err)
	}

	// One run over the pages batch 1 kept and all of batch 2, batch 1
	// ranked first.
	dropped1 := map[string]bool{}
	for _, d := range r1.Decisions {
		if !d.Keep {
			dropped1[d.ID()] = true
		}
	}
	all, err := SignFiles(ctx, p, append(slices.Clone(batch1), batch2...), nil)
	if err != nil {
		t.Fatal(err)
	}
	var slots []*Signed
	for _, s := range all {
		if !s.HasPage {
			slots = append(slots, s)
			continue
		}
		if in1[s.Doc.File] {
			if dropped1[s.Doc.ID()] {
				continue
			}
			s.Doc.Rank = priorRank + s.Doc.Rank
		} else {
			s.Doc.Rank = newRank + s.Doc.Rank
		}
		slots = append(slots, s)
	}
	one, err := finish(p, slots, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []output.Decision
	fromBatch1 := 0
	for i, d := range one.Decisions {
		if in1[one.Pages[i].File] {
			if !d.Keep {
				t.Fatalf("page %s that batch 1 kept is dropped in one run by %s", d.Key(), d.Keeper().Key())
			}
			continue
		}
		if !d.Keep && in1[d.KeptByFile] {
			fromBatch1++
		}
		want = append(want, d)
	}
	if len(want) != len(r2.Decisions) {
		t.Fatalf("%d decisions against the index, %d in one run", len(r2.Decisions), len(want))
	}
	segments := 0
	for i, d := range r2.Decisions {
		if d.KeptBySegment != "" {
			if d.KeptBySegment != "seg-1" || !in1[d.KeptByFile] {
				t.Errorf("%s: kept by %s in segment %q", d.Key(), d.Keeper().Key(), d.KeptBySegment)
			}
			segments++
			d.KeptBySegment = ""
		}
		if !sameDecision(d, want[i]) {
			t.Errorf("page %s: against the index %+v, one run %+v", d.Key(), d, want[i])
		}
	}
	checkReachDecidesTheSame(t, p, batch2, prior, r2)
	if r2.DroppedForPrior != fromBatch1 || segments != fromBatch1 {
		t.Errorf("dropped for the index: %d counted, %d named, %d in one run", r2.DroppedForPrior, segments, fromBatch1)
	}
	if fromBatch1 == 0 {
		t.Fatal("no page of batch 2 dropped for one of batch 1: the split tests nothing")
	}
	t.Logf("batch 1: %d pages, %d kept (index); batch 2: %d pages, %d dropped for index pages", len(r1.Pages), len(prior), len(r2.Pages), fromBatch1)
}

// checkReachDecidesTheSame: batch 2 run against only the index pages it
// reaches (Reach, what the job holds of the index) decides every page as
// the run against the whole index r2 did, and leaves index pages out.
func checkReachDecidesTheSame(t *testing.T, p config.Params, batch2 []string, prior []Prior, r2 *Result) {
	t.Helper()
	var vecs []spotsig.Vector
	var sites []match.Site
	for _, d := range r2.Docs {
		vecs, sites = append(vecs, d.Vec), append(sites, d.Site)
	}
	var digests []string
	for _, pg := range r2.Pages {
		digests = append(digests, pg.Digest)
	}
	reach := NewReach(vecs, sites, digests, p.Tau, p.SiteRule())
	var reached []Prior
	for _, pr := range prior {
		if reach.Holds(pr) {
			reached = append(reached, pr)
		}
	}
	r3, err := RunAgainst(context.Background(), p, batch2, reached)
	if err != nil {
		t.Fatal(err)
	}
	if len(r3.Decisions) != len(r2.Decisions) {
		t.Fatalf("%d decisions against the pages reached, %d against the whole index", len(r3.Decisions), len(r2.Decisions))
	}
	for i, d := range r3.Decisions {
		if !sameDecision(d, r2.Decisions[i]) || d.KeptBySegment != r2.Decisions[i].KeptBySegment {
			t.Errorf("page %s: against the pages reached %+v, against the whole index %+v", d.Key(), d, r2.Decisions[i])
		}
	}
	if len(reached) == len(prior) {
		t.Errorf("batch 2 reaches all %d index pages: the test cannot tell", len(prior))
	}
	t.Logf("batch 2 reaches %d of %d index pages", len(reached), len(prior))
}

// sameDecision compares two decisions field by field (the kept-by offsets
// are pointers).
func sameDecision(x, y output.Decision) bool {
	eq := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return x.Ref == y.Ref && x.Keep == y.Keep && x.KeptBy == y.KeptBy && x.KeptByURI == y.KeptByURI &&
		x.KeptByFile == y.KeptByFile && eq(x.KeptByOffset, y.KeptByOffset) && eq(x.KeptByInner, y.KeptByInner) &&
		x.KeptBySegment == y.KeptBySegment && x.Jaccard == y.Jaccard && x.Method == y.Method && slices.Equal(x.Capped, y.Capped)
}

// At the default settings (shared-block rule on: a batch's statistics are
// its own) the rule still holds page by page: no kept page of batch 2 is a
// near-duplicate of an index page (brute force over all of them, with the
// same-site rule and verification), and a page dropped for an index page names one it
// copies or pairs with at the Jaccard reported.
func TestRunAgainstDefaultsKeepsNoCopyOfIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("dev gold set: slow")
	}
	a, b := warcsplit.GoldBatches(t, t.TempDir())
	p := config.DefaultParams()
	ctx := context.Background()
	r1, err := Run(ctx, p, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	prior := Priors(r1, "seg-1")
	r2, err := RunAgainst(ctx, p, []string{b}, prior)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Prior{}
	for _, q := range prior {
		byID[q.ID()] = q
	}
	vec := map[string]Doc{}
	for _, d := range r2.Docs {
		vec[d.ID()] = d
	}
	digest := map[string]string{}
	for _, pg := range r2.Pages {
		digest[pg.ID()] = pg.Digest
	}
	rule := p.SiteRule()
	exact, near := 0, 0
	for _, d := range r2.Decisions {
		doc, isDoc := vec[d.ID()]
		if d.Keep {
			if !isDoc {
				continue
			}
			for _, q := range prior {
				j := match.WeightedJaccard(q.Vec, doc.Vec)
				qs := SiteOf(q.Ref)
				if j >= p.Tau && rule.Keep(j, qs, doc.Site) && Verify(q.Sketch, doc.Sketch, qs, doc.Site, Weak(q.Vec.Len(), doc.Vec.Len()), p.VerifyShare).OK {
					t.Errorf("kept %s pairs with index page %s at %v", d.Key(), q.Key(), j)
				}
			}
			continue
		}
		if d.KeptBySegment == "" {
			continue
		}
		q, ok := byID[d.Keeper().ID()]
		switch {
		case !ok:
			t.Errorf("%s dropped for %s, not an index page", d.Key(), d.Keeper().Key())
		case d.Jaccard == 1 && (q.Digest == digest[d.ID()] || isDoc && ExactKey(q.Vec) == ExactKey(doc.Vec)):
			exact++
		case isDoc && match.WeightedJaccard(q.Vec, doc.Vec) == d.Jaccard && d.Jaccard >= p.Tau:
			near++
		default:
			t.Errorf("%s dropped for index page %s at %v: neither a copy nor a pair", d.Key(), q.Key(), d.Jaccard)
		}
	}
	if exact == 0 || near == 0 || exact+near != r2.DroppedForPrior {
		t.Errorf("dropped for index pages: %d exact copies, %d near-duplicates, %d counted", exact, near, r2.DroppedForPrior)
	}
	t.Logf("batch 2: %d pages, %d dropped for an index page (%d exact copies, %d near-duplicates)", len(r2.Pages), r2.DroppedForPrior, exact, near)
}
