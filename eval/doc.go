// Package eval measures near-duplicate detection against a labelled truth
// file and runs the gold-set comparison of the paper's Table 1 in process.
//
// # Metrics
//
// A truth file (truth.jsonl) gives each document's record ID, target URI and
// cluster; two documents are near-duplicates iff they share a cluster. A
// pairs output (pairs*.jsonl) lists found pairs. Evaluate scores them
// pairwise: precision, recall and F1 micro-averaged over all document pairs,
// as the SpotSigs paper does (Theobald et al., SIGIR 2008, §5.1), plus the
// recall of each positive cluster. Pairs the truth cannot score (unknown
// documents, repeats, self pairs) are reported, never silently dropped.
//
// # Harness
//
// The harness reads a gold-set WARC once, extracts each page's text once,
// and then runs any number of methods (SpotSigs, shingles, LSH, I-Match,
// descriptive words) and thresholds τ over the cached texts, so a τ sweep
// costs only signatures and matching. It never imports Beam.
//
// # Run report
//
// LoadRunReport reads one job output directory (summary.json, pairs,
// decisions, clusters) and LoadSamples reads a sample of dropped pages and
// their kept pages back from the WARC files; WriteHTML writes it all as one
// self-contained HTML page with gonum/plot SVG plots (`ndd-eval report`,
// docs/outputs.md). Its tests run the Beam job on testdata from the
// external test package, so only the test binary links Beam.
package eval
