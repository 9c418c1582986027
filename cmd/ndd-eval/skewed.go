package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ndd-beam/ndd-beam/eval"
)

// runEvalSkewed writes the skewed crawl of docs/benchmarks.md (eval.WriteSkewedCrawl).
func runEvalSkewed(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval skewed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for skewed.warc.gz and truth.jsonl (required)")
	gold := fs.String("gold", "../shared/data/goldset", "English gold set directory (gold.warc.gz, truth.jsonl)")
	goldML := fs.String("gold-ml", "../shared/data/goldset-ml", "multilingual gold set directory")
	c := eval.DefaultSkewedCrawl
	fs.IntVar(&c.SoftNotFound, "soft404", c.SoftNotFound, "byte-identical soft-404 pages")
	fs.IntVar(&c.Copies, "copies", c.Copies, "byte-identical copies of one article")
	fs.IntVar(&c.Variants, "variants", c.Variants, "one-word variants of another article")
	fs.IntVar(&c.Distinct, "distinct", c.Distinct, "distinct articles")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "ndd-eval skewed: --out DIR required")
		return 2
	}
	if err := writeSkewed(*out, c, [][2]string{
		{filepath.Join(*gold, "gold.warc.gz"), filepath.Join(*gold, "truth.jsonl")},
		{filepath.Join(*goldML, "gold.warc.gz"), filepath.Join(*goldML, "truth.jsonl")},
	}); err != nil {
		fmt.Fprintln(stderr, "ndd-eval skewed:", err)
		return 1
	}
	return 0
}

func writeSkewed(dir string, c eval.SkewedCrawl, sources [][2]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeBuffered(filepath.Join(dir, "skewed.warc.gz"), func(w io.Writer) error {
		return writeBuffered(filepath.Join(dir, "truth.jsonl"), func(t io.Writer) error {
			return eval.WriteSkewedCrawl(w, t, c, sources)
		})
	})
}

// writeBuffered creates path and writes it through a buffer with fill.
func writeBuffered(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}
