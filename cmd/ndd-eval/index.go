package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/storage"
)

// runEvalIndex lists the committed segments of each index directory (an
// index, or one segment): name, created, pages, Parquet bytes, bytes per
// page, the run segments it holds (more than one: compacted), and the
// parameters that must agree (index.Agreement); then the partial segments
// (index.Scan: killed runs, segments replaced by a compacted one), each
// with why, which no run reads. With --remove_partial it removes them
// first, holding the index's lock (refused while a run holds it).
// "ndd-eval index compact" compacts (runEvalIndexCompact).
func runEvalIndex(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "compact" {
		return runEvalIndexCompact(args[1:], stdout, stderr)
	}
	fs := newFlagSet("ndd-eval index", stderr)
	removePartial := fs.Bool("remove_partial", false, "remove the partial segments (of killed runs) first, holding the index's lock")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	if *removePartial {
		for _, dir := range fs.Args() {
			lk, err := storage.TakeLock(ctx, dir, "ndd-eval")
			if err != nil {
				fmt.Fprintf(stderr, "ndd-eval index: %s: %v\n", dir, err)
				return 2
			}
			removed, err := index.RemovePartial(ctx, dir)
			lk.Release(ctx)
			for _, st := range removed {
				fmt.Fprintf(stdout, "removed partial segment %s (%s)\n", st.Dir, st.Partial)
			}
			if err != nil {
				fmt.Fprintf(stderr, "ndd-eval index: %v\n", err)
				return 1
			}
		}
	}
	var partial []index.SegmentState
	for _, dir := range fs.Args() {
		all, err := index.Scan(ctx, dir)
		if err != nil {
			fmt.Fprintf(stderr, "ndd-eval index: %v\n", err)
			return 1
		}
		for _, st := range all {
			if st.Partial != "" {
				partial = append(partial, st)
			}
		}
	}
	defer func() {
		for _, st := range partial {
			fmt.Fprintf(stdout, "partial %s: %s; not read (ndd-eval index --remove_partial, or the next run writing the index, removes it)\n", st.Dir, st.Partial)
		}
	}()
	infos, err := index.List(ctx, fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "ndd-eval index: %v\n", err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "segment\tcreated\tpages\tbytes\tbytes/page\truns\tfiles\tdir")
	pages, bytes, runs, files := 0, int64(0), 0, 0
	for _, in := range infos {
		per := 0.0
		if in.Meta.Pages > 0 {
			per = float64(in.Bytes) / float64(in.Meta.Pages)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%d\t%d\t%s\n", in.Meta.Segment, in.Meta.Created, in.Meta.Pages, in.Bytes, per,
			len(in.Meta.Runs()), len(in.Meta.Files), in.Dir)
		pages, bytes, runs, files = pages+in.Meta.Pages, bytes+in.Bytes, runs+len(in.Meta.Runs()), files+len(in.Meta.Files)
	}
	fmt.Fprintf(tw, "total\t\t%d\t%d\t\t%d\t%d\t%d segments\n", pages, bytes, runs, files, len(infos))
	tw.Flush()
	seen := map[index.Agreement]bool{}
	for _, in := range infos {
		if !seen[in.Meta.Params] {
			seen[in.Meta.Params] = true
			fmt.Fprintf(stdout, "parameters of %s: %+v\n", in.Meta.Segment, in.Meta.Params)
		}
	}
	return 0
}

// runEvalIndexCompact compacts each index directory (index.Compact):
// merges its committed segments into one (or, with --max_segments N, as
// few of the smallest as leave N), holding the index's lock, and says
// what it merged, wrote and removed. Exit 0 done (or nothing to do), 1
// failed, 2 usage error or the index in use by a run.
func runEvalIndexCompact(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval index compact", stderr)
	maxSegments := fs.Int("max_segments", 1, "committed segments the index holds at most afterwards, the compacted one included: the smallest segments are merged")
	filePages := fs.Int("file_pages", index.CompactFileRows, "pages (rows) of one Parquet file of the compacted segment at most")
	withoutFlag := fs.String("without", "", "run segments (segment-LABEL, comma-separated) whose pages are left out, so that their days can be run again")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var without []string
	for w := range strings.SplitSeq(*withoutFlag, ",") {
		if w = strings.TrimSpace(w); w != "" {
			without = append(without, w)
		}
	}
	if fs.NArg() == 0 || *maxSegments < 1 || *filePages < 1 {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	for _, dir := range fs.Args() {
		c, err := index.Compact(ctx, dir, index.CompactOptions{MaxSegments: *maxSegments, FileRows: *filePages, Without: without,
			Holder: "ndd-eval-index-compact"})
		if c != nil {
			if c.Stale.PID != 0 {
				fmt.Fprintf(stdout, "replaced the stale lock of a run that is gone (%s)\n", c.Stale)
			}
			for _, st := range c.Removed {
				fmt.Fprintf(stdout, "removed partial segment %s (%s)\n", st.Dir, st.Partial)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "ndd-eval index compact: %v\n", err)
			if errors.Is(err, storage.ErrLocked) {
				return 2
			}
			return 1
		}
		if len(c.Merged) == 0 {
			fmt.Fprintf(stdout, "%s: nothing to compact (%d committed segments, --max_segments %d)\n", dir, c.Segments, *maxSegments)
			continue
		}
		var names []string
		for _, in := range c.Merged {
			names = append(names, in.Meta.Segment)
		}
		if len(names) > 4 { // the first two and the last
			names = []string{names[0], names[1], "…", names[len(names)-1]}
		}
		if c.Left > 0 {
			fmt.Fprintf(stdout, "%s: left out %d pages of %s\n", dir, c.Left, strings.Join(without, ", "))
		}
		if c.Dir == "" {
			fmt.Fprintf(stdout, "%s: removed %s; committed segments left: %d\n", dir, strings.Join(names, ", "), c.Segments)
			continue
		}
		fmt.Fprintf(stdout, "%s: compacted %d segments (%s) into %s: %d pages of %d runs in %d Parquet files; committed segments left: %d\n",
			dir, len(c.Merged), strings.Join(names, ", "), c.Dir, c.Meta.Pages, len(c.Meta.Merged), len(c.Meta.Files), c.Segments)
	}
	return 0
}
