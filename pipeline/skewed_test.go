package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/output"
)

// A small skewed crawl (eval.WriteSkewedCrawl from the two gold sets' real
// pages: soft-404 pages, byte-identical copies of one article, one-word
// variants of another, distinct articles) with exact copies collapsed and
// hot partitions split (--max_group_signatures far below the largest partition),
// at τ 0.2, 0.5 and 0.9:
//   - the pairs lines equal dedup.Run's, exact-copy lines included;
//   - expanded (dedup.ExpandPairs) they equal brute force over every
//     document: collapsing and splitting lose and add nothing;
//   - the decisions equal dedup.Run's and keep their guarantees
//     (checkDecisions), and every copy group keeps exactly one page;
//   - the pairs file has one line per collapsed copy, not n² lines.
func TestSkewedCrawlCollapsedAndSplit(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "data")
	sources := [][2]string{
		{filepath.Join(shared, "goldset", "gold.warc.gz"), filepath.Join(shared, "goldset", "truth.jsonl")},
		{filepath.Join(shared, "goldset-ml", "gold.warc.gz"), filepath.Join(shared, "goldset-ml", "truth.jsonl")},
	}
	for _, s := range sources {
		if _, err := os.Stat(s[0]); err != nil {
			t.Skipf("%s absent: %v", s[0], err)
		}
	}
	crawl := eval.SkewedCrawl{SoftNotFound: 300, Copies: 200, Variants: 120, Distinct: 60}
	in := filepath.Join(t.TempDir(), "skewed.warc.gz")
	var w, truthBuf bytes.Buffer
	if err := eval.WriteSkewedCrawl(&w, &truthBuf, crawl, sources); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, w.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	truth, err := eval.ReadTruth(&truthBuf)
	if err != nil {
		t.Fatal(err)
	}
	for _, tau := range []float64{0.2, 0.5, 0.9} {
		t.Run(fmt.Sprint(tau), func(t *testing.T) {
			cfg := testConfig([]string{in})
			cfg.Tau, cfg.MaxGroupSignatures = tau, 12000
			dir := runJob(t, "direct", cfg)
			sum := checkAccounting(t, dir, 1)
			want, _, _, res := reference(t, cfg, sum.Files)
			got := readPairs(t, dir, 1)
			samePairs(t, "job vs in-process", got, want)
			if sum.LargestGroupSignatures > 2*cfg.MaxGroupSignatures || sum.LargestGroup == 0 {
				t.Errorf("largest task %d signatures (%d documents), bound %d", sum.LargestGroupSignatures, sum.LargestGroup, cfg.MaxGroupSignatures)
			}
			if sum.ExactCopies < crawl.Copies-1 {
				t.Errorf("exact_copies %d, want >= %d (the byte-identical copies)", sum.ExactCopies, crawl.Copies-1)
			}
			if sum.Pairs != len(got) {
				t.Errorf("summary pairs %d, file %d lines", sum.Pairs, len(got))
			}

			// Expanded, the lines are brute force over every document (the
			// text-copy lines of pages decided by their text aside: they
			// have no signatures).
			var lines []output.PairRecord
			for _, l := range readLines(t, dir, "pairs", 1) {
				var p output.PairRecord
				if err := json.Unmarshal([]byte(l), &p); err != nil {
					t.Fatal(err)
				}
				if p.IsTextCopy() {
					continue
				}
				lines = append(lines, p)
			}
			expanded := map[pairKey]bool{}
			for _, p := range dedup.ExpandPairs(lines) {
				expanded[pairKey{p.A().Key(), p.B().Key(), p.Jaccard}] = true
			}
			brute := map[pairKey]bool{}
			for _, p := range dedup.BruteForcePairs(res.Docs, tau, cfg.SiteRule(), cfg.VerifyShare) {
				brute[pairKey{res.Docs[p.A].Key(), res.Docs[p.B].Key(), p.Jaccard}] = true
			}
			if len(brute) < crawl.Copies*(crawl.Copies-1)/2 {
				t.Fatalf("brute force: %d pairs, fewer than the copies'", len(brute))
			}
			samePairs(t, "expanded pairs vs brute force", expanded, brute)

			sameDecisions(t, "job vs in-process", checkDecisions(t, dir, cfg), inProcessDecisions(t, res))
			kept := map[string]int{}
			for _, l := range readLines(t, dir, "decisions", 1) {
				var d output.Decision
				if err := json.Unmarshal([]byte(l), &d); err != nil {
					t.Fatal(err)
				}
				i, ok := truth.Lookup(d.RecordID, d.URI)
				if !ok {
					t.Fatalf("decision for %s: not in the crawl's truth", d.RecordID)
				}
				if d.Keep {
					kept[truth.Records[i].Cluster]++
				}
			}
			for _, g := range []string{"soft404", "copies", "variants"} {
				if kept[g] != 1 {
					t.Errorf("copy group %s: %d pages kept, want 1", g, kept[g])
				}
			}
		})
	}
}
