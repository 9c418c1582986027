package output

import "github.com/ndd-beam/ndd-beam/warc"

// The rows of the sharded outputs, one Go type each: a JSON line
// (encoding/json, field order = line order, omitempty = absent) and a
// Parquet row (parquet-go tags: the same names, flattened; optional =
// null where the JSON line omits the field). warc.Ref's identity fields
// (file, offset, inner_offset, record_id, uri) are flattened into every
// row under the same names. docs/outputs.md lists every field and column.

// Reject is a WARC record, or an unreadable stretch of a WARC file, that did
// not reach matching, with the reason (a short fixed token: a warc skip
// reason such as "request" or "not-html", or one of the job's own such as
// "no-signatures", "too-few-signatures"; see docs/robustness.md) and a
// free-text detail. RecordID and URI are empty when unknown. It is one row
// of rejects: file, offset, inner_offset, record_id, uri, reason, detail.
type Reject struct {
	warc.Ref
	Reason string `json:"reason" parquet:"reason,dict"`
	Detail string `json:"detail" parquet:"detail"`
	// Quirks are the reader's repairs of the record (warc.Record.Quirks),
	// for the read stage's counts; not written.
	Quirks []string `json:"-" parquet:"-"`
}

// Reasons of the rejects that are still pages (docs/outputs.md "Which
// records are pages"), decided on their text; the other reasons are
// dedup's (dedup.Reasons lists them all).
const (
	// ReasonNoSignatures: the document's text yields no signature at all
	// with the configured scheme (e.g. no antecedent occurs), so it takes
	// no part in IDF statistics or matching.
	ReasonNoSignatures = "no-signatures"
	// ReasonTooFewSignatures: after the IDF filter the document's vector
	// length |d| is below config.Params.MinSignatures.
	ReasonTooFewSignatures = "too-few-signatures"
)

// IsPageReason reports whether a reject of this reason is still a page
// (its payload became text; docs/outputs.md "Which records are pages"):
// ReasonNoSignatures and ReasonTooFewSignatures, decided on their text.
func IsPageReason(reason string) bool {
	return reason == ReasonNoSignatures || reason == ReasonTooFewSignatures
}

// PairRecord is one candidate pair, a row of pairs: the two documents in
// canonical order (warc.Ref.Less: record ID, then WARC file, then offset),
// their weighted Jaccard similarity (SpotSigs eq. 4) of the IDF-filtered
// signature multisets, and its verification on their main texts
// (dedup.Verify): AShare of A's main-text words found in B, BShare of B's
// in A, and NearDuplicate, whether the pair counts (only such pairs make
// decisions). ASignatures and BSignatures are the vector lengths |d|
// (after the IDF filter) the matcher compared. The field order is the
// line's and the columns'.
type PairRecord struct {
	ARecordID   string  `json:"a_record_id" parquet:"a_record_id"`
	AURI        string  `json:"a_uri" parquet:"a_uri"`
	BRecordID   string  `json:"b_record_id" parquet:"b_record_id"`
	BURI        string  `json:"b_uri" parquet:"b_uri"`
	Jaccard     float64 `json:"jaccard" parquet:"jaccard"`
	AFile       string  `json:"a_file" parquet:"a_file,dict"`
	AOffset     int64   `json:"a_offset" parquet:"a_offset"`
	AInner      int64   `json:"a_inner_offset" parquet:"a_inner_offset"`
	ASignatures int     `json:"a_signatures" parquet:"a_signatures"`
	BFile       string  `json:"b_file" parquet:"b_file,dict"`
	BOffset     int64   `json:"b_offset" parquet:"b_offset"`
	BInner      int64   `json:"b_inner_offset" parquet:"b_inner_offset"`
	BSignatures int     `json:"b_signatures" parquet:"b_signatures"`
	AShare      float64 `json:"a_share" parquet:"a_share"`
	BShare      float64 `json:"b_share" parquet:"b_share"`
	// NearDuplicate is set when both shares reach --verify_share: the pair
	// is a near-duplicate. A line without it is a candidate that
	// verification rejected.
	NearDuplicate bool `json:"near_duplicate" parquet:"near_duplicate"`
	// Exact marks the line of a document collapsed into the representative
	// of its exact copies (dedup.ExactCopy): the two have the same vector,
	// Jaccard is 1, and every line of the representative stands for the
	// member too (dedup.ExpandPairs); and the line of a page dropped as a
	// copy of another's text (dedup.TextCopyRecord, IsTextCopy). Absent
	// (false) on every other line.
	Exact bool `json:"exact,omitempty" parquet:"exact"`
}

// A returns the identity of the pair's first document.
func (p PairRecord) A() warc.Ref {
	return warc.Ref{File: p.AFile, Offset: p.AOffset, Inner: p.AInner, RecordID: p.ARecordID, URI: p.AURI}
}

// B returns the identity of the pair's second document.
func (p PairRecord) B() warc.Ref {
	return warc.Ref{File: p.BFile, Offset: p.BOffset, Inner: p.BInner, RecordID: p.BRecordID, URI: p.BURI}
}

// IsTextCopy reports whether p is the line of a page dropped as a copy of
// another page's text (dedup.TextCopyRecord): Exact with 0 signatures on
// both sides.
func (p PairRecord) IsTextCopy() bool { return p.Exact && p.ASignatures == 0 && p.BSignatures == 0 }

// Decision is one row of decisions: a page kept, or dropped as a
// near-duplicate of the kept page KeptBy (its record ID; KeptByURI its
// target URI; KeptByFile, KeptByOffset and KeptByInner its location, since
// record IDs repeat across real archives) at weighted Jaccard Jaccard (1
// for an exact-text copy). Method says how the page was decided: the
// signature scheme (e.g. "spotsigs") for a page that reached matching,
// dedup.DecideExactText or dedup.DecideNoText for the others. The field
// order is the line's and the columns'. The kept-by fields and Jaccard are
// absent (null) on a kept page's row (the offsets are pointers so that
// offset 0 is written on a dropped page's row).
type Decision struct {
	warc.Ref
	Keep         bool   `json:"keep" parquet:"keep"`
	KeptBy       string `json:"kept_by,omitempty" parquet:"kept_by,optional"`
	KeptByURI    string `json:"kept_by_uri,omitempty" parquet:"kept_by_uri,optional"`
	KeptByFile   string `json:"kept_by_file,omitempty" parquet:"kept_by_file,optional,dict"`
	KeptByOffset *int64 `json:"kept_by_offset,omitempty" parquet:"kept_by_offset,optional"`
	KeptByInner  *int64 `json:"kept_by_inner_offset,omitempty" parquet:"kept_by_inner_offset,optional"`
	// KeptBySegment names the index segment (package index) that holds
	// the kept page when it is a page an earlier run kept (--against);
	// absent otherwise.
	KeptBySegment string  `json:"kept_by_segment,omitempty" parquet:"kept_by_segment,optional,dict"`
	Jaccard       float64 `json:"jaccard,omitempty" parquet:"jaccard,optional"`
	Method        string  `json:"method" parquet:"method,dict"`
	// Capped names the extraction caps that applied to the page (its text
	// or signatures were cut there; docs/robustness.md), absent (an empty
	// list) when none.
	Capped []string `json:"capped,omitempty" parquet:"capped,list"`
}

// DropFor marks the decision dropped for the kept page k at weighted
// Jaccard j.
func (d *Decision) DropFor(k warc.Ref, j float64) {
	off, inner := k.Offset, k.Inner
	d.Keep, d.Jaccard = false, j
	d.KeptBy, d.KeptByURI, d.KeptByFile, d.KeptByOffset, d.KeptByInner = k.RecordID, k.URI, k.File, &off, &inner
}

// Keeper is the identity of the kept page a dropped page names (its
// record ID, URI and location; the zero Ref for a kept page).
func (d Decision) Keeper() warc.Ref {
	k := warc.Ref{RecordID: d.KeptBy, URI: d.KeptByURI, File: d.KeptByFile}
	if d.KeptByOffset != nil {
		k.Offset = *d.KeptByOffset
	}
	if d.KeptByInner != nil {
		k.Inner = *d.KeptByInner
	}
	return k
}

// Cluster is one row of clusters: a kept page (its identity) that dropped
// other pages, the record IDs of those (sorted), the cluster size 1 +
// len(Dropped) and, for a page of an earlier run's index, its Segment.
type Cluster struct {
	warc.Ref
	Dropped []string `json:"dropped" parquet:"dropped,list" parquet-element:",delta"`
	Size    int      `json:"size" parquet:"size"`
	// Segment names the index segment that holds the kept page when an
	// earlier run kept it (--against); absent otherwise.
	Segment string `json:"segment,omitempty" parquet:"segment,optional,dict"`
}
