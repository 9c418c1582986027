// Command ndd-beam finds near-duplicate web pages in WARC web archives with
// SpotSigs (Theobald, Siddharth, Paepcke, SIGIR 2008) as an Apache Beam job.
//
//	ndd-beam --input='testdata/*.warc.gz' --output=out/
//
// runs on the direct runner with the job's defaults (config.DefaultParams:
// the paper's antecedents, d and c of §5.3.2, but τ 0.2 and the same-site
// τ 0.9 chosen on labelled pages, docs/quality.md) and writes
// out/pairs-*.jsonl, out/rejects-*.jsonl, out/decisions-*.jsonl,
// out/clusters-*.jsonl (.parquet with --output_format=parquet), out/summary.json and, last, out/_SUCCESS (see package
// pipeline); an output directory holding an earlier run's files is refused
// unless --overwrite. Beam's runner flags (--runner=prism|dataflow|flink, --endpoint,
// --environment_type, Dataflow's --project, --region, --staging_location,
// --worker_binary, --dry_run, …) are accepted as well. A bad flag, an input
// glob that matches nothing, an unwritable or used output is one error line
// and exit status 2; a failed job (or a crash) is one error line, its root
// cause without Beam's execution plan, and exit status 1.
//
// Quality evaluation is a separate command, cmd/ndd-eval.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/pipeline"
	"github.com/ndd-beam/ndd-beam/storage" // registers local, gs://, s3://, http(s)://
	"github.com/ndd-beam/ndd-beam/warc"
)

// defaultRunner replaces beamx's default (prism in Beam v2.77.0) when no
// --runner is given.
const defaultRunner = "direct"

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is the job command: flags -> Config -> Validate -> Build -> beamx.Run
// -> one summary line. It returns the exit status: 0, 2 for a usage or
// configuration error, 1 for a failure at run time, a panic included (which
// Go would otherwise report with a stack trace and status 2, like a usage
// error).
func run(args []string) (status int) {
	defer func() {
		if r := recover(); r != nil {
			status = fail(1, "internal error: %v", r)
		}
	}()
	cfg := config.DefaultConfig()
	jobs := newJobFlagSet()
	cmd := registerFlags(jobs, &cfg)
	jobs.addTo(flag.CommandLine)
	flag.CommandLine.Init("ndd-beam", flag.ContinueOnError)
	flag.CommandLine.SetOutput(io.Discard)
	flag.CommandLine.Usage = func() {}
	if err := flag.CommandLine.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(os.Stdout, jobs, flag.CommandLine)
			return 0
		}
		return fail(2, "%s (see ndd-beam --help)", unknownFlag(err, flag.CommandLine))
	}
	if flag.NArg() > 0 {
		return fail(2, "unexpected argument %q (flags only; see ndd-beam --help)", flag.Arg(0))
	}
	if *cmd.version {
		v, rev := output.BuildVersion()
		if rev == "" {
			rev = "unknown"
		}
		fmt.Printf("ndd-beam %s revision %s Beam Go SDK %s %s\n", v, rev, core.SdkVersion, runtime.Version())
		return 0
	}
	if *cmd.printMeta {
		if err := writeTemplateMetadata(os.Stdout, jobs); err != nil {
			return fail(1, "%v", err)
		}
		return 0
	}
	if *runners.Runner == "" {
		*runners.Runner = defaultRunner
	}
	switch *cmd.logLevel {
	case "debug", "info", "warn", "error":
		log.LogLevel = *cmd.logLevel
	default:
		return fail(2, "--log_level=%q: want debug, info, warn or error", *cmd.logLevel)
	}
	limit, from, err := setMemoryLimit(cfg.MemoryLimit) // before Init: workers run it too
	if err != nil {
		return fail(2, "--memory_limit=%q: %v", cfg.MemoryLimit, err)
	}
	if *cmd.logLevel == "debug" || *cmd.logLevel == "info" {
		fmt.Fprintf(os.Stderr, "ndd-beam: memory limit %d MiB (%s)\n", limit>>20, from)
	}
	beam.Init() // on a worker this runs the harness and does not return
	if err := checkRunner(*runners.Runner); err != nil {
		return fail(2, "%v", err)
	}
	defaultWorkerBinary(*runners.Runner)

	ctx := context.Background()
	cfg.Input = splitGlobs(*cmd.input)
	cfg.Runner = *runners.Runner
	if err := checkDataflow(cfg.Runner, cfg.Input, cfg.Output); err != nil {
		return fail(2, "%v", err)
	}
	var launched *pipeline.Launched
	if dryRun() {
		err = pipeline.ValidateValues(&cfg)
	} else {
		launched, err = pipeline.Launch(ctx, &cfg)
	}
	if err != nil {
		return fail(2, "%v", strings.TrimPrefix(err.Error(), config.ErrConfig.Error()+": "))
	}
	if launched != nil {
		defer launched.Release(ctx)
		for _, n := range launched.Notes {
			fmt.Fprintln(os.Stderr, "ndd-beam: "+n)
		}
		stop := onSignal(ctx, launched)
		defer stop()
	}

	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(ctx, s, cfg); err != nil {
		return fail(2, "%v", err)
	}
	var held heldErrors
	var quiet dryRunNoise
	if *cmd.logLevel == "warn" || *cmd.logLevel == "error" {
		if dryRun() {
			quiet = quietDryRun() // the dry run's line below says what matters of it
		}
		held = holdErrorLogs() // the error line below replaces Beam's error logs
	}
	if path := os.Getenv(CPUProfileEnv); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			return fail(2, "%s: %v", CPUProfileEnv, err)
		}
		defer stop()
	}
	var prog *progressPrinter
	if !dryRun() && progressWanted(cfg.Progress, cfg.Runner, os.Stderr) {
		prog = startProgress(os.Stderr, cfg.ProgressInterval)
	}
	if dir := os.Getenv(HeapProfilesEnv); dir != "" {
		defer startHeapProfiles(dir, 500*time.Millisecond, 200<<20)()
	}
	if err := beamx.Run(ctx, p); err != nil {
		prog.finish(false)
		return fail(1, "job failed: %s", jobError(err))
	}
	prog.finish(true)
	if held.held != nil {
		held.flush()
	}
	if dryRun() {
		note := ""
		if quiet.noCreds != nil && *quiet.noCreds {
			note = " (no Google Cloud credentials found: a real run needs gcloud auth application-default login)"
		}
		fmt.Fprintln(os.Stderr, "ndd-beam: dry run: job built, not submitted"+note)
		return 0
	}
	sum, err := readSummary(ctx, cfg.Output)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ndd-beam: job finished; summary not readable yet (%v)\n", err)
		return 0
	}
	warnInputs(sum)
	if len(sum.Files) == 0 {
		return fail(2, "%s", noFileRead(ctx, cfg.Output, sum))
	}
	if warcRecords(sum) == 0 {
		return fail(2, "%s", noRecordRead(ctx, cfg.Output, sum))
	}
	fmt.Println(closingLine(sum, cfg.Output))
	return 0
}

// warcRecords is the number of WARC records read: summary records less
// the rejects that are input paths or unreadable stretches. 0 means no
// input held a WARC record (exit status 2).
func warcRecords(sum output.Summary) int {
	n := sum.Records
	for _, r := range []string{warc.SkipUnreadable, dedup.ReasonUnreadableFile, dedup.ReasonEmptyFile, dedup.ReasonIrregularFile, dedup.ReasonDuplicateFile} {
		n -= sum.Skipped[r]
	}
	return n
}

// problemWords says what an input problem (summary input_problems) is.
var problemWords = map[string]string{
	dedup.ReasonUnreadableFile: "missing or unreadable",
	dedup.ReasonEmptyFile:      "empty (0 bytes)",
	dedup.ReasonIrregularFile:  "not a regular file",
	output.ProblemNoWARCRecord: "holds no WARC record",
}

// warnInputs prints one warning line on stderr per input file that gave
// no WARC record (summary input_problems), in path order.
func warnInputs(sum output.Summary) {
	paths := make([]string, 0, len(sum.InputProblems))
	for p := range sum.InputProblems {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		r := sum.InputProblems[p]
		what := problemWords[r]
		if what == "" {
			what = r
		}
		fmt.Fprintf(os.Stderr, "ndd-beam: warning: %s: %s (%s)\n", p, what, r)
	}
}

// noRecordRead explains a run whose input files were opened but held no
// WARC record, on one line, and removes _SUCCESS as noFileRead does.
func noRecordRead(ctx context.Context, dir string, sum output.Summary) string {
	if fs, err := storage.New(ctx, dir); err == nil {
		if r, ok := fs.(filesystem.Remover); ok {
			r.Remove(ctx, output.JoinPath(dir, output.SuccessFile))
		}
		fs.Close()
	}
	return fmt.Sprintf("no WARC record was read from any input (%s opened; %s no WARC record, see the warnings above); rejects in %s",
		plural(len(sum.Files), "file", "files"), plural(len(sum.InputProblems), "input file gave", "input files gave"), output.JoinPath(dir, "rejects-*"))
}

// onSignal makes SIGINT and SIGTERM stop the run on one line: no commit
// starts after the signal (one in progress ends first), the run's
// temporary files and uncommitted index segment are removed, its locks
// released, and the process exits with 128 + the signal's number (130,
// 143). It returns the function that stops listening.
func onSignal(ctx context.Context, l *pipeline.Launched) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case sig := <-ch:
			status, name := 130, "SIGINT"
			if sig == syscall.SIGTERM {
				status, name = 143, "SIGTERM"
			}
			what := "nothing committed; its temporary files and index segment removed"
			if l.Abort(ctx) {
				what = "after its commit: the outputs are complete"
			}
			fmt.Fprintf(os.Stderr, "ndd-beam: stopped by %s: %s\n", name, what)
			os.Exit(status)
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

func splitGlobs(s string) []string {
	var out []string
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// dryRun reports whether Dataflow's --dry_run flag is set.
func dryRun() bool {
	f := flag.Lookup("dry_run")
	return f != nil && f.Value.String() == "true"
}

// readSummary reads summary.json back from the output directory dir.
func readSummary(ctx context.Context, dir string) (output.Summary, error) {
	path := output.JoinPath(dir, output.SummaryFile)
	var sum output.Summary
	fs, err := storage.New(ctx, path)
	if err != nil {
		return sum, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return sum, err
	}
	defer r.Close()
	return sum, json.NewDecoder(r).Decode(&sum)
}

// closingLine sums up a finished run in the user's words: pages read
// (records that became text, each with one decision line), kept and
// dropped (exact copies: weighted Jaccard 1; near-duplicates: the rest),
// the records that are not pages by reason, most frequent first, and where
// the outputs are, and the index segment written (--write_index). Pages +
// other records = records read; kept + dropped = pages.
func closingLine(sum output.Summary, dir string) string {
	reasons, other := sum.NotPages()
	names := make([]string, 0, len(reasons))
	for r := range reasons {
		names = append(names, r)
	}
	sort.Slice(names, func(i, j int) bool {
		if reasons[names[i]] != reasons[names[j]] {
			return reasons[names[i]] > reasons[names[j]]
		}
		return names[i] < names[j]
	})
	why := ""
	if len(names) > 0 {
		parts := make([]string, len(names))
		for i, r := range names {
			parts[i] = fmt.Sprintf("%s %d", r, reasons[r])
		}
		why = " (" + strings.Join(parts, ", ") + ")"
	}
	earlier := ""
	if len(sum.Against) > 0 {
		earlier = fmt.Sprintf("; %d of them for pages of earlier runs", sum.DroppedForIndex)
	}
	seg := ""
	if sum.IndexSegment != "" {
		seg = fmt.Sprintf("; index segment %s written", output.JoinPath(sum.IndexDir, sum.IndexSegment))
	}
	from := plural(len(sum.Files), "file", "files")
	if n := len(sum.InputProblems); n > 0 {
		from += fmt.Sprintf(" (%s no WARC record: missing, empty or unreadable, see the warnings above)", plural(n, "input file gave", "input files gave"))
	}
	return fmt.Sprintf("ndd-beam: read %s and %s%s from %s; kept %s, dropped %d (%s, %s%s); keep/drop per page in %s, all outputs in %s%s",
		plural(sum.Pages(), "page", "pages"), plural(other, "other record", "other records"), why, from,
		plural(sum.Kept, "page", "pages"), sum.Dropped, plural(sum.DroppedExact, "exact copy", "exact copies"),
		plural(sum.Dropped-sum.DroppedExact, "near-duplicate", "near-duplicates"), earlier,
		output.JoinPath(dir, output.Decisions+"-*"), dir, seg)
}

// plural is "n one" for n == 1, else "n many".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// noFileRead explains a run that opened no input file, on one line: how
// many inputs were rejected for which reasons, the first rejected input
// with its detail, and where the rejects are. It removes _SUCCESS, so
// that no reader trusts the output of such a run; the rejects and the
// summary stay.
func noFileRead(ctx context.Context, dir string, sum output.Summary) string {
	first := ""
	fs, err := storage.New(ctx, dir)
	if err == nil {
		defer fs.Close()
		if r, ok := fs.(filesystem.Remover); ok {
			r.Remove(ctx, output.JoinPath(dir, output.SuccessFile))
		}
		first = firstFileReject(ctx, fs, dir)
	}
	var parts []string
	for _, r := range []string{dedup.ReasonUnreadableFile, dedup.ReasonIrregularFile, dedup.ReasonDuplicateFile} {
		if n := sum.Skipped[r]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, n))
		}
	}
	msg := "no input file could be read"
	if len(parts) > 0 {
		msg += " (" + strings.Join(parts, ", ") + ")"
	}
	if first != "" {
		msg += "; first: " + first
	}
	return msg + "; rejects in " + output.JoinPath(dir, output.Rejects+"-*")
}

// firstFileReject returns "PATH: DETAIL" of the first rejected input file
// (a reject at offset -1) in the rejects shards under dir, in any format
// (output.Decode), or "".
func firstFileReject(ctx context.Context, fs filesystem.Interface, dir string) string {
	shards, err := fs.List(ctx, output.Glob(dir, output.Rejects))
	if err != nil {
		return ""
	}
	sort.Strings(shards)
	errFound := errors.New("found")
	first := ""
	for _, p := range shards {
		rc, err := fs.OpenRead(ctx, p)
		if err != nil {
			continue
		}
		err = output.Decode(p, rc, func(r output.Reject) error {
			if r.Offset == -1 {
				first = r.File + ": " + r.Detail
				return errFound
			}
			return nil
		})
		rc.Close()
		if err == errFound {
			return first
		}
	}
	return ""
}

// fail prints one error line and returns status.
func fail(status int, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
	fmt.Fprintln(os.Stderr, "ndd-beam: "+msg)
	return status
}
