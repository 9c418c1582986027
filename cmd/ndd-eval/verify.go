package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/output"
)

// runEvalVerify measures the verification measure on the judged pairs of
// real-page sets (eval.MeasureVerification): how well the exact and the
// estimated main-text shares separate the labels, and the sketch's error.
func runEvalVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval verify", stderr)
	var sets []string
	fs.Func("real", "TRUTH.tsv:GLOB[,GLOB] of a real-page set (repeatable), e.g. ../shared/data/realset/truth.tsv:'../shared/data/warc/*.warc*'", func(v string) error {
		sets = append(sets, v)
		return nil
	})
	share := fs.Float64("share", 0.8, "the share both pages must hold of each other's main-text words, for --list (the realset's labelling guide: about 80 %)")
	cands := fs.String("candidates", "", "an ndd-beam output directory of a run on the same set's WARC files: also score its pairs (exact-copy groups expanded) as candidates, each verified at --share")
	list := fs.Bool("list", false, "also list every judged pair whose verdict at --share, by the layout main text, differs from its label")
	sl := eval.DefaultSiteLines
	fs.IntVar(&sl.URLs, "site_line_urls", sl.URLs, "site-lines main text: a line on at least this many distinct URLs of its site is the site's template")
	fs.Float64Var(&sl.Share, "site_line_share", sl.Share, "site-lines main text: ... and on at least this share of the site's URLs in the set (0: any)")
	fs.IntVar(&sl.MinSiteURLs, "site_min_urls", sl.MinSiteURLs, "site-lines main text: in a site with fewer URLs in the set no line is its template")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if len(sets) == 0 {
		fs.Usage()
		return 2
	}
	p := config.DefaultParams()
	for _, set := range sets {
		truth, globs, ok := strings.Cut(set, ":")
		if !ok {
			fmt.Fprintln(stderr, "ndd-eval verify: --real wants TRUTH.tsv:GLOB")
			return 2
		}
		rep, err := eval.MeasureVerification(context.Background(), p, truth, strings.Split(globs, ","), sl)
		if err != nil {
			fmt.Fprintln(stderr, "ndd-eval verify:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: %d judged pairs read (%d with a page not read)\n", rep.Set, len(rep.Pairs), rep.Missing)
		fmt.Fprintln(stdout, "share\tlayout main text: dup≥\tdiff≥\tits sketch: dup≥\tdiff≥\tflips\tmean|err|\trms err\tmax|err|\tsite-lines main text: dup≥\tdiff≥\tlayout and site-lines: dup≥\tdiff≥\tthe job's (sketch, host template): dup≥\tdiff≥")
		for _, th := range []float64{0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9} {
			s := rep.Summarize(th)
			fmt.Fprintf(stdout, "%.2f\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t%d\t%.4f\t%.4f\t%.3f\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d\n", th, s.ExactDupAbove, s.Dups, s.ExactDiffAbove, s.Diffs,
				s.EstDupAbove, s.Dups, s.EstDiffAbove, s.Diffs, s.DecisionFlips, s.MeanAbsErr, s.RMSErr, s.MaxAbsErr,
				s.SiteDupAbove, s.Dups, s.SiteDiffAbove, s.Diffs, s.BothDupAbove, s.Dups, s.BothDiffAbove, s.Diffs, s.JobDupAbove, s.Dups, s.JobDiffAbove, s.Diffs)
		}
		if *cands != "" {
			ps, _, err := output.ReadAll[output.PairRecord](output.Glob(*cands, output.Pairs))
			if err != nil {
				fmt.Fprintln(stderr, "ndd-eval verify:", err)
				return 1
			}
			c := rep.Candidates(dedup.ExpandPairs(ps), *share)
			fmt.Fprintf(stdout, "candidates of %s: %d pairs, %d of them duplicates; verified at %.2f: %d, %d of them duplicates: precision %.3f, recall %.3f (of the set's %d duplicate pairs)\n",
				*cands, c.Pairs, c.Dups, *share, c.Verified, c.VerifiedDups, c.Precision, c.Recall, c.AllDups)
		}
		if *list {
			for _, vp := range rep.Pairs {
				if (min(vp.EstAB, vp.EstBA) >= *share) != vp.Dup || (min(vp.ExactAB, vp.ExactBA) >= *share) != vp.Dup {
					fmt.Fprintf(stdout, "%v\t%s\t%s\tlayout %.2f/%.2f\tsketch %.2f/%.2f\tsite-lines %.2f/%.2f\n", vp.Dup, vp.A, vp.B,
						vp.ExactAB, vp.ExactBA, vp.EstAB, vp.EstBA, vp.SiteAB, vp.SiteBA)
				}
			}
		}
	}
	return 0
}
