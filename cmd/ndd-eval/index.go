package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/storage"
)

// runEvalIndex lists the committed segments of each index directory (an
// index, or one segment): name, created, pages, Parquet bytes, bytes per
// page, and the parameters that must agree (index.Agreement); then the
// partial segments (index.Scan: killed runs), each with why, which no run
// reads. With --remove_partial it removes them first, holding the index's
// lock (refused while a run holds it).
func runEvalIndex(args []string, stdout, stderr io.Writer) int {
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
	fmt.Fprintln(tw, "segment\tcreated\tpages\tbytes\tbytes/page\tdir")
	pages, bytes := 0, int64(0)
	for _, in := range infos {
		per := 0.0
		if in.Meta.Pages > 0 {
			per = float64(in.Bytes) / float64(in.Meta.Pages)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%s\n", in.Meta.Segment, in.Meta.Created, in.Meta.Pages, in.Bytes, per, in.Dir)
		pages, bytes = pages+in.Meta.Pages, bytes+in.Bytes
	}
	fmt.Fprintf(tw, "total\t\t%d\t%d\t\t%d segments\n", pages, bytes, len(infos))
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
