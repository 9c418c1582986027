package index

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/internal/fault"
	"github.com/ndd-beam/ndd-beam/storage"
)

// Compaction: the segments of many runs merged into one segment whose
// rows are exactly theirs, each row naming the run segment it was kept
// into (Row.Segment), so that a run against the index reads the same
// pages, named the same, from fewer files (docs/design.md, "Scheduled
// batches", "Compaction").

// CompactFileRows is the default bound on the rows of one Parquet file of
// a compacted segment (CompactOptions.FileRows): about 100 MB at the 1 KB
// a page of the gold set's index; a reader holds one file of an object
// store in memory (openParquet), and a run reads one file per element.
const CompactFileRows = 100_000

// CompactOptions says which segments Compact merges and how it writes.
type CompactOptions struct {
	// MaxSegments is how many committed segments the index holds at most
	// afterwards, the compacted one included; < 1 means 1: every segment
	// merged into one. With more, the smallest segments (Parquet bytes,
	// then name) are merged, as few as bring the count down to it.
	MaxSegments int
	// FileRows bounds the rows of each Parquet file written; < 1 means
	// CompactFileRows.
	FileRows int
	// Without names run segments (segment-LABEL, as Meta.Runs lists them)
	// whose pages are left out: the segments holding them are merged (a
	// run segment of its own is removed), so that the day can be run
	// again. Where nothing is left to write, the segments are removed with
	// nothing replacing them: a kill meanwhile leaves some of them read.
	Without []string
	// Holder is the run ID written into the index's lock while it is held
	// (storage.LockInfo.RunID); "" means "compact".
	Holder string
	// Now is the compaction's time (the new segment's name and Created);
	// zero means time.Now().
	Now time.Time
}

// Compaction is what Compact did.
type Compaction struct {
	// Dir is the new segment's directory, "" when none was written
	// (nothing to merge, or every page merged was left out).
	Dir  string
	Meta Meta
	// Merged are the segments merged (and removed), in name order.
	Merged []Info
	// Left is the number of pages left out (CompactOptions.Without).
	Left int
	// Removed are the partial segments removed first (killed runs, and the
	// replaced segments of a compaction that was interrupted).
	Removed []SegmentState
	// Stale is the lock of a holder that is gone, replaced; zero if none.
	Stale storage.LockInfo
	// Segments is the number of committed segments afterwards.
	Segments int
}

// Compact merges committed segments of the index dir into one new
// segment (o says which), then removes them. It holds the index's lock
// (storage.TakeLock) throughout, so that no run writes the index
// meanwhile (a run with --write_index holds it too: either is refused
// while the other runs), and removes the index's partial segments first
// (RemovePartial).
//
// The merged segments must agree in every parameter (Agreement; schema
// versions this build reads agree) and hold what their segment.json says
// (Verify); else Compact stops before writing, naming them. Their rows
// are read a row group at a time, in name, file and row order, and
// written unchanged, but for Row.Segment (the run segment each page was
// kept into), into Parquet files of at most o.FileRows rows; then
// segment.json (Meta.Replaces: the merged segments; Meta.Merged: the run
// segments whose pages it holds) and _SUCCESS. Only then are the merged
// segments removed: from the new segment's _SUCCESS on, Scan calls them
// replaced and no reader reads them, so a kill at any point leaves every
// page readable exactly once (before: the old segments; after: the new
// one), and the leftovers are partial segments for the next Compact or
// RemovePartial. Memory: one row group of the segment being read (and
// one Parquet file of an object store, as ReadPages), one of the file
// being written.
//
// A run reading the index without its lock (--against alone) that listed
// the merged segments before they were removed fails on a missing file;
// it never reads a page twice or not at all.
func Compact(ctx context.Context, dir string, o CompactOptions) (*Compaction, error) {
	if all, err := Scan(ctx, dir); err != nil {
		return nil, err
	} else if len(all) == 0 {
		return nil, fmt.Errorf("index %s: no segment (segment-*/%s)", dir, SuccessFile)
	} else if len(all) == 1 && all[0].Dir == strings.TrimSuffix(dir, "/") {
		return nil, fmt.Errorf("index %s is a segment, not an index directory", dir)
	}
	holder := cmp.Or(o.Holder, "compact")
	lk, err := storage.TakeLock(ctx, dir, holder)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", dir, err)
	}
	defer lk.Release(ctx)
	c := &Compaction{Stale: lk.Stale}
	if c.Removed, err = RemovePartial(ctx, dir); err != nil {
		return c, err
	}
	infos, err := List(ctx, []string{dir})
	if err != nil {
		return c, err
	}
	c.Merged, err = chooseMerge(infos, o)
	if err != nil || len(c.Merged) == 0 {
		c.Segments = len(infos)
		return c, err
	}
	for _, in := range c.Merged {
		if err := Verify(ctx, in); err != nil {
			return c, err
		}
		if name, x, y, ok := firstDifference(c.Merged[0].Meta.Params, in.Meta.Params); ok {
			return c, fmt.Errorf("index segments %s and %s disagree: %s=%s and %s=%s; only segments written with the same parameters are merged",
				c.Merged[0].Meta.Segment, in.Meta.Segment, name, x, name, y)
		}
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	without := segmentNames(o.Without)
	m := Meta{Created: now.UTC().Format(time.RFC3339), Params: c.Merged[0].Meta.Params}
	m.Params.Schema = SchemaVersion
	want := map[string]int{} // pages of each run segment kept
	for _, in := range c.Merged {
		m.Replaces = append(m.Replaces, in.Meta.Segment)
		for _, r := range in.Meta.Runs() {
			if without[r.Segment] {
				c.Left += r.Pages
				continue
			}
			m.Merged = append(m.Merged, r)
			want[r.Segment] = r.Pages
			m.Pages += r.Pages
		}
	}
	slices.SortFunc(m.Merged, func(a, b RunSegment) int { return strings.Compare(a.Segment, b.Segment) })
	if len(m.Merged) > 0 {
		m.Segment = compactedName(m.Replaces, now)
		if slices.ContainsFunc(infos, func(in Info) bool { return in.Meta.Segment == m.Segment }) {
			return c, fmt.Errorf("index %s: segment %s is there already", dir, m.Segment)
		}
		c.Dir = Join(dir, m.Segment)
		if err := writeCompacted(ctx, c.Dir, &m, c.Merged, without, want, o.FileRows); err != nil {
			removeSegment(ctx, c.Dir)
			c.Dir = ""
			return c, err
		}
		fault.At(fault.CompactFiles)
		if err := Commit(ctx, c.Dir, m); err != nil {
			return c, err
		}
		c.Meta = m
		fault.At(fault.CompactCommitted)
	}
	for i, in := range c.Merged {
		if err := removeSegment(ctx, in.Dir); err != nil {
			if c.Dir == "" { // every page of it left out: nothing replaces it
				return c, fmt.Errorf("index %s: removing segment %s: %v", dir, in.Dir, err)
			}
			return c, fmt.Errorf("index %s: removing segment %s, replaced by %s: %v (no run reads it; the next compaction or run writing the index removes it)", dir, in.Dir, m.Segment, err)
		}
		if i == 0 {
			fault.At(fault.CompactRemoving)
		}
	}
	segs, err := Segments(ctx, dir)
	c.Segments = len(segs)
	return c, err
}

// chooseMerge returns the segments of infos to merge, in name order: those
// holding a run segment of o.Without, then the smallest others (Parquet
// bytes, then name) until at most o.MaxSegments are left; none when
// nothing is left out and the index holds no more than that. A run
// segment of o.Without that no segment holds is an error.
func chooseMerge(infos []Info, o CompactOptions) ([]Info, error) {
	without := segmentNames(o.Without)
	held := map[string]bool{}
	var merge, rest []Info
	for _, in := range infos {
		hit := false
		for _, r := range in.Meta.Runs() {
			held[r.Segment] = true
			hit = hit || without[r.Segment]
		}
		if hit {
			merge = append(merge, in)
		} else {
			rest = append(rest, in)
		}
	}
	for _, w := range slices.Sorted(maps.Keys(without)) {
		if !held[w] {
			return nil, fmt.Errorf("no committed segment of the index holds %s", w)
		}
	}
	keep := max(o.MaxSegments, 1)
	if len(merge) == 0 && len(infos) <= keep {
		return nil, nil
	}
	slices.SortStableFunc(rest, func(a, b Info) int {
		return cmp.Or(cmp.Compare(a.Bytes, b.Bytes), strings.Compare(a.Meta.Segment, b.Meta.Segment))
	})
	for len(rest) > 0 && len(infos)-len(merge)+1 > keep { // the new segment counts
		merge, rest = append(merge, rest[0]), rest[1:]
	}
	slices.SortFunc(merge, func(a, b Info) int { return strings.Compare(a.Meta.Segment, b.Meta.Segment) })
	return merge, nil
}

// segmentNames is the set of the segments named (segment-LABEL or LABEL).
func segmentNames(names []string) map[string]bool {
	set := map[string]bool{}
	for _, n := range names {
		set[SegmentName(strings.TrimPrefix(n, segPrefix))] = true
	}
	return set
}

// writeCompacted writes the rows of the segments merge, but for the run
// segments of without, into the Parquet files of the new segment seg,
// balanced, of at most fileRows rows each, and records them in m
// (Files, FileBytes). Each row names its run segment; the rows of each
// run segment must number want[segment].
func writeCompacted(ctx context.Context, seg string, m *Meta, merge []Info, without map[string]bool, want map[string]int, fileRows int) error {
	if fileRows < 1 {
		fileRows = CompactFileRows
	}
	files := max(1, (m.Pages+fileRows-1)/fileRows)
	per := max(1, (m.Pages+files-1)/files)
	fs, err := storage.New(ctx, seg)
	if err != nil {
		return err
	}
	defer fs.Close()
	m.FileBytes = map[string]int64{}
	got := map[string]int{}
	var out *fileOut
	closeFile := func() error {
		if out == nil {
			return nil
		}
		_, size, err := out.rw.Close()
		if cerr := out.w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("index %s: writing %s: %v", seg, out.name, err)
		}
		m.Files = append(m.Files, out.name)
		m.FileBytes[out.name] = size
		out = nil
		return nil
	}
	openFile := func() error {
		name := ShardName(len(m.Files), files)
		w, err := fs.OpenWrite(ctx, Join(seg, name))
		if err != nil {
			return fmt.Errorf("index %s: %v", seg, err)
		}
		out = &fileOut{name: name, w: w, rw: newRowWriter(w)}
		return nil
	}
	for _, in := range merge {
		for _, f := range in.Meta.Files {
			err := readFileRows(ctx, in.Dir, f, nil, func(r *Row) error {
				if r.Segment == "" {
					r.Segment = in.Meta.Segment
				}
				if without[r.Segment] {
					return nil
				}
				if _, ok := want[r.Segment]; !ok {
					return fmt.Errorf("index segment %s: %s holds a page of %s, which its %s does not list", in.Dir, f, r.Segment, MetaFile)
				}
				got[r.Segment]++
				if out != nil && out.rw.n == per && len(m.Files) < files-1 {
					if err := closeFile(); err != nil {
						return err
					}
				}
				if out == nil {
					if err := openFile(); err != nil {
						return err
					}
				}
				return out.rw.Write(*r)
			})
			if err != nil {
				if out != nil {
					out.w.Close()
				}
				return err
			}
		}
	}
	for len(m.Files) < files { // every file written, as a run writes every shard
		if out == nil {
			if err := openFile(); err != nil {
				return err
			}
		}
		if err := closeFile(); err != nil {
			return err
		}
	}
	for name, n := range want {
		if got[name] != n {
			return fmt.Errorf("index segment %s: %d pages read, its %s says %d", name, got[name], MetaFile, n)
		}
	}
	return nil
}

// fileOut is a Parquet file being written.
type fileOut struct {
	name string
	w    interface{ Close() error }
	rw   *rowWriter
}

// compactedName is the name of the segment compacted from the segments
// named merged at time now: the label of the last of them (up to a '~')
// followed by '~' and now's label (LabelOf), e.g.
// segment-20261125T031500.000Z~20261201T120000.000Z. It sorts after each
// of merged both by name (a local listing) and as the prefix of its files
// (name + "/", an object store's listing), which Scan relies on: a reader
// that lists the index while Compact removes the merged segments lists
// them before the new one. No run's label holds a '~'
// (--index_label), so no run can take the name.
func compactedName(merged []string, now time.Time) string {
	last := slices.MaxFunc(merged, func(a, b string) int { return strings.Compare(a+"/", b+"/") })
	label := strings.TrimPrefix(last, segPrefix)
	base, _, _ := strings.Cut(label, "~")
	if name := SegmentName(base + "~" + LabelOf(now)); sortsAfter(name, merged) {
		return name
	}
	return SegmentName(label + "~" + LabelOf(now)) // after last in both orders, as '~' sorts after '/' and every label character
}

// sortsAfter reports whether name sorts after each of names, as a name
// and as a prefix of paths (name + "/").
func sortsAfter(name string, names []string) bool {
	for _, n := range names {
		if name <= n || name+"/" <= n+"/" {
			return false
		}
	}
	return true
}
