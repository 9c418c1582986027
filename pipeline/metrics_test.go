package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/config"
)

// stageNamespaces are the metric namespaces: one per stage of the job, as
// listed in docs/deploy.md ("Metrics").
var stageNamespaces = map[string]bool{"read": true, "extract": true, "shared": true, "template": true, "idf": true, "exact": true, "group": true, "match": true, "decide": true, "write": true, "summary": true}

// counters runs the job for cfg on runner and returns its counters as
// "namespace/name" -> committed value (attempted where the runner reports no
// committed values).
func counters(t *testing.T, runner string, cfg config.Config) (map[string]int64, string) {
	t.Helper()
	cfg.Output = t.TempDir()
	if err := Validate(context.Background(), &cfg); err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, cfg); err != nil {
		t.Fatal(err)
	}
	res, err := beam.Run(context.Background(), runner, p)
	if err != nil {
		t.Fatalf("%s: %v", runner, err)
	}
	out := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		v := c.Committed
		if v == 0 {
			v = c.Attempted
		}
		out[c.Namespace()+"/"+c.Name()] += v
	}
	return out, cfg.Output
}

// The job's counters, as a Dataflow or Flink UI shows them: namespace = the
// stage, name = what is counted; each equals the number in summary.json it
// mirrors, on the direct runner and through the portable metrics protocol
// (prism); every one is listed in docs/deploy.md.
func TestCountersNamedAndEqualSummary(t *testing.T) {
	// Two small real WARC files (82 records, MANIFEST.md) keep the two runs
	// cheap; the counters must equal summary.json on any input.
	cfg := testConfig([]string{filepath.Join(testdata, "dolma__sample-*.warc.gz")})
	got, dir := counters(t, "direct", cfg)
	sum := readSummary(t, dir)

	want := map[string]int64{
		"read/records":          int64(sum.Records),
		"read/files":            int64(len(sum.Files)),
		"idf/documents":         int64(sum.Documents),
		"match/pairs":           int64(sum.Pairs - sum.ExactCopies),
		"write/pairs_lines":     int64(sum.Pairs),
		"write/rejects_lines":   int64(sum.SkippedTotal()),
		"decide/kept":           int64(sum.Kept),
		"decide/dropped":        int64(sum.Dropped),
		"write/decisions_lines": int64(sum.Kept + sum.Dropped),
		"decide/residual_pages": int64(sum.DecideResidual),
	}
	if sum.DroppedExact > 0 {
		want["decide/dropped_exact"] = int64(sum.DroppedExact)
	}
	clusters := 0
	for _, n := range sum.ClusterSizes {
		clusters += n
	}
	want["write/clusters_lines"] = int64(clusters)
	if sum.ExactCopies > 0 {
		want["exact/copies"] = int64(sum.ExactCopies)
	}
	if sum.SharedTextPages > 0 {
		want["shared/shared_text_pages"] = int64(sum.SharedTextPages)
	}
	var size int64
	for _, f := range sum.Files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
	}
	want["read/bytes"] = size
	for reason, n := range sum.Skipped {
		found := false
		for _, ns := range []string{"read", "extract", "idf"} {
			if v, ok := got[ns+"/skipped-"+reason]; ok {
				if v != int64(n) {
					t.Errorf("%s/skipped-%s = %d, summary says %d", ns, reason, v, n)
				}
				found = true
			}
		}
		if !found {
			t.Errorf("no skipped-%s counter for %d skipped records", reason, n)
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("counter %s = %d, want %d (summary.json)", k, got[k], v)
		}
	}
	if got["read/records"] != got["read/candidates"]+got["read/skipped"] {
		t.Errorf("read/records %d != read/candidates %d + read/skipped %d", got["read/records"], got["read/candidates"], got["read/skipped"])
	}

	doc, err := os.ReadFile("../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	generic := regexp.MustCompile(`/(skipped|capped)-.+$`)
	var names []string
	for k := range got {
		names = append(names, k)
		ns, _, _ := strings.Cut(k, "/")
		if !stageNamespaces[ns] {
			t.Errorf("counter %s: namespace %q is not a stage", k, ns)
		}
		listed := generic.ReplaceAllString(k, "/$1-<reason>")
		if strings.HasPrefix(k, "extract/capped-") {
			listed = "extract/capped-<cap>"
		}
		if !strings.Contains(string(doc), "`"+listed+"`") {
			t.Errorf("counter %s is not listed in docs/deploy.md as `%s`", k, listed)
		}
	}
	sort.Strings(names)
	t.Logf("counters: %v", names)

	t.Run("prism", func(t *testing.T) {
		pg, _ := counters(t, "prism", cfg)
		for k, v := range want {
			if pg[k] != v {
				t.Errorf("prism: counter %s = %d, want %d", k, pg[k], v)
			}
		}
	})
}

// Pages of shared text only (dedup.ResolveBlocks) are counted once in
// summary.json and once as a counter: testdata's archive.org crawl has two,
// whose every block its other pages carry. The crawl's shared chrome is
// both blocks and short lines (menus, footers), each counted apart.
func TestSharedTextPagesCounted(t *testing.T) {
	got, dir := counters(t, "direct", testConfig([]string{filepath.Join(testdata, "aut__example.warc.gz")}))
	sum := readSummary(t, dir)
	if sum.SharedTextPages != 2 || got["shared/shared_text_pages"] != int64(sum.SharedTextPages) {
		t.Errorf("shared text pages: counter %d, summary.json %d, want 2 both", got["shared/shared_text_pages"], sum.SharedTextPages)
	}
	if got["shared/blocks_shared"] == 0 || got["shared/lines_shared"] == 0 {
		t.Errorf("shared blocks %d and short lines %d: want both counted", got["shared/blocks_shared"], got["shared/lines_shared"])
	}
}
