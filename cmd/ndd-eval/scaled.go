package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ndd-beam/ndd-beam/eval"
)

// runEvalScaled writes the scaled gold set of docs/benchmarks.md (eval.WriteScaledCrawl).
func runEvalScaled(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval scaled", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for scaled.warc.gz (required)")
	in := fs.String("warc", "../shared/data/goldset/gold.warc.gz", "the gold set's WARC file")
	copies := fs.Int("copies", 16, "copies of the gold set")
	perturb := fs.Float64("perturb", 0.05, "share of each copy's words replaced")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 || *copies < 1 || *perturb < 0 || *perturb > 1 {
		fmt.Fprintln(stderr, "ndd-eval scaled: --out DIR required, --copies >= 1, --perturb in [0, 1]")
		return 2
	}
	err := os.MkdirAll(*out, 0o755)
	if err == nil {
		err = writeBuffered(filepath.Join(*out, "scaled.warc.gz"), func(w io.Writer) error {
			return eval.WriteScaledCrawl(w, *in, *copies, *perturb)
		})
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval scaled:", err)
		return 1
	}
	return 0
}
