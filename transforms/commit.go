package transforms

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/ndd-beam/ndd-beam/internal/fault"
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
	// Format is the format of the sharded outputs; nil is
	// output.JSONLines.
	Format *output.Format

	// Replace lets the commit replace the files of an earlier run
	// (--overwrite): its _SUCCESS is removed first, the new files renamed
	// over the old, then every other job file (output.IsJobFile) that is
	// not this run's is removed, and _SUCCESS written. Until the commit the
	// earlier run's output stays as it was.
	Replace bool

	written []beam.PCollection
	after   []beam.PCollection
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

// After makes the commit wait for every element of done (e.g. the index
// segment's commit, WriteIndex), so that _SUCCESS is written after it.
func (o *Outputs) After(done beam.PCollection) {
	o.after = append(o.after, done)
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
	after := beam.CreateList(s, []string{})
	if len(o.after) > 0 {
		after = beam.Flatten(s, o.after...)
	}
	beam.ParDo0(s, &commitFn{Dir: o.Dir, RunID: o.RunID, Want: want, Replace: o.Replace}, beam.Impulse(s),
		beam.SideInput{Input: beam.Flatten(s, o.written...)}, beam.SideInput{Input: after})
}

type commitFn struct {
	Dir     string
	RunID   string
	Want    []string // final names, sorted
	Replace bool
}

func (fn *commitFn) ProcessElement(ctx context.Context, _ []byte, written, after func(*string) bool) error {
	release, err := enterCommit(fn.RunID)
	if err != nil {
		return err
	}
	defer release()
	o := &Outputs{Dir: fn.Dir, RunID: fn.RunID}
	var got []string
	var n string
	for written(&n) {
		got = append(got, n)
	}
	for after(&n) {
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
	if fn.Replace {
		if err := removeIfThere(ctx, fs, output.JoinPath(fn.Dir, output.SuccessFile)); err != nil {
			return fmt.Errorf("commit: --overwrite: %w", err)
		}
	}
	for _, name := range got {
		if err := rename(ctx, fs, o.TempPath(name), output.JoinPath(fn.Dir, name)); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
	}
	if err := removeRuns(ctx, fs, o); err != nil {
		return fmt.Errorf("commit: removing sorted runs: %w", err)
	}
	if fn.Replace {
		if err := removeOthers(ctx, fs, fn.Dir, fn.RunID, got); err != nil {
			return fmt.Errorf("commit: --overwrite: %w", err)
		}
	}
	fault.At(fault.OutputRenamed)
	if err := writeFile(ctx, o.TempPath(output.SuccessFile), func(*bufio.Writer) error { return nil }); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := rename(ctx, fs, o.TempPath(output.SuccessFile), output.JoinPath(fn.Dir, output.SuccessFile)); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	fault.At(fault.OutputCommitted)
	return nil
}

// removeIfThere removes the file p if it exists.
func removeIfThere(ctx context.Context, fs filesystem.Interface, p string) error {
	if isLocal(p) {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	if _, err := fs.Size(ctx, p); err != nil {
		return nil
	}
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("the filesystem of %s cannot remove files", p)
	}
	return rm.Remove(ctx, p)
}

// removeOthers removes the job files in dir (output.IsJobFile) that are
// neither keep nor the lock: the earlier run's files this run did not
// replace (other shard counts or compression) and temporary files of
// runs that died.
func removeOthers(ctx context.Context, fs filesystem.Interface, dir, runID string, keep []string) error {
	all, err := fs.List(ctx, output.JoinPath(dir, "*"))
	if err != nil {
		return err
	}
	for _, p := range all {
		name := path.Base(strings.ReplaceAll(p, "\\", "/"))
		if !output.IsJobFile(name) || slices.Contains(keep, name) || name == storage.LockFile ||
			strings.HasPrefix(name, output.TempPrefix+runID+"-") {
			continue
		}
		if err := removeIfThere(ctx, fs, p); err != nil {
			return err
		}
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

// The commit gate: in the launching process (direct runner, prism,
// LOOPBACK workers) a run stopped by a signal must not commit afterwards,
// and must not stop in the middle of a commit. Abort waits for a commit in
// progress, then closes the gate for the run.
var gate struct {
	sync.Mutex
	aborted map[string]bool
}

// enterCommit holds the gate of run runID; an error when the run was
// aborted. Call release when the commit step is done.
func enterCommit(runID string) (release func(), err error) {
	gate.Lock()
	if gate.aborted[runID] {
		gate.Unlock()
		return nil, fmt.Errorf("commit: the run was stopped")
	}
	return gate.Unlock, nil
}

// Abort stops the run runID from committing in this process: it waits for
// a commit step in progress to end, and every later one fails.
func Abort(runID string) {
	gate.Lock()
	defer gate.Unlock()
	if gate.aborted == nil {
		gate.aborted = map[string]bool{}
	}
	gate.aborted[runID] = true
}
