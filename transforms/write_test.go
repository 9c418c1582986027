package transforms

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The writers of the output contract on the small case: WritePairs,
// WriteRejects and WriteDecisions write dedup's lines, sorted, one shard
// each (gzip-compressed too); WriteSummary merges the stages' statistics
// into summary.json; Commit leaves exactly the job's files and _SUCCESS.
func TestWriteOutputs(t *testing.T) {
	p := config.DefaultParams()
	res := smallResult(t, p)
	c := newDecideCase(t, res, 2)
	rejects := []output.Reject{
		{Ref: warc.Ref{File: "f.warc.gz", Offset: 900, RecordID: "R1", URI: "http://r.example/?a=1&b=2"}, Reason: "request"},
		{Ref: warc.Ref{File: "f.warc.gz", Offset: 1000, RecordID: "R2"}, Reason: "request"},
		{Ref: warc.Ref{File: "g.warc.gz"}, Reason: dedup.ReasonEmptyFile},
	}
	want := map[string][]string{"decisions": c.lines, "clusters": c.clusters}
	for _, pr := range res.PairRecords() {
		want["pairs"] = append(want["pairs"], mustLine(t, pr))
	}
	for _, r := range rejects {
		want["rejects"] = append(want["rejects"], mustLine(t, r))
	}
	if !strings.Contains(want["rejects"][0], "a=1&b=2") {
		t.Fatalf("reject line escapes its URI: %s", want["rejects"][0])
	}
	for _, format := range []*output.Format{output.JSONLines, output.GzipJSONLines, output.Parquet} {
		dir := t.TempDir()
		pl, s := beam.NewPipelineWithRoot()
		out := &Outputs{Dir: dir, Shards: 1, RunID: output.NewRunID(), Format: format}
		st := &Stats{}
		groups := CollapseExact(s, st, beam.CreateList(s, c.batches), p)
		r, err := Decide(s, st, groups, beam.CreateList(s, c.found), beam.CreateList(s, c.unsigned), Against{}, p)
		if err != nil {
			t.Fatal(err)
		}
		WritePairs(s, out, beam.Flatten(s, FoundRecords(s, beam.CreateList(s, c.found)), ExactPairs(s, groups.Copies), TextCopyPairs(s, st, r.Decisions)))
		WriteRejects(s, st, out, beam.CreateList(s, rejects))
		WriteDecisions(s, out, r)
		st.Add(namedStat(s, output.StatRecords, beam.Create(s, len(res.Pages)+len(rejects))))
		st.Add(namedStat(s, output.StatDocuments, beam.Create(s, len(res.Docs))))
		st.Add(namedStat(s, output.StatPairs, beam.Create(s, len(c.found))))
		base := output.Summary{Parameters: p, Input: []string{"in/*.warc.gz"}, Output: dir, Shards: 1}
		WriteSummary(s, out, base, st.Collection(s), beam.Create(s, "g.warc.gz", "f.warc.gz"))
		out.Commit(s)
		ptest.RunAndValidate(t, pl)

		var names []string
		for prefix, lines := range want {
			name := format.ShardName(prefix, 0, 1)
			names = append(names, name)
			got := readShard(t, filepath.Join(dir, name), prefix)
			sorted := slices.Sorted(slices.Values(lines))
			if w := strings.Join(sorted, "\n") + "\n"; got != w {
				t.Errorf("%s:\n%s\nwant\n%s", name, got, w)
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, output.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		var sum output.Summary
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		if sum.SchemaVersion != output.SchemaVersion || sum.Records != len(res.Pages)+len(rejects) || sum.Documents != len(res.Docs) ||
			sum.Pairs != len(want["pairs"]) || sum.ExactCopies != len(c.copies) || sum.Kept != c.kept || sum.Dropped != c.dropped ||
			sum.DroppedExact != c.droppedExact || sum.Skipped["request"] != 2 || sum.Skipped[dedup.ReasonEmptyFile] != 1 ||
			len(sum.ClusterSizes) == 0 || !slices.Equal(sum.Files, []string{"f.warc.gz", "g.warc.gz"}) || sum.Output != dir || sum.Parameters.Tau != p.Tau {
			t.Errorf("summary.json: %s", b)
		}
		sized := 0
		for size, n := range sum.ClusterSizes {
			sized += size * n
		}
		if sized != c.sized {
			t.Errorf("cluster sizes %v: %d pages, want %d", sum.ClusterSizes, sized, c.sized)
		}
		names = append(names, output.SummaryFile, output.SuccessFile)
		slices.Sort(names)
		entries, _ := os.ReadDir(dir)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, names) {
			t.Errorf("output directory holds %q, want %q", got, names)
		}
	}
}

// readShard returns the rows of a shard file of the output prefix as JSON
// lines: a JSON-lines file's own text (gunzipped), each row of a Parquet
// file read back (output.Decode) and encoded as the job encodes a line.
func readShard(t *testing.T, path, prefix string) string {
	t.Helper()
	if strings.HasSuffix(path, output.Parquet.Suffix) {
		switch prefix {
		case output.Pairs:
			return rowsAsLines[output.PairRecord](t, path)
		case output.Rejects:
			return rowsAsLines[output.Reject](t, path)
		case output.Decisions:
			return rowsAsLines[output.Decision](t, path)
		case output.Clusters:
			return rowsAsLines[output.Cluster](t, path)
		}
		t.Fatalf("%s: no output %q", path, prefix)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func rowsAsLines[T output.Row](t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	_, err := output.Read(path, func(row T) error {
		l, err := output.Line(row)
		b.WriteString(l + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
