package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/internal/fault"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/transforms"
)

// Launched is a run that may start: it holds the locks of its output and
// index directories until Release (or Abort).
type Launched struct {
	cfg   config.Config
	locks []*storage.Lock
	// Notes are lines to print before the run: a stale lock replaced, a
	// partial index segment removed, an index started.
	Notes []string
}

// Launch prepares the run c and returns it once nothing stands in its way:
// its values are checked (config.Config.ValidateValues); the output
// directory and the --write_index directory are locked (storage.TakeLock:
// a second run on either is refused with the other run's host, pid and
// start time, a stale lock is replaced and noted); the partial segments of
// --write_index (index.Scan: killed runs) are removed; c is validated
// under the locks (Validate; a refused run removes the directories its
// locks created);
// an --against directory that is the --write_index directory and holds no
// segment yet is dropped from c.Against (this run starts the index). It
// sets c.RunID and c.IndexLabel when empty. Errors are *config.ParamError,
// one line each. Release the returned run's locks when it ends.
func Launch(ctx context.Context, c *config.Config) (*Launched, error) {
	if c.RunID == "" {
		c.RunID = output.NewRunID()
	}
	if err := ValidateValues(c); err != nil {
		return nil, err
	}
	if storage.IsHTTP(c.Output) {
		return nil, Validate(ctx, c)
	}
	l := &Launched{cfg: *c}
	var made []string // local directories the locks created
	fail := func(err error) (*Launched, error) {
		l.Release(ctx)
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i]) // only if empty: nothing of the run's left in it
		}
		return nil, err
	}
	take := func(flag, dir string) error {
		if storage.IsLocal(dir) {
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				made = append(made, dir)
			}
		}
		lk, err := storage.TakeLock(ctx, dir, c.RunID)
		if err != nil {
			if errors.Is(err, storage.ErrLocked) {
				return config.ParamErrorf(config.LayoutQuotedIs, flag, dir, "is %v", err)
			}
			return config.ParamErrorf(config.LayoutQuotedIs, flag, dir, "is not writable: %v", err)
		}
		if lk.Stale.PID != 0 {
			l.Notes = append(l.Notes, fmt.Sprintf("%s %s: replaced the stale lock of a run that is gone (%s)", flag, dir, lk.Stale))
		}
		l.locks = append(l.locks, lk)
		return nil
	}
	if err := take("--output", c.Output); err != nil {
		return fail(err)
	}
	if c.WriteWARC != "" {
		if err := take("--write_warc", c.WriteWARC); err != nil {
			return fail(err)
		}
	}
	if c.WriteIndex != "" {
		if err := take("--write_index", c.WriteIndex); err != nil {
			return fail(err)
		}
		removed, err := index.RemovePartial(ctx, c.WriteIndex)
		for _, st := range removed {
			l.Notes = append(l.Notes, fmt.Sprintf("--write_index %s: removed the partial segment %s (%s)", c.WriteIndex, st.Name, st.Partial))
		}
		if err != nil {
			return fail(config.ParamErrorf(config.LayoutQuoted, "--write_index", c.WriteIndex, "%v", err))
		}
		if c.IndexLabel == "" {
			c.IndexLabel = index.LabelOf(time.Now())
		}
	}
	if err := Validate(ctx, c); err != nil {
		return fail(err)
	}
	if startsIndex(ctx, c) {
		l.Notes = append(l.Notes, fmt.Sprintf("--against %s: the index has no segment yet; this run starts it", c.WriteIndex))
		var rest []string
		for _, a := range c.Against {
			if !sameDir(a, c.WriteIndex) {
				rest = append(rest, a)
			}
		}
		c.Against = rest
	}
	l.cfg = *c
	fault.At(fault.Launched)
	return l, nil
}

// Release releases the run's locks.
func (l *Launched) Release(ctx context.Context) {
	if l == nil {
		return
	}
	for i := len(l.locks) - 1; i >= 0; i-- {
		l.locks[i].Release(ctx)
	}
	l.locks = nil
}

// Abort stops a run on a signal: no commit starts after it
// (transforms.Abort waits for one in progress), the run's temporary files
// in its output directory and, unless the run committed, its index
// segment are removed, and the locks are released. It reports whether the
// run had committed (its output has _SUCCESS of this run's segment, or
// _SUCCESS and no segment to write).
func (l *Launched) Abort(ctx context.Context) (committed bool) {
	c := l.cfg
	transforms.Abort(c.RunID)
	committed = outputCommitted(ctx, c)
	if storage.IsLocal(c.Output) {
		tmp, _ := filepath.Glob(output.TempPath(c.Output, c.RunID, "*"))
		for _, p := range tmp {
			os.Remove(p)
		}
	}
	if c.WriteIndex != "" && !committed {
		seg := index.Join(c.WriteIndex, index.SegmentName(c.IndexLabel))
		if storage.IsLocal(seg) {
			os.RemoveAll(seg)
		}
	}
	for _, lk := range l.locks {
		lk.ReleaseNow()
	}
	return committed
}

// outputCommitted reports whether this run wrote the output's _SUCCESS:
// it is there, and summary.json names this run's segment (a run without
// an index: _SUCCESS is there and no earlier run's, which --overwrite
// removes before its commit).
func outputCommitted(ctx context.Context, c config.Config) bool {
	if !storage.IsLocal(c.Output) {
		return false
	}
	if _, err := os.Stat(filepath.Join(c.Output, output.SuccessFile)); err != nil {
		return false
	}
	if c.WriteIndex == "" {
		return true
	}
	b, err := os.ReadFile(filepath.Join(c.Output, output.SummaryFile))
	return err == nil && strings.Contains(string(b), `"`+index.SegmentName(c.IndexLabel)+`"`)
}

// startsIndex reports whether c has --against the --write_index directory
// and that directory holds no committed segment yet.
func startsIndex(ctx context.Context, c *config.Config) bool {
	if c.WriteIndex == "" {
		return false
	}
	for _, a := range c.Against {
		if sameDir(a, c.WriteIndex) {
			segs, err := index.Segments(ctx, c.WriteIndex)
			return err == nil && len(segs) == 0
		}
	}
	return false
}

// sameDir reports whether the directories a and b are the same: local
// paths absolute and clean, URLs without a trailing slash.
func sameDir(a, b string) bool {
	if storage.IsLocal(a) && storage.IsLocal(b) {
		return filepath.Clean(storage.Absolute(a)) == filepath.Clean(storage.Absolute(b))
	}
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}
