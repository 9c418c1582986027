package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The README's first screen works as written: its first code block holds
// the two commands, the job (make build, then bin/ndd-beam on testdata/)
// and the tests (make test, the command .ci/run runs); "Your own crawl"
// starts within the first 40 lines; the job's arguments run as given and
// read every WARC file in testdata/; and the jq lines that read the
// decisions give one line per dropped page and per cluster, and some of
// the dropped pages for one host (TestOutputsInDuckDB asks the same
// questions in SQL).
func TestREADMECommands(t *testing.T) {
	readme := string(readFileT(t, "../../README.md"))
	lines := strings.Split(readme, "\n")
	crawl := -1
	for i, l := range lines {
		if l == "## Your own crawl" {
			crawl = i + 1
			break
		}
	}
	if crawl < 0 || crawl > 40 {
		t.Errorf(`"## Your own crawl" at line %d, want within the first 40`, crawl)
	}
	_, block, _ := strings.Cut(readme, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(l, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if len(cmds) != 2 || cmds[1] != "make test" {
		t.Fatalf("first code block: %q, want the job and make test", cmds)
	}
	if ci := string(readFileT(t, "../../.ci/run")); !strings.Contains(ci, "\nmake test\n") {
		t.Error(".ci/run does not run make test, the README's test command")
	}
	build, job, ok := strings.Cut(cmds[0], " && ")
	if !ok || build != "make build" || !strings.HasPrefix(job, "bin/ndd-beam ") {
		t.Fatalf("job command %q: want make build && bin/ndd-beam …", cmds[0])
	}
	out := filepath.Join(t.TempDir(), "out") + "/"
	var args []string
	for _, a := range strings.Fields(strings.TrimPrefix(job, "bin/ndd-beam ")) {
		a = strings.Replace(a, "=testdata/", "="+testdata+"/", 1)
		a = strings.Replace(a, "--output=out/", "--output="+out, 1)
		args = append(args, a)
	}
	code, stdout, stderr := cli(t, args...)
	if code != 0 || !strings.Contains(stdout, " from 9 files;") {
		t.Fatalf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
	}
	sum := readSummaryT(t, out)

	for _, tool := range []string{"jq", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	clusters := 0
	for _, n := range sum.ClusterSizes {
		clusters += n
	}
	ran := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "jq ") {
			continue
		}
		cmd, _, _ := strings.Cut(l, "   #")
		cmd = strings.ReplaceAll(cmd, "out/", out)
		got, err := exec.Command("sh", "-c", cmd).Output()
		if err != nil {
			t.Errorf("%s: %v", cmd, err)
			continue
		}
		n := strings.Count(string(got), "\n")
		w := sum.Dropped // a line per page to delete
		if strings.Contains(cmd, "group_by") {
			w = clusters // a line per cluster
		}
		if !strings.Contains(cmd, "host") && (n != w || w == 0) {
			t.Errorf("%s: %d lines, want %d (summary.json)", cmd, n, w)
		}
		// URIs, not record IDs; a re-capture's URI is not shown twice.
		for _, l := range strings.Split(strings.TrimSpace(string(got)), "\n") {
			f := strings.Split(l, "\t")
			if strings.Contains(cmd, "host") {
				continue
			}
			if strings.Contains(l, "urn:uuid:") || len(f) < 5 || !strings.Contains(cmd, "group_by") && f[2] == f[5] {
				t.Errorf("%s: line %q", cmd, l)
			}
		}
		if strings.Contains(cmd, "host") && (n == 0 || n >= sum.Dropped) {
			t.Errorf("%s: %d lines, want some of the %d dropped pages", cmd, n, sum.Dropped)
		}
		ran++
	}
	if ran != 3 {
		t.Errorf("%d jq lines in the README, want 3 (pages to delete, clusters, one host's dropped pages)", ran)
	}
}
