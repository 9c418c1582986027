// Command ndd-eval measures near-duplicate detection quality against a
// labelled gold set. It is separate from the job binary (cmd/ndd-beam) so the
// job links no plotting code.
//
//	ndd-eval --pairs 'out/pairs-*' --truth truth.jsonl
//	ndd-eval sweep --warc gold.warc.gz --truth truth.jsonl --out docs/
//	ndd-eval decisions --decisions 'out/decisions-*' --truth truth.jsonl
//	ndd-eval check out/
//	ndd-eval report out/
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ndd-beam/ndd-beam/eval"
)

const evalUsage = `usage:
  ndd-eval --pairs 'out/pairs-*' --truth truth.jsonl [--json] [--clusters N]
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
      into 100 %, 30 % and 5 % of its pages (docs/quality.md, "Shared boilerplate"); F1 per language
      when the truth has "lang".
  ndd-eval decisions --decisions 'out/decisions-*' --truth truth.jsonl [--json]
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
  ndd-eval report [--report FILE] [--samples N] OUTPUT_DIR
      write the run report of one job output as one HTML file beside it
      (out/ gives out.report.html): summary, plots, dropped pages beside
      their kept pages; ndd-eval report --help says more.
  ndd-eval skewed --out DIR [--soft404 N --copies N --variants N --distinct N]
      write DIR/skewed.warc.gz and DIR/truth.jsonl, the skewed crawl of
      docs/benchmarks.md built from the two gold sets' pages (--gold, --gold-ml).
  ndd-eval scaled --out DIR [--warc gold.warc.gz --copies 16 --perturb 0.05]
      write DIR/scaled.warc.gz: the gold set COPIES times, PERTURB of each
      copy's words replaced (the scaled corpus of docs/benchmarks.md).
  ndd-eval crawl --out DIR [--distinct N --soft404 N --copies N --variants N --sites N --seed S]
      write DIR/crawl.warc.gz and DIR/truth.jsonl: the short-page crawl of the
      per-page cost benchmark (108,000 pages by default), its articles cut
      from the sentences of the dev gold set's core texts (--gold).
  ndd-eval batches --out DIR [--days 30 --pages 36000 --recapture 0.25 --edited 0.2 --extended 0.1 --soft404 0.05 --copies 0.02 --variants 0.01 --sites N --seed S]
      write DIR/day-KK/crawl.warc.gz and truth.jsonl for each day K: a crawl of
      the same sites captured once a day, each day re-capturing earlier
      days' pages at their URIs (byte-identical, a word changed, a paragraph
      added) beside new articles, soft-404s, copies and mirrors; then
      DIR/batches.json with a day's counts (the benchmark of scheduled
      batches, make bench-batches).
  ndd-eval inprocess [--extract-only] FILE...
      the whole job in one process (dedup.Run, default parameters) on local
      WARC files, for the benchmarks: prints records, documents, pairs lines,
      kept and dropped.
  ndd-eval verify --real TRUTH.tsv:GLOB [--real …] [--list] [--site_line_urls N --site_line_share S --site_min_urls N]
      the verification measure on the judged pairs of real-page sets: how
      the exact and the sketched main-text shares separate the labels, and
      the sketch's error; beside them a main text less its site's template
      lines (lines on many of the site's URLs), alone and with the layout's;
      last the job's shares, the layout's and, for a pair of one host, its
      whole texts less the host's template (--candidates scores with them).
  ndd-eval index [--remove_partial] DIR...
      list the segments of each index directory (ndd-beam --write_index):
      pages, Parquet bytes and bytes per page, runs held, and their
      parameters; partial segments, which no run reads.
  ndd-eval index compact [--max_segments N] [--without SEGMENT,...] DIR...
      merge the committed segments of each index into one (or the smallest
      of them, leaving N), holding the index's lock: a run against the
      index reads the same pages, named by the same segments, from fewer
      files; --without leaves a day's pages out so that it can be run again.
`

func main() { os.Exit(run(os.Args[1:])) }

// subcommands maps each subcommand to its function, which returns the
// exit code: 0 done, 1 failed, 2 usage error. Without a subcommand,
// ndd-eval scores a pairs output (runEvalPairs).
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"sweep":       runEvalSweep,
	"boilerplate": runEvalBoilerplate,
	"decisions":   runEvalDecisions,
	"check":       runEvalCheck,
	"realset":     runEvalRealset,
	"report":      runEvalReport,
	"skewed":      func(args []string, _, stderr io.Writer) int { return runEvalSkewed(args, stderr) },
	"scaled":      func(args []string, _, stderr io.Writer) int { return runEvalScaled(args, stderr) },
	"crawl":       func(args []string, _, stderr io.Writer) int { return runEvalCrawl(args, stderr) },
	"batches":     func(args []string, _, stderr io.Writer) int { return runEvalBatches(args, stderr) },
	"inprocess":   runEvalInProcess,
	"index":       runEvalIndex,
	"verify":      runEvalVerify,
}

// run is the command; it returns the exit code: 0 done, 1 failed, 2 usage
// error.
func run(args []string) int {
	if len(args) > 0 {
		if cmd, ok := subcommands[args[0]]; ok {
			return cmd(args[1:], os.Stdout, os.Stderr)
		}
	}
	return runEvalPairs(args, os.Stdout, os.Stderr)
}

// loadScored loads the truth file and the output to score (load), for the
// scoring subcommands; a failure is printed on stderr and ok is false.
func loadScored[T any](stderr io.Writer, truthPath string, load func() ([]T, []string, error)) (truth *eval.Truth, recs []T, files []string, ok bool) {
	truth, err := eval.LoadTruth(truthPath)
	if err == nil {
		recs, files, err = load()
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval:", err)
		return nil, nil, nil, false
	}
	return truth, recs, files, true
}

// writeJSON prints v as one indented JSON object and returns the exit code.
func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, "ndd-eval:", err)
		return 1
	}
	return 0
}

// newFlagSet is the flag set of a subcommand named name: errors and the
// usage (evalUsage, then the flags) go to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	return fs
}
