package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/output"
)

// runEvalCheck checks the guarantees of the decisions of each job output
// directory given (eval.CheckDecisions, τ from its summary.json); a run
// with --against is checked against the index its summary.json names
// (eval.CheckDecisionsAgainst: its committed segments as they are now);
// exit 1 on any violation.
func runEvalCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval check", stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, dir := range fs.Args() {
		errs, n, err := checkDir(dir)
		if err != nil {
			fmt.Fprintln(stderr, "ndd-eval check:", err)
			return 1
		}
		for _, e := range errs {
			fmt.Fprintf(stdout, "%s: %v\n", dir, e)
		}
		if len(errs) > 0 {
			status = 1
			continue
		}
		fmt.Fprintf(stdout, "%s: %d decisions: every kept_by is a kept page at Jaccard >= tau (same_site_tau within a site) or an exact-text copy, no pair joins two kept pages, clusters match\n", dir, n)
	}
	return status
}

func checkDir(dir string) ([]error, int, error) {
	b, err := os.ReadFile(filepath.Join(dir, output.SummaryFile))
	if err != nil {
		return nil, 0, err
	}
	var sum output.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", dir, err)
	}
	ds, _, err := output.ReadAll[output.Decision](output.Glob(dir, output.Decisions))
	if err != nil {
		return nil, 0, err
	}
	cs, _, err := output.ReadAll[output.Cluster](output.Glob(dir, output.Clusters))
	if err != nil {
		return nil, 0, err
	}
	ps, _, err := output.ReadAll[output.PairRecord](output.Glob(dir, output.Pairs))
	if err != nil {
		return nil, 0, err
	}
	var prior map[string]dedup.Prior
	if len(sum.Against) > 0 {
		pages, _, err := index.Load(context.Background(), sum.Against, index.AgreementOf(sum.Parameters))
		if err != nil {
			return nil, 0, fmt.Errorf("%s: the index it ran against: %w", dir, err)
		}
		prior = make(map[string]dedup.Prior, len(pages))
		for _, q := range pages {
			prior[q.Key()] = q
		}
	}
	return eval.CheckDecisionsAgainst(ds, cs, ps, sum.Parameters, prior), len(ds), nil
}

const reportUsage = `usage: ndd-eval report [--report FILE] [--samples N] OUTPUT_DIR

Write the run report of the job output in OUTPUT_DIR (a local directory
with summary.json, pairs, decisions and clusters, plain or gzipped) as one
self-contained HTML file to open in a browser: the summary (pages read,
kept, dropped, exact copies and near-duplicates, rejects), plots of the
cluster sizes, the Jaccard of the pairs, the hosts with most dropped pages
and the rejects by reason, and N dropped pages beside the pages they were
dropped for, their shared text marked. The texts are read from the WARC
files the decision lines name (local paths, relative to the working
directory).

The file goes beside OUTPUT_DIR, never into it (the next run's --overwrite
refuses a directory that holds files it did not write): out/ gives
out.report.html.

`
