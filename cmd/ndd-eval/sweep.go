package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/eval"
)

func runEvalSweep(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ndd-eval sweep", stderr)
	warcPath := fs.String("warc", "", "labelled WARC file (required)")
	truthPath := fs.String("truth", "", "truth file for the WARC (required)")
	outDir := fs.String("out", "docs/", "directory for quality.md and quality-f1.png")
	tauRange := fs.String("taus", "0.1:1.0:0.05", "τ sweep lo:hi:step (weighted Jaccard)")
	defaultTau := fs.Float64("default-tau", config.DefaultTau, "the job's default τ, whose wrong pairs and sensitivity are reported")
	sens := fs.Bool("sensitivity", true, "also vary each SpotSigs parameter by one step")
	blockLangs := fs.String("block-langs", "en,de", "languages of the boilerplate blocks injected into --warc's pages, comma-separated (eval.BoilerplateLanguages)")
	mlWarc := fs.String("boilerplate-warc", "", "a second labelled WARC file (e.g. the multilingual gold set) for the shared-boilerplate table")
	mlTruth := fs.String("boilerplate-truth", "", "truth file for --boilerplate-warc")
	mlBlockLangs := fs.String("boilerplate-block-langs", "en", "languages of the boilerplate blocks injected into --boilerplate-warc's pages")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	langWARC := fs.String("ml-warc", "", "multilingual labelled WARC file (optional; its truth needs \"lang\" per page): adds F1 per language")
	langTruth := fs.String("ml-truth", "", "truth file for --ml-warc")
	var reals []string
	fs.Func("real", "a real-page truth set as TRUTH.tsv:GLOB[,GLOB…] (its pages' WARC files; repeatable): the job's decisions on it, wrong and missed drops", func(v string) error {
		if _, _, ok := strings.Cut(v, ":"); !ok {
			return fmt.Errorf("want TRUTH.tsv:GLOB, got %q", v)
		}
		reals = append(reals, v)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *warcPath == "" || *truthPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	taus, err := parseTaus(*tauRange)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval sweep:", err)
		return 2
	}
	if !containsTau(taus, *defaultTau) {
		taus = append(taus, *defaultTau)
		slices.Sort(taus)
	}
	var progress io.Writer = stderr
	if *quiet {
		progress = nil
	}
	start := time.Now()
	fail := func(err error) int { fmt.Fprintln(stderr, "ndd-eval sweep:", err); return 1 }

	truth, err := eval.LoadTruth(*truthPath)
	if err != nil {
		return fail(err)
	}
	corpus, err := eval.LoadCorpus(*warcPath, truth)
	if err != nil {
		return fail(err)
	}
	if progress != nil {
		fmt.Fprintf(progress, "read %d labelled pages in %v\n", len(corpus.Docs), corpus.ReadTime.Round(time.Millisecond))
	}
	cfg := eval.DefaultMethodsConfig()
	methods, err := eval.Methods(cfg)
	if err != nil {
		return fail(err)
	}
	sweeps := eval.Sweep(corpus, methods, taus, progress)
	rep := &eval.Report{
		Command:    "make eval",
		Corpus:     corpus,
		Sweeps:     sweeps,
		Default:    "SpotSigs",
		DefaultTau: *defaultTau,
		Defaults:   eval.DefaultsDescription(cfg, *defaultTau),
		PlotFile:   "quality-f1.png",
		Notes:      eval.QualityNotes,
	}
	jobParams := config.DefaultParams()
	jobParams.Tau = *defaultTau
	for _, r := range reals {
		truthPath, globs, _ := strings.Cut(r, ":")
		score, err := eval.ScoreRealRun(context.Background(), jobParams, truthPath, strings.Split(globs, ","))
		if err != nil {
			return fail(err)
		}
		rep.Real = append(rep.Real, score)
		if progress != nil {
			fmt.Fprintf(progress, "decisions on %s: drop precision %.3f, recall %.3f\n", score.Set, score.DropPrecision, score.DropRecall)
		}
	}
	for _, g := range [][2]string{{*warcPath, *truthPath}, {*langWARC, *langTruth}} {
		if g[0] == "" {
			continue
		}
		row, err := eval.GoldDecisions(context.Background(), jobParams, g[0], g[1])
		if err != nil {
			return fail(err)
		}
		rep.Decisions = append(rep.Decisions, row)
	}
	injections, err := eval.BoilerplateInjections(strings.Split(*blockLangs, ",")...)
	if err != nil {
		return fail(err)
	}
	rep.Boilerplate, err = eval.BoilerplateTable(context.Background(), *warcPath, truth, jobParams, injections, progress)
	if err != nil {
		return fail(err)
	}
	rep.BoilerplateLangs = eval.InjectedLanguages(injections)
	if *mlWarc != "" {
		mt, err := eval.LoadTruth(*mlTruth)
		if err != nil {
			return fail(err)
		}
		mlInjections, err := eval.BoilerplateInjections(strings.Split(*mlBlockLangs, ",")...)
		if err != nil {
			return fail(err)
		}
		rows, err := eval.BoilerplateTable(context.Background(), *mlWarc, mt, jobParams, mlInjections, progress)
		if err != nil {
			return fail(err)
		}
		rep.BoilerplateLangs = eval.InjectedLanguages(append(injections, mlInjections...))
		for i := range rows {
			rows[i].Name = filepath.Base(filepath.Dir(*mlWarc)) + ": " + rows[i].Name
		}
		for i := range rep.Boilerplate {
			rep.Boilerplate[i].Name = filepath.Base(filepath.Dir(*warcPath)) + ": " + rep.Boilerplate[i].Name
		}
		rep.Boilerplate = append(rep.Boilerplate, rows...)
	}
	if *sens {
		rows, err := eval.Sensitivity(corpus, cfg, eval.DefaultVariants(), taus, *defaultTau, progress)
		if err != nil {
			return fail(err)
		}
		rep.Sensitivity = rows
	}
	if *langWARC != "" {
		mlt, err := eval.LoadTruth(*langTruth)
		if err != nil {
			return fail(err)
		}
		mlc, err := eval.LoadCorpus(*langWARC, mlt)
		if err != nil {
			return fail(err)
		}
		ml, err := eval.Multilingual(mlc, cfg, eval.MultilingualVariants(), taus, *defaultTau, progress)
		if err != nil {
			return fail(err)
		}
		rep.Multilingual, rep.MultilingualSet = ml, filepath.Dir(*langWARC)
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return fail(err)
	}
	if err := eval.WritePlot(filepath.Join(*outDir, rep.PlotFile), sweeps); err != nil {
		return fail(err)
	}
	rep.Elapsed = time.Since(start)
	f, err := os.Create(filepath.Join(*outDir, "quality.md"))
	if err != nil {
		return fail(err)
	}
	if err := errors.Join(rep.WriteMarkdown(f), f.Close()); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %s and %s in %v\n", filepath.Join(*outDir, "quality.md"),
		filepath.Join(*outDir, rep.PlotFile), time.Since(start).Round(time.Second))
	return 0
}

// parseTaus parses "lo:hi:step" into the τ values lo, lo+step, …, hi.
func parseTaus(s string) ([]float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("--taus %q: want lo:hi:step", s)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return nil, fmt.Errorf("--taus %q: %v", s, err)
		}
		v[i] = f
	}
	if v[0] <= 0 || v[1] > 1 || v[0] > v[1] || v[2] <= 0 {
		return nil, fmt.Errorf("--taus %q: want 0 < lo <= hi <= 1 and step > 0", s)
	}
	return eval.Taus(v[0], v[1], v[2]), nil
}

// containsTau reports whether taus holds t (to 1e-9).
func containsTau(taus []float64, t float64) bool {
	for _, x := range taus {
		if math.Abs(x-t) < 1e-9 {
			return true
		}
	}
	return false
}
