package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/output"
)

// runEvalDecisions scores a decisions output: drop precision and recall.
func runEvalDecisions(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval decisions", stderr)
	decisions := fs.String("decisions", "", "glob of the decisions output files, JSON lines or Parquet, e.g. 'out/decisions-*' (required)")
	truthPath := fs.String("truth", "", "truth file, JSON lines with record_id, uri, cluster (required)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object instead of a table")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *decisions == "" || *truthPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	truth, ds, files, ok := loadScored(stderr, *truthPath, func() ([]eval.DecisionRecord, []string, error) { return output.ReadAll[output.Decision](*decisions) })
	if !ok {
		return 1
	}
	r := eval.EvaluateDrops(truth, ds)
	if *asJSON {
		return writeJSON(stdout, stderr, r)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "decisions files\t%d (%s)\n", len(files), strings.Join(files, ", "))
	fmt.Fprintf(tw, "decisions\t%d\n", r.Decisions)
	fmt.Fprintf(tw, "dropped\t%d\n", r.Dropped)
	fmt.Fprintf(tw, "correct drops\t%d\n", r.CorrectDrops)
	fmt.Fprintf(tw, "possible drops (Σ cluster size − 1)\t%d\n", r.PossibleDrops)
	fmt.Fprintf(tw, "drop precision\t%.4f\n", r.DropPrecision)
	fmt.Fprintf(tw, "drop recall\t%.4f\n", r.DropRecall)
	fmt.Fprintf(tw, "unique pages dropped (alone in their true cluster)\t%d of %d\n", r.UniqueDropped, r.Unique)
	fmt.Fprintf(tw, "drops naming a page not in the truth\t%d\n", len(r.Unknown))
	tw.Flush()
	return 0
}
