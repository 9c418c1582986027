package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestMain runs the tests; with NDD_EVAL_AS_CLI=1 it runs the command with
// the given arguments instead, so that a test can run it as a process of
// its own (killed at a fault point: compact_test.go).
func TestMain(m *testing.M) {
	if os.Getenv("NDD_EVAL_AS_CLI") == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// The tiny truth and pairs files of eval/testdata are hand-checked in
// eval/metrics_test.go: TP 3, FP 2, FN 1, P 0.6, R 0.75, F1 2/3.
func TestRunEvalPairsTable(t *testing.T) {
	var out, errb bytes.Buffer
	code := runEvalPairs([]string{"--pairs", "../../eval/testdata/tiny_pairs*.jsonl",
		"--truth", "../../eval/testdata/tiny_truth.jsonl"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"precision", "0.6000", "0.7500", "0.6667", "pairs with a page not in the truth  1", "urn:zz"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// Cluster A (recall 2/3) is listed before cluster B (1).
	if a, b := strings.Index(out.String(), "\nA "), strings.Index(out.String(), "\nB "); a < 0 || b < 0 || a > b {
		t.Errorf("per-cluster recall not listed lowest first:\n%s", out.String())
	}
}

func TestRunEvalPairsJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := runEvalPairs([]string{"--json", "--pairs", "../../eval/testdata/tiny_pairs*.jsonl",
		"--truth", "../../eval/testdata/tiny_truth.jsonl"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Precision, Recall, F1 float64
		TruePositives         int64 `json:"true_positives"`
		Unknown               []json.RawMessage
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Precision != 0.6 || got.Recall != 0.75 || got.TruePositives != 3 || len(got.Unknown) != 1 {
		t.Errorf("JSON result %+v", got)
	}
}

func TestRunEvalUsageErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runEvalPairs([]string{"--truth", "x.jsonl"}, &out, &errb); code != 2 {
		t.Errorf("missing --pairs: exit %d, want 2", code)
	}
	if code := runEvalPairs([]string{"--pairs", "nothing*.jsonl", "--truth", "../../eval/testdata/tiny_truth.jsonl"}, &out, &errb); code != 1 {
		t.Errorf("pairs glob matching nothing: exit %d, want 1", code)
	}
	if _, err := parseTaus("0.3:1.0:0.05"); err != nil {
		t.Error(err)
	}
	if ts, _ := parseTaus("0.3:1.0:0.05"); len(ts) != 15 || ts[14] != 1.0 {
		t.Errorf("τ sweep 0.3..1.0 step 0.05 = %v, want 15 values ending at 1.0", ts)
	}
	if _, err := parseTaus("0:1:0.1"); err == nil {
		t.Error("τ = 0 accepted")
	}
}
