package main

import (
	"context"
	"fmt"
	"io"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

// runEvalInProcess runs dedup.Run with the default parameters on files, or
// with --extract-only only its first phase (read and sign every record on
// all cores), so that the benchmarks can tell extraction's CPU from the
// rest's.
func runEvalInProcess(args []string, stdout, stderr io.Writer) int {
	extractOnly := len(args) > 0 && args[0] == "--extract-only"
	if extractOnly {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "ndd-eval inprocess: WARC files required")
		return 2
	}
	p := config.DefaultParams()
	if extractOnly {
		slots, err := dedup.SignFiles(context.Background(), p, args, nil)
		if err != nil {
			fmt.Fprintln(stderr, "ndd-eval inprocess:", err)
			return 1
		}
		n := 0
		for _, s := range slots {
			if s.IsDoc() {
				n++
			}
		}
		fmt.Fprintf(stdout, "records %d, documents signed %d\n", len(slots), n)
		return 0
	}
	res, err := dedup.Run(context.Background(), p, args)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval inprocess:", err)
		return 1
	}
	kept := 0
	for _, d := range res.Decisions {
		if d.Keep {
			kept++
		}
	}
	fmt.Fprintf(stdout, "records %d, documents %d, pairs lines %d, kept %d, dropped %d\n",
		res.Records, len(res.Docs), len(res.PairRecords()), kept, len(res.Decisions)-kept)
	return 0
}
