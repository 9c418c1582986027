// Command ndd-eval measures near-duplicate detection quality against a
// labelled gold set. It is separate from the job binary (cmd/ndd-beam) so the
// job links no plotting code.
//
//	ndd-eval --pairs 'out/pairs-*.jsonl' --truth truth.jsonl
//	ndd-eval sweep --warc gold.warc.gz --truth truth.jsonl --out docs/
//	ndd-eval decisions --decisions 'out/decisions-*.jsonl' --truth truth.jsonl
//	ndd-eval check out/
//	ndd-eval report out/
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/eval"
)

const evalUsage = `usage:
  ndd-eval --pairs 'out/pairs*.jsonl' --truth truth.jsonl [--json] [--clusters N]
      score a pairs output against a labelled truth file: pairwise precision,
      recall and F1 (micro over all page pairs), per language if the truth
      has "lang", and per-cluster recall.
  ndd-eval sweep --warc gold.warc.gz --truth truth.jsonl --out docs/
      run every method (SpotSigs, shingles, LSH-S, I-Match(-S), descriptive
      words) over a τ sweep in process; write quality.md and quality-f1.png;
      --real TRUTH.tsv:GLOB adds the job's decisions on a real-page set.
  ndd-eval boilerplate --warc gold.warc.gz --truth truth.jsonl [--tau T] [--block-langs en,de]
      the job at τ on the labelled set clean and with a shared boilerplate
      block (in each language of --block-langs, marked and plain) injected
      into 100 %, 30 % and 5 % of its pages (issues 10, 25); F1 per language
      when the truth has "lang".
  ndd-eval decisions --decisions 'out/decisions*.jsonl' --truth truth.jsonl [--json]
      score keep/drop decisions: drop precision (dropped pages whose kept_by
      is in their true cluster), drop recall (of Σ cluster size − 1) and the
      pages alone in their true cluster that were dropped.
  ndd-eval realset --truth truth.tsv [--list] OUTPUT_DIR
      score a job output's decisions against a real-page truth set
      (../shared/data/realset, eval/realpages): drop precision and recall,
      pair precision and recall; --list names the wrong and missed drops.
  ndd-eval check OUTPUT_DIR...
      check the guarantees of each job output's decisions against its pairs
      and clusters (kept_by kept at Jaccard >= τ, no pair of kept pages).
  ndd-eval report [--out DIR] OUTPUT_DIR
      write report.md with PNG plots for one job output: cluster sizes,
      Jaccard of the pairs, hosts with most dropped pages, skip reasons.
  ndd-eval skewed --out DIR [--soft404 N --copies N --variants N --distinct N]
      write DIR/skewed.warc.gz and DIR/truth.jsonl, the skewed crawl of
      issue 12 built from the two gold sets' pages (--gold, --gold-ml).
  ndd-eval scaled --out DIR [--warc gold.warc.gz --copies 16 --perturb 0.05]
      write DIR/scaled.warc.gz: the gold set COPIES times, PERTURB of each
      copy's words replaced (issue 12's scaled corpus).
  ndd-eval crawl --out DIR [--distinct N --soft404 N --copies N --variants N --sites N --seed S]
      write DIR/crawl.warc.gz and DIR/truth.jsonl: the short-page crawl of the
      per-page cost benchmark (108,000 pages by default), its articles cut
      from the sentences of the dev gold set's core texts (--gold).
  ndd-eval inprocess [--extract-only] FILE...
      the whole job in one process (dedup.Run, default parameters) on local
      WARC files, for the benchmarks: prints records, documents, pairs lines,
      kept and dropped.
  ndd-eval index DIR...
      list the segments of each index directory (ndd-beam --write_index):
      pages, Parquet bytes and bytes per page, and their parameters.
`

func main() { os.Exit(run(os.Args[1:])) }

// run is the command; it returns the exit code: 0 done, 1 failed, 2 usage
// error.
func run(args []string) int {
	if len(args) > 0 && args[0] == "sweep" {
		return runEvalSweep(args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "boilerplate" {
		return runEvalBoilerplate(args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 {
		switch args[0] {
		case "decisions":
			return runEvalDecisions(args[1:], os.Stdout, os.Stderr)
		case "check":
			return runEvalCheck(args[1:], os.Stdout, os.Stderr)
		case "realset":
			return runEvalRealset(args[1:], os.Stdout, os.Stderr)
		case "report":
			return runEvalReport(args[1:], os.Stdout, os.Stderr)
		case "skewed":
			return runEvalSkewed(args[1:], os.Stderr)
		case "scaled":
			return runEvalScaled(args[1:], os.Stderr)
		case "crawl":
			return runEvalCrawl(args[1:], os.Stderr)
		case "inprocess":
			return runEvalInProcess(args[1:], os.Stdout, os.Stderr)
		case "index":
			return runEvalIndex(args[1:], os.Stdout, os.Stderr)
		}
	}
	return runEvalPairs(args, os.Stdout, os.Stderr)
}

func runEvalPairs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	pairs := fs.String("pairs", "", "glob of the pairs output files, e.g. 'out/pairs*.jsonl' (required)")
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
	truth, err := eval.LoadTruth(*truthPath)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval:", err)
		return 1
	}
	ps, files, err := eval.LoadPairs(*pairs)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval:", err)
		return 1
	}
	r := eval.Evaluate(truth, ps)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Files []string `json:"files"`
			eval.Result
		}{files, r}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "ndd-eval:", err)
			return 1
		}
		return 0
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

func runEvalSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	warcPath := fs.String("warc", "", "labelled WARC file (required)")
	truthPath := fs.String("truth", "", "truth file for the WARC (required)")
	outDir := fs.String("out", "docs/", "directory for quality.md and quality-f1.png")
	tauRange := fs.String("taus", "0.1:1.0:0.05", "τ sweep lo:hi:step (weighted Jaccard)")
	defaultTau := fs.Float64("default-tau", config.DefaultTau, "the job's default τ, whose wrong pairs and sensitivity are reported")
	sens := fs.Bool("sensitivity", true, "also vary each SpotSigs parameter by one step")
	blockLangs := fs.String("block-langs", "en,de", "languages of the boilerplate blocks injected into --warc's pages, comma-separated (eval.BoilerplateLanguages)")
	mlWarc := fs.String("boilerplate-warc", "", "a second labelled WARC file (e.g. the multilingual gold set) for the shared-boilerplate table")
	mlTruth := fs.String("boilerplate-truth", "", "truth file for --boilerplate-warc")
	mlBlockLangs := fs.String("boilerplate-block-langs", "en", "languages of the boilerplate blocks injected into --boilerplate-warc's pages")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	langWARC := fs.String("ml-warc", "", "multilingual labelled WARC file (optional; its truth needs \"lang\" per page): adds F1 per language")
	langTruth := fs.String("ml-truth", "", "truth file for --ml-warc")
	var reals []string
	fs.Func("real", "a real-page truth set as TRUTH.tsv:GLOB[,GLOB…] (its pages' WARC files; repeatable): the job's decisions on it, wrong and missed drops", func(v string) error {
		if _, _, ok := strings.Cut(v, ":"); !ok {
			return fmt.Errorf("want TRUTH.tsv:GLOB, got %q", v)
		}
		reals = append(reals, v)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *warcPath == "" || *truthPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	taus, err := parseTaus(*tauRange)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval sweep:", err)
		return 2
	}
	if !containsTau(taus, *defaultTau) {
		taus = append(taus, *defaultTau)
		slices.Sort(taus)
	}
	var progress io.Writer = stderr
	if *quiet {
		progress = nil
	}
	start := time.Now()
	fail := func(err error) int { fmt.Fprintln(stderr, "ndd-eval sweep:", err); return 1 }

	truth, err := eval.LoadTruth(*truthPath)
	if err != nil {
		return fail(err)
	}
	corpus, err := eval.LoadCorpus(*warcPath, truth)
	if err != nil {
		return fail(err)
	}
	if progress != nil {
		fmt.Fprintf(progress, "read %d labelled pages in %v\n", len(corpus.Docs), corpus.ReadTime.Round(time.Millisecond))
	}
	cfg := eval.DefaultMethodsConfig()
	methods, err := eval.Methods(cfg)
	if err != nil {
		return fail(err)
	}
	sweeps := eval.Sweep(corpus, methods, taus, progress)
	rep := &eval.Report{
		Command:    "make eval",
		Corpus:     corpus,
		Sweeps:     sweeps,
		Default:    "SpotSigs",
		DefaultTau: *defaultTau,
		Defaults:   eval.DefaultsDescription(cfg, *defaultTau),
		PlotFile:   "quality-f1.png",
		Notes:      eval.QualityNotes,
	}
	jobParams := config.DefaultParams()
	jobParams.Tau = *defaultTau
	for _, r := range reals {
		truthPath, globs, _ := strings.Cut(r, ":")
		score, err := eval.ScoreRealRun(context.Background(), jobParams, truthPath, strings.Split(globs, ","))
		if err != nil {
			return fail(err)
		}
		rep.Real = append(rep.Real, score)
		if progress != nil {
			fmt.Fprintf(progress, "decisions on %s: drop precision %.3f, recall %.3f\n", score.Set, score.DropPrecision, score.DropRecall)
		}
	}
	for _, g := range [][2]string{{*warcPath, *truthPath}, {*langWARC, *langTruth}} {
		if g[0] == "" {
			continue
		}
		row, err := eval.GoldDecisions(context.Background(), jobParams, g[0], g[1])
		if err != nil {
			return fail(err)
		}
		rep.Decisions = append(rep.Decisions, row)
	}
	injections, err := eval.BoilerplateInjections(strings.Split(*blockLangs, ",")...)
	if err != nil {
		return fail(err)
	}
	rep.Boilerplate, err = eval.BoilerplateTable(context.Background(), *warcPath, truth, jobParams, injections, progress)
	if err != nil {
		return fail(err)
	}
	rep.BoilerplateLangs = eval.InjectedLanguages(injections)
	if *mlWarc != "" {
		mt, err := eval.LoadTruth(*mlTruth)
		if err != nil {
			return fail(err)
		}
		mlInjections, err := eval.BoilerplateInjections(strings.Split(*mlBlockLangs, ",")...)
		if err != nil {
			return fail(err)
		}
		rows, err := eval.BoilerplateTable(context.Background(), *mlWarc, mt, jobParams, mlInjections, progress)
		if err != nil {
			return fail(err)
		}
		rep.BoilerplateLangs = eval.InjectedLanguages(append(injections, mlInjections...))
		for i := range rows {
			rows[i].Name = filepath.Base(filepath.Dir(*mlWarc)) + ": " + rows[i].Name
		}
		for i := range rep.Boilerplate {
			rep.Boilerplate[i].Name = filepath.Base(filepath.Dir(*warcPath)) + ": " + rep.Boilerplate[i].Name
		}
		rep.Boilerplate = append(rep.Boilerplate, rows...)
	}
	if *sens {
		rows, err := eval.Sensitivity(corpus, cfg, eval.DefaultVariants(), taus, *defaultTau, progress)
		if err != nil {
			return fail(err)
		}
		rep.Sensitivity = rows
	}
	if *langWARC != "" {
		mlt, err := eval.LoadTruth(*langTruth)
		if err != nil {
			return fail(err)
		}
		mlc, err := eval.LoadCorpus(*langWARC, mlt)
		if err != nil {
			return fail(err)
		}
		ml, err := eval.Multilingual(mlc, cfg, eval.MultilingualVariants(), taus, *defaultTau, progress)
		if err != nil {
			return fail(err)
		}
		rep.Multilingual, rep.MultilingualSet = ml, filepath.Dir(*langWARC)
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return fail(err)
	}
	if err := eval.WritePlot(filepath.Join(*outDir, rep.PlotFile), sweeps); err != nil {
		return fail(err)
	}
	rep.Elapsed = time.Since(start)
	f, err := os.Create(filepath.Join(*outDir, "quality.md"))
	if err != nil {
		return fail(err)
	}
	if err := errors.Join(rep.WriteMarkdown(f), f.Close()); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %s and %s in %v\n", filepath.Join(*outDir, "quality.md"),
		filepath.Join(*outDir, rep.PlotFile), time.Since(start).Round(time.Second))
	return 0
}

// parseTaus parses "lo:hi:step" into the τ values lo, lo+step, …, hi.
func parseTaus(s string) ([]float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("--taus %q: want lo:hi:step", s)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return nil, fmt.Errorf("--taus %q: %v", s, err)
		}
		v[i] = f
	}
	if v[0] <= 0 || v[1] > 1 || v[0] > v[1] || v[2] <= 0 {
		return nil, fmt.Errorf("--taus %q: want 0 < lo <= hi <= 1 and step > 0", s)
	}
	return eval.Taus(v[0], v[1], v[2]), nil
}

// containsTau reports whether taus holds t (to 1e-9).
func containsTau(taus []float64, t float64) bool {
	for _, x := range taus {
		if math.Abs(x-t) < 1e-9 {
			return true
		}
	}
	return false
}

func runEvalBoilerplate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval boilerplate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	warcPath := fs.String("warc", "", "labelled WARC file (required)")
	truthPath := fs.String("truth", "", "truth file for the WARC (required)")
	tau := fs.Float64("tau", config.DefaultTau, "weighted Jaccard threshold τ")
	cleanOnly := fs.Bool("clean", false, "only the clean set (no injection)")
	keep := fs.Bool("keep-markup-boilerplate", false, "keep the text of markup-marked boilerplate (the extraction before issue 10)")
	sharedPages := fs.Int("shared-block-pages", config.DefaultSharedBlockPages, "the job's --shared_block_pages (0: off)")
	blockLangs := fs.String("block-langs", "en", "languages of the injected boilerplate blocks, comma-separated (eval.BoilerplateLanguages)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *warcPath == "" || *truthPath == "" || fs.NArg() > 0 || !(*tau > 0 && *tau <= 1) {
		fs.Usage()
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "ndd-eval boilerplate:", err); return 1 }
	truth, err := eval.LoadTruth(*truthPath)
	if err != nil {
		return fail(err)
	}
	p := config.DefaultParams()
	p.Tau, p.KeepMarkupBoilerplate, p.SharedBlockPages = *tau, *keep, *sharedPages
	if err := p.Validate(); err != nil {
		return fail(err)
	}
	injections, err := eval.BoilerplateInjections(strings.Split(*blockLangs, ",")...)
	if err != nil {
		return fail(err)
	}
	if *cleanOnly {
		injections = nil
	}
	rows, err := eval.BoilerplateTable(context.Background(), *warcPath, truth, p, injections, stderr)
	if err != nil {
		return fail(err)
	}
	if err := eval.WriteBoilerplateMarkdown(stdout, rows, eval.InjectedLanguages(injections)); err != nil {
		return fail(err)
	}
	return 0
}
