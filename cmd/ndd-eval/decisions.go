package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
)

// runEvalDecisions scores a decisions output: drop precision and recall.
func runEvalDecisions(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval decisions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	decisions := fs.String("decisions", "", "glob of the decisions output files, e.g. 'out/decisions*.jsonl' (required)")
	truthPath := fs.String("truth", "", "truth file, JSON lines with record_id, uri, cluster (required)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object instead of a table")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *decisions == "" || *truthPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	truth, err := eval.LoadTruth(*truthPath)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval:", err)
		return 1
	}
	ds, files, err := eval.LoadDecisions(*decisions)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval:", err)
		return 1
	}
	r := eval.EvaluateDrops(truth, ds)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(stderr, "ndd-eval:", err)
			return 1
		}
		return 0
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

// runEvalCheck checks the guarantees of the decisions of each job output
// directory given (eval.CheckDecisions, τ from its summary.json); exit 1 on
// any violation.
func runEvalCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
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
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return nil, 0, err
	}
	var sum struct {
		Parameters config.Params `json:"parameters"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", dir, err)
	}
	ds, _, err := eval.LoadDecisions(filepath.Join(dir, "decisions-*.jsonl*"))
	if err != nil {
		return nil, 0, err
	}
	cs, _, err := eval.LoadClusters(filepath.Join(dir, "clusters-*.jsonl*"))
	if err != nil {
		return nil, 0, err
	}
	ps, _, err := eval.LoadPairs(filepath.Join(dir, "pairs-*.jsonl*"))
	if err != nil {
		return nil, 0, err
	}
	return eval.CheckDecisions(ds, cs, ps, sum.Parameters), len(ds), nil
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

// runEvalReport writes the run report (one HTML file) of a job output
// directory.
func runEvalReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, reportUsage); fs.PrintDefaults() }
	report := fs.String("report", "", "the HTML file to write (default: OUTPUT_DIR without its trailing slash + \".report.html\"); not inside OUTPUT_DIR")
	samples := fs.Int("samples", 10, "dropped pages shown beside their kept page (0: none)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 || *samples < 0 {
		fs.Usage()
		return 2
	}
	dir := fs.Arg(0)
	path, err := reportPath(dir, *report)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval report:", err)
		return 2
	}
	r, err := eval.LoadRunReport(dir, *samples)
	if err == nil {
		err = r.LoadSamples(*samples)
	}
	if err == nil {
		err = writeBuffered(path, r.WriteHTML)
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval report:", err)
		return 1
	}
	fmt.Fprintf(stdout, "ndd-eval: report in %s\n", path)
	return 0
}

// reportPath is where the report of the output directory dir goes: flag
// if set, else beside dir ("out/" gives "out.report.html"). A path inside
// dir is refused: the job's --overwrite refuses a directory holding files
// it did not write, so the report would break the next run.
func reportPath(dir, flag string) (string, error) {
	clean := filepath.Clean(dir)
	if flag == "" {
		if base := filepath.Base(clean); base == "." || base == ".." || base == string(filepath.Separator) {
			return "", fmt.Errorf("no name beside %q to write the report to; give --report FILE", dir)
		}
		return clean + ".report.html", nil
	}
	absDir, err := filepath.Abs(clean)
	if err != nil {
		return "", err
	}
	absRep, err := filepath.Abs(flag)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(absDir, absRep); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("--report %s is inside the output directory %s, whose next run --overwrite would refuse; write it beside", flag, dir)
	}
	return flag, nil
}

// runEvalSkewed writes the skewed crawl of docs/benchmarks.md (eval.WriteSkewedCrawl).
func runEvalSkewed(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval skewed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for skewed.warc.gz and truth.jsonl (required)")
	gold := fs.String("gold", "../shared/data/goldset", "English gold set directory (gold.warc.gz, truth.jsonl)")
	goldML := fs.String("gold-ml", "../shared/data/goldset-ml", "multilingual gold set directory")
	c := eval.DefaultSkewedCrawl
	fs.IntVar(&c.SoftNotFound, "soft404", c.SoftNotFound, "byte-identical soft-404 pages")
	fs.IntVar(&c.Copies, "copies", c.Copies, "byte-identical copies of one article")
	fs.IntVar(&c.Variants, "variants", c.Variants, "one-word variants of another article")
	fs.IntVar(&c.Distinct, "distinct", c.Distinct, "distinct articles")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "ndd-eval skewed: --out DIR required")
		return 2
	}
	if err := writeSkewed(*out, c, [][2]string{
		{filepath.Join(*gold, "gold.warc.gz"), filepath.Join(*gold, "truth.jsonl")},
		{filepath.Join(*goldML, "gold.warc.gz"), filepath.Join(*goldML, "truth.jsonl")},
	}); err != nil {
		fmt.Fprintln(stderr, "ndd-eval skewed:", err)
		return 1
	}
	return 0
}

func writeSkewed(dir string, c eval.SkewedCrawl, sources [][2]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeBuffered(filepath.Join(dir, "skewed.warc.gz"), func(w io.Writer) error {
		return writeBuffered(filepath.Join(dir, "truth.jsonl"), func(t io.Writer) error {
			return eval.WriteSkewedCrawl(w, t, c, sources)
		})
	})
}

// writeBuffered creates path and writes it through a buffer with fill.
func writeBuffered(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// runEvalInProcess runs dedup.Run with the default parameters on files, or
// with --extract-only only its first phase (read and sign every record on
// all cores), so that the benchmarks can tell extraction's CPU from the
// rest's.
func runEvalInProcess(args []string, stdout, stderr io.Writer) int {
	extractOnly := len(args) > 0 && args[0] == "--extract-only"
	if extractOnly {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "ndd-eval inprocess: WARC files required")
		return 2
	}
	p := config.DefaultParams()
	if extractOnly {
		slots, err := dedup.SignFiles(context.Background(), p, args, nil)
		if err != nil {
			fmt.Fprintln(stderr, "ndd-eval inprocess:", err)
			return 1
		}
		n := 0
		for _, s := range slots {
			if s.IsDoc {
				n++
			}
		}
		fmt.Fprintf(stdout, "records %d, documents signed %d\n", len(slots), n)
		return 0
	}
	res, err := dedup.Run(context.Background(), p, args)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval inprocess:", err)
		return 1
	}
	kept := 0
	for _, d := range res.Decisions {
		if d.Keep {
			kept++
		}
	}
	fmt.Fprintf(stdout, "records %d, documents %d, pairs lines %d, kept %d, dropped %d\n",
		res.Records, len(res.Docs), len(res.PairRecords()), kept, len(res.Decisions)-kept)
	return 0
}

// runEvalScaled writes the scaled gold set of docs/benchmarks.md (eval.WriteScaledCrawl).
func runEvalScaled(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval scaled", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for scaled.warc.gz (required)")
	in := fs.String("warc", "../shared/data/goldset/gold.warc.gz", "the gold set's WARC file")
	copies := fs.Int("copies", 16, "copies of the gold set")
	perturb := fs.Float64("perturb", 0.05, "share of each copy's words replaced")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 || *copies < 1 || *perturb < 0 || *perturb > 1 {
		fmt.Fprintln(stderr, "ndd-eval scaled: --out DIR required, --copies >= 1, --perturb in [0, 1]")
		return 2
	}
	err := os.MkdirAll(*out, 0o755)
	if err == nil {
		err = writeBuffered(filepath.Join(*out, "scaled.warc.gz"), func(w io.Writer) error {
			return eval.WriteScaledCrawl(w, *in, *copies, *perturb)
		})
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval scaled:", err)
		return 1
	}
	return 0
}
