package transforms

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

func init() {
	registerDoFn(&statFn{})
	registerDoFn(&skipStatFn{})
	registerDoFn(&nameStatFn{})
	registerDoFn(&writeSummaryFn{})
	register.Emitter2[string, int]()
	register.Iter2[string, int]()
}

// Names of the statistics of summary.json, each defined once in
// statistics (or, for a keyed family, statFamilies).
const (
	StatRecords                = "records"
	StatDocuments              = "documents"
	StatSharedSignatures       = "shared_block_signatures"
	StatSignaturesBeforeIDF    = "signatures_before_idf"
	StatSignaturesAfterIDF     = "signatures_after_idf"
	StatPartitions             = "partitions"
	StatLargestGroup           = "largest_group"
	StatLargestGroupSignatures = "largest_group_signatures"
	StatPairs                  = "pairs"
	StatSameSitePairs          = "same_site_pairs"
	StatExactCopies            = "exact_copies"
	StatKept                   = "kept"
	StatDropped                = "dropped"
	StatDroppedExact           = "dropped_exact"
	StatDecideResidual         = "decide_residual"
	StatDroppedForIndex        = "dropped_for_index"
	statSkippedPrefix          = "skipped/"
	statCappedPrefix           = "capped/"
	statLanguagePrefix         = "languages/"
	statClusterPrefix          = "cluster_size/"
)

// statistic defines one number of summary.json: the stages make it with
// Stats.Count or Stats.Sum (values add up) or Stats.Max (the largest is
// kept), and writeSummaryFn merges its values the same way into the
// fields add names. Stats checks the merge when the graph is built, so a
// stage and the summary cannot disagree.
type statistic struct {
	max bool
	add func(s *Summary, v int)
}

func sumInto(f func(*Summary) *int) statistic {
	return statistic{add: func(s *Summary, v int) { *f(s) += v }}
}

func maxInto(f func(*Summary) *int) statistic {
	return statistic{max: true, add: func(s *Summary, v int) { p := f(s); *p = max(*p, v) }}
}

// statistics is the one table of the summary's plain statistics.
var statistics = map[string]statistic{
	StatRecords:                sumInto(func(s *Summary) *int { return &s.Records }),
	StatDocuments:              sumInto(func(s *Summary) *int { return &s.Documents }),
	StatSharedSignatures:       sumInto(func(s *Summary) *int { return &s.SharedBlockSignatures }),
	StatSignaturesBeforeIDF:    sumInto(func(s *Summary) *int { return &s.SignaturesBeforeIDF }),
	StatSignaturesAfterIDF:     sumInto(func(s *Summary) *int { return &s.SignaturesAfterIDF }),
	StatPartitions:             sumInto(func(s *Summary) *int { return &s.Partitions }),
	StatLargestGroup:           maxInto(func(s *Summary) *int { return &s.LargestGroup }),
	StatLargestGroupSignatures: maxInto(func(s *Summary) *int { return &s.LargestGroupSignatures }),
	StatPairs:                  sumInto(func(s *Summary) *int { return &s.Pairs }),
	StatSameSitePairs:          sumInto(func(s *Summary) *int { return &s.SameSitePairs }),
	// Documents collapsed into a representative: each is also a pairs line
	// (with "exact": true).
	StatExactCopies:    {add: func(s *Summary, v int) { s.ExactCopies += v; s.Pairs += v }},
	StatKept:           sumInto(func(s *Summary) *int { return &s.Kept }),
	StatDropped:        sumInto(func(s *Summary) *int { return &s.Dropped }),
	StatDroppedExact:   sumInto(func(s *Summary) *int { return &s.DroppedExact }),
	StatDecideResidual: sumInto(func(s *Summary) *int { return &s.DecideResidual }),
	// Pages dropped for a page of an earlier run's index (--against).
	StatDroppedForIndex: sumInto(func(s *Summary) *int { return &s.DroppedForIndex }),
}

// statFamilies are the keyed statistics ("<prefix><key>"), each added into
// a map of the summary.
var statFamilies = []struct {
	prefix string
	add    func(s *Summary, key string, v int) error
}{
	{statSkippedPrefix, func(s *Summary, k string, v int) error { s.Skipped[k] += v; return nil }},
	{statCappedPrefix, func(s *Summary, k string, v int) error { s.Capped[k] += v; return nil }},
	{statLanguagePrefix, func(s *Summary, k string, v int) error {
		if s.Languages == nil {
			s.Languages = map[string]int{}
		}
		s.Languages[k] += v
		return nil
	}},
	{statClusterPrefix, func(s *Summary, k string, v int) error {
		size, err := strconv.Atoi(k)
		if err != nil {
			return err
		}
		s.ClusterSizes[size] += v
		return nil
	}},
}

// addStatistic merges the value v of the statistic named k into s.
func addStatistic(s *Summary, k string, v int) error {
	if st, ok := statistics[k]; ok {
		st.add(s, v)
		return nil
	}
	for _, f := range statFamilies {
		if key, ok := strings.CutPrefix(k, f.prefix); ok {
			if err := f.add(s, key, v); err != nil {
				return fmt.Errorf("summary: statistic %q: %v", k, err)
			}
			return nil
		}
	}
	return fmt.Errorf("summary: unknown statistic %q", k)
}

// mustStatistic returns the definition of a plain statistic, and panics
// when the name is not one or a stage merges it the other way (a
// programming error, seen when the graph is built).
func mustStatistic(name string, isMax bool) statistic {
	st, ok := statistics[name]
	if !ok || st.max != isMax {
		panic(fmt.Sprintf("transforms: statistic %q is not a %s statistic of the summary", name, map[bool]string{false: "sum", true: "max"}[isMax]))
	}
	return st
}

// SummaryFile is the name of the summary under the output directory.
const SummaryFile = "summary.json"

// SchemaVersion is the version of the output files' schema
// (docs/outputs.md), written to summary.json. It changes whenever a field
// of an output changes meaning or disappears. Version 2 added decisions,
// clusters and their counts; version 3 the run object (RunInfo); version 4
// the exact-copy lines of pairs ("exact") and exact_copies; version 5 the
// kept page's location on decision lines (kept_by_file, kept_by_offset,
// kept_by_inner_offset), the same-site rule and same_site_pairs; version 6
// replaced parameters.max_group_docs by max_group_signatures and added
// largest_group_signatures, dropped_exact and, with an index, the
// kept_by_segment and segment fields and the index counts.
const SchemaVersion = 6

// Summary is summary.json: the job's counts, computed from PCollections
// (not from runner metrics), and what it ran on. The accounting identity
// Records == Documents + Σ Skipped holds on every input: every WARC record
// read (and every unreadable stretch or file) is either a document that
// reached matching or a reject with exactly one reason.
type Summary struct {
	SchemaVersion int            `json:"schema_version"` // SchemaVersion of the outputs
	Records       int            `json:"records"`        // WARC records read, incl. unreadable stretches and files
	Documents     int            `json:"documents"`      // documents that reached matching
	Skipped       map[string]int `json:"skipped"`        // reason -> rejects (rejects-*.jsonl)
	Capped        map[string]int `json:"capped"`         // cap -> documents kept in part (see docs/robustness.md)
	// SharedBlockSignatures: signatures (with repeats) of shared
	// boilerplate blocks dropped before the IDF filter
	// (transforms.DropSharedBlocks, --shared_block_pages).
	SharedBlockSignatures  int           `json:"shared_block_signatures"`
	SignaturesBeforeIDF    int           `json:"signatures_before_idf"`    // Σ|d| over documents entering the IDF filter
	SignaturesAfterIDF     int           `json:"signatures_after_idf"`     // Σ|d| over the same documents after it
	Partitions             int           `json:"partitions"`               // distinct groups matched (τ partitions for spotsigs)
	LargestGroup           int           `json:"largest_group"`            // documents in the largest group or task (home + guests)
	LargestGroupSignatures int           `json:"largest_group_signatures"` // Σ|d| of the largest group or task by signatures
	Pairs                  int           `json:"pairs"`                    // lines of pairs written, exact-copy lines included
	SameSitePairs          int           `json:"same_site_pairs"`          // pairs of one site at tau or above but below same_site_tau: not near-duplicates, not written
	ExactCopies            int           `json:"exact_copies"`             // documents collapsed into an exact-copy representative (pairs lines with exact true)
	Kept                   int           `json:"kept"`                     // pages kept (decisions-*.jsonl, keep true)
	Dropped                int           `json:"dropped"`                  // pages dropped; kept + dropped = decision lines
	DroppedExact           int           `json:"dropped_exact"`            // of Dropped, pages at weighted Jaccard 1 to the page kept (the same signatures, or for exact-text the same text); the rest are near-duplicates
	DecideResidual         int           `json:"decide_residual"`          // pages still undecided after the rounds, decided on one worker
	ClusterSizes           map[int]int   `json:"cluster_sizes"`            // cluster size (kept page + its dropped pages) -> clusters
	Parameters             config.Params `json:"parameters"`
	// Languages counts, per language, the documents with >= 1 signature
	// once shared blocks are dropped (before the IDF filter and
	// --min_signatures; "und": pages of unidentified language, signed
	// with English data), each in the language of its main content then
	// (dedup.Language; with --shared_block_pages=0 the extractor's);
	// absent for a scheme without languages.
	Languages map[string]int `json:"languages,omitempty"`
	// LanguageData is the language mode, the source of the spot sets and
	// their sizes per language (spotsigs only).
	LanguageData config.LanguageData `json:"language_data,omitzero"`
	Input        []string            `json:"input"`  // the input globs
	Output       string              `json:"output"` // the output directory
	Shards       int                 `json:"shards"` // shards of pairs and rejects
	Files        []string            `json:"files"`  // the WARC files read, sorted
	Run          RunInfo             `json:"run"`    // when and with what it ran; differs between runs (docs/outputs.md)

	// Scheduled batches (docs/design.md), all absent without their flags:
	// the pages dropped for a page an earlier run kept (--against;
	// kept_by_segment set), the index directories read (--against), and
	// the index directory and segment this run added (--write_index).
	DroppedForIndex int      `json:"dropped_for_index,omitempty"`
	Against         []string `json:"against,omitempty"`
	IndexDir        string   `json:"index_dir,omitempty"`
	IndexSegment    string   `json:"index_segment,omitempty"`
}

// SkippedTotal is Σ Skipped.
func (s Summary) SkippedTotal() int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// Pages is the number of pages (docs/outputs.md, "Which records are
// pages"): records that became text, each with one decision line, so
// Kept + Dropped.
func (s Summary) Pages() int { return s.Kept + s.Dropped }

// NotPages returns the skip reasons of the records that are not pages
// (every reason but no-signatures and too-few-signatures, which are pages
// decided on their text) and their total, Records - Pages() when the
// accounting holds.
func (s Summary) NotPages() (reasons map[string]int, total int) {
	reasons = map[string]int{}
	for r, n := range s.Skipped {
		if r == dedup.ReasonNoSignatures || r == dedup.ReasonTooFewSignatures {
			continue
		}
		reasons[r] = n
		total += n
	}
	return reasons, total
}

// Stats gathers the run statistics of every stage into one
// PCollection<KV<string, int>> (name, number; see the Stat* names) for
// WriteSummary. Each composite adds its own statistics to the Stats it is
// given, so the pipeline wires none by hand. The numbers come from
// PCollections, not runner metrics, so summary.json never depends on a
// runner's metrics being queryable.
type Stats struct {
	cols []beam.PCollection
}

// Count adds the statistic name: the number of elements of col (not a KV
// PCollection).
func (st *Stats) Count(s beam.Scope, name string, col beam.PCollection) {
	mustStatistic(name, false)
	st.cols = append(st.cols, Stat(s, name, CountElements(s.Scope("Count."+name), col)))
}

// Sum adds the statistic name: the sum of the ints of col.
func (st *Stats) Sum(s beam.Scope, name string, ints beam.PCollection) {
	mustStatistic(name, false)
	st.cols = append(st.cols, Stat(s, name, SumInts(s.Scope("Sum."+name), ints)))
}

// Max adds the statistic name: the largest of the non-negative ints of col
// (0 if none).
func (st *Stats) Max(s beam.Scope, name string, ints beam.PCollection) {
	mustStatistic(name, true)
	st.cols = append(st.cols, Stat(s, name, MaxInts(s.Scope("Max."+name), ints)))
}

// Add adds statistics already keyed by name (KV<string, int>, e.g.
// SkipStats).
func (st *Stats) Add(kv beam.PCollection) { st.cols = append(st.cols, kv) }

// Collection returns every statistic added, as one PCollection.
func (st *Stats) Collection(s beam.Scope) beam.PCollection {
	if len(st.cols) == 0 {
		return Stat(s, StatRecords, beam.Create(s, 0)) // nothing added: records 0
	}
	return beam.Flatten(s, st.cols...)
}

// Stat turns a PCollection<int> holding one number (see SumInts) into the
// statistic KV<string, int> (name, number) for WriteSummary.
func Stat(s beam.Scope, name string, single beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Stat."+name), &statFn{Name: name}, single)
}

type statFn struct{ Name string }

func (fn *statFn) ProcessElement(n int, emit func(string, int)) { emit(fn.Name, n) }

// SkipStats counts rejects per reason as statistics "skipped/<reason>".
func SkipStats(s beam.Scope, rejects beam.PCollection) beam.PCollection {
	s = s.Scope("SkipStats")
	return beam.CombinePerKey(s, sumInt, beam.ParDo(s, &skipStatFn{}, rejects))
}

// NameStats counts the statistic names of names (string, e.g.
// "capped/<cap>", "languages/<code>"), one per element.
func NameStats(s beam.Scope, names beam.PCollection) beam.PCollection {
	s = s.Scope("NameStats")
	return beam.CombinePerKey(s, sumInt, beam.ParDo(s, &nameStatFn{}, names))
}

type nameStatFn struct{}

func (*nameStatFn) ProcessElement(name string, emit func(string, int)) { emit(name, 1) }

type skipStatFn struct{}

func (*skipStatFn) ProcessElement(r Reject, emit func(string, int)) {
	emit(statSkippedPrefix+r.Reason, 1)
}

// WriteSummary writes <out.Dir>/summary.json (under its temporary name
// until out.Commit) from stats (KV<string, int>, one element per statistic,
// see the Stat* names and SkipStats) and files (the paths read, string).
// base supplies the parameters, input and output.
func WriteSummary(s beam.Scope, out *Outputs, base Summary, stats, files beam.PCollection) {
	s = s.Scope("WriteSummary")
	out.add(beam.ParDo(s, &writeSummaryFn{Dir: out.Dir, RunID: out.RunID, Base: base}, beam.Impulse(s),
		beam.SideInput{Input: stats}, beam.SideInput{Input: files}), SummaryFile)
}

// writeSummaryFn assembles and writes summary.json once (its main input is
// a single impulse) and emits its name (for Outputs.Commit).
type writeSummaryFn struct {
	Dir   string
	RunID string
	Base  Summary
}

// ProcessElement writes the summary.
func (fn *writeSummaryFn) ProcessElement(ctx context.Context, _ []byte, stats func(*string, *int) bool, files func(*string) bool, written func(string)) error {
	sum := fn.Base
	sum.Skipped = map[string]int{}
	sum.Capped = map[string]int{}
	sum.ClusterSizes = map[int]int{}
	sum.SchemaVersion = SchemaVersion
	var k string
	var v int
	for stats(&k, &v) {
		if err := addStatistic(&sum, k, v); err != nil {
			return err
		}
	}
	sum.Files = nil
	var f string
	for files(&f) {
		sum.Files = append(sum.Files, f)
	}
	slices.Sort(sum.Files)
	if sum.Files == nil {
		sum.Files = []string{}
	}
	sum.Run.finish(fn.RunID)
	if got := sum.Documents + sum.SkippedTotal(); got != sum.Records {
		// Never expected: logged as an error and counted
		// (summary/accounting_mismatch); the summary is still written.
		log.Errorf(ctx, "summary: %d documents + %d skipped != %d records read", sum.Documents, sum.SkippedTotal(), sum.Records)
		beam.NewCounter("summary", "accounting_mismatch").Inc(ctx, 1)
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	out := &Outputs{Dir: fn.Dir, RunID: fn.RunID}
	if err := writeFile(ctx, out.TempPath(SummaryFile), func(w *bufio.Writer) error {
		w.Write(b)
		return w.WriteByte('\n')
	}); err != nil {
		return err
	}
	written(SummaryFile)
	return nil
}
