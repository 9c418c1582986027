package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/internal/warcsplit"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Scheduled batches on the direct runner: the dev gold set split in two;
// batch 1 run with --write_index, batch 2 with --against that index. Batch
// 2's decisions, clusters and pairs equal dedup.RunAgainst's over the index pages
// read back (which TestRunAgainstEqualsOneRunBatchOneFirst holds equal to
// one run over batch 1's kept pages and batch 2), and summary.json counts
// the pages dropped for index pages.
func TestJobAgainstIndexEqualsInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("dev gold set: slow")
	}
	a, b := warcsplit.GoldBatches(t, t.TempDir())
	checkJobAgainst(t, []string{a}, []string{b})
}

// The same on the shared real WARC files (the realset's pages), alternate
// files in each batch: 8 pages of batch 2 are dropped for index pages.
func TestJobAgainstIndexRealset(t *testing.T) {
	one, two := warcsplit.SharedBatches(t)
	checkJobAgainst(t, one, two)
}

// checkJobAgainst runs batch 1 with --write_index and batch 2 with
// --against on the direct runner and checks batch 2's outputs against
// dedup.RunAgainst, then the same two runs on prism against the direct
// runner's lines.
func checkJobAgainst(t *testing.T, batch1, batch2 []string) {
	t.Helper()
	ix := t.TempDir()
	cfg := testConfig(batch1)
	cfg.WriteIndex = ix
	seg := readSummary(t, runJob(t, "direct", cfg)).IndexSegment

	cfg = testConfig(batch2)
	cfg.Against = []string{ix}
	out := runJob(t, "direct", cfg)
	got := checkDecisions(t, out, cfg)
	sum := readSummary(t, out)

	prior, _, err := index.Load(context.Background(), []string{ix}, index.AgreementOf(cfg.Params))
	if err != nil {
		t.Fatal(err)
	}
	res, err := dedup.RunAgainst(context.Background(), cfg.Params, batch2, prior)
	if err != nil {
		t.Fatal(err)
	}
	sameDecisions(t, "job vs dedup.RunAgainst", got, inProcessDecisions(t, res))
	samePairs(t, "job vs dedup.RunAgainst", readPairs(t, out, cfg.Shards), pairKeys(res))
	if sum.DroppedForIndex != res.DroppedForPrior || res.DroppedForPrior == 0 {
		t.Errorf("summary dropped_for_index %d, dedup.RunAgainst %d", sum.DroppedForIndex, res.DroppedForPrior)
	}
	var vecs []spotsig.Vector
	var sites []match.Site
	for _, d := range res.Docs {
		vecs, sites = append(vecs, d.Vec), append(sites, d.Site)
	}
	var digests []string
	for _, pg := range res.Pages {
		digests = append(digests, pg.Digest)
	}
	reach, reached := dedup.NewReach(vecs, sites, digests, cfg.Params.Tau, cfg.Params.SiteRule()), 0
	for _, pr := range prior {
		if reach.Holds(pr) {
			reached++
		}
	}
	if sum.IndexPagesReached != reached || reached == 0 {
		t.Errorf("summary index_pages_reached %d, dedup.Reach %d", sum.IndexPagesReached, reached)
	}
	t.Logf("%d index pages, %d reached; batch 2: %d kept, %d dropped, %d of them for index pages", len(prior), reached, sum.Kept, sum.Dropped, sum.DroppedForIndex)

	// On prism, batch 2 run against prism's segment of batch 1, with its
	// partitions cut into tasks of at most 20,000 signatures, gives the
	// direct runner's lines byte for byte, but for the segment's name.
	t.Run("prism", func(t *testing.T) {
		pix := t.TempDir()
		cfg := testConfig(batch1)
		cfg.WriteIndex = pix
		pseg := readSummary(t, runJob(t, "prism", cfg)).IndexSegment
		cfg = testConfig(batch2)
		cfg.Against = []string{pix}
		cfg.MaxGroupSignatures = 20_000 // matching tasks cut into block grids
		pout := runJob(t, "prism", cfg)
		for _, prefix := range []string{"decisions", "clusters", "pairs"} {
			got, want := readLines(t, pout, prefix, cfg.Shards), readLines(t, out, prefix, cfg.Shards)
			// the segments' names are the runs' IDs
			if strings.ReplaceAll(strings.Join(got, "\n"), pseg, seg) != strings.Join(want, "\n") {
				t.Errorf("%s: prism's %d lines differ from the direct runner's %d", prefix, len(got), len(want))
			}
		}
	})
}

// --against is checked at launch: a segment written with other parameters
// is refused with one line naming the parameter (a configuration error:
// exit status 2), and so is a directory without a committed segment.
func TestValidateAgainstMismatch(t *testing.T) {
	ix := t.TempDir()
	p := config.DefaultParams()
	p.Tau = 0.3
	if err := index.WriteSegment(context.Background(), ix, index.SegmentName("old"), "", p, nil); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(testdataGlobs(t))
	cfg.Output = t.TempDir()
	cfg.Against = []string{ix}
	err := Validate(context.Background(), &cfg)
	if err == nil || !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), "tau=0.3") || strings.Contains(err.Error(), "\n") {
		t.Errorf("tau mismatch: %v", err)
	}
	cfg.Against = []string{t.TempDir()}
	if err := Validate(context.Background(), &cfg); err == nil || !errors.Is(err, config.ErrConfig) {
		t.Errorf("empty index directory: %v", err)
	}
	cfg.Against = []string{ix}
	cfg.Tau = 0.3
	cfg.IDFMax = 0.9
	if err := Validate(context.Background(), &cfg); err == nil || !strings.Contains(err.Error(), "IDF range") {
		t.Errorf("IDF range that drops signatures: %v", err)
	}
}
