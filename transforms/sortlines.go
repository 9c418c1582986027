package transforms

import (
	"bufio"
	"container/heap"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/output"
)

// Sorted shards in bounded memory: a shard file is written
// sorted without any worker, or the direct runner's GroupByKey, holding its
// lines. spillRunsFn, fused with the stage that makes the lines, gathers
// them per shard and, past spillBytes (and at the end of each bundle),
// sorts them and writes each shard's share as a run, a temporary file in
// the output directory; only the runs' paths are grouped by shard, and
// writeShardFn merges a shard's runs into its file. Commit removes the runs.
// Merging sorted runs gives the same bytes as sorting all lines, so the
// files do not depend on how the lines were cut into bundles or runs.

// spillBytes is how many bytes of lines spillRunsFn holds (each line
// counted with 16 bytes of overhead) before it writes them out as runs.
const spillBytes = 64 << 20

// maxMergeRuns is the most runs one merge reads at once (one open file and
// a 64 KiB buffer each); a shard with more runs is merged in passes.
const maxMergeRuns = 128

// runPrefix starts the temporary name (Outputs.TempPath) of every run.
const runPrefix = "run-"

// shardOf is the shard of a line: fnv64a(line) mod shards; 0 without
// hashing when there is one shard (the default), since hashing every line
// byte by byte took 6.3 CPU-s of the 1,080,000-page crawl on the goroutine
// that gets every pair (docs/benchmarks.md, "The 1,080,000-page crawl's
// matching").
func shardOf(line string, shards int) int {
	if shards <= 1 {
		return 0
	}
	return int(hashx.FNVString(line) % uint64(shards))
}

// spillRunsFn writes the lines of a bundle as sorted runs, one per shard
// that got lines, whenever it holds Limit bytes (spillBytes when 0) and at
// the end of the bundle, and emits each run's path keyed by its shard.
// Empty lines are dropped. A spill is sorted and written on a goroutine of
// its own while the next lines gather, at most one at a time (its paths
// are emitted at the next spill or the bundle's end): the lines come from
// the one goroutine the matcher's workers hand their pairs to, and sorting
// and writing them there took 20 of its 95 CPU-s on the 1,080,000-page
// crawl (docs/benchmarks.md, "The 1,080,000-page crawl's matching"). So a
// bundle holds up to twice Limit.
type spillRunsFn struct {
	Dir, Prefix string
	Shards      int
	RunID       string
	Limit       int

	mem     [][]string
	size    int
	writing chan spilled // the spill being written, nil if none
}

// spilled is what a spill wrote: each run's shard and path, or its error.
type spilled struct {
	shards []int
	paths  []string
	err    error
}

// StartBundle drops whatever an earlier, failed bundle of this instance
// left unwritten (its lines are processed again by the bundle's retry),
// once its spill in progress, if any, is done.
func (fn *spillRunsFn) StartBundle(func(int, string)) {
	if fn.writing != nil {
		<-fn.writing
		fn.writing = nil
	}
	fn.mem, fn.size = nil, 0
}

// ProcessElement adds one line.
func (fn *spillRunsFn) ProcessElement(ctx context.Context, line string, emit func(int, string)) error {
	if line == "" {
		return nil
	}
	if fn.mem == nil {
		fn.mem = make([][]string, fn.Shards)
	}
	i := shardOf(line, fn.Shards)
	fn.mem[i] = append(fn.mem[i], line)
	fn.size += len(line) + 16
	limit := fn.Limit
	if limit <= 0 {
		limit = spillBytes
	}
	if fn.size < limit {
		return nil
	}
	if err := fn.collect(emit); err != nil {
		return err
	}
	mem, out := fn.mem, make(chan spilled, 1)
	fn.mem, fn.size, fn.writing = nil, 0, out
	go func() { out <- fn.spill(ctx, mem) }()
	return nil
}

// FinishBundle emits the spill in progress and writes the lines still
// held.
func (fn *spillRunsFn) FinishBundle(ctx context.Context, emit func(int, string)) error {
	if err := fn.collect(emit); err != nil {
		return err
	}
	mem := fn.mem
	fn.mem, fn.size = nil, 0
	return fn.emit(fn.spill(ctx, mem), emit)
}

// collect waits for the spill in progress, if any, and emits its runs.
func (fn *spillRunsFn) collect(emit func(int, string)) error {
	if fn.writing == nil {
		return nil
	}
	s := <-fn.writing
	fn.writing = nil
	return fn.emit(s, emit)
}

// emit emits the runs of s keyed by their shards, or returns its error.
func (fn *spillRunsFn) emit(s spilled, emit func(int, string)) error {
	if s.err != nil {
		return s.err
	}
	for i, p := range s.paths {
		emit(s.shards[i], p)
	}
	return nil
}

// spill sorts each shard's lines of mem and writes them as a run; it does
// not touch fn's lines, so it may run beside ProcessElement.
func (fn *spillRunsFn) spill(ctx context.Context, mem [][]string) spilled {
	out := &Outputs{Dir: fn.Dir, RunID: fn.RunID}
	var s spilled
	for i, lines := range mem {
		if len(lines) == 0 {
			continue
		}
		slices.Sort(lines)
		path := out.TempPath(fmt.Sprintf("%s%s-%05d-%s", runPrefix, fn.Prefix, i, output.NewRunID()))
		err := writeFile(ctx, path, func(w *bufio.Writer) error {
			for _, l := range lines {
				w.WriteString(l)
				if err := w.WriteByte('\n'); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return spilled{err: err}
		}
		s.shards, s.paths = append(s.shards, i), append(s.paths, path)
	}
	return s
}

// mergeRuns calls fn with every line of the sorted runs at paths, in
// bytewise order (duplicates kept), and returns the number of lines. Runs
// are opened through fs when it is not nil (remote output), locally
// otherwise. More than maxMergeRuns runs are first merged in groups into
// new runs at tempPath(); no run is removed here (a retried merge finds
// them all), Commit removes them.
func mergeRuns(ctx context.Context, fs filesystem.Interface, paths []string, tempPath func() string, fn func(string) error) (int, error) {
	for len(paths) > maxMergeRuns {
		merged := tempPath()
		err := writeFile(ctx, merged, func(w *bufio.Writer) error {
			_, err := mergeRuns(ctx, fs, paths[:maxMergeRuns], tempPath, func(l string) error {
				w.WriteString(l)
				return w.WriteByte('\n')
			})
			return err
		})
		if err != nil {
			return 0, err
		}
		paths = append(paths[maxMergeRuns:], merged)
	}
	h := &runHeap{}
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	for _, p := range paths {
		rc, err := openRun(ctx, fs, p)
		if err != nil {
			return 0, err
		}
		closers = append(closers, rc)
		r := &run{rd: bufio.NewReaderSize(rc, 1<<16)}
		if ok, err := r.next(); err != nil {
			return 0, fmt.Errorf("reading %s: %w", p, err)
		} else if ok {
			heap.Push(h, r)
		}
	}
	n := 0
	for h.Len() > 0 {
		r := (*h)[0]
		if err := fn(r.line); err != nil {
			return n, err
		}
		n++
		ok, err := r.next()
		if err != nil {
			return n, err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return n, nil
}

// openRun opens a run for reading.
func openRun(ctx context.Context, fs filesystem.Interface, path string) (io.ReadCloser, error) {
	if fs == nil {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("reading run: %w", err)
		}
		return f, nil
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("reading run %s: %w", path, err)
	}
	return rc, nil
}

// removeRuns removes every run of the run ID under dir (Commit).
func removeRuns(ctx context.Context, fs filesystem.Interface, o *Outputs) error {
	glob := o.TempPath(runPrefix + "*")
	if isLocal(glob) {
		paths, err := filepath.Glob(glob)
		if err != nil {
			return err
		}
		for _, p := range paths {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		return nil
	}
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("filesystem of %s cannot remove temporary files", o.Dir)
	}
	paths, err := fs.List(ctx, glob)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if err := rm.Remove(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// run is one sorted run being merged.
type run struct {
	rd   *bufio.Reader
	line string
}

// next moves to the run's next line; false at its end.
func (r *run) next() (bool, error) {
	l, err := r.rd.ReadString('\n')
	if err == io.EOF && l == "" {
		return false, nil
	}
	if err != nil && err != io.EOF {
		return false, err
	}
	r.line = strings.TrimSuffix(l, "\n")
	return true, nil
}

type runHeap []*run

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].line < h[j].line }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*run)) }
func (h *runHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}
