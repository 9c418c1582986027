package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/ndd-beam/ndd-beam/eval"
)

// batchesDone is the file runEvalBatches writes last: the counts of each
// day as JSON. A directory without it is unfinished.
const batchesDone = "batches.json"

// runEvalBatches writes the daily batches of a recurring crawl
// (eval.WriteShortCrawl with Day set), day K to DIR/day-KK/crawl.warc.gz
// and DIR/day-KK/truth.jsonl, --parallel days at a time, then
// DIR/batches.json with the counts of a day. The counts are shares of
// --pages; the new articles are the rest.
func runEvalBatches(args []string, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval batches", stderr)
	out := fs.String("out", "", "output directory (required)")
	gold := fs.String("gold", "../shared/data/goldset", "gold set whose core texts give the sentences")
	days := fs.Int("days", 30, "days, one batch each")
	pages := fs.Int("pages", 36000, "pages (WARC response records) a day")
	recapture := fs.Float64("recapture", 0.25, "share of a day's pages that are earlier days' pages captured again at their URIs (day 1: new articles)")
	edited := fs.Float64("edited", 0.2, "share of the re-captures with one word changed")
	extended := fs.Float64("extended", 0.1, "share of the re-captures with a paragraph added (the rest are byte-identical)")
	soft404 := fs.Float64("soft404", 0.05, "share of a day's pages that are byte-identical soft-404 pages")
	copies := fs.Float64("copies", 0.02, "share of a day's pages that are byte-identical copies of its first article at session-ID URIs")
	variants := fs.Float64("variants", 0.01, "share of a day's pages that are one-word variants of its second article on mirror sites")
	sites := fs.Int("sites", eval.DefaultShortCrawl.Sites, "sites, each with its own template, the same every day")
	seed := fs.Uint64("seed", eval.DefaultShortCrawl.Seed, "random seed")
	parallel := fs.Int("parallel", runtime.GOMAXPROCS(0), "days written at once")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	share := func(f float64) int { return int(math.Round(f * float64(*pages))) }
	c := eval.ShortCrawl{
		SoftNotFound: share(*soft404), Copies: share(*copies), Variants: share(*variants), Sites: *sites, Seed: *seed,
		Recaptures: share(*recapture), Edited: *edited, Extended: *extended,
	}
	c.Distinct = *pages - c.SoftNotFound - c.Copies - c.Variants - c.Recaptures
	var bad error
	for _, f := range []float64{*recapture, *edited, *extended, *soft404, *copies, *variants} {
		if f < 0 || f > 1 {
			bad = fmt.Errorf("a share of %g: shares are from 0 to 1", f)
		}
	}
	switch {
	case *edited+*extended > 1:
		bad = errors.New("--edited and --extended add up to more than 1")
	case c.Distinct < 2:
		bad = fmt.Errorf("%d new articles a day (--pages less the other shares): need 2", c.Distinct)
	case *days < 1 || *parallel < 1:
		bad = errors.New("--days and --parallel must be at least 1")
	}
	if *out == "" || fs.NArg() > 0 || bad != nil {
		if bad != nil {
			fmt.Fprintln(stderr, "ndd-eval batches:", bad)
		}
		fs.Usage()
		return 2
	}
	texts, err := eval.CoreTexts(*gold)
	if err == nil {
		os.Remove(filepath.Join(*out, batchesDone))
		err = writeDays(*out, c, *days, *parallel, texts)
	}
	if err == nil {
		err = writeJSONFile(filepath.Join(*out, batchesDone), map[string]any{
			"days": *days, "pages_a_day": *pages, "new_articles": c.Distinct, "day_1_new_articles": c.Distinct + c.Recaptures,
			"recaptures": c.Recaptures, "edited": c.Edited, "extended": c.Extended, "soft404": c.SoftNotFound,
			"copies": c.Copies, "variants": c.Variants, "sites": c.Sites, "seed": c.Seed,
		})
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval batches:", err)
		return 1
	}
	return 0
}

// writeDays writes days 1 to days of the recurring crawl c under dir,
// parallel at a time, each file under a temporary name renamed into place
// when written; it returns the first error.
func writeDays(dir string, c eval.ShortCrawl, days, parallel int, texts []string) error {
	width := max(2, len(fmt.Sprint(days)))
	next := make(chan int)
	errs := make([]error, days+1)
	var wg sync.WaitGroup
	for range min(parallel, days) {
		wg.Go(func() {
			for d := range next {
				c := c
				c.Day = d
				dd := filepath.Join(dir, fmt.Sprintf("day-%0*d", width, d))
				warcPath, truthPath := filepath.Join(dd, "crawl.warc.gz"), filepath.Join(dd, "truth.jsonl")
				err := os.MkdirAll(dd, 0o755)
				if err == nil {
					err = writeBuffered(warcPath+".tmp", func(w io.Writer) error {
						return writeBuffered(truthPath+".tmp", func(t io.Writer) error {
							return eval.WriteShortCrawl(w, t, c, texts)
						})
					})
				}
				if err == nil {
					err = os.Rename(truthPath+".tmp", truthPath)
				}
				if err == nil {
					err = os.Rename(warcPath+".tmp", warcPath)
				}
				errs[d] = err
			}
		})
	}
	for d := 1; d <= days; d++ {
		next <- d
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// writeJSONFile writes v to path as indented JSON.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
