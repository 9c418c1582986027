package transforms

import (
	"context"
	"io"
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

// countingReader counts the bytes read through it in read/bytes and in the
// process's Progress.
type countingReader struct {
	ctx context.Context
	r   io.Reader
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		readBytes.Inc(c.ctx, int64(n))
		progress.bytes.Add(int64(n))
	}
	return n, err
}
