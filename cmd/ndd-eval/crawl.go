package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ndd-beam/ndd-beam/eval"
)

// runEvalCrawl writes the short-page crawl of the per-page cost benchmark
// (eval.WriteShortCrawl) to DIR/crawl.warc.gz and DIR/truth.jsonl.
func runEvalCrawl(args []string, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval crawl", stderr)
	c := eval.DefaultShortCrawl
	out := fs.String("out", "", "output directory (required)")
	gold := fs.String("gold", "../shared/data/goldset", "gold set whose core texts give the sentences")
	fs.IntVar(&c.Distinct, "distinct", c.Distinct, "distinct short articles")
	fs.IntVar(&c.SoftNotFound, "soft404", c.SoftNotFound, "byte-identical soft-404 pages")
	fs.IntVar(&c.Copies, "copies", c.Copies, "byte-identical copies of one article")
	fs.IntVar(&c.Variants, "variants", c.Variants, "one-word variants of another article")
	fs.IntVar(&c.Sites, "sites", c.Sites, "sites, each with its own template")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "random seed")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	texts, err := eval.CoreTexts(*gold)
	if err == nil {
		err = os.MkdirAll(*out, 0o755)
	}
	if err == nil {
		err = writeBuffered(filepath.Join(*out, "crawl.warc.gz"), func(w io.Writer) error {
			return writeBuffered(filepath.Join(*out, "truth.jsonl"), func(t io.Writer) error {
				return eval.WriteShortCrawl(w, t, c, texts)
			})
		})
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval crawl:", err)
		return 1
	}
	return 0
}
