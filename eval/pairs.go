package eval

import (
	"fmt"
	"io"

	"github.com/ndd-beam/ndd-beam/dedup"
)

// PairRecord is one line of a pairs output (pairs*.jsonl, the job's
// contract, dedup.PairRecord): two documents found near-duplicate and their
// weighted Jaccard similarity. Evaluation uses the record IDs, URIs and
// Jaccard.
type PairRecord = dedup.PairRecord

// ReadPairs parses a pairs output from r and calls emit for each pair in
// order. Blank lines are skipped; a malformed line is an error naming the
// line; an error from emit stops reading and is returned.
func ReadPairs(r io.Reader, emit func(PairRecord) error) error {
	return readJSONL(r, "pairs", func(line int, p PairRecord) error {
		if (p.ARecordID == "" && p.AURI == "") || (p.BRecordID == "" && p.BURI == "") {
			return fmt.Errorf("pairs line %d: a pair needs a record id or uri on both sides", line)
		}
		return emit(p)
	})
}

// LoadPairs reads every file matching the glob pattern (filepath.Match
// syntax, e.g. "out/pairs*.jsonl"), in lexical order, and returns their pairs
// with the files read. A pattern that matches no file is an error, so a
// mistyped path is never scored as "no pairs found".
func LoadPairs(pattern string) ([]PairRecord, []string, error) {
	return loadGlob(pattern, ReadPairs)
}
