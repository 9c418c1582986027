package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The job's own defaults. Defaults of the algorithms live with them and are
// only referred to here: spot set, block rule, extraction caps and the IDF
// range in spotsig (options.go, idf.go), ρ in match (partition.go), the
// reading caps in warc (options.go).
const (
	// DefaultTau is τ = 0.20, SpotSigs' best F1 on our gold set (`make
	// eval`, docs/quality.md). The paper's best was τ = 0.44 on its
	// news-only set (§5.3); our pages keep their whole template, so a
	// copy's shared article is a smaller share of its signatures and the
	// best τ is lower.
	DefaultTau = 0.20
	// DefaultSameSiteTau is the threshold of a pair of pages of one site
	// (warc.Site, match.SiteRule): 0.90. On the labelled real pages
	// (docs/quality.md, "Real sites") template siblings of one site reach
	// weighted Jaccard 0.5–0.95 and copies of a page on its own site sit at
	// 0.95–1; 0.90 is where drop precision first reaches 0.95 there, with
	// drop recall 0.93, and the gold sets' cross-site copies keep τ.
	DefaultSameSiteTau = 0.90
	// DefaultVerifyShare is the share of each page's main-text words that
	// the other page must hold, both ways, for a candidate pair to be a
	// near-duplicate (dedup.Verify): 0.8, the labelling guide of the
	// real-page sets (../shared/data/realset, "Labelling rule": "at least
	// about 80 % of each page's main-text words are found in the other").
	// It is the guide's number, not one fitted to a set.
	DefaultVerifyShare = 0.80
	// DefaultMinSignatures drops documents with fewer than 5 signatures
	// after the IDF filter: below that, weighted Jaccard moves in steps of
	// 1/5 or more and two short boilerplate pages match by chance. Not from
	// the paper (its corpora are news articles).
	DefaultMinSignatures = 5
	// DefaultSharedBlockPages: a text block outside the main content of
	// pages about at least 2 different things (spotsig.ExtractPayloadBlocks,
	// dedup.Context), and of more pages than it is the main content of, is
	// shared boilerplate; its signatures are
	// dropped before the IDF filter (dedup.DropSharedBlocks,
	// docs/design.md "Shared boilerplate"). 2 is the smallest count that is
	// a corpus statistic at all; the majority rule keeps a syndicated
	// article (the main content of most of its copies) on every copy, and
	// exact copies are one context, so two identical pages stay a pair at
	// any corpus size.
	DefaultSharedBlockPages = 2
	// MaxSharedBlockPages bounds SharedBlockPages: the job's count of a
	// block keeps at most this many distinct contexts (dedup.BlockCount).
	MaxSharedBlockPages = 64
	// DefaultShards is the number of files each sharded output is split into.
	DefaultShards = 1
	// DefaultCompression is how the sharded outputs are written: plain
	// JSON lines, which every tool reads.
	DefaultCompression = CompressionNone
	// DefaultOutputFormat is the format of the sharded outputs: JSON
	// lines, which jq, a text editor and every data tool read; Parquet is
	// a flag away for data tools at scale (docs/outputs.md).
	DefaultOutputFormat = OutputFormatJSONL
	// DefaultDecideRounds is the number of keep/drop rounds unrolled in
	// the job graph (docs/design.md): the gold sets need at most 4 with
	// the default keep policy (goldset-ml: 684, 29, 19, 0 pages undecided
	// after rounds 1-4), so 8 leaves a margin of 2x; pages still undecided
	// after them are decided on one worker, exactly, and counted (summary
	// decide_residual).
	DefaultDecideRounds = 8
	// DefaultMaxGroupSignatures bounds the signatures (Σ|d| of home and
	// guest documents) one matching task holds (transforms.MatchGroups): a
	// larger τ partition is matched as a block-pair grid of tasks of at
	// most this many. A task's memory is its vectors (12 bytes a distinct
	// signature) and its inverted lists (the matching benchmark of
	// docs/benchmarks.md: 1.1–1.5 GB of heap above the corpus for about
	// 110 M indexed signatures at 1M documents, τ 0.9), about 25–30 bytes a
	// signature, so 6,000,000 signatures are ~200 MB on one worker: 20,000
	// pages of 300 signatures (a news article), or 200,000 short pages of 30.
	DefaultMaxGroupSignatures = 6_000_000
	// DefaultShingleK is the shingle length for --method=shingles: 3, the
	// paper's 3-Shingling competitor (§5.3.1).
	DefaultShingleK = 3
	// DefaultProgress prints progress lines when stderr is a terminal (and
	// the job runs where its counts are seen, see Config.Progress): a
	// person watching wants them; a log, a pipe or a test wants stderr to
	// hold only what went wrong, one line per error.
	DefaultProgress = ProgressAuto
	// DefaultProgressInterval is the time between two progress lines:
	// often enough to see a job move, rare enough for a log of a long run.
	DefaultProgressInterval = 5 * time.Second
)

// Values of Config.Progress.
const (
	ProgressAuto = "auto"  // progress lines iff stderr is a terminal
	ProgressOn   = "true"  // always (on a local runner)
	ProgressOff  = "false" // never
)

// Config is everything the job needs: the stage parameters (embedded, see
// Params) plus where to read and write.
type Config struct {
	Params
	// Input is one or more file globs or URLs (local, gs://, s3://,
	// http(s)://), each of which must match at least one file, or input
	// lists "@LIST" (see storage.ReadList).
	Input []string
	// InputPrefix is prepended to the relative entries of input lists
	// (--input_prefix), e.g. "https://data.commoncrawl.org/" for Common
	// Crawl's warc.paths.gz; "" leaves them relative to the working
	// directory.
	InputPrefix string
	// Output is the output directory (local path, gs:// or s3:// prefix).
	Output string
	// Shards is the number of files each sharded output (pairs, rejects,
	// decisions, clusters) is split into (>= 1).
	Shards int
	// Compression is how the sharded outputs are written (--compression):
	// CompressionNone, <prefix>-SSSSS-of-NNNNN.jsonl, or CompressionGzip,
	// the same lines as <prefix>-SSSSS-of-NNNNN.jsonl.gz (one gzip member,
	// no name or time in its header, so the bytes are the same on every
	// run).
	Compression string
	// OutputFormat is the format of the sharded outputs (--output_format,
	// one of OutputFormats; output.FormatOf): OutputFormatJSONL, the
	// lines above, or OutputFormatParquet, the same rows as
	// <prefix>-SSSSS-of-NNNNN.parquet (zstd inside; not with
	// CompressionGzip).
	OutputFormat string
	// Runner is the Beam runner the job runs on (--runner), recorded in
	// summary.json.
	Runner string
	// Overwrite lets the job write into an output directory that holds
	// files of an earlier run, which its commit replaces
	// (transforms.Outputs.Replace; pipeline.Validate refuses such a
	// directory otherwise, and refuses it even then when it holds files
	// the job does not write).
	Overwrite bool
	// Progress says whether the command prints a progress line on stderr
	// every ProgressInterval (records and MB read, MB/s, documents, pairs,
	// elapsed time): ProgressAuto, ProgressOn or ProgressOff. Lines are
	// printed only where the job's DoFns run in the launching process (the
	// direct runner; prism, or a job server with LOOPBACK workers); on other
	// runners the same figures are Beam counters (docs/deploy.md, Metrics).
	Progress string
	// ProgressInterval is the time between progress lines (> 0).
	ProgressInterval time.Duration
	// MemoryLimit is the process's soft memory limit (memory.go):
	// MemoryLimitAuto, MemoryLimitOff or a size (ParseMemoryLimit).
	MemoryLimit string
	// WriteIndex is the index directory (local path, gs:// or s3://
	// prefix) the job adds a segment of the pages it kept to (package
	// index); "" writes none.
	WriteIndex string
	// Against are index directories (or segments) whose pages the run's
	// new pages are decided against (dedup.RunAgainst,
	// transforms.DecideAgainst); none by default.
	Against []string
	// IndexLabel names the segment written to WriteIndex,
	// segment-<IndexLabel> (--index_label; letters, digits, '.', '_',
	// '-'); "" is the run's start time, 20060102T150405.000Z (index.LabelOf).
	IndexLabel string
	// WriteWARC is the directory (local path, gs:// or s3:// prefix) of
	// the filtered WARC files (--write_warc, transforms.FilterWARC): each
	// input file without its dropped pages and their records; "" writes
	// none.
	WriteWARC string
	// RunID names the run's temporary files and its locks; "" draws one
	// (output.NewRunID) when the job is built.
	RunID string
}

// DefaultParams returns the job's default parameters: τ and the minimum
// vector length above, ρ from match, spotsig's default spot set, block rule,
// IDF range and caps, and warc's reading caps.
func DefaultParams() Params {
	idf := spotsig.DefaultIDFRange
	return Params{
		Method:             MethodSpotSigs,
		Matcher:            MatcherSpotSigs,
		Tau:                DefaultTau,
		SameSiteTau:        DefaultSameSiteTau,
		VerifyShare:        DefaultVerifyShare,
		Rho:                match.DefaultRho,
		IDFMin:             idf.Min,
		IDFMax:             idf.Max,
		IDFKeepShared:      idf.KeepShared,
		MinSignatures:      DefaultMinSignatures,
		MaxHeaderBytes:     warc.DefaultMaxHeaderBytes,
		MaxRecordBytes:     warc.DefaultMaxRecordBytes,
		MaxPayloadBytes:    warc.DefaultMaxPayloadBytes,
		MaxMemberBytes:     warc.DefaultMaxMemberBytes,
		MaxInputBytes:      spotsig.DefaultMaxInputBytes,
		MaxTextBytes:       spotsig.DefaultMaxTextBytes,
		MaxTokens:          spotsig.DefaultMaxTokens,
		MaxSignatures:      spotsig.DefaultMaxSignatures,
		MinBlockTokens:     spotsig.DefaultMinBlockTokens,
		Lang:               spotsig.DefaultLanguageMode,
		ShingleK:           DefaultShingleK,
		Keep:               match.DefaultKeep,
		DecideRounds:       DefaultDecideRounds,
		MaxGroupSignatures: DefaultMaxGroupSignatures,

		SharedBlockPages: DefaultSharedBlockPages,

		MaxURIBytes:      warc.DefaultMaxURIBytes,
		MaxRecordIDBytes: warc.DefaultMaxRecordIDBytes,
	}
}

// Compressions of the sharded outputs (Config.Compression, --compression).
const (
	CompressionNone = "none"
	CompressionGzip = "gzip"
)

// Formats of the sharded outputs (Config.OutputFormat, --output_format;
// package output has their encoders).
const (
	OutputFormatJSONL   = "jsonl"
	OutputFormatParquet = "parquet"
)

// OutputFormats lists the values of --output_format.
var OutputFormats = []string{OutputFormatJSONL, OutputFormatParquet}

// DefaultConfig returns DefaultParams with DefaultShards, DefaultProgress,
// DefaultProgressInterval, DefaultMemoryLimit and no input or output.
func DefaultConfig() Config {
	return Config{Params: DefaultParams(), Shards: DefaultShards, Compression: DefaultCompression, OutputFormat: DefaultOutputFormat,
		Progress: DefaultProgress, ProgressInterval: DefaultProgressInterval, MemoryLimit: DefaultMemoryLimit}
}

// ErrConfig is wrapped by every configuration error: a bad flag value, an
// input glob that matches nothing, an unwritable output. The CLI prints it
// on one line and exits with status 2.
var ErrConfig = errors.New("config")

// ParamError is a configuration error: the flag Flag (e.g. "--tau") was
// given Value (nil when it was missing or is not the point) and Err says
// why. It unwraps to ErrConfig and to Err, so a caller tests
// errors.Is(err, ErrConfig), finds the flag with errors.As, or tests the
// cause (e.g. errors.Is(err, fs.ErrNotExist) for an --antecedents file).
type ParamError struct {
	Flag  string
	Value any
	Err   error
	// layout places Flag, Value and Err in the message, in that order
	// (fmt verbs; an explicit index skips the value: "%s %[3]v").
	layout string
}

// Error is the one-line message the CLI prints (after "config: ").
func (e *ParamError) Error() string {
	return ErrConfig.Error() + ": " + fmt.Sprintf(e.layout, e.Flag, e.Value, e.Err)
}

// Unwrap returns ErrConfig and the cause.
func (e *ParamError) Unwrap() []error { return []error{ErrConfig, e.Err} }

// Layouts of a ParamError's message (Flag, Value, Err).
const (
	LayoutIs       = "%s=%v: %v" // --tau=0: must be in (0, 1]
	LayoutIsQuoted = "%s=%q: %v" // --lang="xx": want …
	LayoutQuoted   = "%s %q: %v" // --output "dir": permission denied
	LayoutQuotedIs = "%s %q %v"  // --input "x" matches no file
	LayoutFlag     = "%s %[3]v"  // --input is required …
	LayoutFlagOf   = "%s: %[3]v" // --against: …
	LayoutCause    = "%[3]v"     // the cause names its flags itself
)

// ParamErrorf returns the ParamError of flag and value with the cause
// fmt.Errorf(format, args...) (%w wraps), worded by layout (Layout*).
func ParamErrorf(layout, flag string, value any, format string, args ...any) *ParamError {
	return &ParamError{Flag: flag, Value: value, Err: fmt.Errorf(format, args...), layout: layout}
}

// ValidateValues checks every value of c without touching any filesystem
// and resolves a given "@file" spot set to its inline form, so workers need
// no local file and summary.json says exactly which antecedents were used
// (an empty spot set stays empty: the languages' own, see Params.Antecedents).
// It changes c only by normalizing Antecedents and Keep (the default policy
// written out).
// Errors are *ParamError (they wrap ErrConfig) and name the flag.
func (c *Config) ValidateValues() error {
	if err := c.Params.Validate(); err != nil {
		return err
	}
	if c.Shards < 1 {
		return ParamErrorf(LayoutIs, "--shards", c.Shards, "must be >= 1")
	}
	switch c.Compression {
	case CompressionNone, CompressionGzip:
	default:
		return ParamErrorf(LayoutIsQuoted, "--compression", c.Compression, "want %s or %s", CompressionNone, CompressionGzip)
	}
	if !slices.Contains(OutputFormats, c.OutputFormat) {
		return ParamErrorf(LayoutIsQuoted, "--output_format", c.OutputFormat, "want one of %s", strings.Join(OutputFormats, ", "))
	}
	if c.OutputFormat == OutputFormatParquet && c.Compression != CompressionNone {
		return ParamErrorf(LayoutCause, "--output_format", c.OutputFormat, "--output_format=%s compresses its columns with zstd: drop --compression=%s", c.OutputFormat, c.Compression)
	}
	if len(c.Input) == 0 {
		return ParamErrorf(LayoutFlag, "--input", nil, "is required: a folder of WARC files, WARC file paths or globs, gs://, s3:// or http(s):// URLs, or @LIST files of them, comma-separated (ndd-beam --help)")
	}
	if strings.TrimSpace(c.Output) == "" {
		return ParamErrorf(LayoutFlag, "--output", nil, "is required (a directory or gs:// prefix)")
	}
	if err := checkOutputName(c.Output); err != nil {
		return err
	}
	switch c.Progress {
	case ProgressAuto, ProgressOn, ProgressOff:
	default:
		return ParamErrorf(LayoutIsQuoted, "--progress", c.Progress, "want %s, %s or %s", ProgressAuto, ProgressOn, ProgressOff)
	}
	if c.ProgressInterval <= 0 {
		return ParamErrorf(LayoutIs, "--progress_interval", c.ProgressInterval, "must be > 0")
	}
	if _, err := ParseMemoryLimit(c.MemoryLimit); err != nil {
		return ParamErrorf(LayoutIsQuoted, "--memory_limit", c.MemoryLimit, "%s", err)
	}
	if strings.HasPrefix(c.WriteIndex, "http://") || strings.HasPrefix(c.WriteIndex, "https://") {
		return ParamErrorf(LayoutQuoted, "--write_index", c.WriteIndex, "http(s) is read-only; write to a local directory, gs:// or s3://")
	}
	if c.WriteIndex != "" {
		if inside(c.WriteIndex, c.Output) || inside(c.Output, c.WriteIndex) {
			return ParamErrorf(LayoutQuoted, "--write_index", c.WriteIndex, "is --output %q or inside it, or holds it: the index and the outputs need directories of their own", c.Output)
		}
	}
	for _, a := range c.Against {
		if inside(a, c.Output) {
			return ParamErrorf(LayoutQuoted, "--against", a, "is --output %q or inside it: the index and the outputs need directories of their own", c.Output)
		}
	}
	if c.IndexLabel != "" {
		if err := checkLabel(c.IndexLabel); err != nil {
			return ParamErrorf(LayoutIsQuoted, "--index_label", c.IndexLabel, "%v", err)
		}
	}
	return nil
}

// inside reports whether the directory a is b or lies under it: local
// paths compared absolute and clean, URLs as strings without a trailing
// slash.
func inside(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.Contains(a, "://") != strings.Contains(b, "://") {
		return false
	}
	if strings.Contains(a, "://") {
		a, b = strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/")
		return a == b || strings.HasPrefix(a, b+"/")
	}
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(ba, aa)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkLabel returns an error unless label is 1 to 100 of the characters
// A-Z a-z 0-9 . _ - and does not start with a dot.
func checkLabel(label string) error {
	if len(label) > 100 || label[0] == '.' {
		return fmt.Errorf("want 1 to 100 characters, not starting with a dot")
	}
	for _, c := range label {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("%q is not allowed: want letters, digits, '.', '_' and '-'", c)
		}
	}
	return nil
}

// Validate checks every value of p and resolves its spot set to inline form
// (see Config.ValidateValues). Errors are *ParamError (they wrap
// ErrConfig) and name the flag.
func (p *Params) Validate() error {
	if !(p.Tau > 0 && p.Tau <= 1) {
		return ParamErrorf(LayoutIs, "--tau", p.Tau, "must be in (0, 1]")
	}
	if !(p.VerifyShare >= 0 && p.VerifyShare <= 1) {
		return ParamErrorf(LayoutIs, "--verify_share", p.VerifyShare, "must be in [0, 1]")
	}
	if !(p.SameSiteTau >= 0 && p.SameSiteTau <= 1) {
		return ParamErrorf(LayoutIs, "--same_site_tau", p.SameSiteTau, "must be in [0, 1]")
	}
	if p.Rho < 1 {
		return ParamErrorf(LayoutIs, "--rho", p.Rho, "must be >= 1")
	}
	if !(p.IDFMin >= 0 && p.IDFMin <= 1) {
		return ParamErrorf(LayoutIs, "--idf_min", p.IDFMin, "must be in [0, 1]")
	}
	if !(p.IDFMax >= 0 && p.IDFMax <= 1) {
		return ParamErrorf(LayoutIs, "--idf_max", p.IDFMax, "must be in [0, 1]")
	}
	if p.IDFMin > p.IDFMax {
		return ParamErrorf("%s=%v %v", "--idf_min", p.IDFMin, "is above --idf_max=%v", p.IDFMax)
	}
	if p.MinSignatures < 1 {
		return ParamErrorf(LayoutIs, "--min_signatures", p.MinSignatures, "must be >= 1")
	}
	for _, c := range []struct {
		name string
		v    int64
	}{
		{"--max_header_bytes", p.MaxHeaderBytes}, {"--max_record_bytes", p.MaxRecordBytes},
		{"--max_payload_bytes", p.MaxPayloadBytes}, {"--max_member_bytes", p.MaxMemberBytes},
		{"--max_uri_bytes", p.MaxURIBytes}, {"--max_record_id_bytes", p.MaxRecordIDBytes},
		{"--max_input_bytes", int64(p.MaxInputBytes)}, {"--max_text_bytes", int64(p.MaxTextBytes)},
		{"--max_tokens", int64(p.MaxTokens)}, {"--max_signatures", int64(p.MaxSignatures)},
	} {
		if c.v < 1 {
			return ParamErrorf(LayoutIs, c.name, c.v, "must be >= 1")
		}
	}
	if p.MinBlockTokens < 0 {
		return ParamErrorf(LayoutIs, "--min_block_tokens", p.MinBlockTokens, "must be >= 0")
	}
	if p.Lang != "" && p.Lang != spotsig.LanguageAuto && !slices.Contains(spotsig.Languages(), p.Lang) {
		return ParamErrorf(LayoutIsQuoted, "--lang", p.Lang, "want %q or one of %v", spotsig.LanguageAuto, spotsig.Languages())
	}
	if p.SharedBlockPages == 1 || p.SharedBlockPages < 0 || p.SharedBlockPages > MaxSharedBlockPages {
		return ParamErrorf(LayoutIs, "--shared_block_pages", p.SharedBlockPages, "must be 0 (off) or in [2, %d]", MaxSharedBlockPages)
	}
	pol, err := p.Policy()
	if err != nil {
		return ParamErrorf(LayoutIsQuoted, "--keep", p.Keep, "%w", err)
	}
	p.Keep = pol.String()
	if p.MaxGroupSignatures < 0 {
		return ParamErrorf(LayoutIs, "--max_group_signatures", p.MaxGroupSignatures, "must be 0 (unbounded) or more")
	}
	if p.DecideRounds < 0 {
		return ParamErrorf(LayoutIs, "--decide_rounds", p.DecideRounds, "must be >= 0")
	}
	if p.Antecedents != "" {
		// A given spot set (inline or @file) is resolved to its inline
		// form. Empty stays empty: each page's language brings its own
		// spot set (spotsig/lang/<code>), recorded in summary.json as
		// sizes per language.
		set, err := spotsig.ParseSpotSet(p.Antecedents)
		if err != nil {
			return ParamErrorf(LayoutIsQuoted, "--antecedents", p.Antecedents, "%w", err)
		}
		parts := make([]string, len(set))
		for i, a := range set {
			parts[i] = a.String()
		}
		p.Antecedents = strings.Join(parts, ",")
	}
	if err := p.checkMethod(); err != nil {
		return ParamErrorf(LayoutIsQuoted, "--method", p.Method, "%w", err)
	}
	if _, err := NewGrouping(*p); err != nil {
		return ParamErrorf(LayoutIsQuoted, "--matcher", p.Matcher, "%w", err)
	}
	return nil
}

// checkOutputName refuses an --output that cannot name a directory of the
// job's files: "-" (the job writes several files, never to standard
// output), a value starting with "-" (a flag taken as the value of
// --output), and one with glob characters (its files could not be listed
// back).
func checkOutputName(out string) error {
	switch {
	case out == "-":
		return ParamErrorf(LayoutIs, "--output", out, "the job writes a directory of files, not standard output; give a directory, gs:// or s3:// prefix")
	case strings.HasPrefix(out, "-"):
		return ParamErrorf("%s=%q %v", "--output", out, "looks like a flag, not a directory (--output needs a value: --output=DIR)")
	case strings.ContainsAny(out, "*?["):
		return ParamErrorf(LayoutIsQuoted, "--output", out, "a directory name with a glob character (* ? [) cannot be listed back; choose another name")
	}
	return nil
}
