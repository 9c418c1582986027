package config

import (
	"time"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The job's configuration (Config) and its defaults. The parameters every
// stage needs are params.go, the options they select options.go,
// validation validate.go and its errors errors.go.

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
	// (warc.Site, match.SiteRule): 0.80, equal to DefaultVerifyShare but
	// not tied to it. Template siblings of one site reach weighted
	// Jaccard 0.5–0.95 on the labelled real pages, so the rule keeps them
	// from verification, which listings of one template can pass
	// (docs/quality.md, "Real sites"). It was 0.90, where the realset's
	// drop precision first reached 0.95 before verification; with
	// verification and the host's template, 0.80 decides every real set
	// as 0.90 did or better and 0.70 does not (docs/quality.md, "The
	// same-site τ at 0.8").
	DefaultSameSiteTau = 0.80
	// DefaultVerifyShare is the share of each page's main-text words that
	// the other page must hold, both ways, for a candidate pair to be a
	// near-duplicate (dedup.Verify): 0.8, the labelling guide of the
	// real-page sets (../shared/data/realset, "Labelling rule": "at least
	// about 80 % of each page's main-text words are found in the other").
	// It is the guide's number, not one fitted to a set.
	DefaultVerifyShare = 0.80
	// DefaultMinSignatures matches every document with a signature after
	// the IDF filter: 1. It was 5 (below that, weighted Jaccard moves in
	// steps of 1/5 or more and two short pages match by chance), so short
	// pages were decided by their exact text alone; now a pair in which a
	// document has fewer than 5 signatures is verified on the two pages'
	// texts whatever their sites (dedup.WeakSignatures), which tells the
	// chance matches apart. Measured on every real set (docs/quality.md,
	// "Verification on the main text"). Not from the paper (its corpora
	// are news articles).
	DefaultMinSignatures = 1
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
	// transforms.Against); none by default.
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
