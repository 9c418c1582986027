package eval

import (
	"context"
	"fmt"
	"io"
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
		row := BoilerplateRow{Name: name, Pages: len(truth.Records), Injected: int(injected.Load()), Tau: p.Tau, Result: r}
		if progress != nil {
			fmt.Fprintf(progress, "boilerplate %-14s injected %4d/%d P=%.4f R=%.4f F1=%.4f (%d pairs, %d true; %d shared blocks dropped)\n",
				name, row.Injected, row.Pages, r.Precision, r.Recall, r.F1, r.Predicted, r.TruePositives, res.SharedBlocks)
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
