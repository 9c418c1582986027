package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/output"
)

func runEvalPairs(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval", stderr)
	pairs := fs.String("pairs", "", "glob of the pairs output files, JSON lines or Parquet, e.g. 'out/pairs-*' (required)")
	truthPath := fs.String("truth", "", "truth file, JSON lines with record_id, uri, cluster (required)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object instead of a table")
	clusters := fs.Int("clusters", 10, "number of lowest-recall clusters to list in the table (0: none, -1: all)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pairs == "" || *truthPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	truth, ps, files, ok := loadScored(stderr, *truthPath, func() ([]eval.PairRecord, []string, error) { return output.ReadAll[output.PairRecord](*pairs) })
	if !ok {
		return 1
	}
	r := eval.Evaluate(truth, ps)
	if *asJSON {
		return writeJSON(stdout, stderr, struct {
			Files []string `json:"files"`
			eval.Result
		}{files, r})
	}
	writeResultTable(stdout, files, truth, r, *clusters)
	return 0
}

func writeResultTable(w io.Writer, files []string, truth *eval.Truth, r eval.Result, clusters int) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "pairs files\t%d (%s)\n", len(files), strings.Join(files, ", "))
	fmt.Fprintf(tw, "truth records\t%d\n", len(truth.Records))
	fmt.Fprintf(tw, "labelled pairs\t%d\n", r.Positives)
	fmt.Fprintf(tw, "found pairs\t%d\n", r.Predicted)
	fmt.Fprintf(tw, "true positives\t%d\n", r.TruePositives)
	fmt.Fprintf(tw, "false positives\t%d\n", r.FalsePositives)
	fmt.Fprintf(tw, "false negatives\t%d\n", r.FalseNegatives)
	fmt.Fprintf(tw, "precision\t%.4f\n", r.Precision)
	fmt.Fprintf(tw, "recall\t%.4f\n", r.Recall)
	fmt.Fprintf(tw, "F1\t%.4f\n", r.F1)
	fmt.Fprintf(tw, "pairs with a page not in the truth\t%d\n", len(r.Unknown))
	fmt.Fprintf(tw, "repeated pairs (scored once)\t%d\n", r.Repeated)
	fmt.Fprintf(tw, "self pairs (not scored)\t%d\n", r.SelfPairs)
	tw.Flush()
	for i, u := range r.Unknown {
		if i == 5 {
			fmt.Fprintf(w, "  … %d more\n", len(r.Unknown)-5)
			break
		}
		fmt.Fprintf(w, "  not in truth: %s %s — %s %s\n", u.ARecordID, u.AURI, u.BRecordID, u.BURI)
	}
	writeLanguageTable(w, truth, r)
	if clusters == 0 || len(r.Clusters) == 0 {
		return
	}
	cs := append([]eval.ClusterRecall(nil), r.Clusters...)
	sortClustersByRecall(cs)
	if clusters > 0 && clusters < len(cs) {
		cs = cs[:clusters]
	}
	fmt.Fprintf(w, "\nper-cluster recall (lowest first, %d of %d positive clusters)\n", len(cs), len(r.Clusters))
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "cluster\tsize\tfound\tpairs\trecall")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3f\n", c.Cluster, c.Size, c.Found, c.Pairs, c.Recall)
	}
	tw.Flush()
}

// writeLanguageTable writes precision, recall and F1 within each language
// (eval.ByLanguage) when the truth labels pages with a language (a
// multilingual set such as goldset-ml); otherwise nothing.
func writeLanguageTable(w io.Writer, truth *eval.Truth, r eval.Result) {
	rows, crossFP := eval.ByLanguage(truth, r)
	if len(rows) < 2 {
		return
	}
	fmt.Fprintf(w, "\nper language (pairs within the language; %d false pairs across languages)\n", crossFP)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "lang\tpages\ttp\tfp\tfn\tprecision\trecall\tF1")
	for _, x := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\n", x.Lang, x.Pages, x.TruePositives, x.FalsePositives, x.FalseNegatives, x.Precision, x.Recall, x.F1)
	}
	tw.Flush()
}

// sortClustersByRecall orders clusters by ascending recall, then by id.
func sortClustersByRecall(cs []eval.ClusterRecall) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && (cs[j].Recall < cs[j-1].Recall ||
			(cs[j].Recall == cs[j-1].Recall && cs[j].Cluster < cs[j-1].Cluster)); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
