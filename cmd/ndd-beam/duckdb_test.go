package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
)

// duckdbDir holds the npm package of DuckDB (scripts/duckdb: npm ci
// --prefix scripts/duckdb, which .ci/run does) and query.mjs.
const duckdbDir = "../../scripts/duckdb"

// duckdb runs the SQL statements in one DuckDB (npm @duckdb/node-api) and
// returns each one's rows as lines of tab-separated values, written as
// jq's @tsv writes them. Without node or the package the test is skipped,
// or fails if NDD_BEAM_REQUIRE_DUCKDB=1 (as .ci/run sets it).
func duckdb(t *testing.T, sql ...string) [][]string {
	t.Helper()
	_, errNode := exec.LookPath("node")
	_, errPkg := os.Stat(filepath.Join(duckdbDir, "node_modules", "@duckdb", "node-api"))
	if errNode != nil || errPkg != nil {
		msg := "DuckDB is not installed: make duckdb (npm ci --prefix scripts/duckdb)"
		if os.Getenv("NDD_BEAM_REQUIRE_DUCKDB") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	in, _ := json.Marshal(sql)
	cmd := exec.Command("node", filepath.Join(duckdbDir, "query.mjs"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v: %s", err, stderr.String())
	}
	var rows [][]string
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != len(sql) {
		t.Fatalf("duckdb: %d results for %d statements (%v): %.300s", len(rows), len(sql), err, out)
	}
	return rows
}

// Every Parquet output of a real run opens in DuckDB, an independent
// reader: its row counts equal summary.json, its columns and types are
// those docs/outputs.md lists, and the README's three questions, asked in
// its SQL over the Parquet outputs, get the answers of its jq lines over
// the JSON lines of the same input (the host question asked of the host
// with the most dropped pages). On testdata/ and the shared WARCs.
func TestOutputsInDuckDB(t *testing.T) {
	duckdb(t, "SELECT 1")
	inputs := []struct{ name, dir string }{{"testdata", testdata}, {"shared", "../../../shared/data/warc"}}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			if _, err := os.Stat(in.dir); err != nil {
				t.Skipf("no %s", in.dir)
			}
			tmp := t.TempDir()
			jsonl, pq := filepath.Join(tmp, "jsonl")+"/", filepath.Join(tmp, "parquet")+"/"
			for _, run := range [][]string{{"--output=" + jsonl}, {"--output=" + pq, "--output_format=parquet"}} {
				if code, _, stderr := cli(t, append(run, "--input="+in.dir+"/")...); code != 0 {
					t.Fatalf("%q: exit %d: %s", run, code, stderr)
				}
			}
			checkParquetCounts(t, pq)
			checkParquetSchema(t, pq)
			checkREADMEQuestions(t, jsonl, pq)
		})
	}
}

// checkParquetCounts checks the rows of each Parquet output against
// summary.json.
func checkParquetCounts(t *testing.T, dir string) {
	t.Helper()
	sum := readSummaryT(t, dir)
	clusters := 0
	for _, n := range sum.ClusterSizes {
		clusters += n
	}
	want := map[string]int{output.Pairs: sum.Pairs, output.Decisions: sum.Kept + sum.Dropped, output.Clusters: clusters, output.Rejects: sum.SkippedTotal()}
	var sql []string
	for _, o := range output.Sharded {
		sql = append(sql, fmt.Sprintf("SELECT count(*) FROM read_parquet('%s')", output.Glob(dir, o)+".parquet"))
	}
	for i, rows := range duckdb(t, sql...) {
		o := output.Sharded[i]
		if n, err := strconv.Atoi(rows[0]); err != nil || n != want[o] {
			t.Errorf("%s: DuckDB counts %v rows, summary.json %d", o, rows, want[o])
		}
		if want[o] == 0 {
			t.Errorf("%s: summary.json counts no row: the check compares nothing", o)
		}
	}
}

// docsColumn is a row of docs/outputs.md's Parquet table: "| output |
// `column` | TYPE | …".
var docsColumn = regexp.MustCompile("^\\| (\\w+) \\| `(\\w+)` \\| ([A-Z\\[\\]]+) \\|")

// checkParquetSchema checks the columns of each Parquet output, in order,
// with their DuckDB types, against docs/outputs.md.
func checkParquetSchema(t *testing.T, dir string) {
	t.Helper()
	want := map[string][]string{}
	for _, l := range strings.Split(string(readFileT(t, "../../docs/outputs.md")), "\n") {
		if m := docsColumn.FindStringSubmatch(l); m != nil {
			want[m[1]] = append(want[m[1]], m[2]+"\t"+m[3])
		}
	}
	var sql []string
	for _, o := range output.Sharded {
		sql = append(sql, fmt.Sprintf("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('%s'))", output.Glob(dir, o)+".parquet"))
	}
	for i, got := range duckdb(t, sql...) {
		if o := output.Sharded[i]; !slices.Equal(got, want[o]) {
			t.Errorf("%s: DuckDB reads the columns\n%q\ndocs/outputs.md lists\n%q", o, got, want[o])
		}
	}
}

// checkREADMEQuestions asks the README's questions: its jq lines of the
// JSON lines in jsonl, its SQL lines of the Parquet files in pq.
func checkREADMEQuestions(t *testing.T, jsonl, pq string) {
	t.Helper()
	var jq, sql []string
	for _, l := range strings.Split(string(readFileT(t, "../../README.md")), "\n") {
		if strings.HasPrefix(l, "jq ") {
			cmd, _, _ := strings.Cut(l, "   #")
			jq = append(jq, cmd)
		}
		if strings.HasPrefix(l, "SELECT ") {
			q, _, _ := strings.Cut(l, "   --")
			sql = append(sql, q)
		}
	}
	if len(jq) != 3 || len(sql) != 3 {
		t.Fatalf("README: %d jq lines and %d SQL lines, want 3 of each (pages to delete, clusters, one host's dropped pages)", len(jq), len(sql))
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("no jq")
	}
	// The host of the most dropped pages stands for the README's.
	ds, _, err := output.ReadAll[output.Decision](output.Glob(jsonl, output.Decisions))
	if err != nil {
		t.Fatal(err)
	}
	byHost := map[string]int{}
	hostRE := regexp.MustCompile(`^[a-z]+://([^/:?#]+)`)
	top := ""
	for _, d := range ds {
		if m := hostRE.FindStringSubmatch(d.URI); !d.Keep && m != nil {
			if byHost[m[1]]++; byHost[m[1]] > byHost[top] || byHost[m[1]] == byHost[top] && m[1] < top {
				top = m[1]
			}
		}
	}
	if top == "" {
		t.Fatal("no dropped page with a host")
	}
	const readmeHost = "www.archive.org"
	for i := range sql {
		sql[i] = strings.ReplaceAll(strings.ReplaceAll(sql[i], "out/", pq), readmeHost, top)
	}
	got := duckdb(t, sql...)
	for i, cmd := range jq {
		cmd = strings.ReplaceAll(strings.ReplaceAll(cmd, "out/", jsonl), readmeHost, top)
		b, err := exec.Command("sh", "-c", cmd).Output()
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(want) == 0 || want[0] == "" {
			t.Errorf("%s: no answer: the check compares nothing", cmd)
			continue
		}
		if strings.Contains(sql[i], "ORDER BY size DESC") {
			sizes := func(rows []string) []string {
				var s []string
				for _, r := range rows {
					n, _, _ := strings.Cut(r, "\t")
					s = append(s, n)
				}
				return s
			}
			if !slices.Equal(sizes(got[i]), sizes(want)) {
				t.Errorf("%s: sizes in the order %v, jq's %v", sql[i], sizes(got[i]), sizes(want))
			}
		}
		slices.Sort(want)
		slices.Sort(got[i])
		if !slices.Equal(got[i], want) {
			t.Errorf("%s\n%d rows, jq's %d:\n%s\nwant\n%s", sql[i], len(got[i]), len(want), strings.Join(got[i], "\n"), strings.Join(want, "\n"))
		}
	}
}
