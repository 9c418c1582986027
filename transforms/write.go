package transforms

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
)

func init() {
	register.Function1x2[output.PairRecord, string, error](pairLine)
	register.Function1x2[output.Reject, string, error](rejectLine)
	registerDoFn(&spillRunsFn{})
	registerDoFn(&shardMarkerFn{})
	registerDoFn(&writeShardFn{})
	register.Emitter2[int, string]()
	register.Emitter1[string]()
	register.Iter1[string]()
}

// WritePairs writes the pairs (output.PairRecord) to <out.Dir>/pairs-SSSSS-of-NNNNN
// in out's format, see WriteLines and output.PairRecord; in JSON lines
// jaccard is the shortest decimal that reads back as the same float64
// (encoding/json).
func WritePairs(s beam.Scope, out *Outputs, pairs beam.PCollection) {
	s = s.Scope("WritePairs")
	WriteLines(s, out, output.Pairs, beam.ParDo(s, pairLine, pairs))
}

// WriteRejects writes the rejects (output.Reject, output.Reject) to
// <out.Dir>/rejects-SSSSS-of-NNNNN in out's format, see WriteLines; and adds their number per reason to st
// ("skipped/<reason>").
func WriteRejects(s beam.Scope, st *Stats, out *Outputs, rejects beam.PCollection) {
	s = s.Scope("WriteRejects")
	st.Add(skipStats(s, rejects))
	WriteLines(s, out, output.Rejects, beam.ParDo(s, rejectLine, rejects))
}

func pairLine(p output.PairRecord) (string, error) { return output.Line(p) }

func rejectLine(r output.Reject) (string, error) { return output.Line(r) }

// WriteLines writes the non-empty strings of lines (the JSON lines of the
// rows of the output prefix, output.Line) to out.Shards files
// <out.Dir>/<prefix>-SSSSS-of-NNNNN<suffix> in out's format (as JSON lines,
// or each line decoded into its row and written as Parquet), each under its
// temporary name (out.TempPath) until out.Commit renames it: local files
// directly, never through a symlink, other paths through Beam's filesystem
// registry (gs://, s3://). A line goes to shard fnv64a(line) mod shards,
// and each shard's lines are sorted bytewise, so every format holds the
// same rows in the same order and the files are byte-identical across runs
// and runners. Every shard file is written,
// empty ones too. No stage holds a shard's lines: they are written as
// sorted runs where they are made (spillRunsFn, at most spillBytes of them
// in memory per worker), only the runs' paths are grouped by shard, and
// writeShardFn merges them (sortlines.go). Lines written are counted in the
// counter "write/<prefix>_lines".
func WriteLines(s beam.Scope, out *Outputs, prefix string, lines beam.PCollection) {
	s = s.Scope("WriteLines")
	shards := out.Shards
	if shards < 1 {
		shards = 1
	}
	idx := make([]int, shards)
	for i := range idx {
		idx[i] = i
	}
	markers := beam.ParDo(s, &shardMarkerFn{}, beam.CreateList(s, idx))
	runs := beam.ParDo(s, &spillRunsFn{Dir: out.Dir, Prefix: prefix, Shards: shards, RunID: out.RunID, Limit: out.spill}, lines)
	grouped := beam.GroupByKey(s, beam.Flatten(s, runs, markers))
	names := make([]string, shards)
	for i := range names {
		names[i] = out.shardName(prefix, i, shards)
	}
	out.add(beam.ParDo(s, &writeShardFn{Dir: out.Dir, Prefix: prefix, Shards: shards, RunID: out.RunID, Suffix: out.format().Suffix}, grouped), names...)
}

// format is o.Format, output.JSONLines when nil.
func (o *Outputs) format() *output.Format {
	if o.Format == nil {
		return output.JSONLines
	}
	return o.Format
}

// shardName is the name of shard i of n of the output prefix in o's format.
func (o *Outputs) shardName(prefix string, i, n int) string {
	return o.format().ShardName(prefix, i, n)
}

// shardMarkerFn emits an empty run path for shard i so that every shard
// reaches writeShardFn, even when no line does.
type shardMarkerFn struct{}

func (*shardMarkerFn) ProcessElement(i int, emit func(int, string)) { emit(i, "") }

// writeShardFn merges the sorted runs of one shard (their paths, from
// spillRunsFn) into the shard file under its temporary name, in the
// format whose suffix is Suffix (output.FormatOfFile: the encoder gets the
// shard's JSON lines in order), and emits its final name (for
// Outputs.Commit).
type writeShardFn struct {
	Dir, Prefix string
	Shards      int
	RunID       string
	Suffix      string
}

// ProcessElement writes shard i.
func (fn *writeShardFn) ProcessElement(ctx context.Context, i int, runs func(*string) bool, written func(string)) error {
	var paths []string
	var p string
	for runs(&p) {
		if p != "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	format, ok := output.FormatOfFile(fn.Suffix)
	if !ok {
		return fmt.Errorf("writing %s: no output format ends in %q", fn.Prefix, fn.Suffix)
	}
	out := &Outputs{Dir: fn.Dir, RunID: fn.RunID, Format: format}
	var fs filesystem.Interface
	if !isLocal(fn.Dir) && len(paths) > 0 {
		var err error
		if fs, err = storage.New(ctx, fn.Dir); err != nil {
			return fmt.Errorf("writing %s: %w", fn.Dir, err)
		}
		defer fs.Close()
	}
	name := out.shardName(fn.Prefix, i, fn.Shards)
	temp := func() string {
		return out.TempPath(fmt.Sprintf("%s%s-%05d-%s", runPrefix, fn.Prefix, i, output.NewRunID()))
	}
	var n int
	err := writeFile(ctx, out.TempPath(name), func(w *bufio.Writer) error {
		enc, err := format.NewEncoder(w, fn.Prefix)
		if err != nil {
			return err
		}
		if n, err = mergeRuns(ctx, fs, paths, temp, enc.Encode); err != nil {
			return err
		}
		return enc.Close()
	})
	if err != nil {
		return err
	}
	beam.NewCounter("write", fn.Prefix+"_lines").Inc(ctx, int64(n))
	written(name)
	return nil
}

// writeFile creates path and writes it with fill. A local path is created
// afresh with O_EXCL after removing whatever is there (a retried attempt's
// file, or a symlink, which is removed, never followed); other paths go
// through Beam's filesystem registry.
func writeFile(ctx context.Context, path string, fill func(*bufio.Writer) error) error {
	var wc io.WriteCloser
	if isLocal(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		wc = f
	} else {
		fs, err := storage.New(ctx, path)
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		defer fs.Close()
		if wc, err = fs.OpenWrite(ctx, path); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	w := bufio.NewWriterSize(wc, 1<<16)
	if err := fill(w); err != nil {
		wc.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
