package transforms

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
)

// Output commit (the protocol: package output): every file is written
// under its temporary name (output.TempPath), and Outputs.Commit renames
// them all once every one is written, then writes output.SuccessFile.

func init() {
	registerDoFn(&commitFn{})
}

// Outputs says where the job writes: the output directory (local path or
// gs:// prefix), the number of shards of each sharded output and the run ID
// of the temporary names. The writers add the names they wrote to it;
// Commit renames them.
type Outputs struct {
	Dir    string
	Shards int
	RunID  string
	// Gzip writes the sharded outputs gzip-compressed, as
	// <prefix>-SSSSS-of-NNNNN.jsonl.gz (output.GzipSuffix).
	Gzip bool

	written []beam.PCollection
	expect  []string
	spill   int // bytes of lines spillRunsFn holds before writing runs; 0: spillBytes (tests set it small)
}

// TempPath is the temporary path of the output file name
// (output.TempPath).
func (o *Outputs) TempPath(name string) string { return output.TempPath(o.Dir, o.RunID, name) }

// add records the writer of the files called names, which emits their
// names to written once it wrote them.
func (o *Outputs) add(written beam.PCollection, names ...string) {
	o.written = append(o.written, written)
	o.expect = append(o.expect, names...)
}

// Commit adds the step that renames every written file from its temporary
// to its final name, after all of them are written (they reach it as a side
// input), checks that they are exactly the files the writers were added
// for, removes the sorted runs of WriteLines (and of failed attempts), and
// then writes output.SuccessFile. It is idempotent: a retried commit skips the
// files already renamed.
func (o *Outputs) Commit(s beam.Scope) {
	s = s.Scope("Commit")
	want := slices.Clone(o.expect)
	slices.Sort(want)
	beam.ParDo0(s, &commitFn{Dir: o.Dir, RunID: o.RunID, Want: want}, beam.Impulse(s),
		beam.SideInput{Input: beam.Flatten(s, o.written...)})
}

type commitFn struct {
	Dir   string
	RunID string
	Want  []string // final names, sorted
}

func (fn *commitFn) ProcessElement(ctx context.Context, _ []byte, written func(*string) bool) error {
	o := &Outputs{Dir: fn.Dir, RunID: fn.RunID}
	var got []string
	var n string
	for written(&n) {
		got = append(got, n)
	}
	slices.Sort(got)
	if !slices.Equal(got, fn.Want) {
		return fmt.Errorf("commit: files written %v, want %v", got, fn.Want)
	}
	fs, err := storage.New(ctx, fn.Dir)
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	defer fs.Close()
	for _, name := range got {
		if err := rename(ctx, fs, o.TempPath(name), output.JoinPath(fn.Dir, name)); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
	}
	if err := removeRuns(ctx, fs, o); err != nil {
		return fmt.Errorf("commit: removing sorted runs: %w", err)
	}
	if err := writeFile(ctx, o.TempPath(output.SuccessFile), func(*bufio.Writer) error { return nil }); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := rename(ctx, fs, o.TempPath(output.SuccessFile), output.JoinPath(fn.Dir, output.SuccessFile)); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// rename moves from to to: rename(2) on local paths (which replaces a
// symlink at to, never following it), filesystem.Rename (Rename, or Copy
// and Remove) elsewhere. When from is gone and to exists, an earlier
// attempt of the commit renamed it and rename succeeds.
func rename(ctx context.Context, fs filesystem.Interface, from, to string) error {
	if isLocal(from) {
		err := os.Rename(from, to)
		if err != nil && os.IsNotExist(err) {
			if _, serr := os.Lstat(to); serr == nil {
				return nil
			}
		}
		if err != nil {
			return fmt.Errorf("renaming %s to %s: %w", from, path.Base(to), err)
		}
		return nil
	}
	if err := filesystem.Rename(ctx, fs, from, to); err != nil {
		if _, serr := fs.Size(ctx, from); serr != nil {
			if _, terr := fs.Size(ctx, to); terr == nil {
				return nil
			}
		}
		return fmt.Errorf("renaming %s to %s: %w", from, path.Base(to), err)
	}
	return nil
}

// isLocal reports whether p is a local path (no URL scheme).
func isLocal(p string) bool { return !strings.Contains(p, "://") }
