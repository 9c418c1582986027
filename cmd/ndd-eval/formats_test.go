package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
)

var runStarted = regexp.MustCompile(`run started [0-9T:.Z-]+`)

// ndd-eval reads either format of the outputs (output.Read): check,
// report, decisions and realset say the same of a run on the shared WARCs
// written as JSON lines and as Parquet.
func TestEvalReadsEitherFormat(t *testing.T) {
	input := "../../../shared/data/warc"
	truth := "../../../shared/data/realset/truth.tsv"
	if _, err := os.Stat(truth); err != nil {
		input, truth = "../../testdata", ""
	}
	dir := t.TempDir()
	say := map[string]string{}
	for _, format := range config.OutputFormats {
		out := filepath.Join(dir, format)
		runJobT(t, input+"/", out, "", "", func(c *config.Config) { c.OutputFormat = format })
		var stdout, stderr bytes.Buffer
		run := func(name string, code int) {
			if code != 0 {
				t.Fatalf("%s on %s: exit %d: %s", name, format, code, stderr.String())
			}
		}
		run("check", runEvalCheck([]string{out}, &stdout, &stderr))
		run("decisions", runEvalDecisions([]string{"--decisions", filepath.Join(out, "decisions-*"), "--truth", "../../eval/testdata/tiny_truth.jsonl", "--json"}, &stdout, &stderr))
		if truth != "" {
			run("realset", runEvalRealset([]string{"--truth", truth, "--list", out}, &stdout, &stderr))
		}
		run("report", runEvalReport([]string{"--samples", "3", out}, &stdout, &stderr))
		report, err := os.ReadFile(out + ".report.html")
		if err != nil {
			t.Fatal(err)
		}
		said := strings.ReplaceAll(stdout.String()+string(report), out, "OUT")
		said = runStarted.ReplaceAllString(said, "run started START") // the run's own time
		if strings.Contains(said, "parquet") || strings.Contains(said, "jsonl") {
			t.Errorf("%s: ndd-eval names the files: the comparison below would fail on names", format)
		}
		say[format] = said
	}
	if say[config.OutputFormatJSONL] != say[config.OutputFormatParquet] || len(say[config.OutputFormatJSONL]) < 1000 {
		t.Errorf("ndd-eval says %d bytes of the JSON lines and %d of the Parquet outputs, not the same", len(say[config.OutputFormatJSONL]), len(say[config.OutputFormatParquet]))
	}
}
