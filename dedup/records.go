package dedup

import (
	"math"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The rows of the job's outputs (output.PairRecord, output.Reject,
// output.Decision, output.Cluster) are package output's; dedup makes them.

// NewPairRecord returns the line of documents x and y, with nx and ny
// signatures (their vector lengths |d| after the IDF filter), at weighted
// Jaccard j, verified as v (v.ShareA is x's share), in canonical order
// (warc.Ref.Less). Exact is false; the line of an exact copy is
// ExactCopy.PairRecord.
func NewPairRecord(x warc.Ref, nx int, y warc.Ref, ny int, j float64, v Verification) output.PairRecord {
	if y.Less(x) {
		x, y, nx, ny = y, x, ny, nx
		v.ShareA, v.ShareB = v.ShareB, v.ShareA
	}
	return output.PairRecord{
		ARecordID: x.RecordID, AURI: x.URI, AFile: x.File, AOffset: x.Offset, AInner: x.Inner, ASignatures: nx,
		BRecordID: y.RecordID, BURI: y.URI, BFile: y.File, BOffset: y.Offset, BInner: y.Inner, BSignatures: ny,
		Jaccard: j, AShare: round4(v.ShareA), BShare: round4(v.ShareB), NearDuplicate: v.OK,
	}
}

// round4 rounds a share to 4 decimals for the line: a sketch's estimate is
// not finer than that.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
