package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ndd-beam/ndd-beam/eval"
)

// runEvalReport writes the run report (one HTML file) of a job output
// directory.
func runEvalReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ndd-eval report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, reportUsage); fs.PrintDefaults() }
	report := fs.String("report", "", "the HTML file to write (default: OUTPUT_DIR without its trailing slash + \".report.html\"); not inside OUTPUT_DIR")
	samples := fs.Int("samples", 10, "dropped pages shown beside their kept page (0: none)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 || *samples < 0 {
		fs.Usage()
		return 2
	}
	dir := fs.Arg(0)
	path, err := reportPath(dir, *report)
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval report:", err)
		return 2
	}
	r, err := eval.LoadRunReport(dir, *samples)
	if err == nil {
		err = r.LoadSamples(*samples)
	}
	if err == nil {
		err = writeBuffered(path, r.WriteHTML)
	}
	if err != nil {
		fmt.Fprintln(stderr, "ndd-eval report:", err)
		return 1
	}
	if !r.Committed {
		fmt.Fprintf(stderr, "ndd-eval report: warning: %s has no _SUCCESS: the run did not finish, its files may be incomplete\n", dir)
	}
	if r.Unreadable > 0 {
		fmt.Fprintf(stderr, "ndd-eval report: warning: the text of %d sample pages could not be read (first: %s)\n", r.Unreadable, r.FirstUnreadable)
	}
	fmt.Fprintf(stdout, "ndd-eval: report in %s\n", path)
	return 0
}

// reportPath is where the report of the output directory dir goes: flag
// if set, else beside dir ("out/" gives "out.report.html"). A path inside
// dir is refused: the job's --overwrite refuses a directory holding files
// it did not write, so the report would break the next run.
func reportPath(dir, flag string) (string, error) {
	clean := filepath.Clean(dir)
	if flag == "" {
		if base := filepath.Base(clean); base == "." || base == ".." || base == string(filepath.Separator) {
			return "", fmt.Errorf("no name beside %q to write the report to; give --report FILE", dir)
		}
		return clean + ".report.html", nil
	}
	absDir, err := filepath.Abs(clean)
	if err != nil {
		return "", err
	}
	absRep, err := filepath.Abs(flag)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(absDir, absRep); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("--report %s is inside the output directory %s, whose next run --overwrite would refuse; write it beside", flag, dir)
	}
	return flag, nil
}
