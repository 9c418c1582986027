package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ndd-beam/ndd-beam/index"
)

// runEvalIndex lists the committed segments of each index directory (an
// index, or one segment): name, created, pages, Parquet bytes, bytes per
// page, and the parameters that must agree (index.Agreement).
func runEvalIndex(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval index", stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	infos, err := index.List(context.Background(), fs.Args())
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
