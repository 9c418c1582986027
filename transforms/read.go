package transforms

import (
	"context"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

func init() {
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(Candidate), func(Reject), error](&ReadWARCFn{})
	register.Emitter1[Candidate]()
	register.Emitter1[Reject]()
	register.Function1x1[fileio.FileMetadata, string](filePath)
}

var (
	readFiles      = beam.NewCounter("read", "files")
	readRecords    = beam.NewCounter("read", "records")
	readCandidates = beam.NewCounter("read", "candidates")
	readSkipped    = beam.NewCounter("read", "skipped")
)

// ReadWARC reads every WARC file matched by globs (local paths or gs://, via
// Beam's filesystem registry) and returns three PCollections: the document
// candidates (Candidate, one per HTML response record with its payload), the
// rejects (Reject, one per other WARC record or unreadable stretch, with
// warc.ReadFile's skip reason) and the paths of the files read (string). A
// file matched by two globs is read once. Files are spread over workers by a
// Reshuffle; gzip decompression is left to warc.ReadFile (member by member),
// not to fileio. Every record read is counted in "read/records" and exactly
// one of "read/candidates" or "read/skipped" (plus "read/skipped-<reason>"),
// and added to st as StatRecords; the bytes read from the files are counted
// in "read/bytes". Records and bytes also go to this process's Progress.
func ReadWARC(s beam.Scope, st *Stats, globs []string, p config.Params) (candidates, rejects, files beam.PCollection) {
	s = s.Scope("ReadWARC")
	matched := make([]beam.PCollection, 0, len(globs))
	for _, g := range globs {
		matched = append(matched, fileio.MatchFiles(s, g, fileio.MatchEmptyDisallow()))
	}
	metas := filter.Distinct(s, beam.Flatten(s, matched...))
	readable := fileio.ReadMatches(s, metas, fileio.ReadUncompressed())
	readable = beam.Reshuffle(s, readable)
	candidates, rejects = beam.ParDo2(s, &ReadWARCFn{Params: p}, readable)
	st.Count(s, StatRecords, candidates)
	st.Count(s, StatRecords, rejects)
	return candidates, rejects, beam.ParDo(s, filePath, metas)
}

func filePath(m fileio.FileMetadata) string { return m.Path }

// ReadWARCFn reads one WARC file with warc.ReadFile under the caps in Params
// and emits a Candidate for each record warc.ReadFile did not skip and a
// Reject for each one it did. It never fails the bundle for bad input: an
// unreadable file becomes a Reject with ReasonUnreadableFile.
type ReadWARCFn struct {
	Params config.Params
}

// ProcessElement reads file f (dedup.ReadWARC).
func (fn *ReadWARCFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(Candidate), reject func(Reject)) error {
	readFiles.Inc(ctx, 1)
	rc, err := f.Open(ctx)
	var in io.Reader
	if err == nil {
		defer rc.Close()
		in = countingReader{ctx: ctx, r: rc}
	}
	dedup.ReadWARC(f.Metadata.Path, in, err, fn.Params.WARCOptions(), func(c Candidate) {
		readRecords.Inc(ctx, 1)
		progress.records.Add(1)
		readCandidates.Inc(ctx, 1)
		emit(c)
	}, func(r Reject) {
		readRecords.Inc(ctx, 1)
		progress.records.Add(1)
		countReject(ctx, readSkipped, "read", r.Reason)
		reject(r)
	})
	return nil
}

// countReject increments the stage's total of rejects and its per-reason
// counter "<namespace>/skipped-<reason>".
func countReject(ctx context.Context, total beam.Counter, namespace, reason string) {
	total.Inc(ctx, 1)
	beam.NewCounter(namespace, "skipped-"+reason).Inc(ctx, 1)
}
