package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	"golang.org/x/net/html"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/pipeline"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// jobOutput runs the job (direct runner, default parameters, three
// shards) on the real WARC files of testdata and returns its output
// directory. The decision lines name the files as ../testdata/…, which
// the report reads from this directory.
func jobOutput(t *testing.T) string {
	t.Helper()
	cfg := config.DefaultConfig()
	cfg.Input = []string{"../testdata/*.warc.gz", "../testdata/*.warc"}
	cfg.Output = filepath.Join(t.TempDir(), "out")
	cfg.Shards = 3
	cfg.Runner = "direct"
	if err := pipeline.Validate(context.Background(), &cfg); err != nil {
		t.Fatal(err)
	}
	beam.Init() // after flag parsing, as Beam wants; it installs Beam's slog handler
	// The direct runner logs its whole graph at INFO; the test wants only
	// what went wrong.
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	defer slog.SetDefault(prev)
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(context.Background(), s, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := beam.Run(context.Background(), "direct", p); err != nil {
		t.Fatal(err)
	}
	return cfg.Output
}

// buildReport writes the HTML report of dir with n samples and returns it
// with the report it was written from.
func buildReport(t *testing.T, dir string, n int) (*eval.RunReport, []byte) {
	t.Helper()
	r, err := eval.LoadRunReport(dir, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.LoadSamples(n); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return r, b.Bytes()
}

// The report of a real job output on testdata: its counts are
// summary.json's, every plot is an SVG with bars, and each sampled drop
// shows the texts of both pages (read here independently, by scanning the
// whole WARC file) with runs they share marked.
func TestRunReportOnTestdata(t *testing.T) {
	dir := jobOutput(t)
	var sum struct {
		Records, Documents, Pairs, Kept, Dropped int
		ExactCopies                              int            `json:"exact_copies"`
		Skipped                                  map[string]int `json:"skipped"`
		ClusterSizes                             map[string]int `json:"cluster_sizes"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Dropped < 10 || len(sum.Skipped) < 3 {
		t.Fatalf("testdata gives %d drops and %d reject reasons; the test wants a run with something to show", sum.Dropped, len(sum.Skipped))
	}
	rejects, clusters := 0, 0
	for _, n := range sum.Skipped {
		rejects += n
	}
	for _, n := range sum.ClusterSizes {
		clusters += n
	}

	const n = 6
	r, page := buildReport(t, dir, n)
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}

	// Counts.
	counts := map[string]string{}
	walk(doc, func(nd *html.Node) {
		if k := attr(nd, "data-count"); k != "" {
			counts[k] = textOf(nd)
		}
	})
	want := map[string]int{"records": sum.Records, "documents": sum.Documents, "pairs": sum.Pairs, "kept": sum.Kept,
		"dropped": sum.Dropped, "pages": sum.Kept + sum.Dropped, "exact-copies": sum.ExactCopies,
		"rejects": rejects, "clusters": clusters}
	for k, v := range want {
		if counts[k] != strconv.Itoa(v) {
			t.Errorf("summary row %s = %q, summary.json gives %d", k, counts[k], v)
		}
	}
	exact, _ := strconv.Atoi(counts["dropped-exact"])
	near, _ := strconv.Atoi(counts["dropped-near"])
	if exact+near != sum.Dropped || exact == 0 || near == 0 {
		t.Errorf("dropped as exact copies %d + as near-duplicates %d, want both > 0 and %d in all", exact, near, sum.Dropped)
	}
	for reason, k := range sum.Skipped {
		if !bytes.Contains(page, fmt.Appendf(nil, "<tr><td>%s</td><td class=\"n\">%d</td></tr>", reason, k)) {
			t.Errorf("rejects table lacks %s %d", reason, k)
		}
	}

	// Plots: four inline SVGs, each with at least one bar, no <img>.
	var svgs, imgs int
	walk(doc, func(nd *html.Node) {
		switch nd.Data {
		case "svg":
			svgs++
			bars := 0
			walk(nd, func(p *html.Node) {
				if p.Data == "path" && strings.Contains(attr(p, "style"), "fill:#0072B2") {
					bars++
				}
			})
			if bars == 0 {
				t.Errorf("svg %d has no bar", svgs)
			}
		case "img":
			imgs++
			if src := attr(nd, "src"); !strings.HasPrefix(src, "data:") || len(src) < 100 {
				t.Errorf("img %d: src %.60q is not an embedded image", imgs, src)
			}
		}
	})
	if svgs != 4 {
		t.Errorf("%d SVG plots, want 4 (cluster sizes, Jaccard, hosts, rejects)", svgs)
	}
	if bytes.Contains(page, []byte("http-equiv")) || bytes.Contains(page, []byte("<script")) || bytes.Contains(page, []byte(" src=\"http")) || bytes.Contains(page, []byte("href=\"http")) {
		t.Error("the report refers to something outside itself")
	}

	// Samples.
	if len(r.Samples) != n {
		t.Fatalf("%d samples, want %d", len(r.Samples), n)
	}
	var samples []*html.Node
	walk(doc, func(nd *html.Node) {
		if strings.HasPrefix(attr(nd, "id"), "sample-") {
			samples = append(samples, nd)
		}
	})
	if len(samples) != n {
		t.Fatalf("%d sample blocks in the page, want %d", len(samples), n)
	}
	for i, s := range r.Samples {
		if s.Dropped.Err != "" || s.Kept.Err != "" {
			t.Errorf("sample %d: %q / %q", i, s.Dropped.Err, s.Kept.Err)
			continue
		}
		if s.Dropped.Ref == s.Kept.Ref || s.Jaccard < r.Tau {
			t.Errorf("sample %d: dropped %v for %v at %v", i, s.Dropped.Ref, s.Kept.Ref, s.Jaccard)
		}
		var texts []string    // the two text boxes of the block, as shown
		var marks [2][]string // the marked runs of each box
		walk(samples[i], func(nd *html.Node) {
			if attr(nd, "class") == "text" {
				texts = append(texts, textOf(nd))
				walk(nd, func(m *html.Node) {
					if m.Data == "mark" {
						marks[len(texts)-1] = append(marks[len(texts)-1], textOf(m))
					}
				})
			}
		})
		if len(texts) != 2 {
			t.Fatalf("sample %d: %d text boxes", i, len(texts))
		}
		for j, ref := range []warc.Ref{s.Dropped.Ref, s.Kept.Ref} {
			want := pageText(t, ref)
			if len(want) < 200 {
				t.Errorf("sample %d page %d: only %d bytes of text", i, j, len(want))
			}
			if got := texts[j]; !strings.HasPrefix(want, got) || len(got) < min(len(want), 200) {
				t.Errorf("sample %d page %d (%s): text box holds %d bytes, not the start of the page's %d bytes of text", i, j, ref.Key(), len(got), len(want))
			}
			// Every marked word lies in a run of SharedRunWords words of
			// its mark that the other page's text has too.
			if len(marks[j]) == 0 {
				t.Errorf("sample %d page %d: nothing marked at Jaccard %v", i, j, s.Jaccard)
			}
			k := eval.SharedRunWords
			other := " " + strings.Join(wordsOf(texts[1-j]), " ") + " "
			for _, m := range marks[j] {
				ws := wordsOf(m)
				covered := make([]bool, len(ws))
				for a := 0; a+k <= len(ws); a++ {
					if strings.Contains(other, " "+strings.Join(ws[a:a+k], " ")+" ") {
						for b := a; b < a+k; b++ {
							covered[b] = true
						}
					}
				}
				if len(ws) < k || slices.Contains(covered, false) {
					t.Errorf("sample %d page %d: marked %.80q… holds words in no run of %d the other page has", i, j, m, k)
				}
			}
		}
		if s.Method == dedup.DecideExactText {
			continue // decided by identical text: no signatures to share
		}
		if s.SharedSignatures == 0 || len(s.TopShared) == 0 || !bytes.Contains(page, []byte(html.EscapeString(s.TopShared[0]))) {
			t.Errorf("sample %d (%s): %d shared signatures, listed %q", i, s.Method, s.SharedSignatures, s.TopShared)
		}
		// Both shares of the main texts, as verification reads them.
		shares := fmt.Sprintf("main text shared: <b>%.2f</b> of the dropped page's words, <b>%.2f</b> of the kept page's", s.DroppedShare, s.KeptShare)
		if s.DroppedShare <= 0 || s.DroppedShare > 1 || s.KeptShare <= 0 || s.KeptShare > 1 || !bytes.Contains(page, []byte(html.EscapeString(shares))) && !bytes.Contains(page, []byte(shares)) {
			t.Errorf("sample %d: shares %.2f / %.2f not shown as %q", i, s.DroppedShare, s.KeptShare, shares)
		}
	}
	// The samples are the drops of lowest Jaccard.
	for i := 1; i < len(r.Samples); i++ {
		if r.Samples[i].Jaccard < r.Samples[i-1].Jaccard {
			t.Errorf("sample %d at %v after %v", i, r.Samples[i].Jaccard, r.Samples[i-1].Jaccard)
		}
	}
	if !r.Committed || bytes.Contains(page, []byte(`id="not-committed"`)) || bytes.Contains(page, []byte(`id="unreadable"`)) {
		t.Errorf("a finished run's report warns: committed %v", r.Committed)
	}
	// The last Jaccard bin (exact copies) is labelled, on the plot and in its table.
	if !bytes.Contains(page, []byte(">1.00</text>")) || !bytes.Contains(page, []byte("0.95–1.00</td>")) {
		t.Error("the last Jaccard bin is not labelled 1.00")
	}

	// From another directory, the decision lines' relative WARC paths
	// (../testdata/…) are resolved against the run's working directory.
	t.Run("elsewhere", func(t *testing.T) {
		t.Chdir(t.TempDir())
		r, page := buildReport(t, dir, n)
		for i, s := range r.Samples {
			if s.Dropped.Err != "" || s.Kept.Err != "" || s.Dropped.Text == "" {
				t.Errorf("sample %d from another directory: %q / %q", i, s.Dropped.Err, s.Kept.Err)
			}
		}
		if r.Unreadable != 0 || bytes.Contains(page, []byte(`id="unreadable"`)) {
			t.Errorf("%d pages unreadable from another directory", r.Unreadable)
		}
		// A working directory that is gone: every text unreadable, said above the samples.
		r.WorkingDirectory = t.TempDir()
		if err := r.LoadSamples(n); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.WriteHTML(&b); err != nil {
			t.Fatal(err)
		}
		if r.Unreadable != 2*n || !bytes.Contains(b.Bytes(), []byte(`id="unreadable"`)) {
			t.Errorf("%d unreadable pages, want %d and a warning", r.Unreadable, 2*n)
		}
	})
	// An output without _SUCCESS is said to be unfinished.
	if err := os.Remove(filepath.Join(dir, "_SUCCESS")); err != nil {
		t.Fatal(err)
	}
	if r, page := buildReport(t, dir, 0); r.Committed || !bytes.Contains(page, []byte(`id="not-committed"`)) {
		t.Error("the report of an output without _SUCCESS does not say so")
	}
}

// pageText is the text of the page at ref, found by reading its whole WARC
// file (not by seeking, as the report does) and extracted with the job's
// default options.
func pageText(t *testing.T, ref warc.Ref) string {
	t.Helper()
	f, err := os.Open(ref.File)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var text string
	found := false
	err = warc.ReadFile(f, ref.File, warc.Options{}, func(rec warc.Record) error {
		if rec.Offset == ref.Offset && rec.InnerOffset == ref.Inner {
			if rec.RecordID != ref.RecordID {
				return fmt.Errorf("%s holds %s, not %s", ref.Key(), rec.RecordID, ref.RecordID)
			}
			b, _, err := spotsig.PayloadText(rec.Payload, rec.MIMEType(), config.DefaultParams().SpotSigOptions()...)
			text, found = string(b), true
			return err
		}
		return nil
	})
	if err != nil || !found {
		t.Fatalf("%s: found %v, %v", ref.Key(), found, err)
	}
	return text
}

// A directory that holds no job output gives no report.
func TestRunReportRefusesAnEmptyRun(t *testing.T) {
	if _, err := eval.LoadRunReport(t.TempDir(), 1); err == nil {
		t.Error("a directory without summary.json gave a report")
	}
}

// wordsOf is the lower-cased words of s as the report counts them: runs
// of letters and digits, each Han, Hiragana or Katakana character a word.
func wordsOf(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, key string) string {
	if n.Type != html.ElementNode {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}
