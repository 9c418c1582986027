package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/eval"
)

func runEvalBoilerplate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval boilerplate", stderr)
	warcPath := fs.String("warc", "", "labelled WARC file (required)")
	truthPath := fs.String("truth", "", "truth file for the WARC (required)")
	tau := fs.Float64("tau", config.DefaultTau, "weighted Jaccard threshold τ")
	cleanOnly := fs.Bool("clean", false, "only the clean set (no injection)")
	keep := fs.Bool("keep-markup-boilerplate", false, "keep the text of markup-marked boilerplate (the extraction before the markup rule)")
	sharedPages := fs.Int("shared-block-pages", config.DefaultSharedBlockPages, "the job's --shared_block_pages (0: off)")
	blockLangs := fs.String("block-langs", "en", "languages of the injected boilerplate blocks, comma-separated (eval.BoilerplateLanguages)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *warcPath == "" || *truthPath == "" || fs.NArg() > 0 || !(*tau > 0 && *tau <= 1) {
		fs.Usage()
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "ndd-eval boilerplate:", err); return 1 }
	truth, err := eval.LoadTruth(*truthPath)
	if err != nil {
		return fail(err)
	}
	p := config.DefaultParams()
	p.Tau, p.KeepMarkupBoilerplate, p.SharedBlockPages = *tau, *keep, *sharedPages
	if err := p.Validate(); err != nil {
		return fail(err)
	}
	injections, err := eval.BoilerplateInjections(strings.Split(*blockLangs, ",")...)
	if err != nil {
		return fail(err)
	}
	if *cleanOnly {
		injections = nil
	}
	rows, err := eval.BoilerplateTable(context.Background(), *warcPath, truth, p, injections, stderr)
	if err != nil {
		return fail(err)
	}
	if err := eval.WriteBoilerplateMarkdown(stdout, rows, eval.InjectedLanguages(injections)); err != nil {
		return fail(err)
	}
	return 0
}
