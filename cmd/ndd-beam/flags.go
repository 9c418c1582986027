package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// jobFlagSet is the one registry of the job's own flags: each is defined
// through it, on its FlagSet and, in the order --help shows them, in
// names. --help (usage) and the Dataflow flex template's metadata.json
// (writeTemplateMetadata) are both generated from it, so a job flag
// cannot be missing from either. Beam's runner flags are the flags of
// flag.CommandLine that are not in it; the job's are added there by
// addTo.
type jobFlagSet struct {
	set   *flag.FlagSet
	names []string
	// launcher names the flags of the launching command (printing, logging,
	// progress on the terminal) that are not parameters of a template.
	launcher map[string]bool
}

func newJobFlagSet() *jobFlagSet {
	return &jobFlagSet{set: flag.NewFlagSet("ndd-beam", flag.ContinueOnError), launcher: map[string]bool{}}
}

func (j *jobFlagSet) add(name string) { j.names = append(j.names, name) }

func (j *jobFlagSet) String(name, value, usage string) *string {
	defer j.add(name)
	return j.set.String(name, value, usage)
}

func (j *jobFlagSet) Bool(name string, value bool, usage string) *bool {
	defer j.add(name)
	return j.set.Bool(name, value, usage)
}

func (j *jobFlagSet) StringVar(p *string, name, value, usage string) {
	j.set.StringVar(p, name, value, usage)
	j.add(name)
}

func (j *jobFlagSet) BoolVar(p *bool, name string, value bool, usage string) {
	j.set.BoolVar(p, name, value, usage)
	j.add(name)
}

func (j *jobFlagSet) IntVar(p *int, name string, value int, usage string) {
	j.set.IntVar(p, name, value, usage)
	j.add(name)
}

func (j *jobFlagSet) Int64Var(p *int64, name string, value int64, usage string) {
	j.set.Int64Var(p, name, value, usage)
	j.add(name)
}

func (j *jobFlagSet) Float64Var(p *float64, name string, value float64, usage string) {
	j.set.Float64Var(p, name, value, usage)
	j.add(name)
}

func (j *jobFlagSet) DurationVar(p *time.Duration, name string, value time.Duration, usage string) {
	j.set.DurationVar(p, name, value, usage)
	j.add(name)
}

func (j *jobFlagSet) Var(v flag.Value, name, usage string) {
	j.set.Var(v, name, usage)
	j.add(name)
}

// Launcher marks flags of the launching command, which --help lists but
// the template metadata does not.
func (j *jobFlagSet) Launcher(names ...string) {
	for _, n := range names {
		j.launcher[n] = true
	}
}

// Lookup returns the job flag name, or nil.
func (j *jobFlagSet) Lookup(name string) *flag.Flag { return j.set.Lookup(name) }

// addTo defines every job flag on fs (with the same Value, so parsing fs
// sets them), next to the runner flags Beam's packages defined there.
func (j *jobFlagSet) addTo(fs *flag.FlagSet) {
	for _, n := range j.names {
		f := j.set.Lookup(n)
		fs.Var(f.Value, f.Name, f.Usage)
	}
}

// commandFlags are the flags the command reads itself rather than into a
// config.Config.
type commandFlags struct {
	input, logLevel    *string
	version, printMeta *bool
}

// registerFlags defines every job flag on j, with cfg's values as
// defaults, and returns the flags the command reads itself.
func registerFlags(j *jobFlagSet, cfg *config.Config) commandFlags {
	p := &cfg.Params
	var cmd commandFlags
	cmd.input = j.String("input", "", "comma-separated inputs (required): a local directory (reads the *.warc and *.warc.gz files directly in it, not its subdirectories), WARC file paths or globs, local or gs://, s3://, or http(s):// URLs (one file per URL, never globbed); @LIST (or @LIST.gz) reads inputs from a list file, one a line, # comments and blank lines ignored, the list itself local or on any of these; relative entries of a local list are found beside the list (see --input_prefix)")
	j.StringVar(&cfg.InputPrefix, "input_prefix", "", "put before the relative entries of @LIST input lists instead, e.g. https://data.commoncrawl.org/ for Common Crawl's warc.paths.gz (default none: relative entries of a local list are relative to the list's directory, those of a remote list are left as they are)")
	j.StringVar(&cfg.Output, "output", "", "output directory, gs:// or s3:// prefix for pairs-*.jsonl, rejects-*.jsonl, decisions-*.jsonl, clusters-*.jsonl, summary.json (required)")
	j.Float64Var(&p.Tau, "tau", p.Tau, fmt.Sprintf("similarity threshold τ in (0,1]: pairs with weighted Jaccard >= tau (default %v, best F1 on the gold set, docs/quality.md; the paper's news set: 0.44, §5.3)", p.Tau))
	j.Float64Var(&p.VerifyShare, "verify_share", p.VerifyShare, fmt.Sprintf("share in [0,1] of each page's main-text words that the other page must hold, both ways, for a candidate pair (weighted Jaccard >= tau) or an exact copy to count as a near-duplicate; 0 takes every candidate, as the paper (default %v, docs/quality.md \"Verification on the main text\")", p.VerifyShare))
	j.Float64Var(&p.SameSiteTau, "same_site_tau", p.SameSiteTau, fmt.Sprintf("threshold in [0,1] for a pair of pages of one site (the registrable domain of the target URI): pages of one site share a template and repeat their own text, so such a pair is a near-duplicate only at weighted Jaccard >= same_site_tau (and >= tau), unless both pages capture one URL (a re-capture); pairs across sites need tau; 0 treats every pair alike, as the paper (default %v, docs/quality.md \"Real sites\")", p.SameSiteTau))
	j.Float64Var(&p.IDFMin, "idf_min", p.IDFMin, fmt.Sprintf("lowest normalized IDF log(N/df)/log(N) of a kept signature, in [0,1] (default %v, §5.1)", p.IDFMin))
	j.Float64Var(&p.IDFMax, "idf_max", p.IDFMax, fmt.Sprintf("highest normalized IDF of a kept signature, in [0,1] (default %v; see spotsig.IDFRange.Keep for signatures shared by few documents)", p.IDFMax))
	j.BoolVar(&p.IDFKeepShared, "idf_keep_shared", p.IDFKeepShared, fmt.Sprintf("exempt signatures found in >= 2 documents from --idf_max, so rare shared signatures of copies are kept (default %v; false = the paper's plain range)", p.IDFKeepShared))
	j.StringVar(&p.Antecedents, "antecedents", p.Antecedents, "spot set \"word(distance,chain),…\" or @file replacing the embedded one of the --lang language (with --lang=auto: of English pages and pages of unidentified language) (default: each page language's own set, spotsig/lang/<code>; English: the paper's articles and be/can/will/have/do forms, §5.3.2)")
	j.StringVar(&p.Lang, "lang", p.Lang, fmt.Sprintf("language of the pages: %q identifies the language of each text block (a page's is its main content's) and signs the block with that language's stopwords and antecedents; signatures of different languages never match (pages of unidentified language use English data, tagged \"und\"); a code such as de forces one language for all pages (default %q; codes: %s)", spotsig.LanguageAuto, p.Lang, strings.Join(spotsig.Languages(), " ")))
	j.IntVar(&p.MinBlockTokens, "min_block_tokens", p.MinBlockTokens, fmt.Sprintf("spot chains stay inside one text block (paragraph, cell, list item) and blocks of fewer tokens are skipped as boilerplate; 0 = the paper's whole-document chains (default %d, chosen on the gold set, docs/quality.md)", p.MinBlockTokens))
	j.BoolVar(&p.KeepMarkupBoilerplate, "keep_markup_boilerplate", p.KeepMarkupBoilerplate, "keep the text of elements the markup marks as boilerplate (nav, aside, footer, dialogs, cookie/consent notices, replay toolbars, short sidebars, share and comment boxes), which is dropped by default so that text shared with unrelated pages does not make them near-duplicates (docs/quality.md, \"Shared boilerplate\")")
	j.IntVar(&p.SharedBlockPages, "shared_block_pages", p.SharedBlockPages, fmt.Sprintf("a text block outside the main content of at least this many pages (and of more pages than it is the main content of) is shared boilerplate and gives no signatures on the pages that have other text (a page of shared blocks only keeps them, hashed with its site); 0 = off (default %d, docs/design.md \"Shared boilerplate\")", p.SharedBlockPages))
	j.IntVar(&p.MaxGroupSignatures, "max_group_signatures", p.MaxGroupSignatures, fmt.Sprintf("signatures (Σ|d| of its documents, about 30 bytes each in memory) one matching task holds: a larger τ partition is matched as a block-pair grid of tasks of about 0.8× this many signatures, same pairs; 0 = unbounded (default %d, docs/design.md)", p.MaxGroupSignatures))
	j.IntVar(&p.MinSignatures, "min_signatures", p.MinSignatures, fmt.Sprintf("drop documents with fewer signatures |d| than this after the IDF filter (default %d)", p.MinSignatures))
	j.IntVar(&p.Rho, "rho", p.Rho, fmt.Sprintf("ρ, range of vector lengths (signatures) with regular partitions; longer vectors share the overflow partition, which starts at or below ρ depending on τ (default %d, §4.2, §5.1)", p.Rho))
	j.StringVar(&p.Method, "method", p.Method, fmt.Sprintf("signature scheme: %s (default %q)", dedup.MethodHelp(), p.Method))
	j.IntVar(&p.ShingleK, "shingle_k", p.ShingleK, fmt.Sprintf("shingle length in words for --method=shingles (default %d)", p.ShingleK))
	j.StringVar(&p.Matcher, "matcher", p.Matcher, fmt.Sprintf("matcher: spotsigs (partitions + pruning, §4), bruteforce (exact reference, same pairs, quadratic), lsh (MinHash LSH k=6, l=32, verified; approximate recall) or imatch (one SHA-1 bucket per signature set; no threshold) (default %q)", p.Matcher))
	j.StringVar(&p.Keep, "keep", p.Keep, fmt.Sprintf("keep policy: which page of a group of near-duplicates is kept, criteria in order from earliest|latest (WARC-Date; missing or malformed dates last), longest|shortest (extracted text), uri (shortest, then bytewise); record ID and location break the last ties (default %q: the first capture is the likely original, and adding a later crawl never changes which earlier page is kept; docs/outputs.md)", p.Keep))
	j.IntVar(&p.DecideRounds, "decide_rounds", p.DecideRounds, fmt.Sprintf("keep/drop rounds unrolled in the job graph; pages still undecided after them are decided on one worker, counted in summary decide_residual (default %d, docs/design.md)", p.DecideRounds))
	j.IntVar(&cfg.Shards, "shards", cfg.Shards, fmt.Sprintf("number of files of each sharded output: pairs, rejects, decisions, clusters (default %d)", cfg.Shards))
	j.StringVar(&cfg.Compression, "compression", cfg.Compression, fmt.Sprintf("how the JSON-lines outputs are written: %s (<name>.jsonl) or %s (<name>.jsonl.gz, 7-14x smaller for pairs; byte-identical on every run) (default %q)", config.CompressionNone, config.CompressionGzip, cfg.Compression))
	j.StringVar(&cfg.OutputFormat, "output_format", cfg.OutputFormat, fmt.Sprintf("format of the sharded outputs, one of %s: the same rows in each, as JSON lines (<name>.jsonl) or typed columns (<name>.parquet, zstd, for DuckDB, Spark, pandas, BigQuery); docs/outputs.md lists every field and column (default %q)", strings.Join(config.OutputFormats, ", "), cfg.OutputFormat))
	j.Var(progressFlag{&cfg.Progress}, "progress", fmt.Sprintf("print a line on stderr every --progress_interval on a local run (direct; prism; LOOPBACK workers): records and MB read, MB/s, documents, pairs, elapsed time; true, false or %s: when stderr is a terminal (default %s); other runners show the same figures as Beam counters", config.ProgressAuto, config.DefaultProgress))
	j.DurationVar(&cfg.ProgressInterval, "progress_interval", cfg.ProgressInterval, fmt.Sprintf("time between two progress lines (default %v)", cfg.ProgressInterval))
	j.StringVar(&cfg.MemoryLimit, "memory_limit", cfg.MemoryLimit, fmt.Sprintf("soft memory limit of the job's process and of its workers (Go's GOMEMLIMIT; beyond it the collector works harder instead of growing the heap): a size such as 4GiB, %s for none, or %s: a GOMEMLIMIT already set, else %.0f%% of a container's memory limit, else %.0f%% of the machine's memory (default %s, docs/deploy.md \"Memory\")", config.MemoryLimitOff, config.MemoryLimitAuto, 100*config.ContainerMemoryShare, 100*config.SystemMemoryShare, cfg.MemoryLimit))
	j.BoolVar(&cfg.Overwrite, "overwrite", cfg.Overwrite, "write into an --output directory that holds an earlier run's files (shards, summary.json, _SUCCESS, temporary files), which this run's commit replaces: until then they stay as they were. Without it such a directory is refused; a directory holding any other file is refused with or without it")
	j.StringVar(&cfg.WriteWARC, "write_warc", cfg.WriteWARC, "directory, gs:// or s3:// prefix for filtered WARC files: a copy of each input file without its dropped pages and the request, metadata and revisit records that belong to them (WARC-Concurrent-To, WARC-Refers-To, or the page's URI and date), every other record copied byte for byte; each opens with a warcinfo record saying what was removed and why, and manifest-00000-of-00001.jsonl lists every removed record (default none; docs/outputs.md \"Filtered WARC files\")")
	j.StringVar(&cfg.WriteIndex, "write_index", cfg.WriteIndex, "index directory, gs:// or s3:// prefix: add a segment of the pages this run keeps (identity, language, vector, rank; Parquet) for later runs to deduplicate against, docs/design.md \"Scheduled batches\" (default none)")
	j.StringVar(&cfg.IndexLabel, "index_label", cfg.IndexLabel, "label of the segment --write_index adds, segment-LABEL (letters, digits, ., _, -); give labels that sort as the runs do, e.g. the crawl date (default the run's start time, UTC, 20060102T150405.000Z)")
	j.Var(listFlag{&cfg.Against}, "against", "comma-separated index directories (or segments) of --write_index: decide this run's pages against the pages earlier runs kept, which rank first and stay kept; a page dropped for one names it and its segment (kept_by_segment); their parameters must agree with this run's (docs/design.md \"Scheduled batches\") (default none)")
	j.Int64Var(&p.MaxHeaderBytes, "max_header_bytes", p.MaxHeaderBytes, fmt.Sprintf("cap on one WARC or HTTP header, bytes (default %d)", p.MaxHeaderBytes))
	j.Int64Var(&p.MaxRecordBytes, "max_record_bytes", p.MaxRecordBytes, fmt.Sprintf("cap on the raw body of one WARC record held in memory, bytes; larger: skipped record-too-large (default %d)", p.MaxRecordBytes))
	j.Int64Var(&p.MaxPayloadBytes, "max_payload_bytes", p.MaxPayloadBytes, fmt.Sprintf("cap on the decoded HTTP payload, bytes; larger: skipped payload-too-large (default %d)", p.MaxPayloadBytes))
	j.Int64Var(&p.MaxMemberBytes, "max_member_bytes", p.MaxMemberBytes, fmt.Sprintf("cap on one decompressed gzip member, bytes (default %d)", p.MaxMemberBytes))
	j.Int64Var(&p.MaxURIBytes, "max_uri_bytes", p.MaxURIBytes, fmt.Sprintf("cap on WARC-Target-URI, bytes; a record with a longer one is skipped uri-too-long, its URI cut to the cap in rejects (default %d)", p.MaxURIBytes))
	j.Int64Var(&p.MaxRecordIDBytes, "max_record_id_bytes", p.MaxRecordIDBytes, fmt.Sprintf("cap on WARC-Record-ID, bytes; a record with a longer one is skipped record-id-too-long, its ID cut to the cap in rejects (default %d)", p.MaxRecordIDBytes))
	j.IntVar(&p.MaxInputBytes, "max_input_bytes", p.MaxInputBytes, fmt.Sprintf("cap on payload bytes parsed into text per document, bytes; the rest is ignored, counted in extract/capped-input-bytes (default %d)", p.MaxInputBytes))
	j.IntVar(&p.MaxTextBytes, "max_text_bytes", p.MaxTextBytes, fmt.Sprintf("cap on text bytes produced per document, bytes; counted in extract/capped-text-bytes (default %d)", p.MaxTextBytes))
	j.IntVar(&p.MaxTokens, "max_tokens", p.MaxTokens, fmt.Sprintf("cap on tokens examined per document; counted in extract/capped-tokens (default %d)", p.MaxTokens))
	j.IntVar(&p.MaxSignatures, "max_signatures", p.MaxSignatures, fmt.Sprintf("cap on spot signatures (with repeats) kept per document; counted in extract/capped-signatures (default %d)", p.MaxSignatures))
	cmd.logLevel = j.String("log_level", "warn", "Beam log level: debug, info, warn or error (default warn; info prints the job graph, e.g. the job a Dataflow --dry_run would submit, and the runner's own error logs of a failed job, which warn and error replace by one error line)")
	cmd.version = j.Bool("version", false, "print the version (module version, VCS revision, Beam Go SDK) and exit")
	cmd.printMeta = j.Bool(printTemplateMetadataFlag, false, "print the Dataflow flex template's metadata.json (every job flag above, its help and default) and exit")
	j.Launcher("version", printTemplateMetadataFlag, "progress", "progress_interval", "memory_limit")
	return cmd
}
