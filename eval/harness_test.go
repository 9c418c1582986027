package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
)

var goldDir = filepath.Join("..", "..", "shared", "data", "goldset")

// The harness on the real gold set: every labelled page is read, SpotSigs
// with the job's extraction beats the README's whole-page word-5-shingle
// baseline (best F1 0.797, measured by the set's builder with its own
// code), and LSH-S, which verifies candidates exactly, finds a subset of the
// exact matcher's pairs at the same τ.
func TestHarnessOnGoldSet(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 55 MB gold set")
	}
	warcPath := filepath.Join(goldDir, "gold.warc.gz")
	if _, err := os.Stat(warcPath); err != nil {
		t.Skip("gold set not present:", err)
	}
	truth, err := LoadTruth(filepath.Join(goldDir, "truth.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadCorpus(warcPath, truth)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != len(truth.Records) || len(c.Missing) != 0 || c.Unlabelled != 0 {
		t.Fatalf("read %d of %d labelled pages, %d missing, %d unlabelled", len(c.Docs), len(truth.Records), len(c.Missing), c.Unlabelled)
	}
	cfg := DefaultMethodsConfig()
	cfg.ShingleK, cfg.Descriptive, cfg.PaperChains = nil, nil, false
	ms, err := Methods(cfg)
	if err != nil {
		t.Fatal(err)
	}
	spots, lsh := ms[0], ms[1]
	if spots.Name != "SpotSigs" || lsh.Name != "LSH-S" {
		t.Fatalf("methods %q %q", spots.Name, lsh.Name)
	}
	v := c.Sign(spots)
	tau := config.DefaultTau
	exact := c.Evaluate(spots, v, tau)

	// The harness's SpotSigs row is the job: at the job's defaults it finds
	// exactly the pairs of the in-process job (dedup.Run), except for the
	// shared-block statistic, which needs the pages' layout and not just
	// their text (the boilerplate table runs dedup.Run itself), and the
	// same-site rule, a pair rule on top of every method that the sweep
	// leaves out so that the methods compare as the paper compares them.
	p := config.DefaultParams()
	p.SharedBlockPages, p.SameSiteTau = 0, 0
	res, err := dedup.Run(context.Background(), p, []string{warcPath})
	if err != nil {
		t.Fatal(err)
	}
	job := map[[2]string]float64{}
	for _, p := range dedup.ExpandPairs(res.PairRecords()) {
		job[[2]string{p.ARecordID, p.BRecordID}] = p.Jaccard
	}
	if len(job) != len(exact.Pairs) {
		t.Errorf("harness: %d pairs at τ %v, job in process: %d", len(exact.Pairs), tau, len(job))
	}
	for _, p := range exact.Pairs {
		a, b := truth.Records[c.Docs[p.A].Truth].RecordID, truth.Records[c.Docs[p.B].Truth].RecordID
		if a > b {
			a, b = b, a
		}
		if j, ok := job[[2]string{a, b}]; !ok || j != p.Jaccard {
			t.Errorf("harness pair %s %s (%v) not found by the job (%v, %v)", a, b, p.Jaccard, j, ok)
			break
		}
	}
	if exact.Result.F1 < 0.80 {
		t.Errorf("SpotSigs F1 %.3f at τ %.2f, below the whole-page shingle baseline 0.797", exact.Result.F1, tau)
	}
	approx := c.Evaluate(lsh, c.Sign(lsh), 0.5)
	at5 := c.Evaluate(spots, v, 0.5)
	in := map[match.Pair]bool{}
	for _, p := range at5.Pairs {
		in[p] = true
	}
	for _, p := range approx.Pairs {
		if !in[p] {
			t.Fatalf("LSH-S pair %v not found by the exact matcher at the same τ", p)
		}
	}
	if len(approx.Pairs) == 0 || len(approx.Pairs) > len(at5.Pairs) {
		t.Errorf("LSH-S found %d pairs, exact %d", len(approx.Pairs), len(at5.Pairs))
	}
}
