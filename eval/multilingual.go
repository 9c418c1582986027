package eval

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// LangResult is the quality within one language of a multilingual gold set:
// the pairs whose two pages are both labelled with the language (the truth's
// "lang"), scored as in Result. Positive pairs never cross languages, so
// every labelled pair belongs to exactly one language.
type LangResult struct {
	Lang           string
	Pages          int   // labelled pages of the language
	NoSignatures   int   // of them, pages without signatures (dropped before matching)
	Detected       int   // of them, pages whose identified language (spotsig.DetectLanguage) is the label
	TruePositives  int64 // predicted pairs within the language in one cluster
	FalsePositives int64 // predicted pairs within the language across clusters
	FalseNegatives int64
	Precision      float64
	Recall         float64
	F1             float64
}

// ByLanguage splits r by the truth's page languages. crossFP counts the
// false positives whose pages have different languages (translations
// included); they count in r but in no language's row.
func ByLanguage(t *Truth, r Result) (rows []LangResult, crossFP int64) {
	idx := map[string]int{}
	row := func(l string) *LangResult {
		i, ok := idx[l]
		if !ok {
			i = len(rows)
			idx[l] = i
			rows = append(rows, LangResult{Lang: l})
		}
		return &rows[i]
	}
	for _, rec := range t.Records {
		row(rec.Lang).Pages++
	}
	same := func(p IndexPair) (string, bool) {
		a, b := t.Records[p.I].Lang, t.Records[p.J].Lang
		return a, a == b
	}
	for _, p := range r.TP {
		if l, ok := same(p); ok {
			row(l).TruePositives++
		}
	}
	for _, p := range r.FP {
		if l, ok := same(p); ok {
			row(l).FalsePositives++
		} else {
			crossFP++
		}
	}
	for _, p := range r.FN {
		if l, ok := same(p); ok {
			row(l).FalseNegatives++
		}
	}
	for i := range rows {
		x := &rows[i]
		x.Precision, x.Recall, x.F1 = prf(x.TruePositives, x.FalsePositives, x.FalseNegatives)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Lang < rows[j].Lang })
	return rows, crossFP
}

// MultilingualReport is the docs/quality.md section for a multilingual gold
// set (goldset-ml): the default SpotSigs over the τ sweep, F1 per language at
// the default τ, and how well the page languages were identified.
type MultilingualReport struct {
	Corpus     *Corpus
	Sweep      MethodSweep
	DefaultTau float64
	AtDefault  Run
	Langs      []LangResult
	CrossFP    int64
	// Detected counts pages per identified language (spotsig.DetectLanguage
	// on the page text, as the extractor does).
	Detected map[string]int
	// Variants are other extraction settings measured on the same set
	// (best F1 over the sweep, and F1 at the default τ).
	Variants []SensitivityRow
}

// Multilingual runs the SpotSigs method of cfg over c (a corpus whose truth
// has page languages) and builds the report. variants are measured too.
func Multilingual(c *Corpus, cfg MethodsConfig, variants []Variant, taus []float64, defaultTau float64, progress io.Writer) (*MultilingualReport, error) {
	m, err := SpotSigsMethod(cfg, "SpotSigs")
	if err != nil {
		return nil, err
	}
	rep := &MultilingualReport{Corpus: c, DefaultTau: defaultTau, Detected: map[string]int{}}
	rep.Sweep = Sweep(c, []Method{m}, taus, progress)[0]
	v := c.Sign(m)
	rep.AtDefault = c.Evaluate(m, v, defaultTau)
	rep.Langs, rep.CrossFP = ByLanguage(c.Truth, rep.AtDefault.Result)
	det := make([]string, len(c.Docs))
	parallel(len(c.Docs), func(i int) {
		if c.Docs[i].Text != nil {
			det[i] = spotsig.DetectLanguage(c.Docs[i].Text)
		}
	})
	li := map[string]int{}
	for i, l := range rep.Langs {
		li[l.Lang] = i
	}
	for i, d := range c.Docs {
		rec := c.Truth.Records[d.Truth]
		rep.Detected[det[i]]++
		r := &rep.Langs[li[rec.Lang]]
		if det[i] == rec.Lang {
			r.Detected++
		}
		if len(v.Docs[i].Hashes) == 0 {
			r.NoSignatures++
		}
	}
	if len(variants) > 0 {
		if rep.Variants, err = Sensitivity(c, cfg, variants, taus, defaultTau, progress); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// WriteMarkdown writes the section (a level-2 heading and its tables).
func (rep *MultilingualReport) WriteMarkdown(w io.Writer, setName string) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	c := rep.Corpus
	r := rep.AtDefault.Result
	p("## Multilingual gold set\n\n")
	p("`%s`: %d labelled pages in %d languages, %d positive pairs; translations of one page are negatives. ",
		setName, len(c.Docs), len(rep.Langs), c.Truth.PositivePairs())
	p("SpotSigs with the job's defaults on the page text (language identified per text block, each block signed with its language's antecedents, the language in the signature hash; no shared-block rule: the job's own figures are in \"Shared boilerplate\"). ")
	best := rep.Sweep.BestRun()
	p("At the default τ = %.2f: **P %.3f, R %.3f, F1 %.3f** (%d found pairs, %d false positives of which %d join pages of different languages); best F1 over the sweep %.3f at τ = %.2f.\n\n",
		rep.DefaultTau, r.Precision, r.Recall, r.F1, r.Predicted, r.FalsePositives, rep.CrossFP, best.Result.F1, best.Tau)
	p("F1 per language: pairs whose two pages are both in the language (positive pairs never cross languages). ")
	p("\"identified\" is the share of the language's pages whose language (spotsig.DetectLanguage: the main content's) is the label; \"no sigs\" the pages left without signatures.\n\n")
	p("| language | pages | identified | no sigs | TP | FP | FN | P | R | F1 |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, l := range rep.Langs {
		p("| %s | %d | %.3f | %d | %d | %d | %d | %.3f | %.3f | **%.3f** |\n", l.Lang, l.Pages,
			float64(l.Detected)/math.Max(1, float64(l.Pages)), l.NoSignatures, l.TruePositives, l.FalsePositives, l.FalseNegatives, l.Precision, l.Recall, l.F1)
	}
	var det []string
	for l, n := range rep.Detected {
		if l == "" {
			l = "(no text)"
		}
		det = append(det, fmt.Sprintf("%s %d", l, n))
	}
	slices.Sort(det)
	p("\nPages per identified language: %s.\n\n", strings.Join(det, ", "))
	p("| τ | F1 |\n|---|---|\n")
	for i, run := range rep.Sweep.Runs {
		if i == rep.Sweep.Best {
			p("| %.2f | **%.3f** |\n", run.Tau, run.Result.F1)
		} else {
			p("| %.2f | %.3f |\n", run.Tau, run.Result.F1)
		}
	}
	p("\n")
	if len(rep.Variants) > 0 {
		p("Extraction variants on this set (best F1 over the sweep; P, R, F1 at τ = %.2f):\n\n", rep.DefaultTau)
		p("| parameter | value | best τ | best F1 | P @τ | R @τ | F1 @τ |\n|---|---|---|---|---|---|---|\n")
		for _, s := range rep.Variants {
			v := s.Value
			if s.Default {
				v = "**" + v + "**"
			}
			p("| %s | %s | %.2f | %.3f | %.3f | %.3f | **%.3f** |\n", s.Parameter, v, s.BestTau, s.Best.F1,
				s.AtDefault.Precision, s.AtDefault.Recall, s.AtDefault.F1)
		}
		p("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// MultilingualVariants are the extraction settings compared on a
// multilingual set besides the default: English data for every page (the
// extractor before per-document languages).
func MultilingualVariants() []Variant {
	return []Variant{
		{Parameter: "language", Value: "auto (identified per text block)", Default: true, SignKey: "ml-auto"},
		{Parameter: "language", Value: "en for every page (before)", SignKey: "ml-en", Apply: func(c *MethodsConfig) {
			c.Extractor = append(c.Extractor, spotsig.WithLanguage("en"))
		}},
	}
}
