package transforms

import (
	"context"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Progress is a snapshot of the job's running totals in this process:
// what the DoFns running here have done so far. On the direct runner and on
// runners whose workers run in the launching process (prism without
// --endpoint, any job server with --environment_type=LOOPBACK) that is the
// whole job; elsewhere the same figures are Beam counters (read/records,
// read/bytes, extract/documents, match/pairs), which the runner's UI shows
// live.
type Progress struct {
	Records   int64 // WARC records read, as read/records (summary.json "records" at the end)
	Bytes     int64 // bytes read from the input files (compressed, as stored), as read/bytes
	Documents int64 // candidates that got at least one signature, as extract/documents
	Pairs     int64 // near-duplicate pairs found, as match/pairs
}

// progress holds the process-local totals behind ReadProgress.
var progress struct {
	records, bytes, documents, pairs atomic.Int64
}

// ReadProgress returns the totals counted in this process since the last
// ResetProgress. Safe for concurrent use with running DoFns.
func ReadProgress() Progress {
	return Progress{
		Records:   progress.records.Load(),
		Bytes:     progress.bytes.Load(),
		Documents: progress.documents.Load(),
		Pairs:     progress.pairs.Load(),
	}
}

// ResetProgress sets the totals to zero, for a new job in this process.
func ResetProgress() {
	progress.records.Store(0)
	progress.bytes.Store(0)
	progress.documents.Store(0)
	progress.pairs.Store(0)
}

var readBytes = beam.NewCounter("read", "bytes")

// countBytes adds n bytes read from an input file to read/bytes and to the
// process's Progress (the Add of ReadWARCFn's dedup.CountingReader).
func countBytes(ctx context.Context, n int64) {
	readBytes.Inc(ctx, n)
	progress.bytes.Add(n)
}
