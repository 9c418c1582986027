package dedup

import (
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

func TestNewPairRecordCanonicalOrder(t *testing.T) {
	x := warc.Ref{RecordID: "urn:b", File: "f", Offset: 1}
	y := warc.Ref{RecordID: "urn:a", File: "f", Offset: 9}
	for _, p := range []output.PairRecord{NewPairRecord(x, 2, y, 1, 0.5, Verification{ShareA: 0.9, ShareB: 0.8, OK: true}), NewPairRecord(y, 1, x, 2, 0.5, Verification{ShareA: 0.8, ShareB: 0.9, OK: true})} {
		if p.ARecordID != "urn:a" || p.BRecordID != "urn:b" || p.ASignatures != 1 || p.BSignatures != 2 || p.Exact || p.AShare != 0.8 || p.BShare != 0.9 || !p.NearDuplicate {
			t.Errorf("not canonical: %+v", p)
		}
	}
	// Same record ID in two files (real archives repeat IDs): file, then offset decide.
	z := warc.Ref{RecordID: "urn:a", File: "e", Offset: 50}
	if p := NewPairRecord(y, 1, z, 0, 1, Verification{}); p.AFile != "e" || p.ASignatures != 0 {
		t.Errorf("tie on record ID not broken by file: %+v", p)
	}
}
