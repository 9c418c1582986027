package transforms

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.Function1x2[PairRecord, string, error](pairLine)
	register.Function1x2[Reject, string, error](rejectLine)
	register.DoFn2x0[string, func(int, string)](&shardLineFn{})
	register.DoFn2x0[int, func(int, string)](&shardMarkerFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&WriteShardFn{})
	register.Emitter2[int, string]()
	register.Iter1[string]()
}

// JoinPath joins a directory (local path or gs:// prefix, with or without a
// trailing slash) and a file name with "/".
func JoinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// ShardName is the name of shard i of n of the output called prefix:
// "<prefix>-SSSSS-of-NNNNN.jsonl" (shards numbered from 0, five digits).
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

// WritePairs writes the pairs (PairRecord) as JSON lines to
// <dir>/pairs-SSSSS-of-NNNNN.jsonl, see WriteLines. Fields in order:
// a_record_id, a_uri, b_record_id, b_uri, jaccard, a_file, a_offset,
// a_inner_offset, a_signatures, b_file, b_offset, b_inner_offset,
// b_signatures; jaccard is the shortest decimal that reads back as the same
// float64 (encoding/json).
func WritePairs(s beam.Scope, dir string, shards int, pairs beam.PCollection) {
	s = s.Scope("WritePairs")
	WriteLines(s, dir, "pairs", shards, beam.ParDo(s, pairLine, pairs))
}

// WriteRejects writes the rejects (Reject) as JSON lines to
// <dir>/rejects-SSSSS-of-NNNNN.jsonl: file, offset, inner_offset, record_id,
// uri, reason, detail; and adds their number per reason to st
// ("skipped/<reason>").
func WriteRejects(s beam.Scope, st *Stats, dir string, shards int, rejects beam.PCollection) {
	s = s.Scope("WriteRejects")
	st.Add(SkipStats(s, rejects))
	WriteLines(s, dir, "rejects", shards, beam.ParDo(s, rejectLine, rejects))
}

func pairLine(p PairRecord) (string, error) { return jsonLine(p) }

func rejectLine(r Reject) (string, error) { return jsonLine(r) }

// jsonLine is encoding/json without HTML escaping (URIs keep their '&').
func jsonLine(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// WriteLines writes the non-empty strings of lines, one per line, to shards
// files <dir>/<prefix>-SSSSS-of-NNNNN.jsonl through Beam's filesystem
// registry (local or gs://). A line goes to shard fnv64a(line) mod shards,
// and each shard's lines are sorted bytewise, so the files are byte-identical
// across runs and runners. Every shard file is written, empty ones too. A
// shard's lines are held in memory by one worker while it is sorted: raise
// shards for outputs of many millions of lines. Lines written are counted
// in the counter "write/<prefix>_lines".
func WriteLines(s beam.Scope, dir, prefix string, shards int, lines beam.PCollection) {
	s = s.Scope("WriteLines")
	if shards < 1 {
		shards = 1
	}
	idx := make([]int, shards)
	for i := range idx {
		idx[i] = i
	}
	markers := beam.ParDo(s, &shardMarkerFn{}, beam.CreateList(s, idx))
	keyed := beam.ParDo(s, &shardLineFn{Shards: shards}, lines)
	grouped := beam.GroupByKey(s, beam.Flatten(s, keyed, markers))
	beam.ParDo0(s, &WriteShardFn{Dir: dir, Prefix: prefix, Shards: shards}, grouped)
}

// shardLineFn keys a line by its shard.
type shardLineFn struct{ Shards int }

func (fn *shardLineFn) ProcessElement(line string, emit func(int, string)) {
	h := fnv.New64a()
	h.Write([]byte(line))
	emit(int(h.Sum64()%uint64(fn.Shards)), line)
}

// shardMarkerFn emits an empty line for shard i so that every shard reaches
// WriteShardFn, even when no line does.
type shardMarkerFn struct{}

func (*shardMarkerFn) ProcessElement(i int, emit func(int, string)) { emit(i, "") }

// WriteShardFn sorts and writes one shard file.
type WriteShardFn struct {
	Dir, Prefix string
	Shards      int
}

// ProcessElement writes shard i.
func (fn *WriteShardFn) ProcessElement(ctx context.Context, i int, lines func(*string) bool) error {
	var all []string
	var l string
	for lines(&l) {
		if l != "" {
			all = append(all, l)
		}
	}
	slices.Sort(all)
	path := JoinPath(fn.Dir, ShardName(fn.Prefix, i, fn.Shards))
	err := writeFile(ctx, path, func(w *bufio.Writer) error {
		for _, l := range all {
			w.WriteString(l)
			w.WriteByte('\n')
		}
		return nil
	})
	beam.NewCounter("write", fn.Prefix+"_lines").Inc(ctx, int64(len(all)))
	return err
}

// writeFile creates (or truncates) path through Beam's filesystem registry
// and writes it with fill.
func writeFile(ctx context.Context, path string, fill func(*bufio.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
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
