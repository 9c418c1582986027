package eval

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// RunReport summarizes one job output directory for a person: what was
// read and skipped, what was kept and dropped, and four distributions. It
// is built by streaming the output files once (memory: one entry per host,
// cluster size and reject reason), so it stays cheap on a large run.
type RunReport struct {
	Dir           string
	Tau           float64
	Records       int
	Documents     int
	Skipped       map[string]int // reject reason -> records (summary.json)
	Pairs         int
	Kept, Dropped int
	ByMethod      map[string][2]int // decision method -> kept, dropped
	ClusterSizes  map[int]int       // cluster size -> clusters
	JaccardLo     float64           // start of the first Jaccard bin (τ rounded down to 0.05)
	JaccardBins   []float64         // pairs per Jaccard bin of width 0.05 from JaccardLo
	DroppedByHost map[string]int    // host of a dropped page -> dropped pages
}

// runSummary is the part of summary.json the report reads.
type runSummary struct {
	Records    int            `json:"records"`
	Documents  int            `json:"documents"`
	Skipped    map[string]int `json:"skipped"`
	Parameters struct {
		Tau float64 `json:"tau"`
	} `json:"parameters"`
}

// LoadRunReport reads summary.json, pairs-*.jsonl, decisions-*.jsonl and
// clusters-*.jsonl of the job output directory dir.
func LoadRunReport(dir string) (*RunReport, error) {
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return nil, err
	}
	var sum runSummary
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, fmt.Errorf("summary.json: %w", err)
	}
	r := &RunReport{Dir: dir, Tau: sum.Parameters.Tau, Records: sum.Records, Documents: sum.Documents, Skipped: sum.Skipped,
		ByMethod: map[string][2]int{}, ClusterSizes: map[int]int{}, DroppedByHost: map[string]int{}}
	r.JaccardLo = max(0, float64(int(r.Tau*20))/20)
	r.JaccardBins = make([]float64, max(1, int((1-r.JaccardLo)/0.05+0.5)))
	_, err = forEachFile(filepath.Join(dir, "pairs-*.jsonl*"), func(f io.Reader) error {
		return ReadPairs(f, func(p PairRecord) error {
			r.Pairs++
			n := len(r.JaccardBins)
			r.JaccardBins[min(n-1, max(0, int((p.Jaccard-r.JaccardLo)/0.05)))]++
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	_, err = forEachFile(filepath.Join(dir, "decisions-*.jsonl*"), func(f io.Reader) error {
		return ReadDecisions(f, func(d DecisionRecord) error {
			c := r.ByMethod[d.Method]
			if d.Keep {
				r.Kept++
				c[0]++
			} else {
				r.Dropped++
				c[1]++
				r.DroppedByHost[host(d.URI)]++
			}
			r.ByMethod[d.Method] = c
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	_, err = forEachFile(filepath.Join(dir, "clusters-*.jsonl*"), func(f io.Reader) error {
		return readJSONL(f, "clusters", func(_ int, c ClusterRecord) error { r.ClusterSizes[c.Size]++; return nil })
	})
	return r, err
}

// forEachFile calls read with every file matching the glob pattern, in
// lexical order, gunzipped when its name ends in .gz (the job's
// --compression=gzip), and returns the files read. A pattern that matches
// no file is an error, so a mistyped path is never read as empty.
func forEachFile(pattern string, read func(io.Reader) error) ([]string, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no file matches %q", pattern)
	}
	sort.Strings(files)
	for _, name := range files {
		if err := readFile(name, read); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return files, nil
}

func readFile(name string, read func(io.Reader) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if !strings.HasSuffix(name, ".gz") {
		return read(f)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	if err := read(zr); err != nil {
		return err
	}
	return zr.Close()
}

// host is the host name of a target URI ("(none)" when it has none).
func host(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Hostname() != "" {
		return strings.ToLower(u.Hostname())
	}
	return "(none)"
}

// sizeBins are the cluster-size classes of the report's histogram.
var sizeBins = []struct {
	lo, hi int
	label  string
}{{2, 2, "2"}, {3, 3, "3"}, {4, 4, "4"}, {5, 9, "5–9"}, {10, 19, "10–19"}, {20, 49, "20–49"}, {50, 99, "50–99"}, {100, 999, "100–999"}, {1000, int(^uint(0) >> 1), "≥1000"}}

// Write writes report.md and its four PNG plots (clusters.png,
// jaccard.png, hosts.png, rejects.png) into dir.
func (r *RunReport) Write(dir string) error {
	var md strings.Builder
	fmt.Fprintf(&md, "# ndd-beam run report\n\nOutput directory: `%s`, τ = %v.\n\n", r.Dir, r.Tau)
	fmt.Fprintf(&md, "| | |\n|---|---:|\n| WARC records read | %d |\n| documents that reached matching | %d |\n| records skipped | %d |\n| near-duplicate pairs | %d |\n| pages kept | %d |\n| pages dropped | %d |\n| clusters (kept page with drops) | %d |\n\n",
		r.Records, r.Documents, sumValues(r.Skipped), r.Pairs, r.Kept, r.Dropped, sumValues(r.ClusterSizes))
	md.WriteString("Decisions by method (`spotsigs`: decided on the pairs; `exact-text`: too few signatures, exact copies of the text dropped; `no-text`: empty text, kept):\n\n| method | kept | dropped |\n|---|---:|---:|\n")
	for _, m := range sortedKeys(r.ByMethod) {
		fmt.Fprintf(&md, "| %s | %d | %d |\n", m, r.ByMethod[m][0], r.ByMethod[m][1])
	}

	// Cluster sizes.
	var labels []string
	var vals plotter.Values
	for _, b := range sizeBins {
		n := 0
		for s, c := range r.ClusterSizes {
			if s >= b.lo && s <= b.hi {
				n += c
			}
		}
		labels, vals = append(labels, b.label), append(vals, float64(n))
	}
	md.WriteString("\n## Cluster sizes\n\nClusters per size (kept page + its dropped pages).\n\n![cluster sizes](clusters.png)\n\n| size | clusters |\n|---|---:|\n")
	for i, l := range labels {
		fmt.Fprintf(&md, "| %s | %d |\n", l, int(vals[i]))
	}
	if err := barChart(filepath.Join(dir, "clusters.png"), "Cluster sizes", "cluster size", "clusters", labels, vals, false); err != nil {
		return err
	}

	// Jaccard of the pairs.
	md.WriteString("\n## Jaccard of the pairs\n\nWeighted Jaccard of every near-duplicate pair, in bins of 0.05 from τ.\n\n![jaccard](jaccard.png)\n")
	if err := r.jaccardPlot(filepath.Join(dir, "jaccard.png")); err != nil {
		return err
	}

	// Hosts with most dropped pages.
	hosts := sortedByCount(r.DroppedByHost)
	if len(hosts) > 15 {
		hosts = hosts[:15]
	}
	md.WriteString("\n## Hosts with most dropped pages\n\n![hosts](hosts.png)\n\n| host | dropped |\n|---|---:|\n")
	labels, vals = nil, nil
	for _, h := range hosts {
		fmt.Fprintf(&md, "| %s | %d |\n", h, r.DroppedByHost[h])
		labels, vals = append(labels, h), append(vals, float64(r.DroppedByHost[h]))
	}
	if err := barChart(filepath.Join(dir, "hosts.png"), "Hosts with most dropped pages", "", "dropped pages", labels, vals, true); err != nil {
		return err
	}

	// Reject reasons.
	md.WriteString("\n## Skipped records by reason\n\nRecords that are not pages (requests, metadata, non-HTML, errors) are neither kept nor dropped; pages with no or too few signatures are also counted here and decided by exact text.\n\n![rejects](rejects.png)\n\n| reason | records |\n|---|---:|\n")
	labels, vals = nil, nil
	for _, k := range sortedByCount(r.Skipped) {
		fmt.Fprintf(&md, "| %s | %d |\n", k, r.Skipped[k])
		labels, vals = append(labels, k), append(vals, float64(r.Skipped[k]))
	}
	if err := barChart(filepath.Join(dir, "rejects.png"), "Skipped records by reason", "", "records", labels, vals, true); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(md.String()), 0o644)
}

func (r *RunReport) jaccardPlot(path string) error {
	n := len(r.JaccardBins)
	labels := make([]string, n)
	for i := range labels {
		if i%2 == 0 || n <= 10 {
			labels[i] = fmt.Sprintf("%.2f", r.JaccardLo+0.05*float64(i))
		}
	}
	return barChart(path, "Weighted Jaccard of the pairs", "Jaccard (bin start)", "pairs", labels, r.JaccardBins, false)
}

// barChart saves a bar chart of vals (one bar per label) as a PNG;
// horizontal puts the labels on the Y axis (for long names).
func barChart(path, title, xlabel, ylabel string, labels []string, vals plotter.Values, horizontal bool) error {
	pl := plot.New()
	pl.Title.Text = title
	pl.BackgroundColor = color.White
	if len(vals) == 0 {
		labels, vals = []string{"(none)"}, plotter.Values{0}
	}
	if horizontal { // largest at the top
		labels, vals = slices.Clone(labels), slices.Clone(vals)
		slices.Reverse(labels)
		slices.Reverse(vals)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(14))
	if err != nil {
		return err
	}
	bars.Color = plotColors[0]
	bars.LineStyle.Width = 0
	bars.Horizontal = horizontal // before Add, which takes the axis ranges from it
	pl.Add(bars)
	w, h := 7*vg.Inch, 4*vg.Inch
	if horizontal {
		pl.NominalY(labels...)
		pl.Y.Min, pl.Y.Max = -0.6, float64(len(labels))-0.4
		pl.X.Min = 0
		pl.X.Label.Text = ylabel
		h = vg.Length(len(labels))*0.3*vg.Inch + 1.2*vg.Inch
	} else {
		pl.NominalX(labels...)
		pl.X.Min, pl.X.Max = -0.6, float64(len(labels))-0.4
		pl.Y.Min = 0
		pl.X.Label.Text, pl.Y.Label.Text = xlabel, ylabel
	}
	return pl.Save(w, h, path)
}

func sumValues[K comparable](m map[K]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// sortedByCount returns the keys of m by descending count, then name.
func sortedByCount(m map[string]int) []string {
	ks := sortedKeys(m)
	sort.SliceStable(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] })
	return ks
}
