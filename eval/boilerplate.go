package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

// BoilerplateRow is the job's quality on a gold set with one Injection
// (the clean set: the zero Injection, named "clean").
type BoilerplateRow struct {
	Name     string
	Pages    int // labelled pages
	Injected int // pages that got the block
	Tau      float64
	Result   Result // at Tau
	// Langs is Result per language of the truth (ByLanguage), when the
	// truth labels pages with more than one language; nil otherwise.
	Langs []LangResult
	// Reported counts the documents per reported language (the job's
	// summary.json "languages": dedup.Result.Languages).
	Reported map[string]int
}

// BoilerplateTable runs the job in process (dedup.RunEdited with p, so
// exactly what the Beam job computes) over the gold set at warcPath: once
// clean and once per injection, the block inserted into the payloads of
// the pages it chooses before they are signed. Pairs are scored against
// truth (Evaluate). Progress lines go to progress when non-nil.
func BoilerplateTable(ctx context.Context, warcPath string, truth *Truth, p config.Params, injections []Injection, progress io.Writer) ([]BoilerplateRow, error) {
	run := func(in Injection) (BoilerplateRow, error) {
		var injected atomic.Int64
		edit := func(c *dedup.Candidate) {
			if out, ok := in.apply(c.RecordID, c.Payload); ok {
				c.Payload = out
				injected.Add(1)
			}
		}
		res, err := dedup.RunEdited(ctx, p, []string{warcPath}, edit)
		if err != nil {
			return BoilerplateRow{}, err
		}
		r := Evaluate(truth, res.PairRecords())
		name := in.Name
		if name == "" {
			name = "clean"
		}
		row := BoilerplateRow{Name: name, Pages: len(truth.Records), Injected: int(injected.Load()), Tau: p.Tau, Result: r,
			Reported: res.Languages}
		if ls, _ := ByLanguage(truth, r); len(ls) > 1 { // as the pairs command's language table
			row.Langs = ls
		}
		if progress != nil {
			fmt.Fprintf(progress, "boilerplate %-18s injected %4d/%d P=%.4f R=%.4f F1=%.4f (%d pairs, %d true; %d shared blocks dropped)%s\n",
				name, row.Injected, row.Pages, r.Precision, r.Recall, r.F1, r.Predicted, r.TruePositives, res.SharedBlocks, langF1s(row.Langs))
		}
		return row, nil
	}
	var rows []BoilerplateRow
	for _, in := range append([]Injection{{}}, injections...) {
		row, err := run(in)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// langF1s lists F1 per language, or "" without languages.
func langF1s(ls []LangResult) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, " %s %.3f", l.Lang, l.F1)
	}
	return b.String()
}

// worstLanguage returns the language with the lowest F1 (first in order on
// ties); ok false without languages.
func worstLanguage(ls []LangResult) (l LangResult, ok bool) {
	for i, x := range ls {
		if i == 0 || x.F1 < l.F1 {
			l, ok = x, true
		}
	}
	return l, ok
}

// WriteBoilerplateMarkdown writes rows as a markdown table: P, R and F1 of
// each row, the language with the lowest F1 when the truth has languages,
// and the documents reported in each language of the injected blocks
// (the clean row shows what the gold set itself has).
func WriteBoilerplateMarkdown(w io.Writer, rows []BoilerplateRow, blockLangs []string) error {
	var b strings.Builder
	b.WriteString("| gold set | pages with the block | τ | found pairs | P | R | F1 | lowest F1 of a language |")
	for _, l := range blockLangs {
		fmt.Fprintf(&b, " pages reported %s |", l)
	}
	b.WriteString("\n|---|---|---|---|---|---|---|---|" + strings.Repeat("---|", len(blockLangs)) + "\n")
	for _, r := range rows {
		worst := "–"
		if l, ok := worstLanguage(r.Langs); ok {
			worst = fmt.Sprintf("%s %.3f", l.Lang, l.F1)
		}
		fmt.Fprintf(&b, "| %s | %d of %d | %.2f | %d | %.3f | %.3f | **%.3f** | %s |", r.Name, r.Injected, r.Pages, r.Tau,
			r.Result.Predicted, r.Result.Precision, r.Result.Recall, r.Result.F1, worst)
		for _, l := range blockLangs {
			fmt.Fprintf(&b, " %d |", r.Reported[l])
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// InjectedLanguages returns the languages of the injections' blocks, in
// order of first appearance.
func InjectedLanguages(injections []Injection) []string {
	var out []string
	for _, in := range injections {
		if in.Lang != "" && !slices.Contains(out, in.Lang) {
			out = append(out, in.Lang)
		}
	}
	return out
}
