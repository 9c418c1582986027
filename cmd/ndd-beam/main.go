// Command ndd-beam finds near-duplicate web pages in WARC web archives with
// SpotSigs (Theobald, Siddharth, Paepcke, SIGIR 2008) as an Apache Beam job.
//
//	ndd-beam --input='testdata/*.warc.gz' --output=out/
//
// runs on the direct runner with the paper's best parameters and writes
// out/pairs-*.jsonl, out/rejects-*.jsonl, out/decisions-*.jsonl,
// out/clusters-*.jsonl, out/summary.json and, last, out/_SUCCESS (see package
// pipeline); an output directory holding an earlier run's files is refused
// unless --overwrite. Beam's runner flags (--runner=prism|dataflow|flink, --endpoint,
// --environment_type, Dataflow's --project, --region, --staging_location,
// --worker_binary, --dry_run, …) are accepted as well. A bad flag, an input
// glob that matches nothing, an unwritable or used output is one error line
// and exit status 2; a failed job (or a crash) is one error line, its root
// cause without Beam's execution plan, and exit status 1.
//
// Quality evaluation is a separate command, cmd/ndd-eval.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/pipeline"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/storage" // registers local, gs://, s3://, http(s)://
	"github.com/ndd-beam/ndd-beam/transforms"
)

// defaultRunner replaces beamx's default (prism in Beam v2.77.0) when no
// --runner is given.
const defaultRunner = "direct"

// jobFlags are the job's own flags, shown first by --help.
var jobFlags []string

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is the job command: flags -> Config -> Validate -> Build -> beamx.Run
// -> one summary line. It returns the exit status: 0, 2 for a usage or
// configuration error, 1 for a failure at run time, a panic included (which
// Go would otherwise report with a stack trace and status 2, like a usage
// error).
func run(args []string) (status int) {
	defer func() {
		if r := recover(); r != nil {
			status = fail(1, "internal error: %v", r)
		}
	}()
	cfg := config.DefaultConfig()
	input := registerFlags(flag.CommandLine, &cfg)
	logLevel := flag.String("log_level", "warn", "Beam log level: debug, info, warn or error (default warn; info prints the job graph, e.g. the job a Dataflow --dry_run would submit, and the runner's own error logs of a failed job, which warn and error replace by one error line)")
	jobFlags = append(jobFlags, "log_level")
	version := flag.Bool("version", false, "print the version (module version, VCS revision, Beam Go SDK) and exit")
	jobFlags = append(jobFlags, "version")
	printMeta := flag.Bool(printTemplateMetadataFlag, false, "print the Dataflow flex template's metadata.json (every job flag above, its help and default) and exit")
	jobFlags = append(jobFlags, printTemplateMetadataFlag)
	flag.CommandLine.Init("ndd-beam", flag.ContinueOnError)
	flag.CommandLine.SetOutput(io.Discard)
	flag.CommandLine.Usage = func() {}
	if err := flag.CommandLine.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(os.Stdout)
			return 0
		}
		return fail(2, "%v (see ndd-beam --help)", err)
	}
	if flag.NArg() > 0 {
		return fail(2, "unexpected argument %q (flags only; see ndd-beam --help)", flag.Arg(0))
	}
	if *version {
		v, rev := transforms.BuildVersion()
		if rev == "" {
			rev = "unknown"
		}
		fmt.Printf("ndd-beam %s revision %s Beam Go SDK %s %s\n", v, rev, core.SdkVersion, runtime.Version())
		return 0
	}
	if *printMeta {
		if err := writeTemplateMetadata(os.Stdout); err != nil {
			return fail(1, "%v", err)
		}
		return 0
	}
	if *runners.Runner == "" {
		*runners.Runner = defaultRunner
	}
	switch *logLevel {
	case "debug", "info", "warn", "error":
		log.LogLevel = *logLevel
	default:
		return fail(2, "--log_level=%q: want debug, info, warn or error", *logLevel)
	}
	beam.Init() // on a worker this runs the harness and does not return
	if err := checkRunner(*runners.Runner); err != nil {
		return fail(2, "%v", err)
	}
	defaultWorkerBinary(*runners.Runner)

	ctx := context.Background()
	cfg.Input = splitGlobs(*input)
	cfg.Runner = *runners.Runner
	if err := checkDataflow(cfg.Runner, cfg.Input, cfg.Output); err != nil {
		return fail(2, "%v", err)
	}
	var err error
	if dryRun() {
		err = cfg.ValidateValues()
	} else {
		err = pipeline.Validate(ctx, &cfg)
		if err == nil {
			err = pipeline.ClearOutput(ctx, &cfg)
		}
	}
	if err != nil {
		return fail(2, "%v", strings.TrimPrefix(err.Error(), config.ErrConfig.Error()+": "))
	}

	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, cfg); err != nil {
		return fail(2, "%v", err)
	}
	var held heldErrors
	if *logLevel == "warn" || *logLevel == "error" {
		held = holdErrorLogs() // the error line below replaces Beam's error logs
	}
	if path := os.Getenv(CPUProfileEnv); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			return fail(2, "%s: %v", CPUProfileEnv, err)
		}
		defer stop()
	}
	var prog *progressPrinter
	if !dryRun() && progressWanted(cfg.Progress, cfg.Runner, os.Stderr) {
		prog = startProgress(os.Stderr, cfg.ProgressInterval)
	}
	if dir := os.Getenv(HeapProfilesEnv); dir != "" {
		defer startHeapProfiles(dir, 500*time.Millisecond, 200<<20)()
	}
	if err := beamx.Run(ctx, p); err != nil {
		prog.finish(false)
		return fail(1, "job failed: %s", jobError(err))
	}
	prog.finish(true)
	if held.held != nil {
		held.flush()
	}
	if dryRun() {
		fmt.Fprintln(os.Stderr, "ndd-beam: dry run: job built, not submitted")
		return 0
	}
	printSummary(ctx, cfg.Output)
	return 0
}

// registerFlags defines the job's flags on fs with cfg's values as defaults
// and returns the raw --input value.
func registerFlags(fs *flag.FlagSet, cfg *config.Config) *string {
	p := &cfg.Params
	def := func(name string) { jobFlags = append(jobFlags, name) }
	input := fs.String("input", "", "comma-separated WARC file globs or URLs: local, gs://, s3://, or http(s):// (one file per URL, never globbed); @LIST (or @LIST.gz) reads the paths from a list file, one a line, # comments and blank lines ignored, the list itself local or on any of these (.warc and .warc.gz; required)")
	def("input")
	fs.StringVar(&cfg.InputPrefix, "input_prefix", "", "prepended to the relative entries of @LIST input lists, e.g. https://data.commoncrawl.org/ for Common Crawl's warc.paths.gz (default none: relative to the working directory)")
	def("input_prefix")
	fs.StringVar(&cfg.Output, "output", "", "output directory, gs:// or s3:// prefix for pairs-*.jsonl, rejects-*.jsonl, decisions-*.jsonl, clusters-*.jsonl, summary.json (required)")
	def("output")
	fs.Float64Var(&p.Tau, "tau", p.Tau, fmt.Sprintf("similarity threshold τ in (0,1]: pairs with weighted Jaccard >= tau (default %v, best F1 on the gold set, docs/quality.md; the paper's news set: 0.44, §5.3)", p.Tau))
	def("tau")
	fs.Float64Var(&p.SameSiteTau, "same_site_tau", p.SameSiteTau, fmt.Sprintf("threshold in [0,1] for a pair of pages of one site (the registrable domain of the target URI): pages of one site share a template and repeat their own text, so such a pair is a near-duplicate only at weighted Jaccard >= same_site_tau (and >= tau); pairs across sites need tau; 0 treats every pair alike, as the paper (default %v, docs/quality.md \"Real sites\")", p.SameSiteTau))
	def("same_site_tau")
	fs.Float64Var(&p.IDFMin, "idf_min", p.IDFMin, fmt.Sprintf("lowest normalized IDF log(N/df)/log(N) of a kept signature, in [0,1] (default %v, §5.1)", p.IDFMin))
	def("idf_min")
	fs.Float64Var(&p.IDFMax, "idf_max", p.IDFMax, fmt.Sprintf("highest normalized IDF of a kept signature, in [0,1] (default %v; see spotsig.IDFRange.Keep for signatures shared by few documents)", p.IDFMax))
	def("idf_max")
	fs.BoolVar(&p.IDFKeepShared, "idf_keep_shared", p.IDFKeepShared, fmt.Sprintf("exempt signatures found in >= 2 documents from --idf_max, so rare shared signatures of copies are kept (default %v; false = the paper's plain range)", p.IDFKeepShared))
	def("idf_keep_shared")
	fs.StringVar(&p.Antecedents, "antecedents", p.Antecedents, "spot set \"word(distance,chain),…\" or @file replacing the embedded one of the --lang language (with --lang=auto: of English pages and pages of unidentified language) (default: each page language's own set, spotsig/lang/<code>; English: the paper's articles and be/can/will/have/do forms, §5.3.2)")
	def("antecedents")
	fs.StringVar(&p.Lang, "lang", p.Lang, fmt.Sprintf("language of the pages: %q identifies the language of each text block (a page's is its main content's) and signs the block with that language's stopwords and antecedents; signatures of different languages never match (pages of unidentified language use English data, tagged \"und\"); a code such as de forces one language for all pages (default %q; codes: %s)", spotsig.LanguageAuto, p.Lang, strings.Join(spotsig.Languages(), " ")))
	def("lang")
	fs.IntVar(&p.MinBlockTokens, "min_block_tokens", p.MinBlockTokens, fmt.Sprintf("spot chains stay inside one text block (paragraph, cell, list item) and blocks of fewer tokens are skipped as boilerplate; 0 = the paper's whole-document chains (default %d, chosen on the gold set, docs/quality.md)", p.MinBlockTokens))
	fs.BoolVar(&p.KeepMarkupBoilerplate, "keep_markup_boilerplate", p.KeepMarkupBoilerplate, "keep the text of elements the markup marks as boilerplate (nav, aside, footer, dialogs, cookie/consent notices, replay toolbars, short sidebars, share and comment boxes), which is dropped by default so that text shared with unrelated pages does not make them near-duplicates (docs/quality.md, \"Shared boilerplate\")")
	def("keep_markup_boilerplate")
	def("min_block_tokens")
	fs.IntVar(&p.SharedBlockPages, "shared_block_pages", p.SharedBlockPages, fmt.Sprintf("a text block outside the main content of at least this many pages (and of more pages than it is the main content of) is shared boilerplate and gives no signatures on any page; 0 = off (default %d, docs/design.md \"Shared boilerplate\")", p.SharedBlockPages))
	def("shared_block_pages")
	fs.IntVar(&p.MaxGroupSignatures, "max_group_signatures", p.MaxGroupSignatures, fmt.Sprintf("signatures (Σ|d| of its documents, about 30 bytes each in memory) one matching task holds: a larger τ partition is matched as a block-pair grid of tasks of about 0.8× this many signatures, same pairs; 0 = unbounded (default %d, docs/design.md)", p.MaxGroupSignatures))
	def("max_group_signatures")
	fs.IntVar(&p.MinSignatures, "min_signatures", p.MinSignatures, fmt.Sprintf("drop documents with fewer signatures |d| than this after the IDF filter (default %d)", p.MinSignatures))
	def("min_signatures")
	fs.IntVar(&p.Rho, "rho", p.Rho, fmt.Sprintf("ρ, range of vector lengths (signatures) with regular partitions; longer vectors share the overflow partition, which starts at or below ρ depending on τ (default %d, §4.2, §5.1)", p.Rho))
	def("rho")
	fs.StringVar(&p.Method, "method", p.Method, fmt.Sprintf("signature scheme: spotsigs (spot signatures, §3) or shingles (word k-grams, k = --shingle_k; the paper's competitor, docs/quality.md) (default %q)", p.Method))
	def("method")
	fs.IntVar(&p.ShingleK, "shingle_k", p.ShingleK, fmt.Sprintf("shingle length in words for --method=shingles (default %d)", p.ShingleK))
	def("shingle_k")
	fs.StringVar(&p.Matcher, "matcher", p.Matcher, fmt.Sprintf("matcher: spotsigs (partitions + pruning, §4), bruteforce (exact reference, same pairs, quadratic), lsh (MinHash LSH k=6, l=32, verified; approximate recall) or imatch (one SHA-1 bucket per signature set; no threshold) (default %q)", p.Matcher))
	def("matcher")
	fs.StringVar(&p.Keep, "keep", p.Keep, fmt.Sprintf("keep policy: which page of a group of near-duplicates is kept, criteria in order from earliest|latest (WARC-Date; missing or malformed dates last), longest|shortest (extracted text), uri (shortest, then bytewise); record ID and location break the last ties (default %q: the first capture is the likely original, and adding a later crawl never changes which earlier page is kept; docs/outputs.md)", p.Keep))
	def("keep")
	fs.IntVar(&p.DecideRounds, "decide_rounds", p.DecideRounds, fmt.Sprintf("keep/drop rounds unrolled in the job graph; pages still undecided after them are decided on one worker, counted in summary decide_residual (default %d, docs/design.md)", p.DecideRounds))
	def("decide_rounds")
	fs.IntVar(&cfg.Shards, "shards", cfg.Shards, fmt.Sprintf("number of files of each sharded output: pairs, rejects, decisions, clusters (default %d)", cfg.Shards))
	def("shards")
	fs.StringVar(&cfg.Compression, "compression", cfg.Compression, fmt.Sprintf("how the sharded outputs are written: %s (<name>.jsonl) or %s (<name>.jsonl.gz, 7-14x smaller for pairs; byte-identical on every run) (default %q)", config.CompressionNone, config.CompressionGzip, cfg.Compression))
	def("compression")
	fs.Var(progressFlag{&cfg.Progress}, "progress", fmt.Sprintf("print a line on stderr every --progress_interval on a local run (direct; prism; LOOPBACK workers): records and MB read, MB/s, documents, pairs, elapsed time; true, false or %s: when stderr is a terminal (default %s); other runners show the same figures as Beam counters", config.ProgressAuto, config.DefaultProgress))
	def("progress")
	fs.DurationVar(&cfg.ProgressInterval, "progress_interval", cfg.ProgressInterval, fmt.Sprintf("time between two progress lines (default %v)", cfg.ProgressInterval))
	def("progress_interval")
	fs.BoolVar(&cfg.Overwrite, "overwrite", cfg.Overwrite, "write into an --output directory that holds an earlier run's files (which are removed first: shards, summary.json, _SUCCESS, temporary files); refused if it holds any other file. Without it such a directory is refused")
	def("overwrite")
	fs.StringVar(&cfg.WriteIndex, "write_index", cfg.WriteIndex, "index directory, gs:// or s3:// prefix: add a segment of the pages this run keeps (identity, language, vector, rank; Parquet) for later runs to deduplicate against, docs/design.md \"Scheduled batches\" (default none)")
	def("write_index")
	fs.Var(listFlag{&cfg.Against}, "against", "comma-separated index directories (or segments) of --write_index: decide this run's pages against the pages earlier runs kept, which rank first and stay kept; a page dropped for one names it and its segment (kept_by_segment); their parameters must agree with this run's (docs/design.md \"Scheduled batches\") (default none)")
	def("against")
	fs.Int64Var(&p.MaxHeaderBytes, "max_header_bytes", p.MaxHeaderBytes, fmt.Sprintf("cap on one WARC or HTTP header, bytes (default %d)", p.MaxHeaderBytes))
	def("max_header_bytes")
	fs.Int64Var(&p.MaxRecordBytes, "max_record_bytes", p.MaxRecordBytes, fmt.Sprintf("cap on the raw body of one WARC record held in memory, bytes; larger: skipped record-too-large (default %d)", p.MaxRecordBytes))
	def("max_record_bytes")
	fs.Int64Var(&p.MaxPayloadBytes, "max_payload_bytes", p.MaxPayloadBytes, fmt.Sprintf("cap on the decoded HTTP payload, bytes; larger: skipped payload-too-large (default %d)", p.MaxPayloadBytes))
	def("max_payload_bytes")
	fs.Int64Var(&p.MaxMemberBytes, "max_member_bytes", p.MaxMemberBytes, fmt.Sprintf("cap on one decompressed gzip member, bytes (default %d)", p.MaxMemberBytes))
	def("max_member_bytes")
	fs.Int64Var(&p.MaxURIBytes, "max_uri_bytes", p.MaxURIBytes, fmt.Sprintf("cap on WARC-Target-URI, bytes; a record with a longer one is skipped uri-too-long, its URI cut to the cap in rejects (default %d)", p.MaxURIBytes))
	def("max_uri_bytes")
	fs.Int64Var(&p.MaxRecordIDBytes, "max_record_id_bytes", p.MaxRecordIDBytes, fmt.Sprintf("cap on WARC-Record-ID, bytes; a record with a longer one is skipped record-id-too-long, its ID cut to the cap in rejects (default %d)", p.MaxRecordIDBytes))
	def("max_record_id_bytes")
	fs.IntVar(&p.MaxInputBytes, "max_input_bytes", p.MaxInputBytes, fmt.Sprintf("cap on payload bytes parsed into text per document, bytes; the rest is ignored, counted in extract/capped-input-bytes (default %d)", p.MaxInputBytes))
	def("max_input_bytes")
	fs.IntVar(&p.MaxTextBytes, "max_text_bytes", p.MaxTextBytes, fmt.Sprintf("cap on text bytes produced per document, bytes; counted in extract/capped-text-bytes (default %d)", p.MaxTextBytes))
	def("max_text_bytes")
	fs.IntVar(&p.MaxTokens, "max_tokens", p.MaxTokens, fmt.Sprintf("cap on tokens examined per document; counted in extract/capped-tokens (default %d)", p.MaxTokens))
	def("max_tokens")
	fs.IntVar(&p.MaxSignatures, "max_signatures", p.MaxSignatures, fmt.Sprintf("cap on spot signatures (with repeats) kept per document; counted in extract/capped-signatures (default %d)", p.MaxSignatures))
	def("max_signatures")
	return input
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: ndd-beam --input=GLOB[,GLOB…] --output=DIR [flags]")
	fmt.Fprintln(w, "\nFind near-duplicate web pages in WARC files with SpotSigs (SIGIR 2008) on Apache Beam.")
	fmt.Fprintln(w, "\nJob flags:")
	for _, name := range jobFlags {
		f := flag.Lookup(name)
		fmt.Fprintf(w, "  --%s\n    \t%s\n", f.Name, f.Usage)
	}
	fmt.Fprintln(w, "\nRunner flags (Apache Beam; --runner defaults to direct here):")
	var beamFlags []string
	own := map[string]bool{}
	for _, n := range jobFlags {
		own[n] = true
	}
	flag.VisitAll(func(f *flag.Flag) {
		if !own[f.Name] {
			beamFlags = append(beamFlags, "--"+f.Name)
		}
	})
	sort.Strings(beamFlags)
	fmt.Fprintf(w, "  %s\n", strings.Join(beamFlags, " "))
	fmt.Fprintln(w, "  e.g. --runner=prism | --runner=dataflow --project=P --region=R --staging_location=gs://B/staging --worker_binary=bin/ndd-beam-worker [--dry_run] | --runner=flink --endpoint=HOST:8099")
}

func splitGlobs(s string) []string {
	var out []string
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// dryRun reports whether Dataflow's --dry_run flag is set.
func dryRun() bool {
	f := flag.Lookup("dry_run")
	return f != nil && f.Value.String() == "true"
}

// printSummary reads summary.json back and prints one paragraph.
func printSummary(ctx context.Context, dir string) {
	path := transforms.JoinPath(dir, transforms.SummaryFile)
	var sum transforms.Summary
	err := func() error {
		fs, err := storage.New(ctx, path)
		if err != nil {
			return err
		}
		defer fs.Close()
		r, err := fs.OpenRead(ctx, path)
		if err != nil {
			return err
		}
		defer r.Close()
		return json.NewDecoder(r).Decode(&sum)
	}()
	if err != nil {
		fmt.Fprintf(os.Stderr, "ndd-beam: job finished; summary not readable yet (%v)\n", err)
		return
	}
	reasons := make([]string, 0, len(sum.Skipped))
	for r := range sum.Skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%s %d", r, sum.Skipped[r]))
	}
	fmt.Printf("ndd-beam: read %d WARC records from %d files; %d documents reached matching, %d skipped (%s); %d near-duplicate pairs at tau=%v in %d partitions; %d pages kept, %d dropped; output in %s\n",
		sum.Records, len(sum.Files), sum.Documents, sum.SkippedTotal(), strings.Join(parts, ", "), sum.Pairs, sum.Parameters.Tau, sum.Partitions, sum.Kept, sum.Dropped, dir)
}

// fail prints one error line and returns status.
func fail(status int, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
	fmt.Fprintln(os.Stderr, "ndd-beam: "+msg)
	return status
}
