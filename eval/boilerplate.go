package eval

import (
	"fmt"
	"io"
	"strings"
)

// BoilerplateRow is SpotSigs' quality on a gold set with one Injection
// (the clean set: the zero Injection, named "clean").
type BoilerplateRow struct {
	Name     string
	Pages    int // labelled pages
	Injected int // pages that got the block
	Tau      float64
	Result   Result // at Tau
}

// BoilerplateTable runs the default SpotSigs method (cfg, as the job runs
// it) at τ = tau over the gold set at warcPath: once clean (clean, if
// non-nil, is that corpus already read) and once per injection, each read
// and extracted afresh. Progress lines go to progress when non-nil.
func BoilerplateTable(warcPath string, truth *Truth, clean *Corpus, cfg MethodsConfig, tau float64, injections []Injection, progress io.Writer) ([]BoilerplateRow, error) {
	m, err := SpotSigsMethod(cfg, "SpotSigs")
	if err != nil {
		return nil, err
	}
	run := func(name string, c *Corpus) BoilerplateRow {
		r := c.Evaluate(m, c.Sign(m), tau)
		row := BoilerplateRow{Name: name, Pages: len(c.Docs), Injected: c.Injected, Tau: tau, Result: r.Result}
		if progress != nil {
			fmt.Fprintf(progress, "boilerplate %-14s injected %4d/%d P=%.4f R=%.4f F1=%.4f (%d pairs, %d true)\n",
				name, row.Injected, row.Pages, r.Result.Precision, r.Result.Recall, r.Result.F1, r.Result.Predicted, r.Result.TruePositives)
		}
		return row
	}
	if clean == nil {
		if clean, err = LoadCorpus(warcPath, truth, cfg.Extractor...); err != nil {
			return nil, err
		}
	}
	rows := []BoilerplateRow{run("clean", clean)}
	for _, in := range injections {
		c, err := LoadCorpusInjected(warcPath, truth, in, cfg.Extractor...)
		if err != nil {
			return nil, err
		}
		rows = append(rows, run(in.Name, c))
	}
	return rows, nil
}

// WriteBoilerplateMarkdown writes rows as a markdown table.
func WriteBoilerplateMarkdown(w io.Writer, rows []BoilerplateRow) error {
	var b strings.Builder
	b.WriteString("| gold set | pages with the block | τ | found pairs | P | R | F1 |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d of %d | %.2f | %d | %.3f | %.3f | **%.3f** |\n", r.Name, r.Injected, r.Pages, r.Tau,
			r.Result.Predicted, r.Result.Precision, r.Result.Recall, r.Result.F1)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
