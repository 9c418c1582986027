package eval

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
)

// runReportHTML is the page WriteHTML fills: plain HTML and CSS, no script,
// nothing fetched.
//
//go:embed runreport.html.tmpl
var runReportHTML string

var runReportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": func(n, of int) string {
		if of == 0 {
			return "–"
		}
		return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(of))
	},
	"marked": markedText,
}).Parse(runReportHTML))

// row is one row of a count table.
type row struct {
	Label string
	Count int
}

// chartSection is one plot of the report with the table of its numbers.
type chartSection struct {
	ID, Title, Note string
	SVG             template.HTML // "" when there is nothing to plot
	Empty           string        // what the section says instead
	Head            [2]string     // table column heads
	Rows            []row
}

// sizeBins are the cluster-size classes of the report's histogram.
var sizeBins = []struct {
	lo, hi int
	label  string
}{{2, 2, "2"}, {3, 3, "3"}, {4, 4, "4"}, {5, 9, "5–9"}, {10, 19, "10–19"}, {20, 49, "20–49"}, {50, 99, "50–99"}, {100, 999, "100–999"}, {1000, int(^uint(0) >> 1), "≥1000"}}

// maxHosts is how many hosts the hosts plot shows, maxHostRows how many
// its table lists (a crawl of many sites has a host per drop).
const (
	maxHosts    = 15
	maxHostRows = 100
)

// WriteHTML writes the report as one self-contained HTML page: the plots
// are inline SVG, the styles inline, nothing is fetched and nothing runs.
func (r *RunReport) WriteHTML(w io.Writer) error {
	charts, err := r.charts()
	if err != nil {
		return err
	}
	type method struct {
		Method        string
		Kept, Dropped int
	}
	var methods []method
	for _, m := range sortedKeys(r.ByMethod) {
		methods = append(methods, method{m, r.ByMethod[m][0], r.ByMethod[m][1]})
	}
	return runReportTmpl.Execute(w, map[string]any{
		"R":        r,
		"Pages":    r.Kept + r.Dropped,
		"Rejects":  sumValues(r.Skipped),
		"Clusters": sumValues(r.ClusterSizes),
		"Methods":  methods,
		"Charts":   charts,
		"RunWords": SharedRunWords,
	})
}

func (r *RunReport) charts() ([]chartSection, error) {
	var out []chartSection
	add := func(s chartSection, c barChart) error {
		for _, rw := range s.Rows {
			c.Labels, c.Counts = append(c.Labels, rw.Label), append(c.Counts, rw.Count)
		}
		if sumRows(s.Rows) > 0 {
			svg, err := c.SVG()
			if err != nil {
				return err
			}
			s.SVG = svg
		}
		out = append(out, s)
		return nil
	}

	var sizes []row
	for _, b := range sizeBins {
		n := 0
		for s, c := range r.ClusterSizes {
			if s >= b.lo && s <= b.hi {
				n += c
			}
		}
		sizes = append(sizes, row{b.label, n})
	}
	for len(sizes) > 4 && sizes[len(sizes)-1].Count == 0 { // no empty classes beyond the largest cluster
		sizes = sizes[:len(sizes)-1]
	}
	err := add(chartSection{ID: "clusters", Title: "Cluster sizes", Note: "Clusters per size: a kept page and the pages dropped for it.",
		Empty: "No page was dropped, so there are no clusters.", Head: [2]string{"size", "clusters"}, Rows: sizes},
		barChart{Title: "Cluster sizes", CatLabel: "cluster size (pages)", CountLabel: "clusters"})
	if err != nil {
		return nil, err
	}

	var jac []row
	for i, n := range r.JaccardBins {
		lo := r.JaccardLo + 0.05*float64(i)
		label := fmt.Sprintf("%.2f–%.2f", lo, min(1, lo+0.05))
		if i == len(r.JaccardBins)-1 {
			label = fmt.Sprintf("%.2f–1.00", lo)
		}
		jac = append(jac, row{label, n})
	}
	c := barChart{Title: "Weighted Jaccard of the pairs", CatLabel: "Jaccard (bins of 0.05; the last ends at 1.00)", CountLabel: "pairs"}
	note := fmt.Sprintf("Weighted Jaccard of every line of pairs (exact-copy lines at 1 included), in bins of 0.05 from τ = %v; each tick names its bin's start, the last bin (exact copies) its end, 1.00.", r.Tau)
	empty := "No pairs."
	if len(r.Against) > 0 {
		note += fmt.Sprintf(" The pairs are those among this run's own pages; the %d pages dropped for pages of earlier runs (the index) are not among them.", r.DroppedForIndex)
		empty = fmt.Sprintf("No pairs among this run's own pages; %d pages were dropped for pages of earlier runs (decision lines with kept_by_segment).", r.DroppedForIndex)
	}
	err = add(chartSection{ID: "jaccard", Title: "Jaccard of the pairs", Note: note,
		Empty: empty, Head: [2]string{"Jaccard", "pairs"}, Rows: jac}, c)
	if err != nil {
		return nil, err
	}
	if s := &out[len(out)-1]; s.SVG != "" { // shorter tick labels on the plot: the bin start
		c.Labels, c.Counts = nil, nil
		for i, rw := range jac {
			c.Labels, c.Counts = append(c.Labels, strings.SplitN(rw.Label, "–", 2)[0]), append(c.Counts, rw.Count)
			last := i == len(jac)-1
			if len(jac) > 10 && (i%2 == 1 && !last || i == len(jac)-2 && i%2 == 0) {
				c.Labels[i] = ""
			}
			if last { // the bin of the exact copies, labelled by its end
				c.Labels[i] = "1.00"
			}
		}
		if s.SVG, err = c.SVG(); err != nil {
			return nil, err
		}
	}

	var hosts []row
	for _, h := range sortedByCount(r.DroppedByHost) {
		hosts = append(hosts, row{h, r.DroppedByHost[h]})
	}
	note = "Hosts of the dropped pages, most drops first."
	if len(hosts) > maxHosts {
		note += fmt.Sprintf(" The plot shows the first %d of %d hosts, the table the first %d.", maxHosts, len(hosts), min(maxHostRows, len(hosts)))
	}
	s := chartSection{ID: "hosts", Title: "Hosts with most dropped pages", Note: note, Empty: "No page was dropped.",
		Head: [2]string{"host", "dropped pages"}, Rows: hosts[:min(maxHostRows, len(hosts))]}
	c = barChart{Title: "Hosts with most dropped pages", CountLabel: "dropped pages", Horizontal: true}
	for _, rw := range hosts[:min(maxHosts, len(hosts))] {
		c.Labels, c.Counts = append(c.Labels, rw.Label), append(c.Counts, rw.Count)
	}
	if len(hosts) > 0 {
		if s.SVG, err = c.SVG(); err != nil {
			return nil, err
		}
	}
	out = append(out, s)

	var rejects []row
	for _, k := range sortedByCount(r.Skipped) {
		rejects = append(rejects, row{k, r.Skipped[k]})
	}
	err = add(chartSection{ID: "rejects", Title: "Rejects by reason",
		Note: "Records that did not reach matching (rejects, summary.json skipped). Records that are not pages (requests, metadata, non-HTML, errors) are neither kept nor dropped; " +
			"pages with no or too few signatures are counted here too and decided by their exact text. The reasons are listed in docs/robustness.md.",
		Empty: "No record was rejected.", Head: [2]string{"reason", "records"}, Rows: rejects},
		barChart{Title: "Rejects by reason", CountLabel: "records", Horizontal: true})
	return out, err
}

func sumRows(rs []row) int {
	n := 0
	for _, r := range rs {
		n += r.Count
	}
	return n
}

// markedText is text escaped for HTML with each range of shared wrapped in
// <mark>; ranges beyond the text (cut) are cut with it.
func markedText(text string, shared [][2]int) template.HTML {
	var b strings.Builder
	at := 0
	for _, s := range shared {
		lo, hi := max(s[0], at), min(s[1], len(text))
		if lo >= hi {
			continue
		}
		b.WriteString(template.HTMLEscapeString(text[at:lo]))
		b.WriteString("<mark>")
		b.WriteString(template.HTMLEscapeString(text[lo:hi]))
		b.WriteString("</mark>")
		at = hi
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}
