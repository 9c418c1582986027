package dedup

import (
	"math"

	"github.com/ndd-beam/ndd-beam/warc"
)

// Reject is a WARC record, or an unreadable stretch of a WARC file, that did
// not reach matching, with the reason (a short fixed token: a warc skip
// reason such as "request" or "not-html", or one of the job's own such as
// "no-signatures", "too-few-signatures"; see docs/robustness.md) and a
// free-text detail. RecordID and URI are empty when unknown. It is one line
// of rejects-*.jsonl: file, offset, inner_offset, record_id, uri, reason,
// detail.
type Reject struct {
	warc.Ref
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	// Quirks are the reader's repairs of the record (warc.Record.Quirks),
	// for the read stage's counts; not written.
	Quirks []string `json:"-"`
}

// PairRecord is one candidate pair as written to pairs-*.jsonl: the two
// documents in canonical order (warc.Ref.Less: record ID, then WARC file,
// then offset), their weighted Jaccard similarity (eq. 4) of the
// IDF-filtered signature multisets, and its verification on their main
// texts (Verify): AShare of A's main-text words found in B, BShare of B's
// in A, and NearDuplicate, whether the pair counts (only such pairs make
// decisions). ASignatures and BSignatures are the vector lengths |d|
// (after the IDF filter) the matcher compared. The field order is the
// line's.
type PairRecord struct {
	ARecordID   string  `json:"a_record_id"`
	AURI        string  `json:"a_uri"`
	BRecordID   string  `json:"b_record_id"`
	BURI        string  `json:"b_uri"`
	Jaccard     float64 `json:"jaccard"`
	AFile       string  `json:"a_file"`
	AOffset     int64   `json:"a_offset"`
	AInner      int64   `json:"a_inner_offset"`
	ASignatures int     `json:"a_signatures"`
	BFile       string  `json:"b_file"`
	BOffset     int64   `json:"b_offset"`
	BInner      int64   `json:"b_inner_offset"`
	BSignatures int     `json:"b_signatures"`
	AShare      float64 `json:"a_share"`
	BShare      float64 `json:"b_share"`
	// NearDuplicate is set when both shares reach --verify_share: the pair
	// is a near-duplicate. A line without it is a candidate that
	// verification rejected.
	NearDuplicate bool `json:"near_duplicate"`
	// Exact marks the line of a document collapsed into the representative
	// of its exact copies (ExactCopy): the two have the same vector, Jaccard
	// is 1, and every line of the representative stands for the member too
	// (ExpandPairs). Absent (false) on every other line.
	Exact bool `json:"exact,omitempty"`
}

// NewPairRecord returns the line of documents x and y, with nx and ny
// signatures (their vector lengths |d| after the IDF filter), at weighted
// Jaccard j, verified as v (v.ShareA is x's share), in canonical order
// (warc.Ref.Less). Exact is false; the line of an exact copy is
// ExactCopy.PairRecord.
func NewPairRecord(x warc.Ref, nx int, y warc.Ref, ny int, j float64, v Verification) PairRecord {
	if y.Less(x) {
		x, y, nx, ny = y, x, ny, nx
		v.ShareA, v.ShareB = v.ShareB, v.ShareA
	}
	return PairRecord{
		ARecordID: x.RecordID, AURI: x.URI, AFile: x.File, AOffset: x.Offset, AInner: x.Inner, ASignatures: nx,
		BRecordID: y.RecordID, BURI: y.URI, BFile: y.File, BOffset: y.Offset, BInner: y.Inner, BSignatures: ny,
		Jaccard: j, AShare: round4(v.ShareA), BShare: round4(v.ShareB), NearDuplicate: v.OK,
	}
}

// round4 rounds a share to 4 decimals for the line: a sketch's estimate is
// not finer than that.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// A returns the identity of the pair's first document.
func (p PairRecord) A() warc.Ref {
	return warc.Ref{File: p.AFile, Offset: p.AOffset, Inner: p.AInner, RecordID: p.ARecordID, URI: p.AURI}
}

// B returns the identity of the pair's second document.
func (p PairRecord) B() warc.Ref {
	return warc.Ref{File: p.BFile, Offset: p.BOffset, Inner: p.BInner, RecordID: p.BRecordID, URI: p.BURI}
}
