package output

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
)

// Names of the statistics of summary.json, each defined once in
// statistics (or, for a keyed family, statFamilies).
const (
	StatRecords                = "records"
	StatDocuments              = "documents"
	StatSharedSignatures       = "shared_block_signatures"
	StatSharedTextPages        = "shared_text_pages"
	StatSignaturesBeforeIDF    = "signatures_before_idf"
	StatSignaturesAfterIDF     = "signatures_after_idf"
	StatPartitions             = "partitions"
	StatLargestGroup           = "largest_group"
	StatLargestGroupSignatures = "largest_group_signatures"
	StatPairs                  = "pairs"
	StatExactCopies            = "exact_copies"
	StatKept                   = "kept"
	StatDropped                = "dropped"
	StatDroppedExact           = "dropped_exact"
	StatDecideResidual         = "decide_residual"
	StatDroppedForIndex        = "dropped_for_index"
	StatIndexPagesReached      = "index_pages_reached"
	// Keyed statistics, "<prefix><key>": rejects per reason, documents
	// per cap and per language, clusters per size.
	StatSkippedPrefix = "skipped/"
	StatCappedPrefix  = "capped/"
	StatQuirkPrefix   = "quirks/"
	// StatInputProblemPrefix + "<path>\t<reason>": an input file that
	// gave no WARC record (Summary.InputProblems).
	StatInputProblemPrefix = "input_problems/"
	StatLanguagePrefix     = "languages/"
	StatClusterSizePrefix  = "cluster_size/"
)

// statistic defines one number of summary.json: the stages make it as a
// sum (values add up) or a maximum (the largest is kept), and the summary
// merges its values the same way (AddStatistic) into the fields add
// names. The stages check the merge when the graph is built
// (CheckStatistic, from transforms.Stats), so a stage and the summary
// cannot disagree.
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
	StatSharedTextPages:        sumInto(func(s *Summary) *int { return &s.SharedTextPages }),
	StatSignaturesBeforeIDF:    sumInto(func(s *Summary) *int { return &s.SignaturesBeforeIDF }),
	StatSignaturesAfterIDF:     sumInto(func(s *Summary) *int { return &s.SignaturesAfterIDF }),
	StatPartitions:             sumInto(func(s *Summary) *int { return &s.Partitions }),
	StatLargestGroup:           maxInto(func(s *Summary) *int { return &s.LargestGroup }),
	StatLargestGroupSignatures: maxInto(func(s *Summary) *int { return &s.LargestGroupSignatures }),
	StatPairs:                  sumInto(func(s *Summary) *int { return &s.Pairs }),
	// Documents collapsed into a representative: each is also a pairs line
	// (with "exact": true).
	StatExactCopies:    {add: func(s *Summary, v int) { s.ExactCopies += v; s.Pairs += v }},
	StatKept:           sumInto(func(s *Summary) *int { return &s.Kept }),
	StatDropped:        sumInto(func(s *Summary) *int { return &s.Dropped }),
	StatDroppedExact:   sumInto(func(s *Summary) *int { return &s.DroppedExact }),
	StatDecideResidual: sumInto(func(s *Summary) *int { return &s.DecideResidual }),
	// Pages dropped for a page of an earlier run's index (--against).
	StatDroppedForIndex: sumInto(func(s *Summary) *int { return &s.DroppedForIndex }),
	// Index pages the batch reached, the only ones the run held (--against).
	StatIndexPagesReached: sumInto(func(s *Summary) *int { return &s.IndexPagesReached }),
}

// statFamilies are the keyed statistics ("<prefix><key>"), each added into
// a map of the summary.
var statFamilies = []struct {
	prefix string
	add    func(s *Summary, key string, v int) error
}{
	{StatSkippedPrefix, func(s *Summary, k string, v int) error { s.Skipped[k] += v; return nil }},
	{StatCappedPrefix, func(s *Summary, k string, v int) error { s.Capped[k] += v; return nil }},
	{StatQuirkPrefix, func(s *Summary, k string, v int) error {
		if s.Quirks == nil {
			s.Quirks = map[string]int{}
		}
		s.Quirks[k] += v
		return nil
	}},
	{StatInputProblemPrefix, func(s *Summary, k string, v int) error {
		path, reason, ok := strings.Cut(k, "\t")
		if !ok {
			return fmt.Errorf("summary: input problem %q without a reason", k)
		}
		if s.InputProblems == nil {
			s.InputProblems = map[string]string{}
		}
		if was, ok := s.InputProblems[path]; !ok || reason < was {
			s.InputProblems[path] = reason
		}
		return nil
	}},
	{StatLanguagePrefix, func(s *Summary, k string, v int) error {
		if s.Languages == nil {
			s.Languages = map[string]int{}
		}
		s.Languages[k] += v
		return nil
	}},
	{StatClusterSizePrefix, func(s *Summary, k string, v int) error {
		size, err := strconv.Atoi(k)
		if err != nil {
			return err
		}
		s.ClusterSizes[size] += v
		return nil
	}},
}

// AddStatistic merges the value v of the statistic named k into s.
func AddStatistic(s *Summary, k string, v int) error {
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

// CheckStatistic reports an error unless name is a plain statistic merged
// as a maximum (isMax) or as a sum.
func CheckStatistic(name string, isMax bool) error {
	if st, ok := statistics[name]; !ok || st.max != isMax {
		return fmt.Errorf("statistic %q is not a %s statistic of the summary", name, map[bool]string{false: "sum", true: "max"}[isMax])
	}
	return nil
}

// SchemaVersion is the version of the output files' schema
// (docs/outputs.md), written to summary.json. It changes whenever a field
// of an output changes meaning or disappears. Version 2 added decisions,
// clusters and their counts; version 3 the run object (RunInfo); version 4
// the exact-copy lines of pairs ("exact") and exact_copies; version 5 the
// kept page's location on decision lines (kept_by_file, kept_by_offset,
// kept_by_inner_offset), the same-site rule and same_site_pairs; version 6
// replaced parameters.max_group_docs by max_group_signatures and added
// largest_group_signatures, dropped_exact and, with an index, the
// kept_by_segment and segment fields and the index counts; version 7 the
// verification of pairs (a_share, b_share, near_duplicate) and text-copy
// lines; version 8 made a_share and b_share the smaller of the main
// content's and the whole text's share, and exempted two captures of one
// URL from the same-site rule; version 9 removed same_site_pairs (the
// matcher checks a pair of one site at same_site_tau, so the pairs below it
// are no longer counted); version 10 made a_share and b_share of a pair
// of one host the smaller, too, of the shares of the two whole texts less
// the host's template (dedup.MarkTemplates); version 11 made the whole
// text of those shares the whole text less its shared boilerplate (the
// blocks and the short lines that the corpus rule reports shared and that
// are the main content of no page; spotsig.Sketch.LessShared).
const SchemaVersion = 11

// Summary is summary.json: the job's counts, computed from PCollections
// (not from runner metrics), and what it ran on. The accounting identity
// Records == Documents + Σ Skipped holds on every input: every WARC record
// read (and every unreadable stretch or file) is either a document that
// reached matching or a reject with exactly one reason.
type Summary struct {
	SchemaVersion int `json:"schema_version"` // SchemaVersion of the outputs
	Records       int `json:"records"`        // WARC records read, incl. unreadable stretches and files
	Documents     int `json:"documents"`      // documents that reached matching
	// PagesRead is the number of pages read: records that became text,
	// each with one decision line (Kept + Dropped, Pages()); the closing
	// line's "read N pages". Documents counts fewer: pages without enough
	// signatures are decided without matching.
	PagesRead int            `json:"pages"`
	Skipped   map[string]int `json:"skipped"` // reason -> rejects (rejects-*.jsonl)
	Capped    map[string]int `json:"capped"`  // cap -> documents kept in part (see docs/robustness.md)
	// Quirks counts, per reader quirk (warc.Quirks), the records read
	// with it repaired, documents and rejects alike; absent when none.
	Quirks map[string]int `json:"quirks,omitempty"`
	// SharedBlockSignatures: signatures (with repeats) of shared
	// boilerplate blocks dropped before the IDF filter
	// (--shared_block_pages).
	SharedBlockSignatures int `json:"shared_block_signatures"`
	// SharedTextPages: pages every signed block of which is shared, which
	// keep their signatures hashed with their site
	// (dedup.ResolveBlocks).
	SharedTextPages        int           `json:"shared_text_pages"`
	SignaturesBeforeIDF    int           `json:"signatures_before_idf"`    // Σ|d| over documents entering the IDF filter
	SignaturesAfterIDF     int           `json:"signatures_after_idf"`     // Σ|d| over the same documents after it
	Partitions             int           `json:"partitions"`               // distinct groups matched (τ partitions for spotsigs)
	LargestGroup           int           `json:"largest_group"`            // documents in the largest group or task (home + guests)
	LargestGroupSignatures int           `json:"largest_group_signatures"` // Σ|d| of the largest group or task by signatures
	Pairs                  int           `json:"pairs"`                    // lines of pairs written, exact-copy lines included
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
	// (dedup.Language; of all its blocks for a page of shared text only;
	// with --shared_block_pages=0 the extractor's);
	// absent for a scheme without languages.
	Languages map[string]int `json:"languages,omitempty"`
	// LanguageData is the language mode, the source of the spot sets and
	// their sizes per language (spotsigs only).
	LanguageData config.LanguageData `json:"language_data,omitzero"`
	Input        []string            `json:"input"`  // the input globs
	Output       string              `json:"output"` // the output directory
	Shards       int                 `json:"shards"` // shards of pairs and rejects
	Files        []string            `json:"files"`  // the WARC files read, sorted
	// InputProblems names each input file that gave no WARC record, with
	// why: unreadable-file (missing, or could not be opened or read to
	// its end), empty-file, irregular-file, or ProblemNoWARCRecord (opened
	// but nothing in it is a WARC record); absent when none. The command
	// warns once per file.
	InputProblems map[string]string `json:"input_problems,omitempty"`
	Run           RunInfo           `json:"run"` // when and with what it ran; differs between runs (docs/outputs.md)

	// Scheduled batches (docs/design.md), all absent without their flags:
	// the pages dropped for a page an earlier run kept (--against;
	// kept_by_segment set), the index pages the batch reached (the only
	// ones the run held; --against), the index directories read
	// (--against), and the index directory and segment this run added
	// (--write_index).
	DroppedForIndex   int      `json:"dropped_for_index,omitempty"`
	IndexPagesReached int      `json:"index_pages_reached,omitempty"`
	Against           []string `json:"against,omitempty"`
	IndexDir          string   `json:"index_dir,omitempty"`
	IndexSegment      string   `json:"index_segment,omitempty"`
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

// ProblemNoWARCRecord is the InputProblems reason of a file that was
// opened and read but holds no WARC record (e.g. a text file named
// .warc.gz): everything in it was an unreadable stretch.
const ProblemNoWARCRecord = "no-warc-record"

// NotPages returns the skip reasons of the records that are not pages
// (every reason but those of IsPageReason, pages decided on their
// text) and their total, Records - Pages() when the
// accounting holds.
func (s Summary) NotPages() (reasons map[string]int, total int) {
	reasons = map[string]int{}
	for r, n := range s.Skipped {
		if IsPageReason(r) {
			continue
		}
		reasons[r] = n
		total += n
	}
	return reasons, total
}
