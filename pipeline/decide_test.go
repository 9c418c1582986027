package pipeline

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/output"
)

// jobDecisions are a run's decisions and clusters, each as sorted JSON
// lines, for comparison between runs.
type jobDecisions struct {
	decisions, clusters []string
}

// checkDecisions reads the decisions, clusters and pairs of a job's output
// and checks the guarantees of the keep/drop rule (eval.CheckDecisions: kept_by is a
// kept page at Jaccard >= τ on a pair of the pairs output, or an exact-text
// copy; no pair joins two kept pages; clusters list exactly the drops),
// one decision line per page (every document plus every page skipped for
// no or too few signatures), and kept, dropped and cluster sizes in
// summary.json equal to the lines.
func checkDecisions(t *testing.T, dir string, cfg config.Config) jobDecisions {
	t.Helper()
	sum := readSummary(t, dir)
	var ds []output.Decision
	var cs []output.Cluster
	var out jobDecisions
	kept, dropped := 0, 0
	for _, l := range readLines(t, dir, "decisions", cfg.Shards) {
		var d output.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("decisions line %q: %v", l, err)
		}
		ds = append(ds, d)
		out.decisions = append(out.decisions, jsonLine(t, d))
		if d.Keep {
			kept++
		} else {
			dropped++
		}
	}
	hist := map[int]int{}
	for _, l := range readLines(t, dir, "clusters", cfg.Shards) {
		var c output.Cluster
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("clusters line %q: %v", l, err)
		}
		cs = append(cs, c)
		out.clusters = append(out.clusters, jsonLine(t, c))
		hist[c.Size]++
	}
	var pairs []output.PairRecord
	for _, l := range readLines(t, dir, "pairs", cfg.Shards) {
		var p output.PairRecord
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	// With --against, kept_by may name a page of another run, on no pair
	// of this output: such a run is checked against dedup.RunAgainst.
	if len(cfg.Against) == 0 {
		for _, err := range eval.CheckDecisions(ds, cs, pairs, cfg.Params) {
			t.Error(err)
		}
	}
	pages := sum.Documents + sum.Skipped[output.ReasonNoSignatures] + sum.Skipped[output.ReasonTooFewSignatures]
	if len(ds) != pages {
		t.Errorf("%d decision lines, want one per page: %d documents + %d no-signatures + %d too-few-signatures", len(ds), sum.Documents,
			sum.Skipped[output.ReasonNoSignatures], sum.Skipped[output.ReasonTooFewSignatures])
	}
	if sum.Kept != kept || sum.Dropped != dropped || sum.SchemaVersion != output.SchemaVersion {
		t.Errorf("summary kept %d dropped %d schema %d; lines: kept %d dropped %d", sum.Kept, sum.Dropped, sum.SchemaVersion, kept, dropped)
	}
	if fmt.Sprint(hist) != fmt.Sprint(sum.ClusterSizes) {
		t.Errorf("cluster sizes %v, summary %v", hist, sum.ClusterSizes)
	}
	slices.Sort(out.decisions)
	slices.Sort(out.clusters)
	return out
}

// jsonLine is v as one JSON line.
func jsonLine(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// inProcessDecisions are dedup.Run's decisions and clusters as
// checkDecisions returns a job's.
func inProcessDecisions(t *testing.T, res *dedup.Result) jobDecisions {
	var out jobDecisions
	for _, d := range res.Decisions {
		out.decisions = append(out.decisions, jsonLine(t, d))
	}
	for _, c := range res.Clusters {
		out.clusters = append(out.clusters, jsonLine(t, c))
	}
	slices.Sort(out.decisions)
	slices.Sort(out.clusters)
	return out
}

// sameDecisions compares two runs' decisions and clusters.
func sameDecisions(t *testing.T, what string, got, want jobDecisions) {
	t.Helper()
	for _, x := range []struct {
		name      string
		got, want []string
	}{{"decisions", got.decisions, want.decisions}, {"clusters", got.clusters, want.clusters}} {
		if slices.Equal(x.got, x.want) {
			continue
		}
		t.Errorf("%s: %d %s, want %d", what, len(x.got), x.name, len(x.want))
		for i := range min(len(x.got), len(x.want)) {
			if x.got[i] != x.want[i] {
				t.Errorf("first difference:\n got  %s\n want %s", x.got[i], x.want[i])
				break
			}
		}
	}
	if len(want.decisions) == 0 {
		t.Errorf("%s: no decisions", what)
	}
}

// writeWARC writes a gzipped WARC/1.1 file of HTML response records, one
// gzip member per record: pages[i] has the target URI uris[i], WARC-Date
// dates[i] (omitted when "") and the HTML body bodies[i].
func writeWARC(t *testing.T, path string, uris, dates, bodies []string) {
	t.Helper()
	var out bytes.Buffer
	for i := range uris {
		block := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + bodies[i]
		var h strings.Builder
		h.WriteString("WARC/1.1\r\nWARC-Type: response\r\n")
		fmt.Fprintf(&h, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", i)
		if dates[i] != "" {
			fmt.Fprintf(&h, "WARC-Date: %s\r\n", dates[i])
		}
		fmt.Fprintf(&h, "WARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n", uris[i], len(block))
		zw := gzip.NewWriter(&out)
		zw.Write([]byte(h.String() + block + "\r\n\r\n"))
		zw.Close()
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// article is a deterministic news-like text of n sentences built around a
// topic, rich in the default antecedents (the, a, is, was, …).
func article(topic string, n int) string {
	var b strings.Builder
	subjects := []string{"council", "committee", "minister", "company", "museum", "team", "court", "hospital"}
	verbs := []string{"approved", "rejected", "announced", "delayed", "funded", "reviewed", "opened", "closed"}
	for i := range n {
		fmt.Fprintf(&b, "The %s %s the %s plan for %s number %d, and a spokesperson said it was a %s decision that is expected to affect the region. ",
			subjects[(i+len(topic))%len(subjects)], verbs[(i*3+len(topic))%len(verbs)], topic, topic, i, []string{"difficult", "welcome", "late", "bold"}[i%4])
	}
	return b.String()
}

// 2,000 byte-identical short soft-404 pages among other pages: the soft-404
// pages have no spot signatures, so exact text decides them: one is kept
// (the earliest capture under the default keep policy, although it is
// neither first in the file nor has the shortest URI), 1,999 are dropped
// by it. The other pages are unaffected: distinct short pages are kept, and
// of two near-duplicate articles the earlier is kept.
func TestDecisionsSoft404(t *testing.T) {
	const n404, keeper = 2000, 1234
	soft404 := `<html><head><title>Not found</title></head><body><h1>Sorry, this page does not exist</h1><p>Try the search box.</p></body></html>`
	var uris, dates, bodies []string
	for i := range n404 {
		uris = append(uris, fmt.Sprintf("http://shop.example/item/%d", i))
		dates = append(dates, fmt.Sprintf("2024-05-%02dT%02d:%02d:00Z", 2+i%20, i%24, i%60))
		bodies = append(bodies, soft404)
	}
	dates[0] = ""                          // undated: never kept on time
	dates[1] = "yesterday"                 // malformed: likewise
	dates[keeper] = "2024-05-01T00:00:00Z" // the earliest
	for i := range 30 {
		uris = append(uris, fmt.Sprintf("http://other.example/p%d", i))
		dates = append(dates, "2024-04-01T00:00:00Z")
		bodies = append(bodies, fmt.Sprintf("<html><body><p>Short page number %d about item %d.</p></body></html>", i, i*7))
	}
	a := article("harbour", 40)
	uris = append(uris, "http://news.example/harbour-late", "http://news.example/harbour", "http://news.example/bridge")
	dates = append(dates, "2024-06-02T00:00:00Z", "2024-06-01T00:00:00Z", "2024-06-01T00:00:00Z")
	bodies = append(bodies, "<html><body><p>"+a+" Updated.</p></body></html>", "<html><body><p>"+a+"</p></body></html>",
		"<html><body><p>"+strings.Repeat("Engineers is inspecting a cracked pier of the old bridge while traffic was diverted through the valley towns for a week. ", 3)+
			"A report on the repairs is due in spring, the transport office was saying, and the cost is unknown.</p></body></html>")

	in := filepath.Join(t.TempDir(), "soft404.warc.gz")
	writeWARC(t, in, uris, dates, bodies)
	cfg := testConfig([]string{in})
	dir := runJob(t, "direct", cfg)
	checkDecisions(t, dir, cfg)
	byURI := map[string]output.Decision{}
	for _, l := range readLines(t, dir, "decisions", cfg.Shards) {
		var d output.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		byURI[d.URI] = d
	}
	keptURI := uris[keeper]
	kept404, dropped404 := 0, 0
	for i := range n404 {
		d := byURI[uris[i]]
		if d.Method != dedup.DecideExactText {
			t.Fatalf("soft-404 %d: method %q, want %q", i, d.Method, dedup.DecideExactText)
		}
		if d.Keep {
			kept404++
		} else if d.KeptByURI == keptURI {
			dropped404++
		}
	}
	if kept404 != 1 || dropped404 != n404-1 || !byURI[keptURI].Keep {
		t.Errorf("soft-404: %d kept, %d dropped by %s (kept: %v); want 1 and %d", kept404, dropped404, keptURI, byURI[keptURI].Keep, n404-1)
	}
	for i := range 30 {
		if d := byURI[uris[n404+i]]; !d.Keep {
			t.Errorf("distinct short page %s dropped: %+v", d.URI, d)
		}
	}
	if h, late, b := byURI["http://news.example/harbour"], byURI["http://news.example/harbour-late"], byURI["http://news.example/bridge"]; !h.Keep || late.Keep || late.KeptByURI != h.URI || !b.Keep || h.Method != cfg.Method {
		t.Errorf("articles: harbour %+v, harbour-late %+v, bridge %+v", h, late, b)
	}
	sum := readSummary(t, dir)
	if sum.Kept != 1+30+2 || sum.Dropped != n404-1+1 || sum.ClusterSizes[n404] != 1 || sum.ClusterSizes[2] != 1 {
		t.Errorf("summary kept %d dropped %d clusters %v", sum.Kept, sum.Dropped, sum.ClusterSizes)
	}
}
