package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndd-beam/ndd-beam/eval"
)

// ndd-eval batches writes one directory per day, its files complete, and
// batches.json last with a day's counts: shares of --pages, the new
// articles the rest. Shares that do not fit are usage errors.
func TestRunEvalBatches(t *testing.T) {
	gold := "../../../shared/data/goldset"
	if _, err := os.Stat(filepath.Join(gold, "core_texts.jsonl.gz")); err != nil {
		t.Skip("needs the dev gold set's core texts in ../shared/data/goldset")
	}
	var stderr bytes.Buffer
	for _, args := range [][]string{
		{"--days", "2"},
		{"--out", "x", "--copies", "1.5"},
		{"--out", "x", "--edited", "0.7", "--extended", "0.5"},
		{"--out", "x", "--pages", "10", "--recapture", "0.9"},
	} {
		if code := runEvalBatches(args, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	out := t.TempDir()
	if code := runEvalBatches([]string{"--out", out, "--gold", gold, "--days", "3", "--pages", "200"}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, d := range []string{"day-01", "day-02", "day-03"} {
		names, _ := filepath.Glob(filepath.Join(out, d, "*"))
		if len(names) != 2 || filepath.Base(names[0]) != "crawl.warc.gz" || filepath.Base(names[1]) != "truth.jsonl" {
			t.Errorf("%s holds %q", d, names)
		}
		f, err := os.Open(filepath.Join(out, d, "truth.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		truth, err := eval.ReadTruth(f)
		f.Close()
		if err != nil || len(truth.Records) != 200 {
			t.Errorf("%s: %d truth records, %v", d, len(truth.Records), err)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, batchesDone))
	if err != nil {
		t.Fatal(err)
	}
	var counts map[string]float64
	if err := json.Unmarshal(b, &counts); err != nil {
		t.Fatal(err)
	}
	// 200 pages: 50 re-captures, 10 soft-404s, 4 copies, 2 variants, 134 new articles (184 on day 1)
	for k, want := range map[string]float64{"days": 3, "recaptures": 50, "soft404": 10, "copies": 4, "variants": 2, "new_articles": 134, "day_1_new_articles": 184} {
		if counts[k] != want {
			t.Errorf("batches.json %s %v, want %v", k, counts[k], want)
		}
	}
}
