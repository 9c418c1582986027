package main

import (
	"fmt"
	"io"

	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/output"
)

// runEvalRealset scores a job output directory against a real-page truth
// set (eval.ScoreReal): drop precision and recall, pair precision and
// recall; --list adds the wrong and missed drops.
func runEvalRealset(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval realset", stderr)
	truthPath := fs.String("truth", "", "truth.tsv of a real-page set, e.g. ../shared/data/realset/truth.tsv (required; judged_pairs.tsv beside it gives the reasons of wrong drops)")
	list := fs.Bool("list", false, "also list the wrong drops and the missed drops")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *truthPath == "" || fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	dir := fs.Arg(0)
	fail := func(err error) int { fmt.Fprintln(stderr, "ndd-eval realset:", err); return 1 }
	t, err := eval.LoadRealTruth(*truthPath)
	if err != nil {
		return fail(err)
	}
	ds, _, err := output.ReadAll[output.Decision](output.Glob(dir, output.Decisions))
	if err != nil {
		return fail(err)
	}
	ps, _, err := output.ReadAll[output.PairRecord](output.Glob(dir, output.Pairs))
	if err != nil {
		return fail(err)
	}
	s := eval.ScoreReal(t, ds, ps, nil)
	fmt.Fprintf(stdout, "%s: %d pages scored (%d not in the truth)\n", s.Set, s.Pages, s.Unknown)
	fmt.Fprintf(stdout, "drops %d, right %d: drop precision %.3f, drop recall %.3f (of %d possible)\n", s.Drops, s.Right, s.DropPrecision, s.DropRecall, s.Possible)
	fmt.Fprintf(stdout, "pairs %d (expanded), true %d, right %d: pair precision %.3f, pair recall %.3f\n", s.PairsPredicted, s.PairsTrue, s.PairsRight, s.PairPrecision, s.PairRecall)
	if *list {
		for _, w := range s.Wrong {
			fmt.Fprintf(stdout, "wrong drop\t%s\tkept by %s\t%.2f\t%s\t%s\n", w.URI, w.KeptByURI, w.Jaccard, w.Method, w.Reason)
		}
		for _, m := range s.Missed {
			fmt.Fprintf(stdout, "missed drop\t%s\t%v\t%s\n", m.Cluster, m.URIs, m.Note)
		}
	}
	return 0
}
