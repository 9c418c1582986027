package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeOutput writes a small job output directory: three pages, b dropped
// by a at 0.5 (a pair), c kept; one cluster; two skipped records.
func writeOutput(t *testing.T, pairs, decisions, clusters string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"summary.json":                   `{"records":5,"documents":3,"skipped":{"request":1,"not-html":1},"pairs":1,"kept":2,"dropped":1,"parameters":{"tau":0.2,"same_site_tau":0.9}}`,
		"pairs-00000-of-00001.jsonl":     pairs,
		"decisions-00000-of-00001.jsonl": decisions,
		"clusters-00000-of-00001.jsonl":  clusters,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	okPairs     = `{"a_record_id":"a","a_uri":"http://x.example/a","b_record_id":"b","b_uri":"http://y.example/b","jaccard":0.5,"a_file":"f","a_offset":0,"a_inner_offset":0,"b_file":"f","b_offset":1,"b_inner_offset":0,"a_share":0.9,"b_share":0.85,"near_duplicate":true}` + "\n"
	okDecisions = `{"file":"f","offset":0,"inner_offset":0,"record_id":"a","uri":"http://x.example/a","keep":true,"method":"spotsigs"}
{"file":"f","offset":1,"inner_offset":0,"record_id":"b","uri":"http://y.example/b","keep":false,"kept_by":"a","kept_by_uri":"http://x.example/a","kept_by_file":"f","kept_by_offset":0,"kept_by_inner_offset":0,"jaccard":0.5,"method":"spotsigs"}
{"file":"f","offset":2,"inner_offset":0,"record_id":"c","uri":"http://y.example/c","keep":true,"method":"spotsigs"}
`
	okClusters = `{"file":"f","offset":0,"inner_offset":0,"record_id":"a","uri":"http://x.example/a","dropped":["b"],"size":2}` + "\n"
)

func TestRunEvalCheck(t *testing.T) {
	var out, errb bytes.Buffer
	good := writeOutput(t, okPairs, okDecisions, okClusters)
	if code := runEvalCheck([]string{good}, &out, &errb); code != 0 {
		t.Fatalf("good output: exit %d: %s %s", code, out.String(), errb.String())
	}
	// b kept too: the pair joins two kept pages, and the cluster lists a
	// page nobody names as kept_by.
	bad := writeOutput(t, okPairs, strings.Replace(okDecisions, `"keep":false,"kept_by":"a","kept_by_uri":"http://x.example/a","kept_by_file":"f","kept_by_offset":0,"kept_by_inner_offset":0,"jaccard":0.5`, `"keep":true`, 1), okClusters)
	out.Reset()
	if code := runEvalCheck([]string{bad}, &out, &errb); code != 1 || !strings.Contains(out.String(), "joins two kept pages") {
		t.Errorf("bad output: exit %d, %s", code, out.String())
	}
	// Dropped for a candidate that verification rejected: not a pair.
	bad = writeOutput(t, strings.Replace(okPairs, `"near_duplicate":true`, `"near_duplicate":false`, 1), okDecisions, okClusters)
	out.Reset()
	if code := runEvalCheck([]string{bad}, &out, &errb); code != 1 || !strings.Contains(out.String(), "not a pair") {
		t.Errorf("dropped for a rejected candidate: exit %d, %s", code, out.String())
	}
	// Dropped at a Jaccard the pairs do not have.
	bad = writeOutput(t, okPairs, strings.Replace(okDecisions, `"jaccard":0.5,"method"`, `"jaccard":0.7,"method"`, 1), okClusters)
	out.Reset()
	if code := runEvalCheck([]string{bad}, &out, &errb); code != 1 || !strings.Contains(out.String(), "not a pair") {
		t.Errorf("wrong jaccard: exit %d, %s", code, out.String())
	}
	// kept_by names a's record ID and URI but c's location.
	bad = writeOutput(t, okPairs, strings.Replace(okDecisions, `"kept_by_offset":0,`, `"kept_by_offset":2,`, 1), okClusters)
	out.Reset()
	if code := runEvalCheck([]string{bad}, &out, &errb); code != 1 || !strings.Contains(out.String(), "is not a kept page") {
		t.Errorf("wrong kept_by location: exit %d, %s", code, out.String())
	}
	// a and b on one site: 0.5 is below same_site_tau.
	sameSite := func(s string) string { return strings.ReplaceAll(s, "http://y.example/b", "http://x.example/b") }
	bad = writeOutput(t, sameSite(okPairs), sameSite(okDecisions), okClusters)
	out.Reset()
	if code := runEvalCheck([]string{bad}, &out, &errb); code != 1 || !strings.Contains(out.String(), "not a pair >= 0.9") {
		t.Errorf("same-site drop at 0.5: exit %d, %s", code, out.String())
	}
}

// The report goes beside the output directory, never into it (the next
// run's --overwrite would refuse the directory); a page whose WARC file is
// not there is shown without its text.
func TestRunEvalReport(t *testing.T) {
	dir := writeOutput(t, okPairs, okDecisions, okClusters)
	before, _ := os.ReadDir(dir)
	var out, errb bytes.Buffer
	if code := runEvalReport([]string{dir + "/"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	page, err := os.ReadFile(dir + ".report.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-count="kept">2<`, `data-count="dropped">1<`, "<tr><td>y.example</td><td class=\"n\">1</td></tr>",
		"<tr><td>request</td><td class=\"n\">1</td></tr>", "dropped: http://y.example/b", "kept: http://x.example/a", "text not available: open f:"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("the report wrote into the output directory: %d files, were %d", len(after), len(before))
	}

	other := filepath.Join(t.TempDir(), "r.html")
	if code := runEvalReport([]string{"--report", other, "--samples", "0", dir}, &out, &errb); code != 0 {
		t.Fatalf("--report: exit %d: %s", code, errb.String())
	}
	if b, err := os.ReadFile(other); err != nil || strings.Contains(string(b), `class="sample"`) {
		t.Errorf("--report with --samples 0: %v, sample shown: %v", err, strings.Contains(string(b), `class="sample"`))
	}
	errb.Reset()
	if code := runEvalReport([]string{"--report", filepath.Join(dir, "sub", "r.html"), dir}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "inside the output directory") {
		t.Errorf("--report inside the output: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := runEvalReport([]string{"--help"}, &out, &errb); code != 0 || !strings.HasPrefix(errb.String(), "usage: ndd-eval report") || !strings.Contains(errb.String(), "-samples") {
		t.Errorf("--help: exit %d, %s", code, errb.String())
	}
}

func TestRunEvalDecisions(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	truth := filepath.Join(dir, "truth.jsonl")
	os.WriteFile(truth, []byte(`{"record_id":"a","uri":"http://x.example/a","cluster":"1"}
{"record_id":"b","uri":"http://y.example/b","cluster":"1"}
{"record_id":"c","uri":"http://y.example/c","cluster":"1"}
`), 0o644)
	ds := writeOutput(t, okPairs, okDecisions, okClusters)
	if code := runEvalDecisions([]string{"--decisions", filepath.Join(ds, "decisions-*.jsonl"), "--truth", truth}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"drop precision 1.0000", "drop recall 0.5000"} {
		if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
